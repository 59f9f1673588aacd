package main

import (
	"fmt"
	"strings"
)

// processMapping is the PMI_process_mapping value for a step whose node i runs the global
// ranks nodeRanks[i]: "(vector,(start,count,block),...)", where each triple says that
// count nodes from node start each take the next block consecutive ranks. Runs of ranks on
// one node are blocks; consecutive nodes with blocks of one size, taken in rank order, share
// a triple. For block and cyclic layouts this is what Slurm's mpi/pmi2 computes
// ("(vector,(0,2,2))" for two nodes of two tasks each, "(vector,(0,2,1),(0,2,1))" for the
// same tasks dealt cyclically). MPI libraries read it to find which ranks share a node.
func processMapping(nodeRanks [][]uint32) string {
	total := 0
	for _, r := range nodeRanks {
		total += len(r)
	}
	nodeOf := make([]int, total)
	for i := range nodeOf {
		nodeOf[i] = -1
	}
	for n, ranks := range nodeRanks {
		for _, r := range ranks {
			if int(r) < total {
				nodeOf[r] = n
			}
		}
	}
	type block struct{ node, size int }
	var blocks []block
	for _, n := range nodeOf {
		if len(blocks) > 0 && blocks[len(blocks)-1].node == n {
			blocks[len(blocks)-1].size++
			continue
		}
		blocks = append(blocks, block{node: n, size: 1})
	}
	var b strings.Builder
	b.WriteString("(vector")
	for i := 0; i < len(blocks); {
		j := i + 1
		for j < len(blocks) && blocks[j].size == blocks[i].size && blocks[j].node == blocks[j-1].node+1 {
			j++
		}
		fmt.Fprintf(&b, ",(%d,%d,%d)", blocks[i].node, j-i, blocks[i].size)
		i = j
	}
	b.WriteString(")")
	return b.String()
}
