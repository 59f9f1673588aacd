package cmdclient

import (
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
)

// TmpDiskPartly says whether the job's --tmp is held by some nodes of its partitions but not
// by all. Orbit's scheduler does not place by TmpDisk, so the commands refuse such a job by
// name; a --tmp every node holds changes nothing, and one no node holds is the controller's
// to refuse as Slurm does ("Temporary disk specification can not be satisfied").
func TmpDiskPartly(js *jobspec.JobSpec, cfg *conf.Config) bool {
	want := js.Site.TmpDiskMB
	if want == jobspec.NoVal64 || want == 0 {
		return false
	}
	some, all := false, true
	for _, n := range PartitionNodes(js.Partition, cfg) {
		ok := uint64(n.TmpDisk) >= want
		some, all = some || ok, all && ok
	}
	return some && !all
}
