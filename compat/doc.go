// Package compat is the root of the Slurm surface every Orbit binary shares. Its
// subpackages each own one part of what a user sees: hostlists, time limits and dates, memory
// sizes, license lists, the job-option table and job spec, output file patterns, the output-format engine
// behind squeue/sinfo/sacct, job/node states with their reason strings, the C library's
// system error texts Slurm's messages quote, and the openapi layouts behind --json/--yaml.
//
// Nothing under compat/ may import conf/, internal/, plugins/ or any daemon or command
// package: commands link it, and it must stay small and free of daemon code. The one
// exception is compat/openapi, which renders internal/wire's info types (and nothing else
// of internal/); testsuite/deps_test.go holds both rules.
package compat
