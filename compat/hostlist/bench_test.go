package hostlist

import "testing"

// BenchmarkExpandCompress100k expands a 100,000-host expression and compresses it back.
func BenchmarkExpandCompress100k(b *testing.B) {
	const expr = "rack[0-99]n[0000-0999]"
	for b.Loop() {
		names, err := Expand(expr)
		if err != nil || len(names) != 100000 {
			b.Fatalf("Expand: %d names, %v", len(names), err)
		}
		if got := Compress(names); len(got) == 0 {
			b.Fatal("empty compression")
		}
	}
}

// BenchmarkCompressSorted100k sorts and compresses 100,000 names given in reverse order.
func BenchmarkCompressSorted100k(b *testing.B) {
	names, err := Expand("rack[0-99]n[0000-0999]")
	if err != nil {
		b.Fatal(err)
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	for b.Loop() {
		if got := CompressSorted(names); len(got) == 0 {
			b.Fatal("empty compression")
		}
	}
}
