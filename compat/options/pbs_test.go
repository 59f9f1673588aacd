package options

import (
	"errors"
	"testing"
)

// TestWrapperDirectives: #PBS and #BSUB directives become sbatch options as Slurm's
// xlate_batch_script makes them; each expectation is the reference's -v list (or error
// lines) for the same script. SBATCH_IGNORE_PBS=1 or --ignore-pbs skips them, =0 does not.
func TestWrapperDirectives(t *testing.T) {
	pbs := "#!/bin/bash\n#PBS -l nodes=3+ppn=2,mem=1024mb\n#PBS -N pbsjob -m abe -M a@b.c -l walltime=1:00:00\n#PBS -v FOO=1\nsleep 1\n"
	bsub := "#!/bin/bash\n#BSUB -n 2,4\n#BSUB -J bsubjob -W 10 -M 100 -cwd /tmp -x\nsleep 1\n"
	for _, c := range []struct {
		name, script string
		env          []string
		argv         []string
		want         string // the -v list, or the error's stderr
	}{
		{"pbs", pbs, nil, nil, "sbatch: defined options\nsbatch: -------------------- --------------------\n" +
			"sbatch: export              : FOO=1\nsbatch: job-name            : pbsjob\n" +
			"sbatch: mail-type           : BEGIN,END,FAIL\nsbatch: mail-user           : a@b.c\n" +
			"sbatch: mem                 : 1G\nsbatch: nodes               : 3\nsbatch: ntasks              : 6\n" +
			"sbatch: time                : 01:00:00\nsbatch: verbose             : 1\n" +
			"sbatch: -------------------- --------------------\nsbatch: end of defined options\n"},
		{"pbs kept with SBATCH_IGNORE_PBS=0", pbs, []string{"SBATCH_IGNORE_PBS=0"}, nil, "sbatch: defined options\nsbatch: -------------------- --------------------\n" +
			"sbatch: export              : FOO=1\nsbatch: job-name            : pbsjob\n" +
			"sbatch: mail-type           : BEGIN,END,FAIL\nsbatch: mail-user           : a@b.c\n" +
			"sbatch: mem                 : 1G\nsbatch: nodes               : 3\nsbatch: ntasks              : 6\n" +
			"sbatch: time                : 01:00:00\nsbatch: verbose             : 1\n" +
			"sbatch: -------------------- --------------------\nsbatch: end of defined options\n"},
		{"pbs ignored", pbs, []string{"SBATCH_IGNORE_PBS=1"}, nil, "sbatch: defined options\nsbatch: -------------------- --------------------\n" +
			"sbatch: ignore-pbs          : set\nsbatch: verbose             : 1\nsbatch: -------------------- --------------------\nsbatch: end of defined options\n"},
		{"pbs ignored by option", pbs, nil, []string{"--ignore-pbs"}, "sbatch: defined options\nsbatch: -------------------- --------------------\n" +
			"sbatch: ignore-pbs          : set\nsbatch: verbose             : 1\nsbatch: -------------------- --------------------\nsbatch: end of defined options\n"},
		{"bsub", bsub, nil, nil, "sbatch: defined options\nsbatch: -------------------- --------------------\n" +
			"sbatch: chdir               : /tmp\nsbatch: exclusive           : exclusive\nsbatch: job-name            : bsubjob\n" +
			"sbatch: mem-per-cpu         : 1\nsbatch: ntasks              : 4\nsbatch: time                : 00:10:00\n" +
			"sbatch: verbose             : 1\nsbatch: -------------------- --------------------\nsbatch: end of defined options\n"},
		{"unknown option", "#!/bin/bash\n#PBS -x\ntrue\n", nil, nil, "sbatch: invalid option -- 'x'\nsbatch: error: Unrecognized command line parameter ?\n"},
		{"no option", "#!/bin/bash\n#PBS foo\ntrue\n", nil, nil, "sbatch: error: Invalid argument: foo\n"},
		{"bad -n", "#!/bin/bash\n#BSUB -n 2,\ntrue\n", nil, nil, "sbatch: error: #BSUB -n format not correct given: '2,'\n"},
		{"missing value", "#!/bin/bash\n#PBS -l\ntrue\n", nil, nil, "sbatch: option requires an argument -- 'l'\nsbatch: error: Unrecognized command line parameter ?\n"},
	} {
		argv := append(append([]string{"sbatch", "-v"}, c.argv...), "s.sh")
		js, err := ParseSbatch(argv, c.env, []byte(c.script), now)
		var e *Error
		switch {
		case errors.As(err, &e):
			if e.Stderr != c.want || e.ExitCode != 1 {
				t.Errorf("%s: exit %d\n%s\nwant\n%s", c.name, e.ExitCode, e.Stderr, c.want)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		default:
			if got := DefinedOptions(js); got != c.want {
				t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
			}
		}
	}
}
