package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/orbit-hpc/orbit/compat/strerror"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// fileBcast is srun --bcast, as Slurm's _file_bcast: the program (argv[0], found on PATH
// when it has no slash before the allocation: one that cannot be executed stops srun) is
// copied to every node of the step, and the step runs the copy.
// The copy goes where --bcast names when that is an absolute path; otherwise into
// BcastParameters' DestDir, else the step's working directory wd, as
// slurm_bcast_<job>.<step>_<node> (slurmd names it; argv[0] then ends in "/", which each
// node's slurmstepd completes the same way). It returns srun's exit code on a failure, 0
// when the step may be launched.
func (s *session) fileBcast(ctx context.Context, step *wire.StepCreateReply, wd string) int {
	o := s.opts
	if len(o.argv) == 0 {
		fmt.Fprintf(s.stderr, "srun: fatal: No command name to broadcast\n")
		return 1
	}
	src, path := o.argv[0], cmp.Or(o.bcastSrc, o.argv[0]) // found before the allocation (main.go)
	fail := func() int {
		fmt.Fprintf(s.stderr, "srun: fatal: Failed to broadcast '%s'. Step launch aborted.\n", src)
		return 1
	}
	info, err := os.Stat(path)
	if err != nil {
		fmt.Fprintf(s.stderr, "srun: error: Can't open `%s`: %s\n", src, strerror.Text(err))
		return fail()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(s.stderr, "srun: error: Can't open `%s`: %s\n", src, strerror.Text(err))
		return fail()
	}
	dest := o.spec.Bcast
	if !strings.HasPrefix(dest, "/") {
		dir := wd
		if v, ok := s.c.Conf.Get("BcastParameters"); ok {
			for _, p := range strings.Split(v, ",") {
				if d, ok := strings.CutPrefix(strings.TrimSpace(p), "DestDir="); ok {
					dir = d
				}
			}
		}
		dest = filepath.Clean(dir) + "/"
	}
	copts := wire.ClientOptions{MessageTimeout: s.c.MessageTimeout, Signer: s.c.Signer()}
	var wg sync.WaitGroup
	errs := make([]error, len(step.Nodes))
	for i, node := range step.Nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := &wire.FileBcast{Cred: step.Cred, NodeName: node, JobID: step.JobID, StepID: step.StepID,
				UserID: uint32(os.Getuid()), GroupID: uint32(os.Getgid()), Dest: dest, Mode: uint32(info.Mode().Perm()),
				Mtime: info.ModTime().Unix(), Data: data}
			errs[i] = wire.Call(ctx, "tcp", step.Addrs[i], wire.MsgFileBcast, m, nil, copts)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			fmt.Fprintf(s.stderr, "srun: error: REQUEST_FILE_BCAST(%s): %s\n", step.Nodes[i], cmdclient.AsError(err).Text)
			return fail()
		}
	}
	o.argv = append([]string{dest}, o.argv[1:]...)
	return 0
}
