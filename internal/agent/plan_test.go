package agent

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
)

func TestCheckPlan(t *testing.T) {
	p, err := checkPlan(json.RawMessage(`{"steps":[" Fill the form ",""],"sites":["https://a.example/book?x=1","b.example","https://a.example"],"kinds":["Fill","click","fill"]}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"Fill the form"}, p.Steps)
	assert.Equal(t, []string{"https://a.example", "https://b.example"}, p.Sites, "origins, once each")
	assert.Equal(t, []string{"fill", "click"}, p.Kinds)
	for _, bad := range []string{`{"steps":[],"sites":[],"kinds":[]}`, `{"steps":["x"],"kinds":["delete"]}`, `{"steps":["x"],"sites":["javascript:alert(1)"]}`, `[1]`} {
		_, err := checkPlan(json.RawMessage(bad))
		assert.Error(t, err, bad)
	}
	// Every kind a plan can name has its words for the ask.
	for k := range planKinds {
		assert.NotEmpty(t, kindWords[k].With().English(), k)
	}
}

// While planning the model gets the tools that read, and propose_plan; nothing that acts.
func TestPlanningToolsRead(t *testing.T) {
	var names []string
	for _, tl := range planningTools(offered(true, true)) {
		names = append(names, tl.Name)
	}
	assert.Contains(t, names, "snapshot")
	assert.Contains(t, names, ProposePlan)
	for _, no := range []string{"click", "type", "navigate", "run_script", "tab_close"} {
		assert.NotContains(t, names, no)
	}
	var schema map[string]any
	require.NoError(t, json.Unmarshal(planTool.Schema, &schema))
	assert.Equal(t, "fill", kindOf("fill_form"))
}

// An edit takes allowances away, never adds them: a site or kind the model did not propose is
// not granted by ticking it.
func TestNarrowedPlan(t *testing.T) {
	p := &store.Plan{Steps: []string{"a"}, Sites: []string{"https://a.example", "https://b.example"}, Kinds: []string{"fill", "click"}}
	got := narrowed(p, store.Plan{Steps: []string{" x ", "", "y"}, Sites: []string{"https://b.example", "https://evil.example"}, Kinds: []string{"navigate", "fill"}})
	assert.Equal(t, &store.Plan{Steps: []string{"x", "y"}, Sites: []string{"https://b.example"}, Kinds: []string{"fill"}}, got)
	assert.Equal(t, []string{"a"}, narrowed(p, store.Plan{}).Steps, "no steps left: the model's")
}

// propose_plan's schema, which the model fills, is written by hand (core.wasm carries no
// schema reflection); it must describe store.Plan, which checkPlan reads it into: the same
// fields, all required, each an array of strings, and kinds limited to the plan kinds.
func TestPlanToolDescribesStorePlan(t *testing.T) {
	want := (&jsonschema.Reflector{Anonymous: true, DoNotReference: true, ExpandedStruct: true}).Reflect(&store.Plan{})
	var got struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type  string `json:"type"`
			Items struct {
				Type string   `json:"type"`
				Enum []string `json:"enum"`
			} `json:"items"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(planTool.Schema, &got))
	assert.ElementsMatch(t, want.Required, got.Required)
	var fields []string
	for pair := want.Properties.Oldest(); pair != nil; pair = pair.Next() {
		fields = append(fields, pair.Key)
		p, ok := got.Properties[pair.Key]
		if assert.True(t, ok, "the schema has no %s", pair.Key) {
			assert.Equal(t, pair.Value.Type, p.Type, pair.Key)
			assert.Equal(t, pair.Value.Items.Type, p.Items.Type, pair.Key)
		}
	}
	assert.Len(t, got.Properties, len(fields), "fields store.Plan does not have")
	assert.ElementsMatch(t, slices.Collect(maps.Keys(planKinds)), got.Properties["kinds"].Items.Enum)
}
