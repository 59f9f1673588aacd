package main

import (
	"fmt"
	"os"
	"strings"
)

// The show entities of features Orbit does not have (burst buffers, a network topology,
// front-end nodes, federations): scontrol answers as Slurm does on a cluster configured
// without them. Where slurm.conf configures one (TopologyPlugin=topology/tree), Orbit says it
// is not supported rather than pretend.

func (c *cli) showTopology(_ string, val *string, _ []string) {
	if p := c.client().Conf.TopologyPlugin; p != "topology/none" && p != "" {
		c.errorf("show topology is not supported by Orbit yet")
		c.exitCode = 1
		return
	}
	if val != nil {
		c.errorf("Topology information contains no switch or node named %s", *val)
		return
	}
	c.errorf("No topology information available")
}

func (c *cli) showFrontend(_ string, _ *string, _ []string) {
	c.printf("No nodes in the system\n")
}

// showNothing is the entities Slurm shows nothing of on such a cluster (burst buffers,
// federations).
func (c *cli) showNothing(_ string, _ *string, _ []string) {}

// showDaemons is Slurm's _print_daemons: which daemons slurm.conf says run on this host.
func (c *cli) showDaemons(_ string, _ *string, _ []string) {
	conf := c.client().Conf
	long, _ := os.Hostname()
	short, _, _ := strings.Cut(long, ".")
	ctld, slurmd := false, false
	for _, h := range conf.SlurmctldHosts {
		for _, name := range strings.Split(h.Name, ",") {
			ctld = ctld || name == short || name == long || strings.EqualFold(name, "localhost")
		}
	}
	for _, n := range conf.Nodes {
		slurmd = slurmd || n.Hostname == short || n.Hostname == "localhost"
	}
	var list string
	if len(conf.SlurmctldHosts) > 0 && ctld {
		list = "slurmctld "
	}
	if len(conf.SlurmctldHosts) > 0 && slurmd {
		list += "slurmd"
	}
	if list == "" {
		list = "(null)" // Slurm prints its empty list so
	}
	c.printf("%s\n", list)
}

// showAliases is Slurm's _print_aliases: the nodes slurm.conf gives a host (this one's short
// name by default, then "localhost"), on one line.
func (c *cli) showAliases(_ string, val *string, _ []string) {
	conf := c.client().Conf
	host, mine := "", val == nil
	if mine {
		long, _ := os.Hostname()
		host, _, _ = strings.Cut(long, ".")
	} else {
		host = *val
	}
	aliases := func(h string) []string {
		var out []string
		for _, n := range conf.Nodes {
			if n.Hostname == h {
				out = append(out, n.Name)
			}
		}
		return out
	}
	names := aliases(host)
	if len(names) == 0 && mine {
		names = aliases("localhost")
	}
	if len(names) > 0 {
		c.printf("%s\n", strings.Join(names, " "))
	}
}

// printf writes to scontrol's stdout.
func (c *cli) printf(format string, a ...any) { fmt.Fprintf(c.stdout, format, a...) }
