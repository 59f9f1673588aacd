package conf

import "strings"

// ExpandNodePattern substitutes %n (node name) and %h (node host name) in a path such as
// SlurmdSpoolDir, SlurmdPidFile or SlurmdLogFile, where Slurm allows them, as slurmd does
// when it starts for a node. Other characters, and %% (Slurm leaves it alone here), are kept.
func ExpandNodePattern(pattern, nodeName, hostName string) string {
	if !strings.Contains(pattern, "%") {
		return pattern
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '%' && i+1 < len(pattern) {
			switch pattern[i+1] {
			case 'n':
				b.WriteString(nodeName)
				i++
				continue
			case 'h':
				b.WriteString(hostName)
				i++
				continue
			}
		}
		b.WriteByte(pattern[i])
	}
	return b.String()
}
