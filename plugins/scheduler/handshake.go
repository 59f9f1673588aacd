package scheduler

import (
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

// MaxMessage bounds one Sync, Delta or Plan on the wire. gRPC's default (4 MiB) is a State
// of about 12,000 jobs; a 100,000-job queue on 20,000 nodes is some 40 MiB, so the limit
// is set far above it on both sides.
const MaxMessage = 1 << 30

// GRPCServer is the plugin side's gRPC server with MaxMessage for both directions.
func GRPCServer(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts, grpc.MaxRecvMsgSize(MaxMessage), grpc.MaxSendMsgSize(MaxMessage))...)
}

// GRPCDialOptions are the controller side's call options with MaxMessage.
var GRPCDialOptions = []grpc.DialOption{grpc.WithDefaultCallOptions(
	grpc.MaxCallRecvMsgSize(MaxMessage), grpc.MaxCallSendMsgSize(MaxMessage))}

// PluginName is the name a scheduler is dispensed under in the go-plugin plugin set.
const PluginName = "scheduler"

// Handshake is the go-plugin handshake slurmctld and a scheduler plugin share. A plugin
// executable started by hand (without the cookie) says it is a plugin and exits, and a
// plugin built for another protocol version is refused at start instead of misreading
// messages. Bump ProtocolVersion when State, Delta or Plan change incompatibly.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  1,
	MagicCookieKey:   "ORBIT_SCHEDULER_PLUGIN",
	MagicCookieValue: "5c1b7f0e-orbit-sched-v1",
}

// pluginSet is the set both sides register: one scheduler, over gRPC only.
func pluginSet(impl Scheduler) plugin.PluginSet {
	return plugin.PluginSet{PluginName: &GRPCPlugin{Impl: impl}}
}
