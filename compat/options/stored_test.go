package options

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// TestStoredOptionsParsed: each stored option reaches JobSpec.Stored from the command line
// of every command that takes it, and from #SBATCH lines and SBATCH_* variables.
func TestStoredOptionsParsed(t *testing.T) {
	argv := []string{"--gpu-bind=verbose,map_gpu:0,1", "--gpu-freq=medium,memory=high", "--ntasks-per-socket=3",
		"--network=sw1", "--mcs-label=lab", "--bb=spec", "--power=LEVEL", "--cluster-constraint=cf",
		"--prefer=fast", "--container=/c", "--contiguous", "--reboot"}
	want := jobspec.StoredOptions{GPUBind: "verbose,map_gpu:0,1", GPUFreq: "medium,memory=high", NTasksPerSocket: 3,
		Network: "sw1", MCSLabel: "lab", BurstBuffer: "spec", PowerFlags: jobspec.PowerLevel, ClusterFeatures: "cf",
		Prefer: "fast", Container: "/c", Contiguous: true, Reboot: true}
	js, err := ParseSbatch(append(append([]string{"sbatch"}, argv...), "s.sh"), nil, []byte(okScript), now)
	if err != nil || js.Stored != want {
		t.Errorf("sbatch: %v\n got %+v\nwant %+v", err, js.Stored, want)
	}
	js, err = ParseSrun(append(append([]string{"srun"}, argv...), "true"), nil, "/tmp", now)
	if err != nil || js.Stored != want {
		t.Errorf("srun: %v\n got %+v\nwant %+v", err, js.Stored, want)
	}
	script := "#!/bin/sh\n#SBATCH --network=fromdirective\n#SBATCH --ntasks-per-socket=2\ntrue\n"
	js, err = ParseSbatch([]string{"sbatch", "s.sh"}, []string{"SBATCH_GPU_BIND=none"}, []byte(script), now)
	if err != nil || js.Stored.Network != "fromdirective" || js.Stored.NTasksPerSocket != 2 || js.Stored.GPUBind != "none" {
		t.Errorf("#SBATCH and SBATCH_GPU_BIND: %v, %+v", err, js.Stored)
	}
	js, err = ParseSbatch([]string{"sbatch", "-O", "s.sh"}, nil, []byte(okScript), now)
	if err != nil || !js.Overcommit {
		t.Errorf("-O: %v, overcommit %v", err, js.Overcommit)
	}
	js, err = ParseSrun([]string{"srun", "true"}, []string{"SLURM_OVERCOMMIT=1"}, "/tmp", now)
	if err != nil || !js.Overcommit {
		t.Errorf("srun with SLURM_OVERCOMMIT=1 (a -O job's): %v, overcommit %v", err, js.Overcommit)
	}
	js, err = ParseSbatch([]string{"sbatch", "s.sh"}, nil, []byte(okScript), now)
	if err != nil || js.Stored != jobspec.NewStoredOptions() || js.Overcommit {
		t.Errorf("no stored option given: %v, %+v", err, js.Stored)
	}
}

