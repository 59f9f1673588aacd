package options

// EnvVars returns the input environment variables that set opt for cmd.
func (o *Option) EnvVars(cmd Cmds) []string {
	var out []string
	for _, e := range envTable(cmd) {
		if e.ID == o.ID {
			out = append(out, e.Var)
		}
	}
	return out
}

// Lookup returns the row with the given ID that cmd accepts, or nil.
func Lookup(cmd Cmds, id string) *Option {
	for i := range Table {
		if Table[i].ID == id && Table[i].Cmds&cmd != 0 {
			return &Table[i]
		}
	}
	return nil
}

func envTable(cmd Cmds) []EnvVar {
	switch cmd {
	case Srun:
		return SrunEnv
	case Salloc:
		return SallocEnv
	}
	return SbatchEnv
}

// optionsFor returns the table rows cmd accepts, Slurm's first, then Orbit's extensions.
func optionsFor(cmd Cmds) (slurm, ext []*Option) {
	for i := range Table {
		o := &Table[i]
		if o.Cmds&cmd == 0 || o.Name == "" {
			continue
		}
		if o.Extension {
			ext = append(ext, o)
		} else {
			slurm = append(slurm, o)
		}
	}
	return slurm, ext
}
