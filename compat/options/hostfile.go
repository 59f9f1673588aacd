package options

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/strerror"
)

// readWhole is slurm_read_hostfile's n = NO_VAL: every name of the file.
const readWhole = -1

// readHostfile is Slurm's slurm_read_hostfile(path, n): the node names of a host file in
// file order, duplicates kept, or the error lines Slurm prints (without the command's
// prefix). Each line holds comma-separated names or hostlist expressions, NAME*K standing for
// K copies; '#' starts a comment unless escaped as "\#"; a line must start with a letter or
// digit. Reading stops after a line that brings the count to exactly n (a line that
// overshoots it does not stop it); fewer than n names is an error.
func readHostfile(path string, n int) ([]string, []string) {
	b, err := readLimited(path)
	if errors.Is(err, syscall.EISDIR) {
		b, err = nil, nil // a directory opens, and reads as nothing
	}
	if err != nil {
		return nil, []string{"slurm_allocate_resources error opening file " + path + ", " + strerror.Text(err)}
	}
	var names []string
	lines := strings.SplitAfter(string(b), "\n")
	for num, line := range lines {
		line = strings.TrimSuffix(line, "\n")
		if i := strings.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		line = hostfileUncomment(line)
		if line == "" {
			continue
		}
		if c := line[0]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return nil, []string{"Invalid hostfile " + path + " contents on line " + strconv.Itoa(num+1)}
		}
		for _, tok := range strings.Split(line, ",") {
			if tok == "" {
				continue // strtok skips empty fields
			}
			copies := 1
			if name, k, ok := strings.Cut(tok, "*"); ok {
				if c, _, _ := strtol(k); c != 0 { // atoi: K*0 or K*x is a name as written
					tok, copies = name, int(c)
				}
			}
			hosts, err := hostlist.Expand(tok)
			if err != nil {
				hosts = []string{tok} // the controller answers for a name it does not know
			}
			if int64(len(names))+int64(copies)*int64(len(hosts)) > hostlist.MaxExpand {
				// n1*4000000000 must not be built: far more tasks than any step has.
				return nil, []string{"Hostlist is too long for the allocate RPC!"}
			}
			for range copies {
				names = append(names, hosts...)
			}
		}
		if n != readWhole && len(names) == n {
			break
		}
	}
	switch {
	case len(names) == 0:
		return nil, []string{"Hostlist is empty!"}
	case len(names) < n:
		return nil, []string{"Too few NodeNames in Slurm Hostfile"}
	}
	return names, nil
}

// maxHostfile bounds what a host file may hold: a node per task of the largest step is far
// less, and /dev/zero named by mistake must not be read forever.
const maxHostfile = 64 << 20

// readLimited reads up to maxHostfile bytes of path.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxHostfile))
}

// hostfileUncomment cuts line at its first '#', except that "\#" stands for '#'.
func hostfileUncomment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] != '#' {
			continue
		}
		if i > 0 && line[i-1] == '\\' {
			line = line[:i-1] + line[i:]
			i--
			continue
		}
		return line[:i]
	}
	return line
}

// hostfileCount is how many names a node list file must give (Slurm's _valid_node_list):
// with an arbitrary distribution, the task count, else the node count (maximum, or
// minimum), when given; otherwise the whole file.
func (a *applier) hostfileCount() int {
	js := a.js
	if nodeDistName(js.Site.Distribution) != "arbitrary" {
		return readWhole
	}
	switch {
	case js.NTasks != jobspec.NoVal:
		return int(js.NTasks)
	case js.NodesSet && js.MaxNodes != 0:
		return int(js.MaxNodes)
	case js.NodesSet && js.MinNodes != 0 && js.MinNodes != jobspec.NoVal:
		return int(js.MinNodes)
	}
	return readWhole
}

