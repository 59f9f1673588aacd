package ctld

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// GPUs asked for per job or per task (--gpus, --gpus-per-task), and CPUs and memory per GPU
// (--cpus-per-gpu, --mem-per-gpu). Slurm keeps them as the job's tres_per_job, tres_per_task,
// cpus_per_tres and mem_per_tres and lets its select plugin spread the GPUs over the nodes
// it picks. Orbit's selection counts GRES per node, so the request becomes GPUs per node
// where the job's shape fixes that count: one node, --ntasks-per-node, or --gpus divided
// evenly over a fixed node count. The rest is refused with an explanation rather than run
// with other counts than Slurm would give.

// gpuRequests adds the GPUs per node the job's --gpus or --gpus-per-task make to j.Gres and
// sets its CPUs per task (--cpus-per-gpu with --gpus-per-task) or per node (with --gpus).
// Its memory per node (--mem-per-gpu) is gpuMemPerNode's, which the memory defaults apply.
func (t *tables) gpuRequests(d *wire.JobDesc, j *jobRecord, p *partEntry) error {
	if d.TresPerJob == "" && d.TresPerTask == "" {
		return nil
	}
	refuse := func(why string) error {
		e := slurmErr(errnoInvalidGres)
		e.UserMsg = why + " is not supported by Orbit yet"
		return e
	}
	perJob, jobOK := gpuCount(d.TresPerJob)
	perTask, taskOK := gpuCount(d.TresPerTask)
	switch {
	case d.TresPerJob != "" && !jobOK, d.TresPerTask != "" && !taskOK:
		return slurmErr(errnoInvalidGres)
	case d.TresPerJob != "" && d.TresPerTask != "":
		return refuse("--gpus with --gpus-per-task")
	}
	for _, r := range j.Gres {
		if r.Name == "gpu" {
			return refuse("--gpus or --gpus-per-task with --gres=gpu or --gpus-per-node")
		}
	}
	oneNode := j.MinNodes == 1 && (j.MaxNodes == 0 || j.MaxNodes == 1)
	fixedNodes := oneNode || j.MaxNodes == j.MinNodes
	var req jobspec.GresReq
	switch {
	case d.TresPerJob != "":
		if !fixedNodes || perJob.Count%uint64(j.MinNodes) != 0 {
			return refuse("--gpus not divided evenly over a fixed node count")
		}
		req = jobspec.GresReq{Name: "gpu", Type: perJob.Type, Count: perJob.Count / uint64(j.MinNodes)}
	case j.TasksPerNod > 0:
		req = jobspec.GresReq{Name: "gpu", Type: perTask.Type, Count: perTask.Count * uint64(j.TasksPerNod)}
	case oneNode:
		req = jobspec.GresReq{Name: "gpu", Type: perTask.Type, Count: perTask.Count * uint64(j.NumTasks)}
	default:
		return refuse("--gpus-per-task over several nodes without --ntasks-per-node")
	}
	j.Gres = append(j.Gres, req)
	var fit uint32
	for _, name := range p.nodes {
		if t.nodes[name].gresEver(j) {
			fit++
		}
	}
	if fit < j.MinNodes {
		return slurmErr(errnoNodeConfigUnavail)
	}
	if c, ok := tresNumber(d.CpusPerTres); ok && c > 0 {
		if d.TresPerTask != "" {
			if d.CPUsPerTask == wire.NoVal || d.CPUsPerTask == 0 {
				// Slurm's cpus_per_task = GPUs per task times CPUs per GPU. (A pending job's
				// NumCPUs in Slurm still counts one CPU per task until it starts; Orbit's
				// counts these from the start.)
				j.CPUsPerTask = uint32(c * perTask.Count)
				j.editDesc(func(d *wire.JobDesc) { d.CPUsPerTask = j.CPUsPerTask })
			}
		} else {
			need := uint32(c * req.Count)
			j.editDesc(func(d *wire.JobDesc) {
				if d.MinCPUs == wire.NoVal || d.MinCPUs < need {
					d.MinCPUs = need // --cpus-per-gpu: CPUs for each GPU on the node
				}
			})
		}
	}
	return nil
}

// gpuMemPerNode is the memory per node --mem-per-gpu asks for: MiB per GPU times the GPUs
// the job has on each node (0 for none).
func (j *jobRecord) gpuMemPerNode() uint64 {
	m, ok := tresNumber(j.descStr(descMemPerTres))
	if !ok {
		return 0
	}
	for _, r := range j.Gres {
		if r.Name == "gpu" {
			return m * r.Count
		}
	}
	return 0
}

// descMemPerTres is the --mem-per-gpu field, read on its own.
var descMemPerTres = descField("MemPerTres")

// gpuCount parses a "gres:gpu[:type]:N" TRES count.
func gpuCount(tres string) (jobspec.GresReq, bool) {
	rest, ok := strings.CutPrefix(tres, "gres:")
	if !ok {
		return jobspec.GresReq{}, false
	}
	reqs, err := jobspec.ParseGres(rest)
	if err != nil || len(reqs) != 1 || reqs[0].Name != "gpu" || reqs[0].Count == 0 {
		return jobspec.GresReq{}, false
	}
	return reqs[0], true
}

// tresNumber is the number ending a "gres:gpu:N" TRES value (CPUs or MiB per GPU).
func tresNumber(tres string) (uint64, bool) {
	if tres == "" {
		return 0, false
	}
	i := strings.LastIndexByte(tres, ':')
	n, err := strconv.ParseUint(tres[i+1:], 10, 64)
	return n, err == nil
}
