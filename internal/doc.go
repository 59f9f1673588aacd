// Package internal is the root of what Orbit's daemons share but users never import: the
// wire protocol and codec, authentication and credentials, the SQLite store, emulation helpers
// and test clusters. Each lives in its own subpackage as it arrives.
package internal
