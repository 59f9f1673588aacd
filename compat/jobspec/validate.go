package jobspec

import "fmt"

// Error is a Slurm error about a job spec. Msg is the text after "sbatch: error: "; a
// Controller error is one slurmctld reports, which sbatch prints after "Batch job
// submission failed: ". ExitCode is the command's exit status.
type Error struct {
	Msg        string
	Controller bool
	Fatal      bool // printed with "fatal: " instead of "error: "
	ExitCode   int  // 0 means 1
}

func (e *Error) Error() string { return e.Msg }

// Validate checks what the command itself checks after all options are applied (sbatch's
// _opt_verify) and what the controller rejects at submission, with Slurm's texts. It also
// fills Dependencies and Array from their text forms.
func (js *JobSpec) Validate() error {
	return js.ValidateWith(DefaultMaxArraySize)
}

// ValidateWith is Validate with the cluster's MaxArraySize.
func (js *JobSpec) ValidateWith(maxArraySize uint32) error {
	if js.Verbose > 0 && js.Quiet {
		return &Error{Msg: "don't specify both --verbose (-v) and --quiet (-Q)"}
	}
	if js.NodesSet && js.MaxNodes != 0 && js.MinNodes != NoVal && js.MinNodes > js.MaxNodes {
		return &Error{Msg: fmt.Sprintf("invalid number of nodes (-N %d-%d)", js.MinNodes, js.MaxNodes)}
	}
	if !js.Begin.IsZero() && !js.Deadline.IsZero() && js.Deadline.Before(js.Begin) {
		return &Error{Msg: "Incompatible begin and deadline time specification"}
	}
	if js.MinNodesInvasive != NoVal && js.MaxNodesInvasive != NoVal && js.MinNodesInvasive > js.MaxNodesInvasive {
		return &Error{Msg: fmt.Sprintf("--min-nodes-invasive (%d) is greater than --max-nodes-invasive (%d)", js.MinNodesInvasive, js.MaxNodesInvasive)}
	}
	if js.MinPower != NoVal && js.MaxPower != NoVal && js.MinPower > js.MaxPower {
		return &Error{Msg: fmt.Sprintf("--min-power (%d) is greater than --max-power (%d)", js.MinPower, js.MaxPower)}
	}
	if js.ArraySpec != "" {
		a, err := ParseArray(js.ArraySpec, maxArraySize)
		if err != nil {
			return err
		}
		js.Array = a
	}
	if js.Dependency != "" {
		d, err := ParseDependency(js.Dependency)
		if err != nil {
			return err
		}
		js.Dependencies = d
	}
	return nil
}
