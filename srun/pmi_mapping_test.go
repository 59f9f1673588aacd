package main

import "testing"

func TestProcessMapping(t *testing.T) {
	for _, c := range []struct {
		ranks [][]uint32
		want  string
	}{
		{[][]uint32{{0}}, "(vector,(0,1,1))"},
		{[][]uint32{{0, 1}, {2, 3}}, "(vector,(0,2,2))"},
		{[][]uint32{{0, 1}, {2, 3}, {4}}, "(vector,(0,2,2),(2,1,1))"},
		{[][]uint32{{0}, {1, 2}}, "(vector,(0,1,1),(1,1,2))"},
		{[][]uint32{{0, 2}, {1, 3}}, "(vector,(0,2,1),(0,2,1))"},
		{[][]uint32{{0, 1, 4}, {2, 3, 5}}, "(vector,(0,2,2),(0,2,1))"},
	} {
		if got := processMapping(c.ranks); got != c.want {
			t.Errorf("processMapping(%v) = %q, want %q", c.ranks, got, c.want)
		}
	}
}
