package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

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
	var libs []string
	sendLibs := s.sendLibs()
	if sendLibs {
		// As Slurm's bcast_file: the libraries are found before the program is sent, and
		// if they cannot be, the program goes alone (without its library directory).
		var ok bool
		if libs, ok = sharedLibraries(ctx, path); !ok {
			fmt.Fprintf(s.stderr, "srun: error: Cannot autodetect libraries for '%s' with ldd command; still sending the file but ignoring send_libs\n", path)
			sendLibs = false
		}
	}
	send := func(m wire.FileBcast) bool {
		var wg sync.WaitGroup
		errs := make([]error, len(step.Nodes))
		for i, node := range step.Nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m := m
				m.Cred, m.NodeName, m.JobID, m.StepID = step.Cred, node, step.JobID, step.StepID
				m.UserID, m.GroupID, m.Dest = uint32(os.Getuid()), uint32(os.Getgid()), dest
				errs[i] = wire.Call(ctx, "tcp", step.Addrs[i], wire.MsgFileBcast, &m, nil, copts)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				fmt.Fprintf(s.stderr, "srun: error: REQUEST_FILE_BCAST(%s): %s\n", step.Nodes[i], cmdclient.AsError(err).Text)
				return false
			}
		}
		return true
	}
	if !send(wire.FileBcast{Mode: uint32(info.Mode().Perm()), Mtime: info.ModTime().Unix(), Data: data, SendLibs: sendLibs}) {
		return fail()
	}
	if sendLibs {
		for _, lib := range excludeLibraries(libs, s.bcastExclude(), s.stderr) {
			li, err := os.Stat(lib)
			var b []byte
			if err == nil {
				b, err = os.ReadFile(lib)
			}
			if err != nil {
				fmt.Fprintf(s.stderr, "srun: error: Can't open `%s`: %s\n", lib, strerror.Text(err))
				fmt.Fprintf(s.stderr, "srun: error: Broadcast of '%s' failed\n", lib)
				return fail()
			}
			if !send(wire.FileBcast{Mode: uint32(li.Mode().Perm()), Mtime: li.ModTime().Unix(), Data: b, Library: filepath.Base(lib)}) {
				fmt.Fprintf(s.stderr, "srun: error: Broadcast of '%s' failed\n", lib)
				return fail()
			}
		}
		s.bcastLibs = true
	}
	o.argv = append([]string{dest}, o.argv[1:]...)
	return 0
}

// sendLibs says whether srun --bcast sends the program's libraries: --send-libs, else
// BcastParameters' send_libs.
func (s *session) sendLibs() bool {
	if s.opts.spec.SendLibsSet {
		return s.opts.spec.SendLibs
	}
	v, _ := s.c.Conf.Get("BcastParameters")
	for _, p := range strings.Split(v, ",") {
		if strings.EqualFold(strings.TrimSpace(p), "send_libs") {
			return true
		}
	}
	return false
}

// bcastExclude is --bcast-exclude, else slurm.conf's BcastExclude (its default included).
func (s *session) bcastExclude() string {
	if s.opts.spec.BcastExcludeSet {
		return s.opts.spec.BcastExclude
	}
	v, _ := s.c.Conf.Get("BcastExclude")
	return cmp.Or(v, "/lib,/usr/lib,/lib64,/usr/lib64")
}

// sharedLibraries is what `ldd program` lists, direct and indirect, as Slurm's
// _get_lib_paths reads it: of each line, the path from its first '/' to the space after it.
// It says false when ldd cannot tell (not a dynamic program, no ldd, over 5 seconds).
func sharedLibraries(ctx context.Context, program string) ([]string, bool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ldd", program).Output()
	if err != nil {
		return nil, false
	}
	var libs []string
	for _, line := range strings.Split(string(out), "\n") {
		i := strings.IndexByte(line, '/')
		if i < 0 {
			continue
		}
		if j := strings.IndexByte(line[i:], ' '); j > 0 {
			libs = append(libs, line[i:i+j])
		}
	}
	return libs, true
}

// excludeLibraries drops the libraries under the excluded directories (a comma list of
// absolute paths, or "none"), as Slurm's _foreach_shared_object; a relative one is ignored
// with Slurm's line.
func excludeLibraries(libs []string, exclude string, stderr io.Writer) []string {
	var dirs []string
	if !strings.EqualFold(exclude, "none") {
		for _, d := range strings.Split(exclude, ",") {
			if d == "" {
				continue
			}
			if !strings.HasPrefix(d, "/") {
				fmt.Fprintf(stderr, "srun: error: Ignoring non-absolute excluded path: '%s'\n", d)
				continue
			}
			dirs = append(dirs, d)
		}
	}
	var out []string
	for _, lib := range libs {
		if !slices.ContainsFunc(dirs, func(d string) bool { return subpath(lib, d) }) {
			out = append(out, lib)
		}
	}
	return out
}

// subpath says whether path lies under dir (Slurm's subpath: dir itself, or dir followed by
// a '/' in path).
func subpath(path, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return path == dir || strings.HasPrefix(path, dir+"/")
}