// TestStoredOptionsBadValues: Slurm 22.05's texts and exit codes for values its setters
// refuse, and the warning --power's unknown words get (sbatch reads its command line twice,
// so prints it twice).
func TestStoredOptionsBadValues(t *testing.T) {
	for _, c := range []struct {
		opt, stderr string
		code        int
	}{
		{"--gpu-bind=bogus", "sbatch: error: Invalid --gpu-bind argument: gpu:bogus\n", 255},
		{"--gpu-bind=map_gpu:0,x", "sbatch: error: Failed to validate x, offending character is x\nsbatch: error: Invalid --gpu-bind argument: gpu:map_gpu:0,x\n", 255},
		{"--gpu-bind=mask_gpu:0xg", "sbatch: error: Failed to validate g, offending character is g\nsbatch: error: Invalid --gpu-bind argument: gpu:mask_gpu:0xg\n", 255},
		{"--gpu-bind=single:-1", "sbatch: error: Invalid --gpu-bind argument: gpu:single:-1\n", 255},
		{"--gpu-freq=bogus", "sbatch: error: Invalid --gpu-freq argument: gpu:bogus\n", 255},
		{"--gpu-bind=", "sbatch: error: Invalid --gpu-bind argument: gpu:\n", 255},
		{"--gpu-freq=", "sbatch: error: Invalid --gpu-freq argument: gpu:\n", 255},
		{"--gpu-bind=none;nic:x", "sbatch: error: Invalid --gpu-bind argument: gpu:none;nic:x\n", 255},
		{"--gpu-freq=memory=fast", "sbatch: error: Invalid --gpu-freq argument: gpu:memory=fast\n", 255},
		{"--ntasks-per-socket=0", "sbatch: error: Invalid numeric value \"0\" for --ntasks-per-socket.\n", 1},
		{"--ntasks-per-socket=x", "sbatch: error: Invalid numeric value \"x\" for --ntasks-per-socket.\n", 1},
	} {
		_, err := ParseSbatch([]string{"sbatch", c.opt, "s.sh"}, nil, []byte(okScript), now)
		e, ok := err.(*Error)
		if !ok || e.Stderr != c.stderr || e.ExitCode != c.code {
			t.Errorf("sbatch %s: %#v; want exit %d, %q", c.opt, err, c.code, c.stderr)
		}
	}
	for _, v := range []string{"closest", "c", "none", "n", "verbose,closest", "map_gpu:0,1", "map_gpu:0*2,1", "mask_gpu:0x3,0xc",
		"single:2", "per_task:1", "closest;gpu:none", "map_gpu:", "single:abc"} {
		if ok, _ := ValidGPUBind(v); !ok {
			t.Errorf("ValidGPUBind(%q) = false, Slurm accepts it", v)
		}
	}
	for _, v := range []string{"high", "low,memory=medium", "1000", "verbose", "highm1,verbose", "high;gpu:low"} {
		if !ValidGPUFreq(v) {
			t.Errorf("ValidGPUFreq(%q) = false, Slurm accepts it", v)
		}
	}
	js, err := ParseSbatch([]string{"sbatch", "--power=foo,level", "s.sh"}, nil, []byte(okScript), now)
	warn := "sbatch: error: Ignoring unrecognized power option (foo)\n"
	if err != nil || js.Stored.PowerFlags != jobspec.PowerLevel || strings.Join(js.Warnings, "") != warn+warn {
		t.Errorf("--power=foo,level: %v, flags %d, warnings %q", err, js.Stored.PowerFlags, js.Warnings)
	}
}

// TestBurstBufferFile: --bbf with --bb is refused (sbatch and srun name --burst-buffer,
// salloc --bb); an unreadable file is Slurm's "Invalid --bbf specification"; sbatch splices
// the file into the script after the interpreter line, srun and salloc send it as --bb.
func TestBurstBufferFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "bb")
	if err := os.WriteFile(f, []byte("#BB create_persistent name=x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseSbatch([]string{"sbatch", "--bb=a", "--bbf=" + f, "s.sh"}, nil, []byte(okScript), now)
	if e, ok := err.(*Error); !ok || e.Stderr != "sbatch: error: Cannot specify both --burst-buffer and --bbf\n" || e.ExitCode != 1 {
		t.Errorf("sbatch --bb --bbf: %#v", err)
	}
	_, _, err = ParseSallocOptions([]string{"salloc", "--bb=a", "--bbf=" + f}, nil, "/tmp", now)
	if e, ok := err.(*Error); !ok || e.Stderr != "salloc: error: Cannot specify both --bb and --bbf\n" {
		t.Errorf("salloc --bb --bbf: %#v", err)
	}
	_, err = ParseSbatch([]string{"sbatch", "--bbf=/nonexistent/bb", "s.sh"}, nil, []byte(okScript), now)
	if e, ok := err.(*Error); !ok || e.Stderr != "sbatch: error: Invalid --bbf specification\n" || e.ExitCode != 1 {
		t.Errorf("sbatch --bbf missing: %#v", err)
	}
	js, err := ParseSbatch([]string{"sbatch", "--bbf=" + f, "s.sh"}, nil, []byte("#!/bin/sh\necho hi\n"), now)
	if err != nil || string(js.Script) != "#!/bin/sh\n#BB create_persistent name=x\necho hi\n" || js.Stored.BurstBuffer != "" {
		t.Errorf("sbatch --bbf: %v, script %q, bb %q", err, js.Script, js.Stored.BurstBuffer)
	}
	js, err = ParseSrun([]string{"srun", "--bbf=" + f, "true"}, nil, "/tmp", now)
	if err != nil || js.Stored.BurstBuffer != "#BB create_persistent name=x" {
		t.Errorf("srun --bbf: %v, bb %q", err, js.Stored.BurstBuffer)
	}
	for _, c := range []struct{ script, text, want string }{
		{"#!/bin/sh\ntrue\n", "x", "#!/bin/sh\nx\ntrue\n"},
		{"true\n", "x\n", "x\ntrue\n"},
		{"#!/bin/sh", "x", "#!/bin/sh\nx\n"},
		{"", "x", "x"},
		{"#!/bin/sh\n", "", "#!/bin/sh\n"},
	} {
		if got := string(AddToScript([]byte(c.script), []byte(c.text))); got != c.want {
			t.Errorf("AddToScript(%q, %q) = %q, want %q", c.script, c.text, got, c.want)
		}
	}
}
