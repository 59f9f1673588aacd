package main

import (
	"fmt"
	"io"
	"strings"
)

// MPI types srun runs steps with.
const (
	mpiNone = "none"
	mpiPMI2 = "pmi2" // Slurm's mpi/pmi2: slurmstepd serves PMI-1 and PMI-2 (slurmd/pmi)
)

// mpiListText is srun --mpi=list's answer: the types Orbit runs steps with.
const mpiListText = "MPI plugin types are...\n\tnone\n\tpmi2\n"

// slurmMPITypes are the other MPI plugins Slurm 22.05 ships: Orbit names them when it
// refuses them, where an unknown type gets Slurm's own answer.
var slurmMPITypes = []string{"pmix", "cray_shasta"}

// mpiType is the MPI type of srun's step: --mpi as given, else slurm.conf's MpiDefault.
// "openmpi" is Slurm's old name for none. A site's MpiDefault that Orbit does not run
// (pmix, cray_shasta) leaves steps without PMI rather than stopping every srun; slurmctld
// names it among the keys it does not act on.
func mpiType(given, confDefault string) string {
	t := given
	if t == "" {
		t = confDefault
		if t != mpiPMI2 {
			t = mpiNone
		}
	}
	if t == "" || t == "openmpi" {
		t = mpiNone
	}
	return t
}

// checkMPI checks the step's MPI type: none and pmi2 run, Slurm's other PMI plugins are
// refused by name, and an unknown type gets Slurm's plugin-loading errors. It returns
// srun's exit code when srun must stop, else -1. (--mpi=list is answered before: it needs
// no command.)
func checkMPI(mpi string, stderr io.Writer) int {
	switch mpi {
	case mpiNone, mpiPMI2:
		return -1
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
