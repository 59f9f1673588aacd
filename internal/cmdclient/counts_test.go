package cmdclient

import "testing"

func TestRepeatCounts(t *testing.T) {
	cases := map[string][]uint32{"2(x3),1": {2, 2, 2, 1}, "4": {4}, "1,2,1": {1, 2, 1}, "": nil}
	for want, in := range cases {
		if got := RepeatCounts(in); got != want {
			t.Errorf("RepeatCounts(%v) = %q, want %q", in, got, want)
		}
	}
}
