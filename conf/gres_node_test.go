package conf

import (
	"reflect"
	"testing"
)

func TestNodeGres(t *testing.T) {
	c := &Config{Gres: &GresConfig{Lines: []*GresLine{
		{NodeName: "g1", Nodes: []string{"g1"}, Name: "gpu", Type: "v100", File: "/dev/nvidia[0-2]"},
		{Name: "nic", Count: 2},
	}}}
	for _, tc := range []struct {
		node, gres string
		want       []NodeGres
	}{
		{"n1", "gpu:4", []NodeGres{{"gpu", "", 4, false}}},
		{"n1", "gpu:a100:2,gpu:v100:1(S:0-1)", []NodeGres{{"gpu", "a100", 2, false}, {"gpu", "v100", 1, false}}},
		{"g1", "gpu:v100", []NodeGres{{"gpu", "v100", 3, true}}}, // gres.conf File= devices
		{"n1", "nic,mps:0,bad:x:y:z", []NodeGres{{"nic", "", 2, false}}},
		{"n1", "", nil},
	} {
		got := c.NodeGres(&Node{Name: tc.node, Gres: tc.gres})
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s Gres=%s: got %v, want %v", tc.node, tc.gres, got, tc.want)
		}
	}
}
