package stepio

import (
	"encoding/binary"
	"errors"
)

// AppendPair appends one PMI key-value pair to buf as PMIPut frames carry them: the key's
// length (uvarint), the key, the value's length, the value.
func AppendPair(buf []byte, key, value string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(key)))
	buf = append(buf, key...)
	buf = binary.AppendUvarint(buf, uint64(len(value)))
	return append(buf, value...)
}

// ErrPairs reports PMIPut data that does not decode.
var ErrPairs = errors.New("stepio: malformed PMI pairs")

// EachPair calls fn for each pair of data, in order.
func EachPair(data []byte, fn func(key, value string)) error {
	next := func() (string, bool) {
		n, k := binary.Uvarint(data)
		if k <= 0 || n > uint64(len(data)-k) {
			return "", false
		}
		s := string(data[k : k+int(n)])
		data = data[k+int(n):]
		return s, true
	}
	for len(data) > 0 {
		key, ok := next()
		if !ok {
			return ErrPairs
		}
		value, ok := next()
		if !ok {
			return ErrPairs
		}
		fn(key, value)
	}
	return nil
}

// WritePairs sends data (whole pairs, AppendPair's encoding) as PMIPut frames for rank,
// split between pairs so that each frame holds whole pairs; at least one frame is sent,
// empty when data is.
func (w *Writer) WritePairs(rank uint32, data []byte) error {
	for {
		n := len(data)
		if n > MaxData {
			n = 0
			for rest := data; ; {
				size := pairSize(rest)
				if size == 0 || n+size > MaxData {
					break
				}
				n += size
				rest = rest[size:]
			}
			if n == 0 {
				return ErrPairs // a pair larger than a frame, or undecodable
			}
		}
		if err := w.Write(PMIPut, rank, data[:n]); err != nil {
			return err
		}
		data = data[n:]
		if len(data) == 0 {
			return nil
		}
	}
}

// pairSize is the encoded size of data's first pair, 0 when it does not decode.
func pairSize(data []byte) int {
	size := 0
	for range 2 {
		n, k := binary.Uvarint(data[size:])
		if k <= 0 || n > uint64(len(data)-size-k) {
			return 0
		}
		size += k + int(n)
	}
	return size
}
