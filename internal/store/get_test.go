package store

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
)

// TestStore_Get reads single records back: present, absent, replaced, deleted, and after a
// reopen (the value is on disk, not only in the writer's view).
func TestStore_Get(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := openT(t, dir, Options{})

	var b Batch
	b.Put("job_script", "0000000001", []byte("#!/bin/sh\ntrue\n"))
	b.Put("job", "0000000001", []byte("record"))
	commitT(t, s, &b)

	get := func(kind, key string) ([]byte, bool) {
		t.Helper()
		v, ok, err := s.Get(kind, key)
		if err != nil {
			t.Fatalf("Get(%s, %s): %v", kind, key, err)
		}
		return v, ok
	}
	if v, ok := get("job_script", "0000000001"); !ok || !bytes.Equal(v, []byte("#!/bin/sh\ntrue\n")) {
		t.Fatalf("Get = %q, %v; want the script", v, ok)
	}
	if _, ok := get("job_script", "0000000002"); ok {
		t.Fatal("Get of a missing key reports it present")
	}
	if _, ok := get("node", "0000000001"); ok {
		t.Fatal("Get finds a key under another kind")
	}

	var b2 Batch
	b2.Put("job_script", "0000000001", []byte("v2"))
	commitT(t, s, &b2)
	if v, _ := get("job_script", "0000000001"); string(v) != "v2" {
		t.Fatalf("after Put: Get = %q, want v2", v)
	}
	s.Close()

	s = openT(t, dir, Options{})
	if v, ok, err := s.Get("job_script", "0000000001"); err != nil || !ok || string(v) != "v2" {
		t.Fatalf("after reopen: Get = %q, %v, %v", v, ok, err)
	}
	var b3 Batch
	b3.Delete("job_script", "0000000001")
	commitT(t, s, &b3)
	if v, ok, err := s.Get("job_script", "0000000001"); err != nil || ok {
		t.Fatalf("after Delete: Get = %q, %v, %v; want absent", v, ok, err)
	}
	s.Close()
	if _, _, err := s.Get("job_script", "0000000001"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Get after Close: %v, want ErrClosed", err)
	}
}
