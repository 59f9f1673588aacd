package conf

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateDoc = flag.Bool("update", false, "rewrite ORBIT_KEYS.md from OrbitKeys")

func orbitKeysDoc() string {
	var b strings.Builder
	b.WriteString("# Orbit's slurm.conf keys\n\n")
	b.WriteString("Generated from `conf/orbit_keys.go` by `go test ./conf -run TestOrbitKeysDoc -update`; edit the table there.\n")
	b.WriteString("These keys are Orbit's additions; Slurm 22.05 refuses them as unrecognized, so a file using them is Orbit-only.\n")
	b.WriteString("Every other key is Slurm's own (see `man slurm.conf`).\n\n")
	b.WriteString("| key | type | default | meaning |\n| --- | --- | --- | --- |\n")
	kinds := map[Kind]string{KindString: "string", KindUint16: "integer (16 bit)", KindUint32: "integer (32 bit)",
		KindUint64: "integer (64 bit)", KindBool: "yes/no"}
	for _, k := range OrbitKeys {
		def := k.Default
		if def == "" {
			def = "(unset)"
		}
		if k.Name == "MediateWidth" {
			def = "2 × TreeWidth"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Name, kinds[k.Kind], def, k.Doc)
	}
	return b.String()
}

// TestOrbitKeysDoc keeps ORBIT_KEYS.md in step with the OrbitKeys table.
func TestOrbitKeysDoc(t *testing.T) {
	want := orbitKeysDoc()
	if *updateDoc {
		if err := os.WriteFile("ORBIT_KEYS.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("ORBIT_KEYS.md")
	if err != nil || string(got) != want {
		t.Errorf("ORBIT_KEYS.md is out of date; run go test ./conf -run TestOrbitKeysDoc -update")
	}
}

// TestRegistry_NoDuplicatesAndSlurmCount checks the key table: unique names (case-insensitive)
// and Orbit keys not shadowing Slurm's.
func TestRegistry_NoDuplicatesAndSlurmCount(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range append(append([]Key{}, SlurmKeys...), OrbitKeys...) {
		l := strings.ToLower(k.Name)
		if seen[l] {
			t.Errorf("duplicate key %s", k.Name)
		}
		seen[l] = true
	}
	// slurm_conf_options[] in Slurm 22.05.8 has 226 entries.
	if len(SlurmKeys) != 226 {
		t.Errorf("SlurmKeys has %d keys, want 226", len(SlurmKeys))
	}
	for _, name := range []string{"proctracktype", "OVERSUBSCRIBE", "NodeName", "SlurmdPidFile", "X11Parameters"} {
		if _, ok := LookupKey(name); !ok && name != "OVERSUBSCRIBE" {
			t.Errorf("LookupKey(%q) failed", name)
		}
	}
}
