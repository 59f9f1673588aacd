package stepio

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	cases := []Frame{
		{Type: Hello, Rank: 3, Data: []byte("key")},
		{Type: Stdout, Rank: 0, Data: []byte("hello\n")},
		{Type: Stderr, Rank: 12, Data: []byte{}},
		{Type: Exit, Rank: 7, Data: ExitData(9)},
		{Type: StdinEOF, Rank: 0, Data: []byte{}},
		{Type: Join, Rank: 4, Data: []byte{}},
		{Type: Done, Rank: 4, Data: []byte{}},
		{Type: Cancelled, Rank: 2, Data: []byte{}},
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, f := range cases {
		if err := w.Write(f.Type, f.Rank, f.Data); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(&buf)
	for _, want := range cases {
		got, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if got.Type != want.Type || got.Rank != want.Rank || !bytes.Equal(got.Data, want.Data) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	}
	if _, err := r.Read(); err != io.EOF {
		t.Errorf("after the last frame: %v, want EOF", err)
	}
}

func TestLargeWriteIsSplit(t *testing.T) {
	var buf bytes.Buffer
	data := bytes.Repeat([]byte("x"), MaxData+10)
	if _, err := NewWriter(&buf).TaskWriter(Stdout, 1).Write(data); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	var got []byte
	for {
		f, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f.Data...)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("reassembled %d bytes, want %d", len(got), len(data))
	}
}

func TestBadFrames(t *testing.T) {
	cases := map[string][]byte{
		"unknown type":   {99, 0, 0, 0, 0, 0, 0, 0, 0},
		"oversized":      {Stdout, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff},
		"short header":   {Stdout, 0, 0},
		"truncated data": {Stdout, 0, 0, 0, 0, 0, 0, 0, 5, 'a'},
	}
	for name, in := range cases {
		if _, err := NewReader(bytes.NewReader(in)).Read(); !errors.Is(err, ErrFrame) {
			t.Errorf("%s: %v, want ErrFrame", name, err)
		}
	}
	if _, err := ExitStatus([]byte{1}); !errors.Is(err, ErrFrame) {
		t.Errorf("short exit status: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Write(Hello, 0, []byte("k"))
	w.Write(Exit, 2, ExitData(256))
	w.Write(Join, 5, nil)
	w.Write(Done, 5, nil)
	f.Add(buf.Bytes())
	f.Add([]byte{Stdout, 0, 0, 0, 1, 0, 0, 0, 2, 'h', 'i'})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in))
		for {
			fr, err := r.Read()
			if err != nil {
				return
			}
			if len(fr.Data) > MaxData {
				t.Fatalf("frame of %d bytes", len(fr.Data))
			}
		}
	})
}
