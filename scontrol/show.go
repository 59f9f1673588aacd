package main

import "strings"

// entity is one thing `scontrol show` can display, in Slurm's matching order.
type entity struct {
	names []string
	min   int
	run   func(c *cli, tag string, val *string, argv []string)
}

var entities = []entity{
	{names: []string{"aliases"}, min: 1, run: (*cli).showAliases},
	{names: []string{"bbstat", "dwstat"}, min: 2, run: (*cli).showNothing},
	{names: []string{"burstbuffer"}, min: 2, run: (*cli).showNothing},
	{names: []string{"assoc_mgr", "cache"}, min: 2, run: (*cli).showAssocMgr},
	{names: []string{"config"}, min: 1, run: (*cli).showConfig},
	{names: []string{"daemons"}, min: 1, run: (*cli).showDaemons},
	{names: []string{"Federations"}, min: 1, run: (*cli).showNothing},
	{names: []string{"FrontendName"}, min: 1, run: (*cli).showFrontend},
	{names: []string{"hostnames"}, min: 5, run: (*cli).showHostnames},
	{names: []string{"hostlist"}, min: 5, run: (*cli).showHostlist},
	{names: []string{"hostlistsorted"}, min: 9, run: (*cli).showHostlistSorted},
	{names: []string{"jobs", "jobid"}, min: 1, run: (*cli).showJob},
	{names: []string{"licenses"}, min: 2, run: (*cli).showLicenses},
	{names: []string{"nodes"}, min: 1, run: (*cli).showNode},
	{names: []string{"partitions", "partitionname"}, min: 2, run: (*cli).showPartition},
	{names: []string{"reservations", "reservationname"}, min: 1, run: (*cli).showReservation},
	{names: []string{"slurmd"}, min: 2, run: (*cli).showSlurmd},
	{names: []string{"steps"}, min: 2, run: (*cli).showStep},
	{names: []string{"topology"}, min: 1, run: (*cli).showTopology},
}

// cmdShow is `scontrol show ENTITY [ID]` (also `show ENTITY=ID`), Slurm's _show_it.
func (c *cli) cmdShow(argv []string) {
	if len(argv) < 2 {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("too few arguments for keyword:%s\n", argv[0])
		}
		return
	}
	// Slurm lets these few take extra words; it tests them before reading the tag's length,
	// so any word starting with their first two letters counts.
	allowOpt := keywordIs(argv[1], "assoc_mgr", 2) || keywordIs(argv[1], "bbstat", 2) ||
		keywordIs(argv[1], "dwstat", 2)
	if len(argv) > 3 && !allowOpt {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("too many arguments for keyword:%s\n", argv[0])
		}
		return
	}
	tag := argv[1]
	tagLen := len(tag)
	var val *string
	if eq := strings.IndexByte(tag, '='); eq >= 0 {
		tagLen = eq
		v := tag[eq+1:]
		val = &v
	} else if len(argv) == 3 {
		val = &argv[2]
	}
	for i := range entities {
		e := &entities[i]
		hit := false
		for _, n := range e.names {
			hit = hit || keywordIs(tag, n, max(tagLen, e.min))
		}
		if !hit {
			continue
		}
		if e.run == nil {
			c.errorf("show %s is not supported by Orbit yet", strings.ToLower(e.names[0]))
			c.exitCode = 1
			return
		}
		e.run(c, tag, val, argv)
		return
	}
	c.exitCode = 1
	if c.quiet != 1 {
		c.eprintf("invalid entity:%s for keyword:%s \n", tag, argv[0])
	}
}
