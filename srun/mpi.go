package main

import (
	"fmt"
	"io"
	"strings"
)

// slurmMPITypes are the MPI plugins Slurm 22.05 ships: Orbit names them when it refuses
// them, where an unknown type gets Slurm's own answer.
var slurmMPITypes = []string{"pmi2", "pmix", "cray_shasta"}

// checkMPI applies srun --mpi (or, without it, slurm.conf's MpiDefault) as far as Orbit
// can: "none" runs the step as Slurm's mpi/none does, "list" prints the types Orbit has,
// Slurm's PMI plugins are refused by name (Orbit's slurmstepd serves no PMI yet, and an MPI
// program started without it would run as separate singletons), and an unknown type gets
// Slurm's plugin-loading errors. It returns srun's exit code when srun must stop, else -1.
// MpiDefault itself is not checked: a site's default would stop every srun.
func checkMPI(mpi string, stdout, stderr io.Writer) int {
	switch {
	case mpi == "" || mpi == "none":
		return -1
	case mpi == "list":
		io.WriteString(stdout, "MPI plugin types are...\n\tnone\n")
		return 0
	}
	for _, t := range slurmMPITypes {
		if mpi == t || t == "pmix" && strings.HasPrefix(mpi, "pmix_v") {
			fmt.Fprintf(stderr, "srun: error: --mpi=%s is not supported by Orbit yet\n", mpi)
			return 1
		}
	}
	fmt.Fprintf(stderr, "srun: error: Couldn't find the specified plugin name for mpi/%s looking at all files\n", mpi)
	fmt.Fprintf(stderr, "srun: error: cannot find mpi plugin for mpi/%s\n", mpi)
	fmt.Fprintf(stderr, "srun: error: MPI: Cannot create context for mpi/%s\n", mpi)
	fmt.Fprintf(stderr, "srun: error: MPI: Unable to load any plugin\n")
	fmt.Fprintf(stderr, "srun: error: Invalid MPI type '%s', --mpi=list for acceptable types\n", mpi)
	return 1
}
