package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestSubmit_AccountLowerCase: the account and wckey a job names are kept in lower case, as
// Slurm 22.05 keeps whatever may reach its database (scontrol show job: Account=my_acct).
func TestSubmit_AccountLowerCase(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	d := script("true")
	d.Account, d.WCKey, d.Hold = "MY_Acct", "WcKey", true
	j := f.job(f.mustSubmit(d))
	if j.Account != "my_acct" || j.WCKey != "wckey" {
		t.Errorf("account %q, wckey %q; want my_acct, wckey", j.Account, j.WCKey)
	}
}
