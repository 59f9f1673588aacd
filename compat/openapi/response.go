package openapi

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/version"
)

// Plugin type and name the meta block names: the openapi plugin Slurm 22.05's squeue and
// sinfo load for --json/--yaml.
const (
	PluginType = "openapi/v0.0.38"
	PluginName = "Slurm OpenAPI v0.0.38"
)

// NewResponse returns the skeleton every v0.0.38 answer starts with (Slurm's
// populate_response_format): meta (plugin, then the Slurm version as major, micro, minor
// and release) and an empty errors list. The version is the one Orbit reports.
func NewResponse() *Value {
	r := NewDict()
	meta := r.Set("meta", NewDict())
	plugin := meta.Set("plugin", NewDict())
	slurm := meta.Set("Slurm", NewDict())
	ver := slurm.Set("version", NewDict())
	major, minor, micro := splitVersion(version.Slurm)
	ver.Set("major", IntValue(major))
	ver.Set("micro", IntValue(micro))
	ver.Set("minor", IntValue(minor))
	slurm.Set("release", Str(version.Slurm))
	plugin.Set("type", Str(PluginType))
	plugin.Set("name", Str(PluginName))
	r.Set("errors", NewList())
	return r
}

func splitVersion(v string) (major, minor, micro int64) {
	parts := strings.SplitN(v, ".", 3)
	n := make([]int64, 3)
	for i := 0; i < len(parts) && i < 3; i++ {
		n[i], _ = strconv.ParseInt(parts[i], 10, 64)
	}
	return n[0], n[1], n[2]
}

// AddError appends one entry to the response's errors list the way the v0.0.38 jobs
// handler does (resp_error): description, then error_number and error, then source.
func AddError(resp *Value, errno int, errText, source, description string) {
	e := resp.Get("errors").Append(NewDict())
	if description != "" {
		e.Set("description", Str(description))
	}
	if errno != 0 {
		e.Set("error_number", IntValue(int64(errno)))
		e.Set("error", Str(errText))
	}
	if source != "" {
		e.Set("source", Str(source))
	}
}

// AddNodeError appends one entry the way the v0.0.38 nodes handler does: error, then errno.
func AddNodeError(resp *Value, errno int, errText string) {
	e := resp.Get("errors").Append(NewDict())
	e.Set("error", Str(errText))
	e.Set("errno", IntValue(int64(errno)))
}
