package openapi

// Kind is the type of a Value, Slurm's data_type_t.
type Kind int

// Kinds of Value.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	// NullString is a string field whose C pointer was NULL: JSON prints it as "" and YAML
	// as null, because serializer_json maps a NULL string to "" and serializer_yaml to null.
	NullString
	Dict
	List
)

// Value is one node of the data tree (Slurm's data_t). Dict keys keep their insertion
// order; setting a key that exists replaces its value in place, as data_key_set does.
type Value struct {
	Kind  Kind
	B     bool
	I     int64
	F     float64
	S     string
	Keys  []string
	Vals  []*Value
	Items []*Value
}

// NewDict returns an empty dictionary.
func NewDict() *Value { return &Value{Kind: Dict} }

// NewList returns an empty list.
func NewList() *Value { return &Value{Kind: List} }

// NullValue returns a null.
func NullValue() *Value { return &Value{Kind: Null} }

// BoolValue returns a boolean.
func BoolValue(b bool) *Value { return &Value{Kind: Bool, B: b} }

// IntValue returns an integer.
func IntValue(i int64) *Value { return &Value{Kind: Int, I: i} }

// FloatValue returns a floating-point number.
func FloatValue(f float64) *Value { return &Value{Kind: Float, F: f} }

// Str returns a string; "" becomes a NullString, because Orbit's wire types carry an unset
// string as "" where Slurm carries a NULL pointer.
func Str(s string) *Value {
	if s == "" {
		return &Value{Kind: NullString}
	}
	return &Value{Kind: String, S: s}
}

// EmptyStr returns a string that is set but empty (a non-NULL "" in C).
func EmptyStr() *Value { return &Value{Kind: String} }

// Set sets key in dictionary d to v, in place if the key exists; it returns v.
func (d *Value) Set(key string, v *Value) *Value {
	for i, k := range d.Keys {
		if k == key {
			d.Vals[i] = v
			return v
		}
	}
	d.Keys = append(d.Keys, key)
	d.Vals = append(d.Vals, v)
	return v
}

// Get returns the value of key in dictionary d, or nil.
func (d *Value) Get(key string) *Value {
	for i, k := range d.Keys {
		if k == key {
			return d.Vals[i]
		}
	}
	return nil
}

// Append adds v to list l; it returns v.
func (l *Value) Append(v *Value) *Value {
	l.Items = append(l.Items, v)
	return v
}

// AppendStr adds a string to list l.
func (l *Value) AppendStr(s string) { l.Append(Str(s)) }
