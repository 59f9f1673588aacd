package main

import _ "embed"

// usageText is what `scontrol --help` prints; it is Slurm 22.05's text, byte for byte, since
// scripts and users compare against it. Commands Orbit does not support yet are still listed
// there and refused by name when used.
//
//go:embed usage.txt
var usageText string

func (c *cli) usage() { c.stdout.WriteString(usageText) }
