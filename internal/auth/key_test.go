package auth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	good := strings.Repeat("k", 32)
	cases := []struct {
		name    string
		content string
		mode    os.FileMode
		dir     bool
		missing bool
		wantErr string // substring; "" means success
	}{
		{name: "mode 0600", content: good, mode: 0o600},
		{name: "mode 0400", content: good, mode: 0o400},
		{name: "group readable, as sites keep it", content: good, mode: 0o640},
		{name: "world readable", content: good, mode: 0o644, wantErr: "mode=0644"},
		{name: "world writable only", content: good, mode: 0o602, wantErr: "key file is insecure"},
		{name: "others executable", content: good, mode: 0o601, wantErr: "key file is insecure"},
		{name: "too short", content: "short", mode: 0o600, wantErr: "key lacks sufficient entropy"},
		{name: "empty", content: "", mode: 0o600, wantErr: "key lacks sufficient entropy"},
		{name: "exactly minimum", content: strings.Repeat("x", MinKeyLen), mode: 0o600},
		{name: "directory", dir: true, wantErr: "not a regular file"},
		{name: "missing", missing: true, wantErr: "Could not load key file"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "k"+string(rune('a'+i)))
			switch {
			case tc.dir:
				if err := os.Mkdir(p, 0o700); err != nil {
					t.Fatal(err)
				}
			case tc.missing:
			default:
				if err := os.WriteFile(p, []byte(tc.content), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, tc.mode); err != nil {
					t.Fatal(err)
				}
			}
			k, err := LoadKey(p)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("LoadKey: %v", err)
				}
				if string(k.secret) != tc.content {
					t.Fatalf("key bytes differ")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("LoadKey error = %v, want one containing %q", err, tc.wantErr)
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file %s", err, p)
			}
		})
	}
}

func TestGenerateKey(t *testing.T) {
	p := filepath.Join(t.TempDir(), KeyFileName)
	k, err := GenerateKey(p)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("generated key mode %o, want 600", st.Mode().Perm())
	}
	loaded, err := LoadKey(p)
	if err != nil {
		t.Fatalf("generated key does not load: %v", err)
	}
	if string(loaded.secret) != string(k.secret) || len(k.secret) != generatedKeyLen {
		t.Errorf("loaded key differs from generated one (len %d)", len(loaded.secret))
	}
	if _, err := GenerateKey(p); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second GenerateKey error = %v, want refusal to overwrite", err)
	}
	again, err := LoadKey(p)
	if err != nil || string(again.secret) != string(k.secret) {
		t.Errorf("existing key was changed by refused GenerateKey")
	}
}

func TestKeyPath(t *testing.T) {
	t.Setenv(KeyEnv, "")
	if got := KeyPath("/etc/slurm/slurm.conf"); got != "/etc/slurm/slurm.key" {
		t.Errorf("KeyPath = %q, want /etc/slurm/slurm.key", got)
	}
	t.Setenv(KeyEnv, "/srv/keys/cluster.key")
	if got := KeyPath("/etc/slurm/slurm.conf"); got != "/srv/keys/cluster.key" {
		t.Errorf("KeyPath with %s = %q", KeyEnv, got)
	}
}

func TestNewKey_TooShort(t *testing.T) {
	if _, err := NewKey([]byte("abc")); err == nil {
		t.Fatal("NewKey accepted a 3-byte key")
	}
}
