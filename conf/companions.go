package conf

import (
	"os"
	"path/filepath"
)

// loadCompanions reads gres.conf, topology.conf and cgroup.conf from dir when they exist,
// adding their errors to errs.
func loadCompanions(c *Config, dir string, errs *errList) {
	if c == nil {
		return
	}
	if p := filepath.Join(dir, "gres.conf"); exists(p) {
		g, err := LoadGres(p)
		c.Gres = g
		addAll(errs, err)
	}
	if p := filepath.Join(dir, "topology.conf"); exists(p) {
		t, err := LoadTopology(p)
		c.Topology = t
		addAll(errs, err)
	}
	if p := filepath.Join(dir, "cgroup.conf"); exists(p) {
		cg, err := LoadCgroup(p)
		c.Cgroup = cg
		addAll(errs, err)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// addAll adds a companion file's problems, which only the daemons read (Error.Daemon).
func addAll(errs *errList, err error) {
	if es, ok := err.(Errors); ok {
		for _, e := range es {
			e.Daemon = true
		}
		errs.errs = append(errs.errs, es...)
	} else if err != nil {
		errs.errs = append(errs.errs, &Error{Msg: err.Error(), Daemon: true})
	}
}
