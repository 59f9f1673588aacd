package jobspec

// DefinedOption is one option the command was given, from its command line, a #SBATCH
// directive or an input environment variable: what Slurm 22.05 marks "set" in its option
// state, and what its -v dump of the defined options lists (compat/options.DefinedOptions).
// The value is kept as given because several of Slurm's printed values are not the request
// Orbit keeps (a --cpu-bind list after checking, a --gres with "gres:" added, a --core-spec
// the configuration refuses).
type DefinedOption struct {
	ID     string // compat/options' Option.ID
	Value  string // the argument as given; "" for a flag
	HasVal bool   // an argument was given (an optional-argument option may have none)
}

// Define records opt as set; setting an option again replaces its record and moves it last,
// so Defined is in the order the options were last set (options sharing one Slurm field,
// such as --requeue and --no-requeue, all print the last one's value).
func (js *JobSpec) Define(opt DefinedOption) {
	js.Undefine(opt.ID)
	js.Defined = append(js.Defined, opt)
}

// Undefine forgets that option id was set, as Slurm's reset of an option does (a false
// flag in the environment, or a rival option that overrides it).
func (js *JobSpec) Undefine(id string) {
	for i, d := range js.Defined {
		if d.ID == id {
			js.Defined = append(js.Defined[:i:i], js.Defined[i+1:]...)
			return
		}
	}
}

// DefinedValue returns the record of option id, and whether it is set.
func (js *JobSpec) DefinedValue(id string) (DefinedOption, bool) {
	for _, d := range js.Defined {
		if d.ID == id {
			return d, true
		}
	}
	return DefinedOption{}, false
}