// resolveHostfiles reads the node lists that name files, as Slurm's commands do once every
// option is in: --exclude and --nodelist holding a '/' are files, and without --nodelist
// (or --nodefile) SLURM_HOSTFILE is one and makes the distribution arbitrary. With an
// arbitrary distribution the names, in order and with their repeats, are where the tasks
// go (JobSpec.TaskNodes); --nodelist keeps each node once. A file that cannot be read
// stops the command (exit 1, SLURM_EXIT_ERROR).
func (a *applier) resolveHostfiles() error {
	js := a.js
	name := cmdName(a.cmd)
	tasksDropped := false // srun's -n or -N from the environment, dropped for an arbitrary layout
	if a.cmd == Srun && nodeDistName(js.Site.Distribution) == "arbitrary" {
		// srun's -n and -N from the environment (an allocation's SLURM_NTASKS, SLURM_NNODES)
		// give way to the list: it lays the tasks out itself.
		if !js.NTasksByCLI && js.NTasks != jobspec.NoVal {
			js.NTasks, tasksDropped = jobspec.NoVal, true
		}
		if !js.NodesByCLI && js.NodesSet {
			js.NodesSet, tasksDropped = false, true // the node count stood for the tasks' too
		}
	}
	fail := func(lines []string, more ...string) error {
		var b strings.Builder
		for _, l := range append(lines, more...) {
			b.WriteString(name + ": error: " + l + "\n")
		}
		return &Error{Stderr: b.String(), ExitCode: 1}
	}
	if strings.Contains(js.Exclude, "/") {
		names, errs := readHostfile(js.Exclude, a.hostfileCount())
		if errs != nil {
			return fail(errs)
		}
		js.Exclude = hostlist.Compress(names)
	}
	if err := a.resolveNodeFile(); err != nil { // nodefile.go
		return err
	}
	fromEnv := false
	if js.NodeList == "" {
		if hf, ok := lookupEnv(js.Env, "SLURM_HOSTFILE"); ok && hf != "" {
			if !strings.Contains(hf, "/") {
				hf = "./" + hf
			}
			js.NodeList, fromEnv = hf, true
			js.Site.Distribution = "arbitrary" + distFlags(js.Site.Distribution)
			js.Site.PlaneSize = jobspec.NoVal
		}
	}
	var tasks []string
	if strings.Contains(js.NodeList, "/") {
		names, errs := readHostfile(js.NodeList, a.hostfileCount())
		if errs != nil {
			if fromEnv {
				return fail(errs, "Failure getting NodeNames from hostfile")
			}
			return fail(errs)
		}
		tasks, js.NodeList = names, hostlist.Uniq(names) // the job asks for each node once
	}
	if nodeDistName(js.Site.Distribution) != "arbitrary" {
		return nil
	}
	if js.NodeList == "" {
		if tasksDropped && js.NTasks == jobspec.NoVal {
			// Without a list nothing gives the count back (Slurm's _opt_verify; a batch
			// job's SLURM_ARBITRARY_NODELIST is only read after it).
			return fail([]string{"invalid number of tasks (-n 0)"})
		}
		return nil
	}
	if tasks == nil {
		var err error
		if tasks, err = hostlist.Expand(js.NodeList); err != nil {
			return nil // the controller refuses the list
		}
		js.NodeList = hostlist.Uniq(tasks)
	}
	js.TaskNodes = tasks
	n, _ := hostlist.Count(js.NodeList)
	switch {
	case js.NTasks != jobspec.NoVal:
	case a.cmd == Srun:
		js.NTasks = uint32(len(tasks)) // each name of the list is one task
	default:
		js.NTasks = uint32(n) // sbatch and salloc count the list once each node is unique
	}
	if !js.NodesSet {
		js.MinNodes, js.MaxNodes, js.NodesSet = uint32(n), uint32(n), true
	}
	return nil
}

// checkNodeListCount is what the commands make of a --nodelist naming more nodes than
// --nodes allows: sbatch and salloc raise the minimum to the list's nodes, which their
// check then finds above the maximum ("invalid number of nodes (-N 3-2)"); srun, outside
// an arbitrary layout, keeps the list's first nodes, saying so (Slurm prints it as an error
// and goes on).
func (a *applier) checkNodeListCount() {
	js := a.js
	if js.NodeList == "" || !js.NodesSet || js.MaxNodes == 0 || nodeDistName(js.Site.Distribution) == "arbitrary" && a.cmd == Srun {
		return
	}
	if a.cmd != Srun {
		n, err := hostlist.Count(hostlist.Uniq(mustExpandList(js.NodeList)))
		if err == nil && uint32(n) > js.MaxNodes && (js.MinNodes == jobspec.NoVal || uint32(n) > js.MinNodes) {
			js.MinNodes = uint32(n)
		}
		return
	}
	names := mustExpandList(js.NodeList) // in order, repeats kept, as srun's hostlist holds them
	if uint32(len(names)) <= js.MaxNodes {
		return
	}
	js.Warnings = append(js.Warnings, fmt.Sprintf("srun: error: Required nodelist includes more nodes than permitted by max-node count (%d > %d). Eliminating nodes from the nodelist.\n", len(names), js.MaxNodes))
	js.NodeList = hostlist.Compress(names[:js.MaxNodes])
}

// mustExpandList is a node list's names, none when it does not parse (the controller
// refuses it).
func mustExpandList(expr string) []string {
	names, _ := hostlist.Expand(expr)
	return names
}

// nodeDistName is the node-level method of a --distribution value ("block", "cyclic",
// "plane", "arbitrary"; "" when none was given).
func nodeDistName(d string) string {
	d, _, _ = strings.Cut(d, ":")
	d, _, _ = strings.Cut(d, ",")
	d, _, _ = strings.Cut(d, "=")
	return d
}

// distFlags is the ",pack"/",nopack" flag of a --distribution value ("" for none), which
// SLURM_HOSTFILE's arbitrary distribution keeps.
func distFlags(d string) string {
	if i := strings.IndexByte(d, ','); i >= 0 {
		return d[i:]
	}
	return ""
}

// lookupEnv finds NAME in a "NAME=value" list.
func lookupEnv(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}
