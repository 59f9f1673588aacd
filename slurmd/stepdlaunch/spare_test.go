package stepdlaunch

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestOrder_RoundTripAndRefusals(t *testing.T) {
	for _, o := range []Order{
		{Mode: "--step", Path: "/var/spool/slurmd/n1/job00042/step_3.launch", Node: "n1"},
		{Mode: "--batch", Path: "/spool with space/job00001/launch", Node: ""},
	} {
		got, err := ReadOrder(bytes.NewReader(EncodeOrder(o)))
		if err != nil || got != o {
			t.Errorf("ReadOrder(EncodeOrder(%+v)) = %+v, %v", o, got, err)
		}
	}
	if _, err := ReadOrder(bytes.NewReader(nil)); !errors.Is(err, io.EOF) {
		t.Errorf("an empty order pipe reads %v, want io.EOF (no order: leave quietly)", err)
	}
	for _, bad := range []string{"--step", "--step\x00/p", "--spare\x00/p\x00n1", "--batch\x00\x00n1", "--step\x00/p\x00n1\x00x"} {
		if o, err := ReadOrder(bytes.NewReader([]byte(bad))); err == nil || errors.Is(err, io.EOF) {
			t.Errorf("ReadOrder(%q) = %+v, %v; want a malformed-order error", bad, o, err)
		}
	}
}

func FuzzReadOrder(f *testing.F) {
	f.Add(EncodeOrder(Order{Mode: "--step", Path: "/s/job00001/step_0.launch", Node: "n1"}))
	f.Add([]byte("--batch\x00/x\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := ReadOrder(bytes.NewReader(b))
		if err != nil {
			return
		}
		if o.Path == "" || (o.Mode != "--step" && o.Mode != "--batch") {
			t.Fatalf("ReadOrder(%q) accepted %+v", b, o)
		}
		if again, err := ReadOrder(bytes.NewReader(EncodeOrder(o))); err != nil || again != o {
			t.Fatalf("order %+v does not survive a round trip: %+v, %v", o, again, err)
		}
	})
}
