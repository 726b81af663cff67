package tool

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// schema is the part of JSON Schema the tools' input schemas use (schemas.json holds nothing
// else: TestSchemaKeywords keeps it so): type, properties, required, items, enum, minimum and
// maximum. A full validator (google/jsonschema-go's) would add 1.86 MB to core.wasm, measured.
type schema struct {
	Type       string             `json:"type"`
	Properties map[string]*schema `json:"properties"`
	Required   []string           `json:"required"`
	Items      *schema            `json:"items"`
	Enum       []any              `json:"enum"`
	Minimum    *float64           `json:"minimum"`
	Maximum    *float64           `json:"maximum"`
}

// check validates args (a JSON object) against s: every field of the right type, the required
// ones present, enums, bounds and list items respected. Fields the schema does not name are
// left alone (models add some; the decoder ignores them). The error is one sentence for the
// model naming the field and the rule.
func (s *schema) check(args json.RawMessage) error {
	var v any
	d := json.NewDecoder(strings.NewReader(string(args)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return &Error{Msg: "the arguments are not valid JSON (" + err.Error() + "); send one JSON object"}
	}
	if _, ok := v.(map[string]any); !ok {
		return &Error{Msg: "the arguments must be a JSON object, not " + jsonKind(v)}
	}
	return s.value("", v)
}

func (s *schema) value(path string, v any) error {
	if s == nil {
		return nil
	}
	name := "the arguments"
	if path != "" {
		name = "argument " + strconv.Quote(path)
	}
	if v == nil {
		return &Error{Msg: name + " must not be null"}
	}
	want := ""
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			want = "an object"
			break
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				return &Error{Msg: "argument " + strconv.Quote(join(path, r)) + " is required"}
			}
		}
		for k, sub := range s.Properties {
			if x, ok := m[k]; ok {
				if err := sub.value(join(path, k), x); err != nil {
					return err
				}
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			want = "a list"
			break
		}
		for i, x := range a {
			if err := s.Items.value(path+"["+strconv.Itoa(i)+"]", x); err != nil {
				return err
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			want = "a string"
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			want = "true or false"
		}
	case "integer", "number":
		n, ok := v.(json.Number)
		if !ok {
			want = "a number"
			break
		}
		f, err := n.Float64()
		switch {
		case err != nil || math.IsInf(f, 0):
			return &Error{Msg: name + " is not a number Skiff can read (" + n.String() + ")"}
		case s.Type == "integer" && f != math.Trunc(f):
			return &Error{Msg: name + " should be a whole number, not " + n.String()}
		case s.Minimum != nil && f < *s.Minimum:
			return &Error{Msg: name + " must be at least " + num(*s.Minimum) + ", not " + n.String()}
		case s.Maximum != nil && f > *s.Maximum:
			return &Error{Msg: name + " must be at most " + num(*s.Maximum) + ", not " + n.String()}
		}
	}
	if want != "" {
		return &Error{Msg: name + " should be " + want + ", not " + jsonKind(v)}
	}
	if len(s.Enum) == 0 {
		return nil
	}
	got, _ := v.(string)
	var opts []string
	for _, e := range s.Enum {
		es, _ := e.(string) // the schemas' enums are strings
		if es == got {
			return nil
		}
		opts = append(opts, strconv.Quote(es))
	}
	return &Error{Msg: name + " must be one of " + strings.Join(opts, ", ") + ", not " + strconv.Quote(clip(got, 80))}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "true or false"
	case json.Number:
		return "a number (" + x.String() + ")"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "something else"
}
