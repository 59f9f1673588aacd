// Package format owns the output-format engine behind squeue, sinfo and sacct: parsing
// `-o "%[.][width]letter..."` and `-O "name[:[.]width][suffix],..."` specifications (and
// sacct's `--format name%width`) into field lists, and rendering header and rows with
// Slurm's exact padding and truncation rules. A command supplies a Table of fields (letter,
// long names, header title, a getter for one row); this package also carries the tables,
// row types and default formats of squeue (jobs and steps), sinfo and sacct so that the
// commands themselves stay thin.
//
// It imports only the standard library and compat/states; it must not import conf/,
// internal/ or any daemon or command package.
package format
