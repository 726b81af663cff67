package provider

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Calls local models send as their text, in the shapes reported against Ollama and the tools
// built on it (qwen3 and qwen2.5-coder's JSON, Llama 3.1's "parameters", two calls one after
// the other, Hermes' <tool_call> tags, a fenced block), are read as calls; anything that is
// not only calls to the tools offered stays words.
func TestCallsWrittenAsText(t *testing.T) {
	tools := []Tool{{Name: "navigate"}, {Name: "click"}, {Name: "snapshot"}}
	type call struct{ name, args string }
	for _, tt := range []struct {
		text  string
		want  []call // nil: not calls
		words string
	}{
		{`{"name": "navigate", "arguments": {"url": "https://example.com/search?q=tides&lang=en"}}`, []call{{"navigate", `{"url":"https://example.com/search?q=tides&lang=en"}`}}, ""},
		{"{\n  \"name\": \"click\",\n  \"arguments\": {\n    \"ref\": \"e12\"\n  }\n}\n", []call{{"click", `{"ref":"e12"}`}}, ""},
		{`{"name": "click", "parameters": {"ref": "e3", "double": true}}`, []call{{"click", `{"double":true,"ref":"e3"}`}}, ""},
		{"{\n  \"name\": \"snapshot\",\n  \"arguments\": {}\n} {\n  \"name\": \"click\",\n  \"arguments\": {\n    \"ref\": \"e7\"\n  }\n}", []call{{"snapshot", `{}`}, {"click", `{"ref":"e7"}`}}, ""},
		{"<tool_call>\n{\"name\": \"navigate\", \"arguments\": {\"url\": \"https://example.com\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"snapshot\", \"arguments\": {}}\n</tool_call>", []call{{"navigate", `{"url":"https://example.com"}`}, {"snapshot", `{}`}}, ""},
		{"```json\n{\"name\": \"click\", \"arguments\": \"{\\\"ref\\\": \\\"e5\\\"}\"}\n```", []call{{"click", `{"ref":"e5"}`}}, ""},
		{`[{"type": "function", "function": {"name": "click", "arguments": {"ref": "e9"}}}]`, []call{{"click", `{"ref":"e9"}`}}, ""},
		{`{"name": "snapshot"}`, []call{{"snapshot", `{}`}}, ""},
		{"I will open the page first.\n\n<tool_call>\n{\"name\": \"navigate\", \"arguments\": {\"url\": \"https://example.com\"}}\n</tool_call>", []call{{"navigate", `{"url":"https://example.com"}`}}, "I will open the page first."},

		{`I will click it: {"name": "click", "arguments": {"ref": "e2"}}`, nil, ""},
		{`{"name": "click", "arguments": {"ref": "e2"}} and then I am done.`, nil, ""},
		{`{"name": "delete_everything", "arguments": {}}`, nil, ""},
		{`{"name": "click", "ref": "e2"}`, nil, ""},
		{`{"name": "click", "arguments": ["e2"]}`, nil, ""},
		{`{"name": "click", "arguments": "e2"}`, nil, ""},
		{`{"name": "Alice", "age": 30}`, nil, ""},
		{`[]`, nil, ""},
		{`The weather is fine.`, nil, ""},
		{"```json\n{\"name\": \"click\", \"arguments\": {}}", nil, ""},
		{"<tool_call>{\"name\": \"click\", \"arguments\": {}}", nil, ""},
		{"Done.\n<tool_call>{\"name\": \"click\", \"arguments\": {}}</tool_call> and more words", nil, ""},
		{"", nil, ""},
	} {
		calls, words, ok := CallsInText(tt.text, tools)
		if tt.want == nil {
			assert.False(t, ok, tt.text)
			assert.Nil(t, calls, tt.text)
			continue
		}
		assert.Equal(t, tt.words, words, tt.text)
		if assert.True(t, ok, tt.text) && assert.Len(t, calls, len(tt.want), tt.text) {
			for i, w := range tt.want {
				assert.Equal(t, w.name, calls[i].Name, tt.text)
				assert.JSONEq(t, w.args, string(calls[i].Args), tt.text)
				assert.NotEmpty(t, calls[i].ID)
			}
		}
	}
	_, _, ok := CallsInText(`{"name": "click", "arguments": {}}`, nil)
	assert.False(t, ok, "no tools offered: no calls")
}
