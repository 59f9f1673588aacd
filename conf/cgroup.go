package conf

import (
	"strconv"
	"strings"
)

// CgroupKeys are the keys of cgroup.conf in Slurm 22.05 (src/common/cgroup.c).
var CgroupKeys = []Key{
	{Name: "CgroupAutomount", Kind: KindBool}, {Name: "CgroupMountpoint", Kind: KindString, Default: "/sys/fs/cgroup"},
	{Name: "CgroupReleaseAgentDir", Kind: KindString}, {Name: "ConstrainCores", Kind: KindBool},
	{Name: "ConstrainRAMSpace", Kind: KindBool}, {Name: "AllowedRAMSpace", Kind: kindFloat, Default: "100"},
	{Name: "MaxRAMPercent", Kind: kindFloat, Default: "100"}, {Name: "MinRAMSpace", Kind: KindUint64, Default: "30"},
	{Name: "ConstrainSwapSpace", Kind: KindBool}, {Name: "ConstrainKmemSpace", Kind: KindBool},
	{Name: "AllowedKmemSpace", Kind: kindFloat}, {Name: "MaxKmemPercent", Kind: kindFloat, Default: "100"},
	{Name: "MinKmemSpace", Kind: KindUint64, Default: "30"}, {Name: "AllowedSwapSpace", Kind: kindFloat, Default: "0"},
	{Name: "MaxSwapPercent", Kind: kindFloat, Default: "100"}, {Name: "MemoryLimitEnforcement", Kind: KindBool},
	{Name: "MemoryLimitThreshold", Kind: kindFloat}, {Name: "ConstrainDevices", Kind: KindBool},
	{Name: "AllowedDevicesFile", Kind: KindString}, {Name: "MemorySwappiness", Kind: KindUint64},
	{Name: "CgroupPlugin", Kind: KindString, Default: "autodetect"}, {Name: "IgnoreSystemd", Kind: KindBool},
	{Name: "IgnoreSystemdOnFailure", Kind: KindBool},
}

// kindFloat is a floating-point value (cgroup.conf percentages).
const kindFloat Kind = 100

// CgroupConfig is cgroup.conf.
type CgroupConfig struct {
	Path               string
	CgroupPlugin       string
	CgroupMountpoint   string
	ConstrainCores     bool
	ConstrainRAMSpace  bool
	ConstrainSwapSpace bool
	ConstrainDevices   bool
	AllowedRAMSpace    float64
	AllowedSwapSpace   float64
	MaxRAMPercent      float64
	MaxSwapPercent     float64
	MinRAMSpace        uint64
	Raw                map[string]Value
}

// LoadCgroup reads and validates cgroup.conf.
func LoadCgroup(path string) (*CgroupConfig, error) {
	var errs errList
	keys := make([]Key, len(CgroupKeys))
	copy(keys, CgroupKeys)
	floats := map[string]bool{}
	for i := range keys {
		if keys[i].Kind == kindFloat {
			floats[keys[i].Name] = true
			keys[i].Kind = KindString
		}
	}
	cf := readCompanion(path, keys, nil, &errs)
	c := &CgroupConfig{Path: path, Raw: map[string]Value{}}
	if cf == nil {
		return c, errs.err()
	}
	c.Raw = cf.raw
	get := func(name string) string {
		if v, ok := cf.raw[name]; ok {
			return v.Value
		}
		for _, k := range CgroupKeys {
			if k.Name == name {
				return k.Default
			}
		}
		return ""
	}
	b := func(name string) bool { v, _ := parseBool(name, get(name)); return v }
	f := func(name string) float64 {
		s := get(name)
		if s == "" {
			return 0
		}
		x, _ := strconv.ParseFloat(s, 64)
		return x
	}
	for _, k := range CgroupKeys {
		if v, set := cf.raw[k.Name]; set && floats[k.Name] {
			if _, err := strconv.ParseFloat(v.Value, 64); err != nil {
				errs.add(v.File, v.Line, k.Name, "%s value (%s) is not a valid number", k.Name, v.Value)
			}
		}
	}
	c.CgroupPlugin = get("CgroupPlugin")
	switch c.CgroupPlugin {
	case "autodetect", "cgroup/v1", "cgroup/v2":
	default:
		v := cf.raw["CgroupPlugin"]
		errs.add(v.File, v.Line, "CgroupPlugin", "unknown CgroupPlugin %s (expected autodetect, cgroup/v1 or cgroup/v2)", c.CgroupPlugin)
	}
	c.CgroupMountpoint = get("CgroupMountpoint")
	c.ConstrainCores = b("ConstrainCores")
	c.ConstrainRAMSpace = b("ConstrainRAMSpace")
	c.ConstrainSwapSpace = b("ConstrainSwapSpace")
	c.ConstrainDevices = b("ConstrainDevices")
	c.AllowedRAMSpace = f("AllowedRAMSpace")
	c.AllowedSwapSpace = f("AllowedSwapSpace")
	c.MaxRAMPercent = f("MaxRAMPercent")
	c.MaxSwapPercent = f("MaxSwapPercent")
	n, _ := parseUint(KindUint64, "MinRAMSpace", get("MinRAMSpace"))
	c.MinRAMSpace = n
	return c, errs.done(path)
}

