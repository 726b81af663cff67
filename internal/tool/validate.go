package tool

import (
	"encoding/json"
	"math"
	"slices"
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
//
// It returns the arguments as the tool reads them. A value sent as another kind than the
// schema's, whose meaning is not in doubt, is read as it was meant: Claude Code and Claude
// Desktop send lists, objects and true/false as their JSON in a string (claude-code#22394,
// #32524, #59227), models and clients send numbers as strings ("5") and strings as numbers,
// OpenAI's strict mode has models send null for what they leave out, and "5.0" is a whole
// number. Nothing else is guessed: a string field is never parsed, and "12px" is not a number.
// The arguments come back unchanged, byte for byte, when nothing had to be read so.
func (s *schema) check(args json.RawMessage) (json.RawMessage, error) {
	var v any
	d := json.NewDecoder(strings.NewReader(string(args)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, &Error{Msg: "the arguments are not valid JSON (" + err.Error() + "); send one JSON object"}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, &Error{Msg: "the arguments must be a JSON object, not " + jsonKind(v)}
	}
	v, changed, err := s.value("", v)
	if err != nil || !changed {
		return args, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &Error{Msg: "the arguments could not be read (" + err.Error() + ")"}
	}
	return b, nil
}

// renameKeys reads the fields of m that name a property of s in another spelling ("tab_id",
// "TabId" or "tab-id" for "tabId": models used to other tools write snake case) as that
// property, when m does not also hold it and only one property is spelt so. Left alone, such a
// field was dropped unsaid, and the call acted on the current tab, not the tab named. It says
// whether it renamed one.
func (s *schema) renameKeys(m map[string]any) bool {
	renamed := false
	for k, x := range m {
		if _, named := s.Properties[k]; named {
			continue
		}
		want, n := "", 0
		for p := range s.Properties {
			if keyFold(p) == keyFold(k) {
				want, n = p, n+1
			}
		}
		if _, taken := m[want]; n == 1 && !taken {
			delete(m, k)
			m[want], renamed = x, true
		}
	}
	return renamed
}

// keyFold is a field's name without case, "_" or "-".
func keyFold(k string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, k)
}

// value checks v against s and returns it as s reads it, and whether that differs from v.
func (s *schema) value(path string, v any) (any, bool, error) {
	if s == nil {
		return v, false, nil
	}
	name := "the arguments"
	if path != "" {
		name = "argument " + strconv.Quote(path)
	}
	if v == nil {
		return nil, false, &Error{Msg: name + " must not be null"}
	}
	changed := false
	if x, ok := s.meant(v); ok {
		v, changed = x, true
	}
	want := ""
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			want = "an object"
			break
		}
		if s.renameKeys(m) {
			changed = true
		}
		for k, x := range m {
			if _, named := s.Properties[k]; x == nil && named && !slices.Contains(s.Required, k) {
				delete(m, k) // left out, as strict mode writes it
				changed = true
			}
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				return nil, false, &Error{Msg: "argument " + strconv.Quote(join(path, r)) + " is required"}
			}
		}
		for k, sub := range s.Properties {
			if x, ok := m[k]; ok {
				y, ch, err := sub.value(join(path, k), x)
				if err != nil {
					return nil, false, err
				}
				if ch {
					m[k], changed = y, true
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
			y, ch, err := s.Items.value(path+"["+strconv.Itoa(i)+"]", x)
			if err != nil {
				return nil, false, err
			}
			if ch {
				a[i], changed = y, true
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
			return nil, false, &Error{Msg: name + " is not a number Skiff can read (" + n.String() + ")"}
		case s.Type == "integer" && f != math.Trunc(f):
			return nil, false, &Error{Msg: name + " should be a whole number, not " + n.String()}
		case s.Minimum != nil && f < *s.Minimum:
			return nil, false, &Error{Msg: name + " must be at least " + num(*s.Minimum) + ", not " + n.String()}
		case s.Maximum != nil && f > *s.Maximum:
			return nil, false, &Error{Msg: name + " must be at most " + num(*s.Maximum) + ", not " + n.String()}
		}
		if s.Type == "integer" && strings.ContainsAny(n.String(), ".eE") {
			if math.Abs(f) >= 1<<53 {
				return nil, false, &Error{Msg: name + " is not a whole number Skiff can read (" + n.String() + ")"}
			}
			v, changed = json.Number(strconv.FormatInt(int64(f), 10)), true // 5.0 and 1e3 are whole
		}
	}
	if want != "" {
		return nil, false, &Error{Msg: name + " should be " + want + ", not " + jsonKind(v)}
	}
	if len(s.Enum) == 0 {
		return v, changed, nil
	}
	got, _ := v.(string)
	var opts []string
	var folded []string
	for _, e := range s.Enum {
		es, _ := e.(string) // the schemas' enums are strings
		if es == got {
			return v, changed, nil
		}
		if strings.EqualFold(es, strings.TrimSpace(got)) {
			folded = append(folded, es)
		}
		opts = append(opts, strconv.Quote(es))
	}
	if len(folded) == 1 { // "Down" for "down"
		return folded[0], true, nil
	}
	return nil, false, &Error{Msg: name + " must be one of " + strings.Join(opts, ", ") + ", not " + strconv.Quote(clip(got, 80))}
}

// meant is v read as s's kind when it was sent as another and its meaning is plain: a list or
// an object written as its JSON in a string, true or false in a string, a number in a string,
// a number or true/false where a string goes, and one item where a list goes. ok is false when
// v is already s's kind or cannot be read as it.
func (s *schema) meant(v any) (any, bool) {
	str, isStr := v.(string)
	switch s.Type {
	case "object", "array":
		if _, ok := v.(map[string]any); ok && s.Type == "object" {
			return nil, false
		}
		if _, ok := v.([]any); ok && s.Type == "array" {
			return nil, false
		}
		if isStr {
			open := "{"
			if s.Type == "array" {
				open = "["
			}
			if t := strings.TrimSpace(str); strings.HasPrefix(t, open) {
				if x, ok := whole(t); ok {
					return x, true
				}
			}
		}
		if s.Type == "array" && s.Items != nil {
			if _, ok := s.Items.meant(v); ok || s.Items.is(v) {
				return []any{v}, true // one item for a list of them; the items are checked next
			}
		}
	case "string":
		switch x := v.(type) {
		case json.Number:
			return x.String(), true
		case bool:
			return strconv.FormatBool(x), true
		}
	case "boolean":
		if isStr {
			switch strings.ToLower(strings.TrimSpace(str)) {
			case "true":
				return true, true
			case "false":
				return false, true
			}
		}
	case "integer", "number":
		if isStr {
			if x, ok := whole(strings.TrimSpace(str)); ok {
				if n, ok := x.(json.Number); ok {
					return n, true
				}
			}
		}
	}
	return nil, false
}

// whole reads t as one JSON value and nothing after it.
func whole(t string) (any, bool) {
	d := json.NewDecoder(strings.NewReader(t))
	d.UseNumber()
	var x any
	if d.Decode(&x) != nil || d.InputOffset() != int64(len(t)) {
		return nil, false
	}
	return x, true
}

// is says whether v is already of s's kind.
func (s *schema) is(v any) bool {
	switch v.(type) {
	case map[string]any:
		return s.Type == "object"
	case []any:
		return s.Type == "array"
	case string:
		return s.Type == "string"
	case bool:
		return s.Type == "boolean"
	case json.Number:
		return s.Type == "integer" || s.Type == "number"
	}
	return false
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
