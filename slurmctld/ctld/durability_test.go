package ctld_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// childEnv makes the test binary run a controller for the slurm.conf it names, until killed.
const childEnv = "ORBIT_CTLD_TEST_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(runChild(path))
	}
	os.Exit(m.Run())
}

func runChild(path string) int {
	cfg, err := conf.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	key, err := auth.LoadKey(auth.KeyPath(path))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var l net.Listener
	for i := 0; ; i++ { // the killed predecessor's port may linger for a moment
		if l, err = net.Listen("tcp", ctld.ListenAddr(cfg)); err == nil || i == 100 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c, err := ctld.New(ctld.Options{Config: cfg, Key: key, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c.Serve(l)
	return 0
}

// TestDurability_Kill9 submits jobs from many clients while a controller process is killed
// with SIGKILL at random moments and restarted; every job id that was acknowledged must exist
// afterwards exactly once.
func TestDurability_Kill9(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // the child controllers listen here, one after another
	path, err := ctld.WriteTestConfig(t.TempDir(), port, ctld.TestConfig{Nodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	key, err := auth.LoadKey(auth.KeyPath(path))
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	opts := wire.ClientOptions{Signer: auth.NewKeySigner(key, 0, 0), MessageTimeout: 5 * time.Second}

	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	const target, kills, clients = 600, 4, 8
	var (
		mu    sync.Mutex
		acked = map[uint32]int{}
		stop  = make(chan struct{})
		wg    sync.WaitGroup
	)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				rep := new(wire.SubmitBatchJobReply)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				err := wire.Call(ctx, "tcp", addr, wire.MsgSubmitBatchJob, script("true"), rep, opts)
				cancel()
				if err != nil {
					time.Sleep(10 * time.Millisecond) // controller down or killed mid-call: no id was printed
					continue
				}
				mu.Lock()
				acked[rep.JobID]++
				mu.Unlock()
			}
		}()
	}
	cmd := start()
	for k := 0; ; k++ {
		time.Sleep(time.Duration(100+rand.IntN(400)) * time.Millisecond)
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if k >= kills && n >= target {
			break
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		cmd = start()
	}
	close(stop)
	wg.Wait()
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGKILL); cmd.Wait() })

	rep := new(wire.JobInfoReply)
	var ierr error
	for range 100 { // the last child may still be starting
		rep = new(wire.JobInfoReply)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ierr = wire.Call(ctx, "tcp", addr, wire.MsgJobInfo, &wire.JobInfoRequest{}, rep, opts)
		cancel()
		if ierr == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if ierr != nil {
		t.Fatalf("job info after the last restart: %v", ierr)
	}
	present := map[uint32]int{}
	for _, j := range rep.Jobs {
		present[j.JobID]++
	}
	for id, n := range acked {
		if n != 1 {
			t.Errorf("job id %d acknowledged %d times", id, n)
		}
		if present[id] != 1 {
			t.Errorf("acknowledged job %d present %d times after kill -9 and restart", id, present[id])
		}
	}
	t.Logf("%d acknowledged jobs, %d jobs in the controller, %d kills", len(acked), len(rep.Jobs), kills)
}
