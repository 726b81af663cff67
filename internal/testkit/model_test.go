package testkit

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/provider"
)

// decoded is what Skiff's decoder makes of a stream: the text, the calls, the finish.
type decoded struct {
	Text   string
	Calls  []provider.ToolCall
	Finish string
}

func decode(t *testing.T, format string, stream []byte) decoded {
	t.Helper()
	p, ok := provider.Lookup(map[string]string{"openai": "openai", "anthropic": "anthropic", "google": "google"}[format])
	require.True(t, ok)
	var d decoded
	for ev := range p.Decode(bytes.NewReader(stream)) {
		switch ev.Kind {
		case provider.EventText:
			d.Text += ev.Text
		case provider.EventToolCall:
			c := *ev.ToolCall
			var args any
			require.NoError(t, json.Unmarshal(c.Args, &args))
			c.Args, _ = json.Marshal(args) // compare arguments as values, not as spelled
			d.Calls = append(d.Calls, c)
		case provider.EventFinish:
			d.Finish = ev.Finish.Reason
		case provider.EventError:
			t.Fatalf("decode: %v", ev.Err)
		}
	}
	return d
}

// keyPaths lists the JSON key paths of every data line of a stream ("choices.delta.tool_calls.id").
func keyPaths(stream []byte) []string {
	set := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				set[p] = true
				walk(p, y)
			}
		case []any:
			for _, y := range x {
				walk(prefix, y)
			}
		}
	}
	for _, line := range strings.Split(string(stream), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var v any
		if json.Unmarshal([]byte(data), &v) == nil {
			walk("", v)
		}
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The scripted model streams what the real APIs stream: a turn rebuilt from a recorded stream
// decodes to the same text, calls and finish, and uses no JSON key the recording lacks.
func TestModelMatchesRecordedStreams(t *testing.T) {
	for _, tc := range []struct{ format, file string }{
		{"openai", "openai/parallel_tool_calls.sse"},
		{"openai", "openai/text_usage.sse"},
		{"anthropic", "anthropic/tool_use.sse"},
		{"anthropic", "anthropic/tool_use_parallel.sse"},
		{"anthropic", "anthropic/text.sse"},
		{"google", "gemini/function_call.sse"},
		{"google", "gemini/parallel_function_calls.sse"},
		{"google", "gemini/text.sse"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			rec := Recorded(t, tc.file)
			want := decode(t, tc.format, rec)
			turn := Turn{Text: want.Text}
			for _, c := range want.Calls {
				var args map[string]any
				require.NoError(t, json.Unmarshal(c.Args, &args))
				id := c.ID
				if tc.format == "google" {
					id = "" // Gemini's calls have none; the decoder numbers them
				}
				turn.Calls = append(turn.Calls, Call{ID: id, Name: c.Name, Args: args, Signature: c.Signature})
			}
			w := httptest.NewRecorder()
			StreamTurn(w, httptest.NewRequest("POST", "/", nil), tc.format, turn)
			got := decode(t, tc.format, w.Body.Bytes())
			assert.Equal(t, want, got)
			recKeys := map[string]bool{}
			for _, k := range keyPaths(rec) {
				recKeys[k] = true
			}
			for _, k := range keyPaths(w.Body.Bytes()) {
				assert.True(t, recKeys[k], "the scripted stream sends %q, which %s does not have", k, tc.file)
			}
		})
	}
}

