package userdb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"time"
)

// getentFunc runs `getent DB KEY`: the output, found=false for getent's "key not found"
// (exit status 2), or an error when getent could not answer.
type getentFunc func(db, key string) (out string, found bool, err error)

// getentTimeout bounds one getent: an NSS backend that does not answer (an LDAP server gone
// away) must not hang a command forever. SSSD's own timeouts are well below this.
const getentTimeout = 30 * time.Second

// runGetent runs getent from PATH, as a shell user's would be; an empty key enumerates the
// database.
func runGetent(db, key string) (string, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), getentTimeout)
	defer cancel()
	var out bytes.Buffer
	args := []string{db}
	if key != "" {
		args = append(args, key)
	}
	cmd := exec.CommandContext(ctx, "getent", args...)
	cmd.Stdout = &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 2 && ctx.Err() == nil:
		return "", false, nil // glibc getent: "One or more supplied key could not be found"
	}
	return "", false, err
}

// getentName reports whether key may be given to getent as a name: not empty, not read as
// an option (a leading '-'), not read as a number (glibc's getent looks a key up by id
// when strtoul takes all of it, so "1000" or " +7" would answer for a uid), and nothing a
// passwd or group line could not hold.
func getentName(key string) bool {
	if key == "" || key[0] == '-' || strings.ContainsAny(key, ":\n\x00") {
		return false
	}
	t := strings.TrimLeft(key, " \t\n\v\f\r")
	t = strings.TrimPrefix(t, "+")
	if t == "" {
		return true
	}
	for _, c := range []byte(t) {
		if c < '0' || c > '9' {
			return true
		}
	}
	return false
}

// getentID reports whether key is a canonical decimal id (0 to 2^32-1, digits only), the
// only form whose getent answer can be checked against the key.
func getentID(key string) bool {
	n, err := strconv.ParseUint(key, 10, 32)
	return err == nil && strconv.FormatUint(n, 10) == key
}

func getentError(db, key string, err error) error {
	return fmt.Errorf("userdb: getent %s %s: %w", db, key, err)
}

// oneLine is getent's answer for one key: exactly one line, its newline optional.
func oneLine(out string) (string, error) {
	line := strings.TrimSuffix(out, "\n")
	if line == "" {
		return "", errors.New("empty answer")
	}
	if strings.ContainsAny(line, "\n\x00") {
		return "", errors.New("more than one line")
	}
	return line, nil
}

// parseID reads a uid or gid field: decimal digits only, at most 2^32-1.
func parseID(field, what string) (string, error) {
	if !getentID(field) {
		return "", fmt.Errorf("bad %s %q", what, field)
	}
	return field, nil
}

// parsePasswd reads one passwd(5) line: name:password:uid:gid:gecos:home:shell.
func parsePasswd(out string) (*user.User, error) {
	line, err := oneLine(out)
	if err != nil {
		return nil, err
	}
	f := strings.Split(line, ":")
	if len(f) != 7 {
		return nil, fmt.Errorf("passwd line has %d fields, want 7", len(f))
	}
	if f[0] == "" {
		return nil, errors.New("passwd line has an empty name")
	}
	uid, err := parseID(f[2], "uid")
	if err != nil {
		return nil, err
	}
	gid, err := parseID(f[3], "gid")
	if err != nil {
		return nil, err
	}
	// The GECOS field's full name is what precedes its first comma, as os/user reads it.
	name, _, _ := strings.Cut(f[4], ",")
	return &user.User{Username: f[0], Uid: uid, Gid: gid, Name: name, HomeDir: f[5]}, nil
}

// parseGroup reads one group(5) line: name:password:gid:member,member,...
func parseGroup(out string) (*user.Group, []string, error) {
	line, err := oneLine(out)
	if err != nil {
		return nil, nil, err
	}
	f := strings.Split(line, ":")
	if len(f) != 4 {
		return nil, nil, fmt.Errorf("group line has %d fields, want 4", len(f))
	}
	if f[0] == "" {
		return nil, nil, errors.New("group line has an empty name")
	}
	gid, err := parseID(f[2], "gid")
	if err != nil {
		return nil, nil, err
	}
	var members []string
	if f[3] != "" {
		members = strings.Split(f[3], ",")
	}
	return &user.Group{Name: f[0], Gid: gid}, members, nil
}

// parseInitgroups reads `getent initgroups NAME`: the name (padded with blanks), then each
// group's gid after a blank. glibc asks getgrouplist with no primary group, so only the
// groups NSS lists the user in appear.
func parseInitgroups(out, name string) ([]string, error) {
	if name == "" {
		return nil, errors.New("no user name")
	}
	line, err := oneLine(out)
	if err != nil {
		return nil, err
	}
	f := strings.Split(strings.TrimRight(line, " "), " ")
	if f[0] != name {
		return nil, fmt.Errorf("initgroups answer is for %q, not %q", f[0], name)
	}
	var gids []string
	for _, g := range f[1:] {
		if g == "" {
			continue // the name's padding
		}
		id, err := parseID(g, "gid")
		if err != nil {
			return nil, err
		}
		gids = append(gids, id)
	}
	return gids, nil
}
