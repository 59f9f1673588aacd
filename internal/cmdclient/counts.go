package cmdclient

import (
	"fmt"
	"strconv"
	"strings"
)

// RepeatCounts is Slurm's compressed count list (uint32_compressed_to_str): "2(x3),1" for
// 2,2,2,1, as SLURM_JOB_CPUS_PER_NODE and SLURM_TASKS_PER_NODE print counts per node.
func RepeatCounts(v []uint32) string {
	var parts []string
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, fmt.Sprintf("%d(x%d)", v[i], j-i))
		} else {
			parts = append(parts, strconv.FormatUint(uint64(v[i]), 10))
		}
		i = j
	}
	return strings.Join(parts, ",")
}
