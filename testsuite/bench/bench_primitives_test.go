package bench_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkPrimitives measures this machine's floors, the costs issue 9's bounds are built
// from: starting an empty Go program from Go, starting /bin/true, `bash -c true`, and a
// 512-byte write made durable with fsync. Every goal is a ratio to these, measured in the
// same run (testsuite/scripts/sidebyside.sh prints them beside the cluster figures).
func BenchmarkPrimitives(b *testing.B) {
	b.Run("GoStart", func(b *testing.B) {
		dir := b.TempDir()
		src := filepath.Join(dir, "main.go")
		if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		exe := filepath.Join(dir, "empty")
		build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", exe, src)
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			b.Fatalf("building an empty Go program: %v\n%s", err, out)
		}
		benchExec(b, exe)
	})
	b.Run("TrueStart", func(b *testing.B) { benchExec(b, "/bin/true") })
	b.Run("BashTrue", func(b *testing.B) { benchExec(b, "/bin/bash", "-c", "true") })
	b.Run("Fsync512", func(b *testing.B) {
		f, err := os.Create(filepath.Join(b.TempDir(), "fsync"))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		block := make([]byte, 512)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := f.WriteAt(block, int64(i%64)*512); err != nil {
				b.Fatal(err)
			}
			if err := f.Sync(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchExec times starting a program and waiting for it to exit.
func benchExec(b *testing.B, name string, args ...string) {
	b.Helper()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := exec.Command(name, args...).Run(); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
	}
}
