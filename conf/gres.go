package conf

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// GresKeys are the sub-keys of a gres.conf Name= or NodeName= line (_gres_options[] in
// Slurm 22.05's gres.c). CPUs is the deprecated name of Cores; File/Files and Link/Links are
// synonyms.
var GresKeys = []Key{
	{Name: "AutoDetect", Kind: KindString}, {Name: "Count", Kind: KindString},
	{Name: "CPUs", Kind: KindString}, {Name: "Cores", Kind: KindString},
	{Name: "File", Kind: KindString}, {Name: "Files", Kind: KindString},
	{Name: "Flags", Kind: KindString}, {Name: "Link", Kind: KindString},
	{Name: "Links", Kind: KindString}, {Name: "MultipleFiles", Kind: KindString},
	{Name: "Name", Kind: KindString}, {Name: "Type", Kind: KindString},
}

var gresTopKeys = []Key{{Name: "AutoDetect", Kind: KindString}}

// GresConfig is gres.conf.
type GresConfig struct {
	Path       string
	AutoDetect string // global AutoDetect=nvml|rsmi|off
	Lines      []*GresLine
}

// GresLine is one gres.conf line: NodeName="" applies to every node.
type GresLine struct {
	NodeName   string   // hostlist as written, "" for a global line
	Nodes      []string // expanded NodeName
	Name       string
	Type       string
	File       string
	Count      uint64 // 0 when not given (one per File entry, or 1)
	Cores      string
	Links      string
	Flags      string
	AutoDetect string
	SrcFile    string
	Line       int
}

var gresFlags = map[string]bool{"cuda_gpu_env": true, "nvidia_gpu_env": true, "amd_gpu_env": true,
	"intel_gpu_env": true, "opencl_env": true, "no_gpu_env": true, "one_sharing": true, "all_sharing": true,
	"countonly": true, "explicit": true}

// LoadGres reads and validates gres.conf.
func LoadGres(path string) (*GresConfig, error) {
	var errs errList
	cf := readCompanion(path, gresTopKeys, map[string][]Key{"Name": GresKeys, "NodeName": GresKeys}, &errs)
	g := &GresConfig{Path: path}
	if cf == nil {
		return g, errs.err()
	}
	if v, ok := cf.raw["AutoDetect"]; ok {
		g.AutoDetect = v.Value
		checkAutoDetect(&errs, position{v.File, v.Line}, v.Value)
	}
	for _, r := range cf.recs {
		ln := &GresLine{SrcFile: r.pos.file, Line: r.pos.line}
		v := r.vals
		if r.key == "NodeName" {
			ln.NodeName = r.value
			names, err := hostlist.Expand(r.value)
			if err != nil {
				errs.add(r.pos.file, r.pos.line, "NodeName", "Unable to create NodeName list from %s", r.value)
				continue
			}
			ln.Nodes = names
			ln.Name = v.str("Name")
		} else {
			ln.Name = r.value
		}
		if ln.Name == "" {
			if v.str("AutoDetect") != "" {
				// NodeName=x AutoDetect=nvml: a per-node AutoDetect line without a name.
				ln.AutoDetect = v.str("AutoDetect")
				checkAutoDetect(&errs, r.pos, ln.AutoDetect)
				g.Lines = append(g.Lines, ln)
				continue
			}
			errs.add(r.pos.file, r.pos.line, "Name", "Invalid GRES data, no type name (Name)")
			continue
		}
		ln.Type = v.str("Type")
		ln.File = or(v.str("File"), or(v.str("Files"), v.str("MultipleFiles")))
		ln.Cores = or(v.str("Cores"), v.str("CPUs"))
		ln.Links = or(v.str("Links"), v.str("Link"))
		ln.Flags = v.str("Flags")
		ln.AutoDetect = v.str("AutoDetect")
		if ln.AutoDetect != "" {
			checkAutoDetect(&errs, r.pos, ln.AutoDetect)
		}
		if s, ok := v.get("Count"); ok {
			n, ok := gresCount(s)
			if !ok {
				errs.add(r.pos.file, r.pos.line, "Count", "Invalid GRES record for %s, invalid count %s", ln.Name, s)
				continue
			}
			ln.Count = n
		}
		if ln.Flags != "" {
			bad := false
			for _, f := range strings.Split(ln.Flags, ",") {
				if !gresFlags[strings.ToLower(f)] {
					errs.add(r.pos.file, r.pos.line, "Flags", "Invalid GRES Flags %s for %s", f, ln.Name)
					bad = true
				}
			}
			if bad {
				continue
			}
		}
		if ln.File != "" {
			if _, err := hostlist.Expand(ln.File); err != nil {
				errs.add(r.pos.file, r.pos.line, "File", "Invalid GRES File %s for %s", ln.File, ln.Name)
				continue
			}
		}
		g.Lines = append(g.Lines, ln)
	}
	return g, errs.done(path)
}

func checkAutoDetect(errs *errList, pos position, v string) {
	switch strings.ToLower(v) {
	case "nvml", "rsmi", "off", "oneapi", "nrt":
	default:
		errs.add(pos.file, pos.line, "AutoDetect", "unrecognized gres.conf AutoDetect mode: '%s'", v)
	}
}

// gresCount parses a GRES Count with an optional k/m/g/t/p suffix (×1024 each step).
func gresCount(s string) (uint64, bool) {
	mult := uint64(1)
	if s != "" {
		switch strings.ToLower(s[len(s)-1:]) {
		case "k":
			mult = 1 << 10
		case "m":
			mult = 1 << 20
		case "g":
			mult = 1 << 30
		case "t":
			mult = 1 << 40
		case "p":
			mult = 1 << 50
		}
		if mult > 1 {
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > (1<<63)/mult {
		return 0, false
	}
	return n * mult, true
}
