package wire

import (
	"fmt"
	"reflect"
	"testing"
)

// Encode and decode speed of Orbit's codec against ugorji's on the two messages that
// matter most: a 10,000-job squeue reply sent unpacked, and an sbatch submission.

// benchFill sets every field of v to a plausible non-zero value derived from i.
func benchFill(v reflect.Value, i int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("value-%d", i%97))
	case reflect.Bool:
		v.SetBool(i%2 == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(i % 100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(1700000000 + i))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(i) / 3)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 3, 3)
		for k := 0; k < 3; k++ {
			benchFill(s.Index(k), i+k)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for k := 0; k < 3; k++ {
			key, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			benchFill(key, i+k)
			benchFill(val, i+k)
			m.SetMapIndex(key, val)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		benchFill(p.Elem(), i)
		v.Set(p)
	case reflect.Struct:
		for k := 0; k < v.NumField(); k++ {
			if v.Type().Field(k).IsExported() {
				benchFill(v.Field(k), i+k)
			}
		}
	}
}

func benchMessages() map[string]any {
	rep := &JobInfoReply{LastUpdate: 1700000000, Jobs: make([]JobInfo, 10000)}
	for i := range rep.Jobs {
		benchFill(reflect.ValueOf(&rep.Jobs[i]).Elem(), i)
	}
	desc := new(JobDesc)
	benchFill(reflect.ValueOf(desc).Elem(), 1)
	return map[string]any{"JobInfoReply10k": rep, "JobDesc": desc}
}

func BenchmarkMsgpack(b *testing.B) {
	msgs := benchMessages()
	for _, name := range []string{"JobInfoReply10k", "JobDesc"} {
		v := msgs[name]
		enc, err := mpMarshal(v)
		if err != nil {
			b.Fatal(err)
		}
		rt := reflect.TypeOf(v).Elem()
		b.Run(name+"/encode/orbit", func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				if _, err := mpMarshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encode/ugorji", func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				if _, err := ugorjiMarshal(ugorjiWire, v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/decode/orbit", func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				if err := Unmarshal(enc, reflect.New(rt).Interface()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/decode/ugorji", func(b *testing.B) {
			b.SetBytes(int64(len(enc)))
			for b.Loop() {
				if err := ugorjiUnmarshal(enc, reflect.New(rt).Interface()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
