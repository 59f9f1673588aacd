package scheduler

import (
	"reflect"
	"testing"
)

func TestMsgpackCodec_RoundTrip(t *testing.T) {
	in := &syncRequest{State: State{
		Seq: 3, Now: 1700000000,
		Config: Config{SchedulerType: "sched/backfill", SchedulerParameters: "bf_window=60"},
		Nodes:  []Node{{Name: "n1", CPUs: 4, RealMemory: 1000, Features: []string{"a"}, Weight: 1, Usable: true}},
		Partitions: []Partition{{Name: "debug", Nodes: []string{"n1"}, Up: true,
			MaxTime: Infinite, MaxNodes: Infinite}},
		Jobs: []Job{{ID: 7, Name: "j", State: JobRunning, Priority: 9, TimeLimit: Infinite,
			MinNodes: 1, NumTasks: 2, CPUsPerTask: 1, Nodes: []string{"n1"}, CPUs: []uint32{2}}},
	}}
	var c msgpackCodec
	b, err := c.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := new(syncRequest)
	if err := c.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip changed the state:\n in %+v\nout %+v", in, out)
	}
	p := &scheduleReply{Plan: Plan{Seq: 3, Starts: []Start{{JobID: 7, Nodes: []string{"n1"}, CPUs: []uint32{2}, Backfilled: true}},
		Reasons: []PendingReason{{JobID: 8, Reason: 1}}}}
	if b, err = c.Marshal(p); err != nil {
		t.Fatal(err)
	}
	q := new(scheduleReply)
	if err := c.Unmarshal(b, q); err != nil || !reflect.DeepEqual(p, q) {
		t.Fatalf("plan round trip: %v\n in %+v\nout %+v", err, p, q)
	}
}

func TestMsgpackCodec_BadInputIsAnError(t *testing.T) {
	var c msgpackCodec
	for _, b := range [][]byte{{0xc1}, {0xdf, 0xff, 0xff, 0xff, 0xff}, {0x81, 0xa5, 's', 't', 'a', 't', 'e', 0x01}} {
		if err := c.Unmarshal(b, new(syncRequest)); err == nil {
			t.Errorf("Unmarshal(%x) accepted garbage", b)
		}
	}
}

// FuzzMsgpackCodec_Unmarshal: whatever bytes arrive, decoding the three calls' messages ends
// with a value or an error, never a panic or a huge allocation.
func FuzzMsgpackCodec_Unmarshal(f *testing.F) {
	var c msgpackCodec
	for _, v := range []any{
		&syncRequest{State: State{Seq: 1, Nodes: []Node{{Name: "n1", CPUs: 2}}, Jobs: []Job{{ID: 1, ReqNodes: []string{"n1"}}}}},
		&updateRequest{Delta: Delta{Seq: 2, JobsGone: []uint32{1, 2}}},
		&scheduleRequest{Now: 5},
		&scheduleReply{Plan: Plan{Starts: []Start{{JobID: 1, Nodes: []string{"n1"}, CPUs: []uint32{1}}}}},
	} {
		b, err := c.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0xdd, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = c.Unmarshal(b, new(syncRequest))
		_ = c.Unmarshal(b, new(updateRequest))
		_ = c.Unmarshal(b, new(scheduleRequest))
		_ = c.Unmarshal(b, new(scheduleReply))
	})
}
