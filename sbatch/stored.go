package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"golang.org/x/sys/unix"
)

// storedLayoutEnv is what sbatch adds to the job's environment for the stored options
// whatever --export says (set_envs and set_env_from_opts): tasks per socket, GPU binding and
// frequency as given, and the GPUs, CPUs and memory per GPU asked for.
func storedLayoutEnv(js *jobspec.JobSpec) []string {
	s := &js.Stored
	var env []string
	if s.NTasksPerSocket != jobspec.NoVal {
		env = append(env, "SLURM_NTASKS_PER_SOCKET="+strconv.FormatUint(uint64(s.NTasksPerSocket), 10))
	}
	if s.GPUBind != "" {
		env = append(env, "SLURM_GPU_BIND="+s.GPUBind)
	}
	if s.GPUFreq != "" {
		env = append(env, "SLURM_GPU_FREQ="+s.GPUFreq)
	}
	if js.Overcommit {
		env = append(env, "SLURM_OVERCOMMIT=1") // env_array_for_batch_job
	}
	for _, kv := range cmdclient.GPURequestEnv(js) {
		env = append(env, kv[0]+"="+kv[1])
	}
	return env
}

// readExportFile reads --export-file's environment as Slurm's env_array_from_file does: from
// the descriptor when the value is the number of an open one from 3 up, else from the file
// named. Definitions are NAME=value separated by NUL bytes (a value may hold newlines); the
// list ends at the first empty one, entries without "=" are skipped, and DISPLAY,
// ENVIRONMENT and HOSTNAME are dropped as Slurm drops them.
func readExportFile(name string) ([]string, error) {
	var data []byte
	var err error
	if fd, aerr := strconv.Atoi(name); aerr == nil && fd >= 3 && validFD(fd) {
		f := os.NewFile(uintptr(fd), name)
		data, err = io.ReadAll(f)
		f.Close() // Slurm closes the descriptor once read

	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, fmt.Errorf("Could not open user environment file %s", name)
	}
	env := []string{}
	for _, entry := range strings.Split(string(data), "\x00") {
		if entry == "" {
			break
		}
		k, _, ok := strings.Cut(entry, "=")
		if !ok || k == "" {
			continue
		}
		switch k {
		case "DISPLAY", "ENVIRONMENT", "HOSTNAME":
			continue
		}
		env = append(env, entry)
	}
	return env, nil
}

func validFD(fd int) bool {
	_, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	return err == nil
}
