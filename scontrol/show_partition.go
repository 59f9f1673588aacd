package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// showPartition is `scontrol show partition [NAME]` (Slurm's scontrol_print_part).
func (c *cli) showPartition(_ string, val *string, _ []string) {
	rep, ok := c.loadNodes(!c.all) // hidden partitions: operators, or -a
	if !ok {
		return
	}
	if c.quiet == -1 {
		fmt.Fprintf(c.stdout, "last_update_time=%s, records=%d\n", c.timeStr(rep.LastUpdate), len(rep.Partitions))
	}
	printed := 0
	for i := range rep.Partitions {
		p := &rep.Partitions[i]
		if val != nil && p.Name != *val {
			continue
		}
		c.stdout.WriteString(c.sprintPartition(p))
		printed++
	}
	if printed == 0 {
		c.exitCode = 1
		if c.quiet != 1 {
			if val != nil {
				fmt.Fprintf(c.stdout, "Partition %s not found\n", *val)
			} else {
				c.stdout.WriteString("No partitions in the system\n")
			}
		}
	}
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

func orAll(s string) string {
	if s == "" {
		return "ALL"
	}
	return s
}

// memLimit prints a partition's memory default or limit (0 = UNLIMITED).
func memLimit(v uint64) string {
	if v == 0 {
		return "UNLIMITED"
	}
	return strconv.FormatUint(v, 10)
}

// sprintPartition renders one partition as Slurm's slurm_sprint_partition_info does.
func (c *cli) sprintPartition(p *wire.PartitionInfo) string {
	r := newRecord(c.oneLiner)
	r.f("PartitionName=%s", p.Name)
	r.nl()
	r.f("AllowGroups=%s", orAll(p.AllowGroups))
	if p.AllowAccounts != "" || p.DenyAccounts == "" {
		r.f(" AllowAccounts=%s", orAll(p.AllowAccounts))
	} else {
		r.f(" DenyAccounts=%s", p.DenyAccounts)
	}
	if p.AllowQos != "" || p.DenyQos == "" {
		r.f(" AllowQos=%s", orAll(p.AllowQos))
	} else {
		r.f(" DenyQos=%s", p.DenyQos)
	}
	r.nl()
	r.f("AllocNodes=%s", orAll(p.AllocNodes))
	if p.Alternate != "" {
		r.f(" Alternate=%s", p.Alternate)
	}
	r.f(" Default=%s", yesNo(p.Default))
	if p.QOS != "" {
		r.f(" QoS=%s", p.QOS)
	} else {
		r.s(" QoS=N/A")
	}
	r.nl()
	r.f("DefaultTime=%s DisableRootJobs=%s ExclusiveUser=%s GraceTime=%d Hidden=%s",
		slurmtime.FormatTimeLimitPartition(p.DefaultTime), yesNo(p.DisableRootJobs), yesNo(p.ExclusiveUser), p.GraceTime, yesNo(p.Hidden))
	r.nl()
	maxNodes := "UNLIMITED"
	if p.MaxNodes != wire.Infinite {
		maxNodes = strconv.FormatUint(uint64(p.MaxNodes), 10)
	}
	maxCPUs := "UNLIMITED"
	if p.MaxCPUsPerNode != wire.Infinite {
		maxCPUs = strconv.FormatUint(uint64(p.MaxCPUsPerNode), 10)
	}
	r.f("MaxNodes=%s MaxTime=%s MinNodes=%d LLN=%s MaxCPUsPerNode=%s",
		maxNodes, slurmtime.FormatTimeLimitPartition(p.MaxTime), p.MinNodes, yesNo(p.LLN), maxCPUs)
	r.nl()
	r.f("Nodes=%s", nullStr(p.Nodes))
	r.nl()
	over := p.OverSubscribe
	if over == "" {
		over = "NO"
	}
	r.f("PriorityJobFactor=%d PriorityTier=%d RootOnly=%s ReqResv=%s OverSubscribe=%s",
		p.PriorityJobFactor, p.PriorityTier, yesNo(p.RootOnly), yesNo(p.ReqResv), over)
	r.nl()
	otl := "NONE"
	if p.OverTimeLimit != "" {
		otl = strings.ToUpper(p.OverTimeLimit)
		if otl == "INFINITE" {
			otl = "UNLIMITED"
		}
	}
	r.f("OverTimeLimit=%s PreemptMode=%s", otl, strings.ToUpper(p.PreemptMode))
	r.nl()
	stp := "NONE"
	if p.SelectTypeParameters != "" {
		stp = p.SelectTypeParameters
	}
	r.f("State=%s TotalCPUs=%d TotalNodes=%d SelectTypeParameters=%s", p.State, p.TotalCPUs, p.TotalNodes, stp)
	r.nl()
	r.s("JobDefaults=(null)")
	r.nl()
	if p.DefMemPerCPU != 0 {
		r.f("DefMemPerCPU=%d", p.DefMemPerCPU)
	} else {
		r.f("DefMemPerNode=%s", memLimit(p.DefMemPerNode))
	}
	if p.MaxMemPerCPU != 0 {
		r.f(" MaxMemPerCPU=%d", p.MaxMemPerCPU)
	} else {
		r.f(" MaxMemPerNode=%s", memLimit(p.MaxMemPerNode))
	}
	r.nl()
	r.f("TRES=%s", p.TRES)
	if p.BillingWeights != "" {
		r.nl()
		r.f("TRESBillingWeights=%s", p.BillingWeights)
	}
	return r.end()
}

// userName is uid_to_string: the user's name, or the number when there is none.
func userName(uid uint32) string {
	s := strconv.FormatUint(uint64(uid), 10)
	if u, err := userdb.LookupId(s); err == nil {
		return u.Username
	}
	return s
}

func expandNames(expr string) ([]string, error) { return hostlist.Expand(expr) }
