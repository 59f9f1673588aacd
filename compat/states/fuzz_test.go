package states

import "testing"

func FuzzParseJobStateList(f *testing.F) {
	for _, s := range []string{"pd", "PD,R", "all", "", ",,", "foo", "COMPLETING,cg", "pending,\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		states, all, err := ParseJobStateList(s)
		if err != nil {
			if len(err.(*JobStateListError).Lines()) != 2 {
				t.Fatal("error must have two lines")
			}
			return
		}
		for _, st := range states {
			// Every accepted name must round-trip through its printed form.
			back, ok := ParseJobState(st.String())
			if !ok || back != st {
				t.Fatalf("%q: %#x does not round-trip (%q)", s, st, st.String())
			}
		}
		_ = all
	})
}

func FuzzParseNodeStateList(f *testing.F) {
	for _, s := range []string{"idle", "i", "drain&idle", "all", "", "&&,", "foo", "MIX-", "?", "drng,resv"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseNodeStateList(s)
	})
}

func FuzzNodeStateNames(f *testing.F) {
	for _, v := range []uint32{0, 2, 0x202, 0xffffffff, 1 << 22, 0x80000005} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v uint32) {
		s := NodeState(v)
		if s.String() == "" || s.Compact() == "" || s.Complete() == "" {
			t.Fatalf("%#x has an empty name", v)
		}
		_ = JobState(v).Complete()
	})
}

func FuzzParseNodeStateComplete(f *testing.F) {
	for _, s := range []string{"IDLE", "IDLE+DRAIN", "mixed+planned+not_responding", "FOO", "+", "IDLE++"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, ok := ParseNodeStateComplete(s)
		if !ok {
			return
		}
		// Round trip: what Complete prints parses back to the same state.
		back, ok := ParseNodeStateComplete(st.Complete())
		if !ok || back != st {
			t.Fatalf("%q -> %#x -> %q does not round-trip", s, st, st.Complete())
		}
	})
}
