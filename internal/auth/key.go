package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// KeyFileName is the key file's name; it sits beside slurm.conf unless told otherwise.
const KeyFileName = "slurm.key"

// KeyEnv overrides the key path, as in Slurm's auth/slurm.
const KeyEnv = "SLURM_SACK_KEY"

// MinKeyLen is the shortest key accepted. Slurm demands more than 16 bytes of key in
// slurm.jwks ("key lacks sufficient entropy"); Orbit applies the same floor to slurm.key.
const MinKeyLen = 16

// maxKeyLen bounds what LoadKey reads, so a wrong path (a log, a device) is refused rather
// than slurped into memory.
const maxKeyLen = 1 << 20

// generatedKeyLen matches Slurm's documented `dd if=/dev/random bs=1024 count=1`.
const generatedKeyLen = 1024

// pluginType prefixes key errors the way Slurm's auth/slurm does.
const pluginType = "auth/slurm"

// Key is the shared secret that signs credentials. Its bytes never leave the package.
type Key struct {
	secret []byte
}

// KeyPath returns where the key lives for a cluster configured by the slurm.conf at
// confPath: $SLURM_SACK_KEY when set, else slurm.key in slurm.conf's directory. Daemons that
// take a key path from their own command line pass that to LoadKey instead.
func KeyPath(confPath string) string {
	if p := os.Getenv(KeyEnv); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(confPath), KeyFileName)
}

// NewKey wraps secret bytes (copied) as a Key, refusing a secret shorter than MinKeyLen.
func NewKey(secret []byte) (*Key, error) {
	if len(secret) < MinKeyLen {
		return nil, fmt.Errorf("%s: key lacks sufficient entropy: %d bytes, need at least %d",
			pluginType, len(secret), MinKeyLen)
	}
	return &Key{secret: append([]byte(nil), secret...)}, nil
}

// LoadKey reads the key file at path. It refuses a file that is not a regular file, that
// others may read, write or execute (0600, 0400 and 0640 are fine), or that is shorter than
// MinKeyLen. Permissions are checked on the
// opened file, so a file swapped between check and read cannot slip through.
func LoadKey(path string) (*Key, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: Could not load key file (%s): %w", pluginType, path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: cannot stat '%s': %w", pluginType, path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: key file '%s' is not a regular file", pluginType, path)
	}
	// Like Slurm, only access by others is refused: sites commonly keep the key 0640
	// root:slurm so that SlurmUser's group can read it, and a drop-in must accept that.
	if perm := st.Mode().Perm(); perm&0o007 != 0 {
		return nil, fmt.Errorf("%s: key file is insecure: '%s' mode=0%o (others must have no access: chmod o-rwx %s)",
			pluginType, path, perm, path)
	}
	if st.Size() > maxKeyLen {
		return nil, fmt.Errorf("%s: key file '%s' is too large: %d bytes, at most %d", pluginType, path, st.Size(), maxKeyLen)
	}
	secret, err := io.ReadAll(io.LimitReader(f, maxKeyLen+1))
	if err != nil {
		return nil, fmt.Errorf("%s: Could not load key file (%s): %w", pluginType, path, err)
	}
	if len(secret) > maxKeyLen {
		return nil, fmt.Errorf("%s: key file '%s' is too large: more than %d bytes", pluginType, path, maxKeyLen)
	}
	if len(secret) < MinKeyLen {
		return nil, fmt.Errorf("%s: key lacks sufficient entropy: '%s' holds %d bytes, need at least %d",
			pluginType, path, len(secret), MinKeyLen)
	}
	return &Key{secret: secret}, nil
}

// GenerateKey writes a new random key (1024 bytes, mode 0600) to path for the quick start
// and returns it. It never overwrites an existing file: replacing a cluster's key by
// accident would lock every node out.
func GenerateKey(path string) (*Key, error) {
	secret := make([]byte, generatedKeyLen)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("%s: cannot generate key: %w", pluginType, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("%s: key file '%s' already exists; refusing to overwrite it", pluginType, path)
		}
		return nil, fmt.Errorf("%s: cannot create key file: %w", pluginType, err)
	}
	// The umask may have removed bits but never adds any; Chmod makes 0600 exact anyway.
	if _, err = f.Write(secret); err == nil {
		err = f.Chmod(0o600)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("%s: cannot write key file '%s': %w", pluginType, path, err)
	}
	return &Key{secret: secret}, nil
}

// mac returns HMAC-SHA256 of msg under the key.
func (k *Key) mac(msg []byte) []byte {
	h := hmac.New(sha256.New, k.secret)
	h.Write(msg)
	return h.Sum(nil)
}

// macEqual reports in constant time whether tag is the MAC of msg.
func (k *Key) macEqual(msg, tag []byte) bool {
	return hmac.Equal(k.mac(msg), tag)
}
