package memsize

import (
	"errors"
	"testing"
)

func TestParseMB(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"0", 0}, {"1", 1}, {"1024", 1024}, {"257000", 257000},
		{"0K", 0}, {"1K", 1}, {"1024K", 1}, {"1025K", 2}, {"1500K", 2}, {"1048576k", 1024},
		{"500M", 500}, {"500m", 500}, {"4G", 4096}, {"4g", 4096}, {"2T", 2 << 20},
		{"10GB", 10240}, {"10Gb", 10240}, {"10gb", 10240}, {"1MB", 1}, {"1KB", 1},
		{" 7", 7}, {"+8", 8}, {"-0", 0},
	}
	for _, tt := range tests {
		got, err := ParseMB(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseMB(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestParseMB_Invalid(t *testing.T) {
	for _, in := range []string{"", "-5", "1.5G", "5X", "1G2", "GB", "4GiB", "4GBB", "G", " ",
		"99999999999999999999", "9223372036854775807G", "4 G", "0x10"} {
		if got, err := ParseMB(in); err == nil {
			t.Errorf("ParseMB(%q) = %d, want an error", in, got)
		}
	}
}

func TestParseMBOption_Message(t *testing.T) {
	_, err := ParseMBOption("--mem-per-cpu", "1.5G")
	var oe *OptionError
	if !errors.As(err, &oe) || err.Error() != "Invalid --mem-per-cpu specification" {
		t.Errorf("error = %v", err)
	}
}

func TestFormatMB(t *testing.T) {
	tests := []struct {
		mb   uint64
		want string
	}{
		{0, "0"}, {1, "1M"}, {500, "500M"}, {1023, "1023M"}, {1024, "1G"}, {1025, "1025M"},
		{1536, "1.50G"}, {2560, "2.50G"}, {257000, "257000M"}, {262144, "256G"},
		{1 << 20, "1T"}, {1572864, "1.50T"}, {1 << 30, "1P"}, {1 << 40, "1?"}, // past P Slurm prints its unknown unit,
		// 1280 is not a multiple of 512: printed in MiB.
		{1280, "1280M"},
	}
	for _, tt := range tests {
		if got := FormatMB(tt.mb); got != tt.want {
			t.Errorf("FormatMB(%d) = %q, want %q", tt.mb, got, tt.want)
		}
	}
}

func TestMbytesToStr(t *testing.T) {
	tests := []struct {
		mb   uint64
		want string
	}{
		{1, "1"}, {1536, "1536"}, {1024, "1G"}, {4096, "4G"}, {1 << 20, "1T"}, {3 << 30, "3P"},
		{0, "0?"}, // Slurm's loop divides 0 through every unit
	}
	for _, tt := range tests {
		if got := MbytesToStr(tt.mb); got != tt.want {
			t.Errorf("MbytesToStr(%d) = %q, want %q", tt.mb, got, tt.want)
		}
	}
}

func FuzzParseMB(f *testing.F) {
	for _, s := range []string{"0", "1500K", "4G", "4gb", "2T", "1.5G", "", "-5", " 7", "+8",
		"9223372036854775807", "9223372036854775807T", "1KB", "5X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		mb, err := ParseMB(s)
		if err != nil {
			return
		}
		// Whatever parses prints, and the printed MiB count without a suffix re-parses.
		_ = FormatMB(mb)
		_ = MbytesToStr(mb)
		// str_to_mbytes knows no P suffix, so only sizes below 1P round-trip.
		if back, err := ParseMB(MbytesToStr(mb)); mb != 0 && mb < 1<<30 && (err != nil || back != mb) {
			t.Fatalf("ParseMB(%q) = %d; MbytesToStr gives %q which re-parses to %d, %v",
				s, mb, MbytesToStr(mb), back, err)
		}
	})
}

func BenchmarkParseMB(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := ParseMB("1500K"); err != nil {
			b.Fatal(err)
		}
	}
}
