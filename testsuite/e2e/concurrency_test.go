package e2e_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// Issue 5: the query commands behave under concurrent use. 50 clients run squeue, sinfo,
// `scontrol show job` and `scontrol show node` in a loop while another goroutine submits
// short jobs and cancels some, so the tables they read change under them. Every run must
// exit 0, print nothing on stderr and begin with its command's first line.

const (
	queryClients = 50
	queryRounds  = 2
	// concurrencyBound stops a hung client or controller from hanging the test; it is no
	// performance expectation.
	concurrencyBound = 3 * time.Minute
)

// query is one command a client runs and the start of its first output line.
type query struct {
	args  []string
	first []string // the output's first line begins with one of these
}

var queries = []query{
	{[]string{"squeue"}, []string{strings.TrimSuffix(header, "\n")}},
	{[]string{"sinfo"}, []string{"PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST"}},
	// The job table may be empty between churned jobs.
	{[]string{"scontrol", "show", "job"}, []string{"JobId=", "No jobs in the system"}},
	{[]string{"scontrol", "show", "node"}, []string{"NodeName=n1 "}},
}

func TestConcurrentQueriesWhileJobsChurn(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 4, CPUsPerNode: 4})
	stop := make(chan struct{})
	var failures []string
	var mu sync.Mutex
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf(format, args...))
	}

	// The churn: short jobs, and every third one a sleeping job cancelled at once.
	var churn sync.WaitGroup
	churned := 0
	churn.Add(1)
	go func() {
		defer churn.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%3 != 2 {
				if out, errOut, code := c.Run(t, "sbatch", "--wrap", "true"); code != 0 || !submitted.MatchString(out) {
					fail("churn: sbatch --wrap true = %q, %q, exit %d", out, errOut, code)
				}
			} else {
				out, errOut, code := c.Run(t, "sbatch", "--parsable", "--wrap", "sleep 60")
				id := strings.TrimSpace(out)
				if code != 0 || id == "" {
					fail("churn: sbatch --parsable = %q, %q, exit %d", out, errOut, code)
					continue
				}
				if out, errOut, code := c.Run(t, "scancel", id); code != 0 || out != "" || errOut != "" {
					fail("churn: scancel %s = %q, %q, exit %d", id, out, errOut, code)
				}
			}
			churned++
		}
	}()

	var clients sync.WaitGroup
	for n := 0; n < queryClients; n++ {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for r := 0; r < queryRounds; r++ {
				for _, q := range queries {
					out, errOut, code := c.Run(t, q.args[0], q.args[1:]...)
					first, _, _ := strings.Cut(out, "\n")
					ok := code == 0 && errOut == ""
					if ok {
						ok = false
						for _, f := range q.first {
							ok = ok || strings.HasPrefix(first, f)
						}
					}
					if !ok {
						fail("client %d: %s = exit %d, first line %q, stderr %q", n, strings.Join(q.args, " "), code, first, errOut)
					}
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { clients.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(concurrencyBound):
		close(stop)
		churn.Wait()
		t.Fatalf("%d clients had not finished after %v", queryClients, concurrencyBound)
	}
	close(stop)
	churn.Wait()

	if len(failures) > 0 {
		t.Errorf("%d of %d query runs or churn steps failed; first ones:\n%s", len(failures),
			queryClients*queryRounds*len(queries), strings.Join(failures[:min(len(failures), 10)], "\n"))
	}
	if churned == 0 {
		t.Error("the churn submitted no job while the clients ran")
	}
	t.Logf("%d clients × %d rounds × %d commands alongside %d churned jobs", queryClients, queryRounds, len(queries), churned)
}
