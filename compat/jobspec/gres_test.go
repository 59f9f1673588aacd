package jobspec

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseGres(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []GresReq
	}{
		{"gpu", []GresReq{{"gpu", "", 1}}},
		{"gpu:2", []GresReq{{"gpu", "", 2}}},
		{"gpu:a100", []GresReq{{"gpu", "a100", 1}}},
		{"gpu:a100:2", []GresReq{{"gpu", "a100", 2}}},
		{"gpu:1x", []GresReq{{"gpu", "1x", 1}}}, // not a number: a type, as in Slurm
		{"gpu:2k", []GresReq{{"gpu", "", 2048}}},
		{"gpu:0", nil}, // count 0 is dropped (the reference accepts --gres=gpu:0)
		{"gpu:1,,mps:100", []GresReq{{"gpu", "", 1}, {"mps", "", 100}}},
		{"gres:gpu:1,gres:nic:a:3", []GresReq{{"gpu", "", 1}, {"nic", "a", 3}}},
		{"none", nil},
		// One record per name and type, the last count winning (_get_next_job_gres finds
		// the earlier record and overwrites its gres_per_node).
		{"gpu:2,gpu:1", []GresReq{{"gpu", "", 1}}},
		{"gpu:2,gpu:a100:1,gpu:3", []GresReq{{"gpu", "", 3}, {"gpu", "a100", 1}}},
	} {
		got, err := ParseGres(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseGres(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"gpu:", "gpu::1", "gpu:a100:", "gpu:a:b", "gpu:a:-1", ":1", "gpu:a:99999999999999999999"} {
		if _, err := ParseGres(bad); !errors.Is(err, ErrInvalidGres) {
			t.Errorf("ParseGres(%q) error = %v, want ErrInvalidGres", bad, err)
		}
	}
}

func TestCheckGresNames(t *testing.T) {
	r, _ := ParseGres("gpu:1,mps:2")
	if err := CheckGresNames(r, "gpu,mps"); err != nil {
		t.Error(err)
	}
	if err := CheckGresNames(r, "gpu"); !errors.Is(err, ErrInvalidGres) {
		t.Errorf("mps not in GresTypes=gpu: %v", err)
	}
	if err := CheckGresNames(r, ""); !errors.Is(err, ErrInvalidGres) {
		t.Errorf("no GresTypes: %v", err)
	}
}

func TestTresPerNode(t *testing.T) {
	for in, want := range map[string]string{"": "", "gpu:1": "gres:gpu:1", "gpu:a:2,gres:mps:3": "gres:gpu:a:2,gres:mps:3"} {
		if got := TresPerNode(in); got != want {
			t.Errorf("TresPerNode(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseGres(f *testing.F) {
	for _, s := range []string{"gpu:1", "gpu:a100:2,mps:100", "gpu::", ",,", "gres:gpu:3k", "none", "gpu:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		reqs, err := ParseGres(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidGres) {
				t.Fatalf("%q: error %v does not wrap ErrInvalidGres", s, err)
			}
			return
		}
		for _, r := range reqs {
			if r.Name == "" || r.Count == 0 {
				t.Fatalf("%q: bad element %+v", s, r)
			}
		}
	})
}
