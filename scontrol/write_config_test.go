package main

import (
	"strings"
	"testing"
)

// TestWriteConfigPairs: show config's lines become slurm.conf lines as the reference's
// scontrol write config wrote them (values cut at a space, unset ones commented out, command
// lines whole, the daemon's own lines left out), each under its section.
func TestWriteConfigPairs(t *testing.T) {
	text := "Configuration data as of 2026-11-29T21:15:59\n" +
		"AuthAltTypes            = (null)\n" +
		"BOOT_TIME               = 2026-11-29T20:43:17\n" +
		"CpuFreqDef              = Unknown\n" +
		"DefMemPerNode           = UNLIMITED\n" +
		"Epilog                  = /usr/local/bin/epi --all\n" +
		"MailProg                = /bin/true\n" +
		"MessageTimeout          = 10 sec\n" +
		"PreemptMode             = OFF\n" +
		"SlurmctldHost[0]        = vm\n" +
		"TaskPluginParam         = (null type)\n" +
		"SLURM_VERSION           = 22.05.8\n" +
		"\nCgroup Support Configuration:\nAllowedDevicesFile      = /x\n"
	asOf, pairs := configPairs(text)
	if asOf != "2026-11-29T21:15:59" || len(pairs) != 11 {
		t.Fatalf("configPairs: %q, %d pairs", asOf, len(pairs))
	}
	var b strings.Builder
	writeConfigPairs(&b, pairs)
	out := b.String()
	for _, want := range []string{
		"#\n################################################\n#                   CONTROL                    #\n" +
			"################################################\nSlurmctldHost=vm\n#\n",
		"#                    DEBUG                     #\n################################################\n#\n",
		"#               EPILOG & PROLOG                #\n################################################\n" +
			"Epilog=\"/usr/local/bin/epi --all\"\n#\n",
		"\nPreemptMode=OFF\n", "\n#TaskPluginParam=\n", "\n#AuthAltTypes=\n#CpuFreqDef=\n#DefMemPerNode=\nMailProg=/bin/true\nMessageTimeout=10\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"BOOT_TIME", "SLURM_VERSION", "AllowedDevicesFile"} {
		if strings.Contains(out, not) {
			t.Errorf("output has %s:\n%s", not, out)
		}
	}
}
