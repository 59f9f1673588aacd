package userdb

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestShell: a local user's shell comes from the passwd file without a process; a user only
// NSS knows (the stand-in getent, see standInGetent) is asked of getent; an unknown uid, or a
// build that does not fall back, gives "".
func TestShell(t *testing.T) {
	log := standInGetent(t, "")
	passwd := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(passwd, []byte("root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/usr/bin/zsh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := fallback.shell(passwd, "1000"); got != "/usr/bin/zsh" {
		t.Errorf("local user: shell %q, want /usr/bin/zsh", got)
	}
	if got := calls(t, log); got != nil {
		t.Errorf("a local user ran getent: %q", got)
	}
	if got := fallback.shell(passwd, nssUID); got != "/bin/sh" {
		t.Errorf("NSS user: shell %q, want /bin/sh", got)
	}
	if got := fallback.shell(passwd, "3999999"); got != "" {
		t.Errorf("unknown uid: shell %q, want none", got)
	}
	if got := (resolver{}).shell(passwd, nssUID); got != "" {
		t.Errorf("without the fallback: shell %q, want none", got)
	}
	if got, want := calls(t, log), []string{"passwd " + nssUID, "passwd 3999999"}; !slices.Equal(got, want) {
		t.Errorf("getent calls %q, want %q", got, want)
	}
}
