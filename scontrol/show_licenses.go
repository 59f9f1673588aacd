package main

import (
	"fmt"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// showLicenses is Slurm's scontrol_print_licenses: every configured license, sorted by name
// (the controller sends them so), or the one named; a name not configured prints nothing.
func (c *cli) showLicenses(_ string, val *string, _ []string) {
	if c.client().Conf.Licenses == "" {
		// The controller's list is slurm.conf's: with none configured there is nothing to ask.
		c.printf("No licenses configured in Slurm.\n")
		return
	}
	var rep wire.LicenseInfoReply
	if e := c.call(wire.MsgLicenseInfo, &wire.LicenseInfoRequest{}, &rep); e != nil {
		c.exitCode = 1
		c.perror("slurm_load_license error", e)
		return
	}
	if len(rep.Licenses) == 0 {
		c.printf("No licenses configured in Slurm.\n")
		return
	}
	sep := "\n    "
	if c.oneLiner {
		sep = " "
	}
	for _, l := range rep.Licenses {
		if val != nil && l.Name != *val {
			continue
		}
		free := uint32(0)
		if l.Used+l.Reserved < l.Total {
			free = l.Total - l.Used - l.Reserved
		}
		remote := "no"
		if l.Remote {
			remote = "yes"
		}
		fmt.Fprintf(c.stdout, "LicenseName=%s%sTotal=%d Used=%d Free=%d Reserved=%d Remote=%s\n",
			l.Name, sep, int32(l.Total), l.Used, free, l.Reserved, remote)
		if val != nil {
			break
		}
	}
}
