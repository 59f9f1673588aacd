// Package userdb owns every user and group lookup a user command makes: a user by name or
// uid, a group by name or gid, a user's group ids, and the current user. Commands use it
// instead of os/user (testsuite/deps_test.go enforces that, for slurmstepd too), so that they
// can be built without cgo and still see the users a site serves through NSS (LDAP, SSSD, NIS).
//
// Every lookup asks os/user first. In a cgo build that already goes through libc's NSS and is
// the whole story. In a build without cgo (the osusergo tag or CGO_ENABLED=0, as `make build`
// builds the user commands, to save their start-up the dynamic loader's work) os/user reads
// only /etc/passwd and /etc/group; on a miss this package then runs `getent passwd|group KEY`
// once, which asks libc's NSS, and parses its line strictly. A user in /etc/passwd therefore
// costs no process; only a name that is not local pays for one getent. A user's group list is
// the exception: when nsswitch.conf names a group source besides files (sss, ldap), even a
// local user's list comes from getent initgroups, as /etc/group cannot hold those groups.
//
// It imports nothing but the standard library, so conf/ and every command may link it.
package userdb
