package main

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// maxHostFile is how much of a host file Slurm reads (1 MiB); the rest is ignored.
const maxHostFile = 1 << 20

// showHostnames is `scontrol show hostnames [LIST]`: one name per line. Without LIST it reads
// $SLURM_NODELIST (not $SLURM_JOB_NODELIST). Slurm reports a bad list but still exits 0.
func (c *cli) showHostnames(_ string, val *string, _ []string) {
	var list string
	if val != nil {
		list = *val
	} else if v, ok := os.LookupEnv("SLURM_NODELIST"); ok {
		list = v
	} else {
		c.errorf("host list is empty")
		return
	}
	hl, ok := c.parseHostlist(list)
	if !ok {
		return
	}
	hl.Each(func(name string) bool {
		c.stdout.WriteString(name)
		c.stdout.WriteByte('\n')
		return true
	})
}

// showHostlist is `scontrol show hostlist LIST`: the ranged form in input order.
func (c *cli) showHostlist(_ string, val *string, _ []string) { c.encodeHostlist(val, false) }

// showHostlistSorted is `scontrol show hostlistsorted LIST`: sorted, then ranged.
func (c *cli) showHostlistSorted(_ string, val *string, _ []string) { c.encodeHostlist(val, true) }

// encodeHostlist is Slurm's scontrol_encode_hostlist. LIST starting with '/' names a file of
// host names, one or more per line.
func (c *cli) encodeHostlist(val *string, sorted bool) {
	if val == nil {
		c.exitCode = 1
		c.eprintf("invalid encode argument\n")
		c.usage()
		return
	}
	list := *val
	if len(list) > 0 && list[0] == '/' {
		data, ok := c.readHostFile(list)
		if !ok {
			c.exitCode = 1
			return
		}
		list = data
	}
	hl, ok := c.parseHostlist(list)
	if !ok {
		c.exitCode = 1
		return
	}
	if sorted {
		hl.Sort()
	}
	c.stdout.WriteString(hl.Ranged())
	c.stdout.WriteByte('\n')
}

// parseHostlist parses list, printing Slurm's diagnostics and "Invalid hostlist" line.
func (c *cli) parseHostlist(list string) (*hostlist.Hostlist, bool) {
	hl, err := hostlist.Parse(list)
	var herr *hostlist.Error
	if errors.As(err, &herr) {
		for i, d := range herr.Diagnostics {
			if herr.Fatal && i == len(herr.Diagnostics)-1 {
				c.fatalf("%s", d)
			}
			c.errorf("%s", d)
		}
		c.eprintf("Invalid hostlist: %s\n", herr.Expr)
		return nil, false
	}
	if err != nil {
		c.eprintf("Invalid hostlist: %s\n", list)
		return nil, false
	}
	for _, d := range hl.Diagnostics {
		c.errorf("%s", d)
	}
	return hl, true
}

// readHostFile reads a host file as Slurm does: at most 1 MiB, up to the first NUL byte,
// newlines turned into commas and runs of commas squeezed to one.
func (c *cli) readHostFile(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		c.eprintf("Can not open %s\n", path)
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHostFile))
	if err != nil {
		c.eprintf("Error reading %s\n", path)
		return "", false
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	out := make([]byte, 0, len(data))
	for _, b := range data {
		if b == '\n' {
			b = ','
		}
		if b == ',' && len(out) > 0 && out[len(out)-1] == ',' {
			continue
		}
		out = append(out, b)
	}
	return string(out), true
}
