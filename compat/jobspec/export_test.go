package jobspec

import (
	"slices"
	"testing"
)

// TestExportItems: --export items split at commas outside quotes, a wholly quoted item
// losing its quotes (Slurm's find_quote_token).
func TestExportItems(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"ALL", []string{"ALL"}},
		{"A=1,B,,C=2", []string{"A=1", "B", "C=2"}},
		{"'A=a,b',B", []string{"A=a,b", "B"}},
		{`"A=x,y"`, []string{"A=x,y"}},
		{`A="x,y",B`, []string{`A="x,y"`, "B"}},
		{"", nil},
	} {
		if got := ExportItems(c.in); !slices.Equal(got, c.want) {
			t.Errorf("ExportItems(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestStepExportEnv: srun's task environment under --export (Slurm's _build_user_env).
func TestStepExportEnv(t *testing.T) {
	env := []string{"A=1", "SLURM_X=2", "B=3"}
	for _, c := range []struct {
		export string
		want   []string
	}{
		{"", env},
		{"ALL", []string{"A=1", "SLURM_X=2", "B=3"}},
		{"NONE", []string{"SLURM_X=2"}},
		{"B,C=4", []string{"B=3", "C=4", "SLURM_X=2"}},
		{"A=9,ALL", []string{"A=1", "SLURM_X=2", "B=3"}},
		{"C=4,NONE,A", []string{"C=4", "SLURM_X=2"}},
	} {
		if got := StepExportEnv(env, c.export); !slices.Equal(got, c.want) {
			t.Errorf("StepExportEnv(%q) = %q, want %q", c.export, got, c.want)
		}
	}
}
