package ctld_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// ResvProlog runs once when a reservation's window opens and ResvEpilog once when it
// closes, each with the reservation's name as its argument and an empty environment; a
// recurring reservation runs both again for its next window.
func TestResv_PrologEpilog(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "runs")
	write := func(name, tag string) string {
		p := filepath.Join(dir, name)
		// The count of environment variables leaves out those the shell sets itself.
		body := "#!/bin/sh\necho \"" + tag + " $# $1 $(/usr/bin/env | grep -cv -e '^PWD=' -e '^SHLVL=' -e '^_=')\" >> " + log + "\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pro, epi := write("prolog", "prolog"), write("epilog", "epilog")
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Now: clk.now, Extra: "ResvProlog=" + pro + "\nResvEpilog=" + epi + "\n"})
	now := clk.now().Unix()
	for _, r := range []struct {
		name, node string
		flags      uint64
	}{{"once", "n1", 0}, {"daily", "n2", wire.ResvDaily}} {
		d := resvDesc(r.name)
		d.StartTime, d.Duration, d.NodeList, d.Users = now+60, 10, r.node, "root"
		if r.flags != 0 {
			d.Flags = r.flags
		}
		if _, err := f.createResv(d); err != nil {
			t.Fatal(err)
		}
	}
	// runs is every line the scripts wrote, sorted: they run in the background.
	runs := func() string {
		b, _ := os.ReadFile(log)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(lines)
		return strings.Join(lines, ";")
	}
	waitRuns := func(want string) {
		t.Helper()
		f.waitFor("scripts "+want, func() bool { return runs() == want })
	}
	time.Sleep(1500 * time.Millisecond) // a tick before the windows: nothing runs
	if got := runs(); got != "" {
		t.Fatalf("scripts ran before any window: %v", got)
	}
	clk.advance(61 * time.Second)
	waitRuns("prolog 1 daily 0;prolog 1 once 0")
	clk.advance(10 * time.Minute)
	waitRuns("epilog 1 daily 0;epilog 1 once 0;prolog 1 daily 0;prolog 1 once 0")
	clk.advance(24*time.Hour - 5*time.Minute) // inside the daily one's next window
	waitRuns("epilog 1 daily 0;epilog 1 once 0;prolog 1 daily 0;prolog 1 daily 0;prolog 1 once 0")
}