// showLines are cgroup.conf's values as scontrol show config lists them (Slurm's
// cgroup_get_conf_list, sorted by name): yes/no, percentages with one decimal, sizes in MB,
// (null) for what is unset. A nil c is no cgroup.conf: every default.
func (c *CgroupConfig) showLines() [][2]string {
	raw := map[string]Value{}
	if c != nil {
		raw = c.Raw
	}
	get := func(name, def string) string {
		if v, ok := raw[name]; ok {
			return v.Value
		}
		return def
	}
	yesNo := func(name string) string {
		if v, _ := parseBool(name, get(name, "no")); v {
			return "yes"
		}
		return "no"
	}
	pct := func(name, def string) string {
		x, err := strconv.ParseFloat(get(name, def), 64)
		if err != nil {
			x, _ = strconv.ParseFloat(def, 64)
		}
		return strconv.FormatFloat(x, 'f', 1, 64) + "%"
	}
	mb := func(name string) string {
		n, err := strconv.ParseUint(get(name, "30"), 10, 64)
		if err != nil {
			n = 30
		}
		return strconv.FormatUint(n, 10) + " MB"
	}
	kmem := "(null)"
	if v, ok := raw["AllowedKmemSpace"]; ok {
		if x, err := strconv.ParseFloat(v.Value, 64); err == nil && x >= 0 {
			kmem = strconv.FormatFloat(x, 'f', 0, 64) + " Bytes"
		}
	}
	swappiness := "(null)"
	if v, ok := raw["MemorySwappiness"]; ok {
		if n, err := strconv.ParseUint(v.Value, 10, 64); err == nil {
			swappiness = strconv.FormatUint(min(n, 100), 10)
		}
	}
	mount := strings.TrimRight(get("CgroupMountpoint", "/sys/fs/cgroup"), "/")
	return [][2]string{
		{"AllowedKmemSpace", kmem},
		{"AllowedRAMSpace", pct("AllowedRAMSpace", "100")},
		{"AllowedSwapSpace", pct("AllowedSwapSpace", "0")},
		{"CgroupAutomount", yesNo("CgroupAutomount")},
		{"CgroupMountpoint", mount},
		{"CgroupPlugin", get("CgroupPlugin", "(null)")},
		{"ConstrainCores", yesNo("ConstrainCores")},
		{"ConstrainDevices", yesNo("ConstrainDevices")},
		{"ConstrainKmemSpace", yesNo("ConstrainKmemSpace")},
		{"ConstrainRAMSpace", yesNo("ConstrainRAMSpace")},
		{"ConstrainSwapSpace", yesNo("ConstrainSwapSpace")},
		{"IgnoreSystemd", yesNo("IgnoreSystemd")},
		{"IgnoreSystemdOnFailure", yesNo("IgnoreSystemdOnFailure")},
		{"MaxKmemPercent", pct("MaxKmemPercent", "100")},
		{"MaxRAMPercent", pct("MaxRAMPercent", "100")},
		{"MaxSwapPercent", pct("MaxSwapPercent", "100")},
		{"MemorySwappiness", swappiness},
		{"MinKmemSpace", mb("MinKmemSpace")},
		{"MinRAMSpace", mb("MinRAMSpace")},
	}
}
