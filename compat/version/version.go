// Package version holds the version every Orbit binary prints for -V/--version.
//
// The text is upstream Slurm's shape ("slurm 22.05.8") with Orbit's own version after it, so
// tools that parse `slurm X.Y.Z` keep working. (Debian's build of the reference prints
// "slurm-wlm 22.05.8"; upstream Slurm prints "slurm 22.05.8", which is what scripts match.)
package version

// Slurm is the Slurm release whose user-visible surface Orbit reproduces.
const Slurm = "22.05.8"

// Orbit is Orbit's own release.
const Orbit = "0.1.0"

// String is the line printed by `<command> -V`.
func String() string { return "slurm " + Slurm + " (orbit " + Orbit + ")" }
