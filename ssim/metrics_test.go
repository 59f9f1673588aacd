package main

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestCompute_HandTrace checks every figure on three jobs on a 2-node cluster:
//
//	A: submit 0,  start 0,   end 100, 2 nodes: wait 0,  run 100, bsld max(100/100, 1) = 1
//	B: submit 10, start 100, end 105, 1 node:  wait 90, run 5,   bsld (90+5)/max(5,10) = 9.5
//	C: submit 20, start 100, end 120, 1 node:  wait 80, run 20,  bsld (80+20)/20 = 5
//
// mean wait (0+90+80)/3 = 56.67; mean bsld (1+9.5+5)/3 = 5.1667; makespan: first submit 0
// to last end 120 = 120; node-seconds 2·100 + 5 + 20 = 225 of 2·120 = 240 offered: 0.9375.
func TestCompute_HandTrace(t *testing.T) {
	a, b, c := &SimJob{Job: Job{ID: "A", Submit: 0}}, &SimJob{Job: Job{ID: "B", Submit: 10}}, &SimJob{Job: Job{ID: "C", Submit: 20}}
	m := Compute([]Record{{a, 0, 100, 2}, {b, 100, 105, 1}, {c, 100, 120, 1}}, 2)
	if m.Jobs != 3 || m.Makespan != 120 || !near(m.MeanWait, 170.0/3) || !near(m.MeanBoundedSlowdown, 15.5/3) || !near(m.Utilization, 0.9375) {
		t.Errorf("got %+v", m)
	}
}

// TestCompute_WindowFromFirstSubmit: one job submitted at 50 that waits until 150 and runs
// 50 s on 1 of 4 nodes. The window is submit 50 to end 200 = 150 s, so utilization is
// 50 node-seconds of 4·150 = 600: 1/12; bsld (100+50)/50 = 3.
func TestCompute_WindowFromFirstSubmit(t *testing.T) {
	j := &SimJob{Job: Job{ID: "1", Submit: 50}}
	m := Compute([]Record{{j, 150, 200, 1}}, 4)
	if m.Makespan != 150 || !near(m.Utilization, 1.0/12) || !near(m.MeanBoundedSlowdown, 3) || m.MeanWait != 100 {
		t.Errorf("got %+v", m)
	}
}

// TestBoundedSlowdown_Tau: short jobs count as τ = 10 s long, and slowdown is never below 1.
func TestBoundedSlowdown_Tau(t *testing.T) {
	for _, c := range []struct {
		wait, run int64
		want      float64
	}{
		{0, 0, 1},    // (0+0)/10 = 0, bounded to 1
		{60, 1, 6.1}, // (60+1)/10
		{60, 10, 7},  // (60+10)/10
		{0, 3600, 1}, // no wait
		{3600, 3600, 2},
	} {
		if got := BoundedSlowdown(c.wait, c.run); !near(got, c.want) {
			t.Errorf("BoundedSlowdown(%d, %d) = %v, want %v", c.wait, c.run, got, c.want)
		}
	}
}

func TestCompute_Empty(t *testing.T) {
	if m := Compute(nil, 10); m.Jobs != 0 || m.Utilization != 0 {
		t.Errorf("got %+v", m)
	}
}
