// Package openapi renders what `squeue --json`, `sinfo --json` and their `--yaml` forms print
// in Slurm 22.05: the openapi/v0.0.38 data layout of jobs and nodes (Slurm's
// src/plugins/openapi/v0.0.38), built from Orbit's wire info types, and the serializer_json
// (json-c, pretty) and serializer_yaml (libyaml, tagged) plugins' exact formatting.
//
// The layout is kept as an ordered data tree (Value) like Slurm's data_t, so key order,
// null versus "" versus number, and empty lists come out as the reference prints them.
//
// It may import compat/* and internal/wire only (the wire info types are its input); it must
// not import daemon code, conf/ or the command client.
package openapi
