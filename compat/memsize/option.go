package memsize

// OptionError is a refused --mem, --mem-per-cpu, --mem-per-gpu or --tmp value. Error() is
// the text sbatch, salloc and srun print after "<cmd>: error: " before exiting 255, e.g.
// "Invalid --mem specification".
type OptionError struct {
	Option string // with its dashes: "--mem"
}

func (e *OptionError) Error() string {
	return "Invalid " + e.Option + " specification"
}

// ParseMBOption parses a command-line memory size as sbatch/salloc/srun do (option names the
// option, with its dashes): ParseMB, with an *OptionError carrying Slurm's message when the
// value is refused.
func ParseMBOption(option, s string) (uint64, error) {
	mb, err := ParseMB(s)
	if err != nil {
		return 0, &OptionError{Option: option}
	}
	return mb, nil
}
