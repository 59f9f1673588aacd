package scheduler

import plugin "github.com/hashicorp/go-plugin"

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
