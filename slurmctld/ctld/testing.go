package ctld

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/auth"
)

// TestConfig describes the small cluster WriteTestConfig writes: Nodes nodes n1..nN with
// CPUs CPUs each in one default partition "debug", loopback addresses, state in the config's
// directory. Extra lines are appended to slurm.conf verbatim.
type TestConfig struct {
	Nodes      int    // default 4
	CPUs       int    // default 4
	RealMemory uint64 // MiB per node; default 1000
	NodePort   int    // the nodes' Port= (their slurmd); default 6818
	Extra      string
	// Shape, when set, replaces the nodes' CPUs= (e.g. "Sockets=1 CoresPerSocket=2
	// ThreadsPerCore=2"); SelectTypeParameters replaces CR_CPU.
	Shape                string
	SelectTypeParameters string
	// Now, when set, is the controller's clock (StartTestCluster only), so tests can move
	// time past limits without waiting.
	Now func() time.Time
}

// WriteTestConfig writes slurm.conf and a fresh slurm.key into dir for a controller listening
// on ctldPort and returns the slurm.conf path.
func WriteTestConfig(dir string, ctldPort int, tc TestConfig) (string, error) {
	if tc.Nodes <= 0 {
		tc.Nodes = 4
	}
	if tc.CPUs <= 0 {
		tc.CPUs = 4
	}
	if tc.RealMemory == 0 {
		tc.RealMemory = 1000
	}
	if tc.NodePort == 0 {
		tc.NodePort = 6818
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ClusterName=orbittest\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=%d\n", ctldPort)
	fmt.Fprintf(&b, "AuthType=auth/slurm\nCredType=cred/slurm\n")
	fmt.Fprintf(&b, "StateSaveLocation=%s\nSlurmdSpoolDir=%s\n", filepath.Join(dir, "state"), filepath.Join(dir, "spool", "%n"))
	if tc.SelectTypeParameters == "" {
		tc.SelectTypeParameters = "CR_CPU"
	}
	if tc.Shape == "" {
		tc.Shape = fmt.Sprintf("CPUs=%d", tc.CPUs)
	}
	fmt.Fprintf(&b, "SelectType=select/cons_tres\nSelectTypeParameters=%s\nReturnToService=2\n", tc.SelectTypeParameters)
	fmt.Fprintf(&b, "NodeName=n[1-%d] NodeHostname=localhost NodeAddr=127.0.0.1 Port=%d %s RealMemory=%d State=UNKNOWN\n", tc.Nodes, tc.NodePort, tc.Shape, tc.RealMemory)
	fmt.Fprintf(&b, "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n")
	b.WriteString(tc.Extra)
	path := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	if _, err := os.Stat(auth.KeyPath(path)); err != nil {
		if _, err := auth.GenerateKey(auth.KeyPath(path)); err != nil {
			return "", err
		}
	}
	return path, nil
}

// StartTest starts a real controller in-process for the slurm.conf at cfgPath (key beside it),
// listening on the configuration's address and port, and stops it in t.Cleanup.
func StartTest(t testing.TB, cfgPath string) *Controller {
	t.Helper()
	cfg, key := loadTest(t, cfgPath)
	l, err := net.Listen("tcp", ListenAddr(cfg))
	if err != nil {
		t.Fatalf("ctld.StartTest: %v", err)
	}
	return startOn(t, cfg, key, l, nil)
}

// StartTestCluster writes a TestConfig cluster into t.TempDir() with a controller port the OS
// chose, starts the controller there, and returns it with the slurm.conf path. No slurmd
// runs: tests register nodes themselves, or start slurmd with the returned config.
func StartTestCluster(t testing.TB, tc TestConfig) (*Controller, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("ctld.StartTestCluster: %v", err)
	}
	path, err := WriteTestConfig(t.TempDir(), l.Addr().(*net.TCPAddr).Port, tc)
	if err != nil {
		l.Close()
		t.Fatalf("ctld.StartTestCluster: %v", err)
	}
	cfg, key := loadTest(t, path)
	return startOn(t, cfg, key, l, tc.Now), path
}

func loadTest(t testing.TB, cfgPath string) (*conf.Config, *auth.Key) {
	t.Helper()
	cfg, err := conf.Load(cfgPath)
	if err != nil {
		t.Fatalf("ctld: load %s: %v", cfgPath, err)
	}
	key, err := auth.LoadKey(auth.KeyPath(cfgPath))
	if err != nil {
		t.Fatalf("ctld: %v", err)
	}
	return cfg, key
}

func startOn(t testing.TB, cfg *conf.Config, key *auth.Key, l net.Listener, now func() time.Time) *Controller {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	c, err := New(Options{Config: cfg, Key: key, Logger: log, SchedInterval: time.Second, Now: now})
	if err != nil {
		l.Close()
		t.Fatalf("ctld: %v", err)
	}
	c.listener = l // Addr works as soon as StartTest returns
	done := make(chan error, 1)
	go func() { done <- c.Serve(l) }()
	t.Cleanup(func() {
		c.Close()
		if err := <-done; err != nil {
			t.Errorf("ctld: Serve: %v", err)
		}
	})
	return c
}
