package node

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/loglevel"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
)

// handleDaemonStatus serves scontrol show slurmd (Slurm's REQUEST_DAEMON_STATUS): the
// detected machine, this daemon, and the running steps of the node asked for (or the first
// it hosts).
func (d *Daemon) handleDaemonStatus(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.DaemonStatusRequest)
	name := m.NodeName
	if name == "" && len(d.order) > 0 {
		name = d.order[0]
	}
	h := d.nodes[name]
	if h == nil {
		return nil, errInvalidNode(name)
	}
	tmpFS, _ := d.cfg.Get("TmpFS")
	hw := detectHardware(tmpFS) // hardware.go
	steps, _ := nodeSteps(h)
	var list []string
	for _, st := range steps {
		if st.StepID == stepd.BatchStep {
			list = append(list, strconv.FormatUint(uint64(st.JobID), 10))
		} else {
			list = append(list, fmt.Sprintf("%d.%s", st.JobID, st.StepID))
		}
	}
	rep := &wire.DaemonStatusReply{
		StepList: "NONE", CPUs: hw.cpus, Boards: hw.boards, Sockets: hw.sockets, Cores: hw.cores,
		Threads: hw.threads, RealMemory: hw.realMemory, TmpDisk: hw.tmpDisk,
		Booted: d.start.Unix(), Hostname: name, LastCtldMsg: d.lastCtldMsg.Load(), Pid: uint32(os.Getpid()),
		Debug:   uint32(loglevel.Parse(d.logLevels()[0])),
		LogFile: conf.ExpandNodePattern(d.cfg.SlurmdLogFile, name, h.node.Hostname), Version: version.Slurm,
	}
	if len(list) > 0 {
		rep.StepList = strings.Join(list, ", ")
	}
	return rep, nil
}
