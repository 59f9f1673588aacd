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
