package options

import (
	"errors"
	"strings"
	"testing"
)

// FuzzVerifyCPUBind: any --cpu-bind value gets a binding or an error with srun's text, never
// a panic; a binding's variables are consistent with it.
func FuzzVerifyCPUBind(f *testing.F) {
	for _, s := range []string{"cores", "verbose,map_cpu:0,1*3", "mask_cpu:0x3,f", "help", "map_cpu", "v,none,rank_ldom", ",", "map_cpu:1*0", "threads,map_ldom:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		for _, plugin := range []string{"task/none", "task/affinity"} {
			b, notes, err := VerifyCPUBind(arg, plugin)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.ExitCode != 1 || e.Stdout == "" && !strings.HasSuffix(e.Stderr, "\n") {
					t.Fatalf("%q: bad error %#v", arg, err)
				}
				continue
			}
			if plugin == "task/affinity" && len(notes) != 0 {
				t.Fatalf("%q: notes %q under a binding task plugin", arg, notes)
			}
			bind, _, typ, verbose := b.Env()
			if !strings.HasPrefix(bind, verbose) || typ != "" && !strings.Contains(bind, typ) {
				t.Fatalf("%q: SLURM_CPU_BIND %q with type %q and verbose %q", arg, bind, typ, verbose)
			}
		}
	})
}