// A conversation with tool calls and results, as Skiff encodes it, reads back the same in
// each format.
func TestParseConversation(t *testing.T) {
	req := provider.Request{Model: "m", System: "sys", Messages: []provider.Message{
		{Role: "user", Content: "find it"},
		{Role: "assistant", Content: "Looking.", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "snapshot", Args: json.RawMessage(`{"interactive":true}`)}, {ID: "c2", Name: "screenshot", Args: json.RawMessage(`{}`)}}},
		{Role: "tool", ToolCallID: "c1", ToolName: "snapshot", Content: "- button [e1]"},
		{Role: "tool", ToolCallID: "c2", ToolName: "screenshot", Content: "shot", Images: []provider.Image{{Mime: "image/png", Data: PNG}}},
		{Role: "assistant", ToolCalls: []provider.ToolCall{{ID: "c3", Name: "click", Args: json.RawMessage(`{"ref":"e1"}`)}}},
		{Role: "tool", ToolCallID: "c3", ToolName: "click", Content: "covered", IsError: true},
	}, Tools: []provider.Tool{{Name: "snapshot", Schema: json.RawMessage(`{"type":"object","properties":{}}`)}}}
	for _, id := range []string{"openai", "anthropic", "google"} {
		t.Run(id, func(t *testing.T) {
			p, _ := provider.Lookup(id)
			hr, err := p.NewRequest("k", req)
			require.NoError(t, err)
			u := hr.URL[strings.Index(hr.URL, "://")+3:]
			c, err := ParseConversation(u[strings.Index(u, "/"):strings.IndexAny(u+"?", "?")], hr.Body)
			require.NoError(t, err)
			assert.Equal(t, id, map[string]string{"openai": "openai", "anthropic": "anthropic", "google": "google"}[c.Format])
			assert.Equal(t, "sys", c.System)
			assert.Equal(t, []string{"snapshot"}, c.Tools)
			require.Len(t, c.Messages, 6, "%+v", c.Messages)
			assert.Equal(t, "find it", c.Messages[0].Text)
			assert.Equal(t, "snapshot", c.Messages[1].Calls[0].Name)
			assert.Equal(t, true, c.Messages[1].Calls[0].Args["interactive"])
			assert.Equal(t, "- button [e1]", c.Messages[2].Text)
			assert.Equal(t, 1, c.Messages[3].Images)
			assert.Equal(t, [][]byte{PNG}, c.Messages[3].Pictures, "the image's bytes")
			assert.Equal(t, "e1", c.Messages[4].Calls[0].Args["ref"])
			last := c.Last()
			assert.Equal(t, "click", last.Name)
			assert.Equal(t, "covered", last.Text)
			assert.Equal(t, 2, c.Steps(), "model turns since the user")
			assert.Len(t, c.Results(), 1)
		})
	}
}

// Anthropic's system prompt and a message's content are each a string or an array of blocks;
// clients send either (Claude Code sends its system prompt as blocks, with cache control).
func TestParseAnthropicStringsOrBlocks(t *testing.T) {
	for name, body := range map[string]string{
		"strings": `{"model":"m","system":"be brief","messages":[{"role":"user","content":"hi"}]}`,
		"blocks": `{"model":"m","system":[{"type":"text","text":"be "},{"type":"text","text":"brief","cache_control":{"type":"ephemeral"}}],
			"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`,
	} {
		c, err := ParseConversation("/v1/messages", []byte(body))
		require.NoError(t, err, name)
		assert.Equal(t, "be brief", c.System, name)
		require.Len(t, c.Messages, 1, name)
		assert.Equal(t, "hi", c.Messages[0].Text, name)
	}
}

// holdWriter is a ResponseWriter that a test reads while the handler still writes.
type holdWriter struct {
	mu      sync.Mutex
	body    bytes.Buffer
	header  http.Header
	flushed chan struct{}
}

func (w *holdWriter) Header() http.Header { return w.header }
func (w *holdWriter) WriteHeader(int)     {}
func (w *holdWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.body.Write(b)
}
func (w *holdWriter) Flush() {
	select {
	case w.flushed <- struct{}{}:
	default:
	}
}
func (w *holdWriter) has(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Contains(w.body.String(), s)
}

// A held turn stops after the first piece of its text, in each format, until it is let go.
func TestAHeldTurnWaitsAfterItsFirstText(t *testing.T) {
	for _, format := range []string{"openai", "anthropic", "google"} {
		t.Run(format, func(t *testing.T) {
			const text = "one two three four five six"
			n := map[string]int{"google": 2}[format] // the pieces each format's stream cuts text in
			if n == 0 {
				n = 3
			}
			ps := pieces(text, n)
			quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }
			hold, done := make(chan struct{}), make(chan struct{})
			w := &holdWriter{header: http.Header{}, flushed: make(chan struct{}, 1)}
			go func() {
				defer close(done)
				StreamTurn(w, httptest.NewRequest("POST", "/", nil), format, Turn{Text: text, Hold: hold})
			}()
			for end := time.After(10 * time.Second); !w.has(quoted(ps[0])); {
				select {
				case <-w.flushed:
				case <-end:
					t.Fatal("the first piece of text never came")
				}
			}
			assert.False(t, w.has(quoted(ps[1])), "the second piece came before the turn was let go")
			close(hold)
			<-done
			for _, p := range ps[1:] {
				assert.True(t, w.has(quoted(p)), "%q did not come after", p)
			}
		})
	}
}
