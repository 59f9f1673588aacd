package conf

import (
	"strings"
	"testing"
)

// TestClientWarnings: the problems Slurm's user commands print as they read slurm.conf are
// marked for them, in the order of their lines; the daemon-only ones (MessageTimeout too
// high) are not.
func TestClientWarnings(t *testing.T) {
	text := propagateBase + "TreeWidth=0\nMessageTimeout=101\nControlMachine=old\nDefMemPerCPU=10\nDefMemPerNode=100\n"
	cfg, err := Parse("slurm.conf", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var client, other []string
	for _, w := range cfg.Warnings {
		if w.Client {
			client = append(client, w.Msg)
		} else {
			other = append(other, w.Msg)
		}
	}
	want := "TreeWidth=0 is invalid|Ignoring ControlMachine since SlurmctldHost is set.|DefMemPerCPU ignored, since it's mutually exclusive with DefMemPerNode"
	if got := strings.Join(client, "|"); got != want {
		t.Errorf("client warnings %q, want %q", got, want)
	}
	if got := strings.Join(other, "|"); !strings.Contains(got, "MessageTimeout is too high") || strings.Contains(got, "TreeWidth") {
		t.Errorf("daemon-only warnings %q", got)
	}
}

// TestCommandVerdicts: what Slurm's commands make of node and partition lines, each compared
// with the reference on loopback: their NodeName warnings print, a partition's SuspendTime
// is read as strtoul reads it, a node state only slurmctld checks does not stop them, and
// FrontendName stops them with Slurm's fatal line.
func TestCommandVerdicts(t *testing.T) {
	for _, c := range []struct {
		extra, client, errs string
	}{
		{"NodeName=c8 CPUs=8 MemSpecLimit=1024\n", "NodeNames=c8 MemSpecLimit=1024 is invalid, reset to 0", ""},
		{"PartitionName=q Nodes=n1 AllowAccounts=a DenyAccounts=b\n", "Both AllowAccounts and DenyAccounts are defined, DenyAccounts will be ignored", ""},
		{"PartitionName=q Nodes=n1 SuspendTime=NONE\n", "", ""},
		{"PartitionName=q Nodes=n1 SuspendTime=99999999999\n", "", `Bad value "99999999999" for SuspendTime`},
		{"NodeName=c10 CPUs=8 State=BOGUS\n", "", ""},
		{"FrontendName=fe1\n", "", "fatal: Use of FrontendName in slurm.conf without Slurm being configured/built with the --enable-front-end option"},
	} {
		cfg, err := Parse("slurm.conf", []byte(propagateBase+c.extra))
		var client []string
		for _, w := range cfg.Warnings {
			if w.Client {
				client = append(client, w.Msg)
			}
		}
		if got := strings.Join(client, "|"); got != c.client {
			t.Errorf("%q: command warnings %q, want %q", c.extra, got, c.client)
		}
		var got []string
		if es, ok := CommandErrors(err).(Errors); ok {
			for _, e := range es {
				if e.Fatal {
					got = append(got, "fatal: "+e.CommandText())
				} else {
					got = append(got, e.CommandText())
				}
			}
		}
		if strings.Join(got, "|") != c.errs {
			t.Errorf("%q: command errors %q, want %q", c.extra, got, c.errs)
		}
	}
}
