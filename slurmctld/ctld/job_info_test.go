package ctld_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// jobInfos asks for the jobs as req says and returns them (unpacked when packed).
func (f *fixture) jobInfos(req *wire.JobInfoRequest) []wire.JobInfo {
	f.t.Helper()
	rep := new(wire.JobInfoReply)
	if err := f.call(0, wire.MsgJobInfo, req, rep); err != nil {
		f.t.Fatalf("job info: %v", err)
	}
	if req.Packed && rep.Packed == nil {
		f.t.Fatal("asked for a packed reply, got a plain one")
	}
	if err := rep.Unpack(); err != nil {
		f.t.Fatal(err)
	}
	return rep.Jobs
}

// mixedQueue submits jobs of every shape the job-info reply distinguishes: running, held,
// an array, a dependency, a begin time, other users and names.
func mixedQueue(f *fixture) {
	f.t.Helper()
	f.startNodes("n1", "n2", "n3", "n4")
	run := f.mustSubmit(script("sleep 100"))
	f.waitState(run, states.JobRunning)
	held := script("true")
	held.Hold = true
	f.mustSubmit(held)
	arr := script("true")
	arr.ArraySpec, arr.Hold = "1-5%2", true
	f.mustSubmit(arr)
	dep := script("true")
	dep.Dependency, dep.Name = fmt.Sprintf("afterok:%d", run), "dep"
	f.mustSubmit(dep)
	later := script("true")
	later.BeginTime = time.Now().Add(time.Hour).Unix()
	f.mustSubmit(later)
	other := script("true")
	other.Hold, other.Name = true, "other"
	if _, err := f.submit(1000, other); err != nil {
		f.t.Fatal(err)
	}
	done := f.mustSubmit(script("exit 0"))
	f.waitState(done, states.JobComplete)
}

// TestJobInfo_PackedMatchesPlain checks that the packed reply (cached per record) carries
// exactly what the plain reply does, on a first and a repeated query and after a change.
func TestJobInfo_PackedMatchesPlain(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 1})
	mixedQueue(f)
	for round := 0; round < 3; round++ {
		if round == 2 {
			f.kill(0, f.jobInfos(&wire.JobInfoRequest{})[1].JobID, 0) // a record changes
		}
		plain := f.jobInfos(&wire.JobInfoRequest{})
		if len(plain) < 7 {
			t.Fatalf("round %d: only %d jobs listed", round, len(plain))
		}
		for _, refs := range []bool{false, true} { // strings whole, or repeated ones as references
			packed := f.jobInfos(&wire.JobInfoRequest{Packed: true, PackedRefs: refs})
			if !reflect.DeepEqual(plain, packed) {
				for i := range plain {
					if i < len(packed) && !reflect.DeepEqual(plain[i], packed[i]) {
						t.Errorf("round %d refs %v job %d:\nplain  %+v\npacked %+v", round, refs, plain[i].JobID, plain[i], packed[i])
					}
				}
				t.Fatalf("round %d refs %v: %d plain jobs, %d packed", round, refs, len(plain), len(packed))
			}
		}
	}
}

// TestJobInfo_Filters checks each controller-side filter against the same selection made
// on the whole list.
func TestJobInfo_Filters(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 1})
	mixedQueue(f)
	all := f.jobInfos(&wire.JobInfoRequest{})
	for _, tc := range []struct {
		name string
		req  wire.JobInfoRequest
		want func(j *wire.JobInfo) bool
	}{
		{"active", wire.JobInfoRequest{ActiveOnly: true}, func(j *wire.JobInfo) bool {
			s := states.JobState(j.State)
			return !s.IsFinished() || s.IsCompleting()
		}},
		{"running", wire.JobInfoRequest{States: []uint32{uint32(states.JobRunning)}}, func(j *wire.JobInfo) bool {
			return states.JobState(j.State) == states.JobRunning
		}},
		{"user", wire.JobInfoRequest{UserIDs: []uint32{1000}}, func(j *wire.JobInfo) bool { return j.UserID == 1000 }},
		{"name", wire.JobInfoRequest{Names: []string{"dep", "other"}}, func(j *wire.JobInfo) bool {
			return j.Name == "dep" || j.Name == "other"
		}},
		{"node", wire.JobInfoRequest{NodeNames: []string{"n1", "n9"}}, func(j *wire.JobInfo) bool { return j.NodeList == "n1" }},
		{"partition", wire.JobInfoRequest{Partitions: []string{"nope"}}, func(*wire.JobInfo) bool { return false }},
		{"ids", wire.JobInfoRequest{JobIDs: []uint32{all[2].JobID}}, func(j *wire.JobInfo) bool {
			return j.JobID == all[2].JobID || j.ArrayJobID == all[2].JobID
		}},
	} {
		for _, packed := range []bool{false, true} {
			req := tc.req
			req.Packed = packed
			got := f.jobInfos(&req)
			var want []wire.JobInfo
			for i := range all {
				if tc.want(&all[i]) {
					want = append(want, all[i])
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s (packed %v): %d jobs, want %d", tc.name, packed, len(got), len(want))
				continue
			}
			for i := range got {
				if got[i].JobID != want[i].JobID {
					t.Errorf("%s (packed %v): job %d is %d, want %d", tc.name, packed, i, got[i].JobID, want[i].JobID)
				}
			}
		}
	}
}

// BenchmarkJobInfo10000 times one job-info call over a queue of 10,000 held jobs as the
// commands make it (packed) and as before (plain), decoding included, so the controller's and
// the client's costs both show.
func BenchmarkJobInfo10000(b *testing.B) {
	f := newFixture(b, ctld.TestConfig{Nodes: 4})
	addr := f.c.Addr().String()
	const n, workers = 10000, 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			cl, err := wire.Dial(ctx, "tcp", addr, wire.ClientOptions{Signer: auth.NewKeySigner(f.key, 0, 0)})
			if err != nil {
				errs <- err
				return
			}
			defer cl.Close()
			for i := w; i < n; i += workers {
				d := script("true")
				d.Hold = true
				if err := cl.Call(ctx, wire.MsgSubmitBatchJob, d, new(wire.SubmitBatchJobReply)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	for _, req := range []wire.JobInfoRequest{{Packed: true, PackedRefs: true}, {Packed: true}, {}} {
		b.Run(fmt.Sprintf("packed=%v,refs=%v", req.Packed, req.PackedRefs), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if got := len(f.jobInfos(&req)); got != n {
					b.Fatalf("%d jobs listed, want %d", got, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}
