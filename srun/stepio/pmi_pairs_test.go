package stepio

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

func TestPairs_RoundTripAndMalformed(t *testing.T) {
	var data []byte
	want := [][2]string{{"a", "1"}, {"card-7", strings.Repeat("x", 1024)}, {"empty", ""}}
	for _, p := range want {
		data = AppendPair(data, p[0], p[1])
	}
	var got [][2]string
	if err := EachPair(data, func(k, v string) { got = append(got, [2]string{k, v}) }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, bad := range [][]byte{data[:len(data)-1], {5, 'a'}, {1, 'k'}, {0x80}} {
		if err := EachPair(bad, func(string, string) {}); err != ErrPairs {
			t.Errorf("EachPair(%q) = %v, want ErrPairs", bad, err)
		}
	}
}

// WritePairs splits what exceeds a frame between pairs, and always sends one frame.
func TestWritePairs_SplitsBetweenPairs(t *testing.T) {
	var data []byte
	n := 0
	for len(data) <= 2*MaxData {
		data = AppendPair(data, fmt.Sprint("key-", n), strings.Repeat("v", 1000))
		n++
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf).WritePairs(3, data); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	frames, seen := 0, 0
	for {
		f, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if f.Type != PMIPut || f.Rank != 3 {
			t.Fatalf("frame %d: type %d rank %d", frames, f.Type, f.Rank)
		}
		if err := EachPair(f.Data, func(string, string) { seen++ }); err != nil {
			t.Fatalf("frame %d does not hold whole pairs: %v", frames, err)
		}
		frames++
	}
	if frames < 3 || seen != n {
		t.Fatalf("%d frames holding %d pairs, want at least 3 frames holding %d", frames, seen, n)
	}
	buf.Reset()
	NewWriter(&buf).WritePairs(0, nil)
	if f, err := NewReader(&buf).Read(); err != nil || f.Type != PMIPut || len(f.Data) != 0 {
		t.Fatalf("no pairs: %v %v, want one empty PMIPut frame", f, err)
	}
}

// A Mux carrying two shares hands srun's answer to a fence to each share's handler, and a
// later fence's answer replaces the earlier pairs, even when it brings none.
func TestMux_FenceAnswersReachEachShare(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	m := NewMux(ln.Addr().String(), []byte("key"), 10*time.Second, 2)
	got := make(chan string, 4)
	var shares []*Share
	for node := uint32(0); node < 2; node++ {
		s, err := m.Join(node)
		if err != nil {
			t.Fatal(err)
		}
		s.OnFence(func(pairs []byte) {
			var kv []string
			EachPair(pairs, func(k, v string) { kv = append(kv, k+"="+v) })
			got <- fmt.Sprintf("%d:%s", node, strings.Join(kv, ","))
		})
		shares = append(shares, s)
	}
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, s := range shares {
		s.Stdin(nil)
	}
	w := NewWriter(c)
	w.WritePairs(0, AppendPair(AppendPair(nil, "a", "1"), "b", "2"))
	w.Write(PMIFence, 1, nil)
	w.Write(PMIFence, 0, nil)
	w.WritePairs(0, nil)
	w.Write(PMIFence, 0, nil)
	var answers []string
	for range 3 {
		select {
		case a := <-got:
			answers = append(answers, a)
		case <-time.After(10 * time.Second):
			t.Fatalf("answers so far %q; want three", answers)
		}
	}
	if strings.Join(answers, " ") != "1:a=1,b=2 0:a=1,b=2 0:" {
		t.Fatalf("answers %q", answers)
	}
	for _, s := range shares {
		s.Close()
	}
}
