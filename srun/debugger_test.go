package main

import "testing"

// TestExecutableOf: srun --debugger-test's proctable names each task's program: the command,
// or with --multi-prog the one the configuration gives the rank, as Slurm's test1.54 expects
// ("1-2 hostname" / "0,3 date": date, hostname, hostname, date).
func TestExecutableOf(t *testing.T) {
	plain := executableOf("/bin/prog", false, "")
	if got := plain(3); got != "/bin/prog" {
		t.Errorf("plain command: %q", got)
	}
	multi := executableOf("conf.txt", true, "# multi-program configuration file\n1-2   hostname\n0,3   date -u\n")
	for rank, want := range []string{"date", "hostname", "hostname", "date", "(null)"} {
		if got := multi(uint32(rank)); got != want {
			t.Errorf("--multi-prog rank %d: %q, want %q", rank, got, want)
		}
	}
}
