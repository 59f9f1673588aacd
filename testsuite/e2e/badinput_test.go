package e2e_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// endpoint is one listening socket of the cluster's daemons.
type endpoint struct {
	name, network, addr string
}

// endpoints lists every port the cluster's daemons listen on, read back from its slurm.conf.
func endpoints(t *testing.T, c *cluster.Cluster) []endpoint {
	t.Helper()
	cfg, err := conf.Load(c.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	return []endpoint{
		{"slurmctld", "tcp", fmt.Sprintf("127.0.0.1:%d", cfg.SlurmctldPort)},
		{"slurmd", "tcp", fmt.Sprintf("127.0.0.1:%d", cfg.SlurmdPort)},
		{"auth socket", "unix", rpcauth.SocketPath(cfg.AuthInfo)},
	}
}

// lengthPrefix is a frame header announcing n payload bytes.
func lengthPrefix(n uint32) []byte {
	return binary.BigEndian.AppendUint32(nil, n)
}

// TestBadInput_EveryPortSurvives throws garbage, absurd lengths, half frames and silent
// connections at every listening socket of the real daemons; afterwards (and while the silent
// connections are still open) the cluster still answers squeue and runs a job.
func TestBadInput_EveryPortSurvives(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	rng := rand.New(rand.NewPCG(4, 4))
	garbage := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		return b
	}
	rpc := []byte{byte(wire.ProtoRPC)}
	payloads := []struct {
		name string
		data []byte
	}{
		{"random garbage", garbage(4096)},
		{"garbage after the RPC byte", append(append([]byte{}, rpc...), garbage(4096)...)},
		{"0xFFFFFFFF length", lengthPrefix(0xFFFFFFFF)},
		{"RPC byte, 0xFFFFFFFF length", append(append([]byte{}, rpc...), lengthPrefix(0xFFFFFFFF)...)},
		{"RPC byte, 64 MiB announced, 10 bytes sent", append(append(append([]byte{}, rpc...), lengthPrefix(64<<20)...), garbage(10)...)},
		{"RPC byte, half a frame", append(append(append([]byte{}, rpc...), lengthPrefix(100)...), garbage(50)...)},
		{"RPC byte, zero length", append(append([]byte{}, rpc...), lengthPrefix(0)...)},
		{"RPC byte, frame of garbage", append(append(append([]byte{}, rpc...), lengthPrefix(200)...), garbage(200)...)},
		{"unknown protocol byte", append([]byte{0xEE}, garbage(64)...)},
		{"auth request, bad version", append(lengthPrefix(33), garbage(33)...)},
		{"auth request, short", append(lengthPrefix(33), 1, 2, 3)},
		{"single byte", []byte{byte(wire.ProtoRPC)}},
	}
	var silent []net.Conn
	defer func() {
		for _, s := range silent {
			s.Close()
		}
	}()
	for _, ep := range endpoints(t, c) {
		for _, p := range payloads {
			// Both ways a broken peer ends: closing at once, and staying after its bytes.
			for _, linger := range []bool{false, true} {
				conn, err := net.DialTimeout(ep.network, ep.addr, 5*time.Second)
				if err != nil {
					t.Fatalf("%s: dial %s before %q: %v (the daemon stopped listening)", ep.name, ep.addr, p.name, err)
				}
				conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
				conn.Write(p.data) // the peer may close first; that is a fine answer
				if linger {
					silent = append(silent, conn)
				} else {
					conn.Close()
				}
			}
		}
		// Connections that never say anything.
		for i := 0; i < 8; i++ {
			conn, err := net.DialTimeout(ep.network, ep.addr, 5*time.Second)
			if err != nil {
				t.Fatalf("%s: dial for a silent connection: %v", ep.name, err)
			}
			silent = append(silent, conn)
		}
	}

	// The cluster still serves every user-visible function while the bad peers hang on.
	if o, e, code := c.Run(t, "squeue", "-h"); code != 0 || e != "" {
		t.Fatalf("squeue after bad input = %q, %q, exit %d", o, e, code)
	}
	id := submit(t, c, "-J", "e2e_badin", "--wrap", "echo survived")
	c.WaitJob(t, id, states.JobComplete)
	out, err := os.ReadFile(filepath.Join(c.WorkDir, fmt.Sprintf("slurm-%d.out", id)))
	if err != nil || string(out) != "survived\n" {
		t.Errorf("job after bad input wrote %q (%v), want %q", out, err, "survived\n")
	}
}

// TestSbatch_BadInput checks invalid sbatch options, scripts and partitions give the
// reference's messages and exit codes (recorded from Slurm 22.05 by hand; see the comments).
func TestSbatch_BadInput(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1})
	noShebang := writeScript(t, c, "noshebang.sh", "echo no interpreter line\n")
	cases := []struct {
		args   []string
		stderr string // exact
		code   int
	}{
		{[]string{"/nonexistent/job.sh"}, "sbatch: error: Unable to open file /nonexistent/job.sh\n", 1},
		{[]string{noShebang}, "sbatch: error: This does not look like a batch script.  The first\n" +
			"sbatch: error: line must start with #! followed by the path to an interpreter.\n" +
			"sbatch: error: For instance: #!/bin/sh\n", 1},
		{[]string{"-t", "bogus", "--wrap", "true"}, "sbatch: error: Invalid --time specification\n", 255},
		{[]string{"-p", "nosuch", "--wrap", "true"}, "sbatch: error: invalid partition specified: nosuch\n" +
			"sbatch: error: Batch job submission failed: Invalid partition name specified\n", 1},
	}
	for _, tc := range cases {
		o, e, code := c.Run(t, "sbatch", tc.args...)
		if o != "" || e != tc.stderr || code != tc.code {
			t.Errorf("sbatch %q = %q, %q, exit %d\nwant stderr %q, exit %d", tc.args, o, e, code, tc.stderr, tc.code)
		}
	}
	// An unknown option: getopt's complaint names the program as invoked (here by its full
	// path), then the hint.
	for _, cmd := range []string{"sbatch", "srun", "salloc"} {
		_, e, code := c.Run(t, cmd, "--bogus")
		want := testbin.Path(t, cmd) + ": unrecognized option '--bogus'\nTry \"" + cmd + " --help\" for more information\n"
		if e != want || code != 255 {
			t.Errorf("%s --bogus = %q, exit %d; want %q, exit 255", cmd, e, code, want)
		}
	}
	// Nothing was queued by any of them.
	if o, _, _ := c.Run(t, "squeue", "-h"); o != "" {
		t.Errorf("squeue after refused submissions = %q, want empty", o)
	}
}
