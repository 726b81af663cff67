package tool

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite schemas.json from the input structs")

// reflectSchemas makes each tool's JSON Schema from its input struct, in the subset all three
// providers accept: no $schema, $id or additionalProperties (Gemini's function declarations
// reject them).
func reflectSchemas(t *testing.T) []byte {
	r := &jsonschema.Reflector{Anonymous: true, DoNotReference: true, ExpandedStruct: true}
	var out bytes.Buffer // one tool a line: small in core.wasm, readable in a diff
	out.WriteString("{\n")
	for i, tl := range definitions {
		b, err := json.Marshal(r.Reflect(tl.Input))
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m))
		strip(m)
		if _, ok := m["properties"]; !ok {
			m["properties"] = map[string]any{}
		}
		line, err := json.Marshal(m)
		require.NoError(t, err)
		name, _ := json.Marshal(tl.Name)
		fmt.Fprintf(&out, "%s: %s", name, line)
		if i < len(definitions)-1 {
			out.WriteString(",")
		}
		out.WriteString("\n")
	}
	out.WriteString("}\n")
	return out.Bytes()
}

func strip(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "$schema")
		delete(x, "$id")
		delete(x, "additionalProperties")
		for _, y := range x {
			strip(y)
		}
	case []any:
		for _, y := range x {
			strip(y)
		}
	}
}

// The schemas are generated at build time and embedded: invopop/jsonschema's reflection would
// add about 1.2 MB to core.wasm. This test fails when schemas.json is older than the structs.
func TestSchemas(t *testing.T) {
	got := reflectSchemas(t)
	if *update {
		require.NoError(t, os.WriteFile("schemas.json", got, 0o644))
		return
	}
	if !bytes.Equal(got, schemasJSON) {
		t.Fatal("schemas.json is stale: run go test ./internal/tool -run TestSchemas -update")
	}
	for _, tl := range All() {
		var s struct {
			Type       string         `json:"type"`
			Properties map[string]any `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(tl.Schema, &s), tl.Name)
		require.Equal(t, "object", s.Type, tl.Name)
		require.NotEmpty(t, tl.Description, tl.Name)
		require.Regexp(t, `^(read|act|navigate|destructive|script):[a-z_]+$`, tl.Permission, tl.Name)
		require.Equal(t, string(tl.Risk), tl.Permission[:len(tl.Risk)], tl.Name)
	}
}
