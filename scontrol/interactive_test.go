package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"
)

// TestInteractivePromptFlushed: at the prompt scontrol has written "scontrol: " (and the
// last answer) before it waits for the user's line, as a program driving it on a terminal
// expects (Slurm's test2.4 waits for the prompt, then types "ping").
func TestInteractivePromptFlushed(t *testing.T) {
	outR, outW := io.Pipe()
	inR, inW := io.Pipe()
	c := &cli{prog: "scontrol", stdout: bufio.NewWriter(outW), stderr: io.Discard}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.interactive(inR)
		c.stdout.Flush()
		outW.Close()
	}()
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, len("scontrol: "))
		n, _ := io.ReadFull(outR, buf)
		got <- string(buf[:n])
	}()
	select {
	case p := <-got:
		if p != "scontrol: " {
			t.Errorf("first output %q, want the prompt", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no prompt before any input")
	}
	go io.Copy(io.Discard, outR)
	io.Copy(inW, strings.NewReader("exit\n"))
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("exit did not end the prompt")
	}
}
