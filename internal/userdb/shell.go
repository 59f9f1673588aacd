package userdb

import (
	"bufio"
	"os"
	"strings"
)

// Shell is the login shell of the user with uid, as getpwuid's pw_shell: from /etc/passwd,
// else (where os/user cannot reach NSS) from `getent passwd UID`. "" when the user has none
// or cannot be found; os/user does not carry the shell, hence this reader of its own.
func Shell(uid string) string { return standard().shell("/etc/passwd", uid) }

func (r resolver) shell(passwd, uid string) string {
	if f := r.passwdFields(passwd, uid); f != nil {
		return f[6]
	}
	return ""
}

// PasswdFields is the passwd(5) entry of the user with uid, its seven fields as getpwuid
// gives them (name, password, uid, gid, gecos, home, shell): from /etc/passwd, else from
// `getent passwd UID`; nil when the user cannot be found.
func PasswdFields(uid string) []string { return standard().passwdFields("/etc/passwd", uid) }

func (r resolver) passwdFields(passwd, uid string) []string {
	if f, err := os.Open(passwd); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if fields := strings.Split(sc.Text(), ":"); len(fields) == 7 && fields[2] == uid {
				return fields
			}
		}
	}
	if r.getent == nil || !getentID(uid) {
		return nil
	}
	out, found, err := r.getent("passwd", uid)
	if err != nil || !found {
		return nil
	}
	line, err := oneLine(out)
	if err != nil {
		return nil
	}
	if fields := strings.Split(line, ":"); len(fields) == 7 && fields[2] == uid {
		return fields
	}
	return nil
}
