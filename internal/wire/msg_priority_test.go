package wire

import (
	"reflect"
	"testing"
)

func samplePriorityReply() *PriorityFactorsReply {
	return &PriorityFactorsReply{PriorityType: "priority/multifactor", Factors: []PriorityFactors{
		{JobID: 7, UserID: 1000, Partition: "debug", Age: 500, JobSize: 833.3333333333334, Part: 1000,
			Site: 0x80000000, Nice: 0x80000000 + 100},
		{JobID: 8, UserID: 0, Partition: "other", Site: 0x80000000, Nice: 0x80000000, DirectPrio: 5000},
	}}
}

// TestPriority_Golden pins the encoding of the sprio family.
func TestPriority_Golden(t *testing.T) {
	for name, v := range map[string]any{
		"priority_factors.hex":       &PriorityFactorsRequest{JobIDs: []uint32{7, 8}, UserIDs: []uint32{1000}, Partitions: "debug,other"},
		"priority_factors_reply.hex": samplePriorityReply(),
	} {
		got, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name, got)
		fresh := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		if err := Unmarshal(got, fresh); err != nil || !reflect.DeepEqual(fresh, v) {
			t.Fatalf("%s: round trip gave %+v, %v", name, fresh, err)
		}
	}
}

// FuzzDecodePriorityFactors feeds the decoder arbitrary bytes: an error or a value, never a
// panic or a hang.
func FuzzDecodePriorityFactors(f *testing.F) {
	req, _ := Marshal(&PriorityFactorsRequest{JobIDs: []uint32{1}, Partitions: "a"})
	rep, _ := Marshal(samplePriorityReply())
	f.Add(req)
	f.Add(rep)
	f.Add(rep[:len(rep)/2])
	f.Add([]byte{0x80})
	f.Add([]byte{0xdd, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Unmarshal(b, new(PriorityFactorsRequest))
		_ = Unmarshal(b, new(PriorityFactorsReply))
	})
}
