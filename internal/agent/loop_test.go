package agent

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// A model that loops writes one call dozens of times in a reply: the first MaxCallsPerTurn run,
// the rest are answered as not run (the provider gets a result for every call), and the model
// reads why in its next turn.
func TestAReplyRunsAtMostSoManyCalls(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, accountPage(), actingAllowed(site), allow)
	const n = MaxCallsPerTurn + 5
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if c.Steps() > 0 {
			return testkit.Turn{Text: "Done."}
		}
		calls := make([]testkit.Call, n)
		for i := range calls {
			calls[i] = testkit.Call{Name: "click", Args: map[string]any{"ref": "e2"}}
		}
		return testkit.Turn{Calls: calls}
	})
	useModel(t, h.st, model)
	on := true
	var sid string
	require.NoError(t, h.e.Send(ctx, Input{Text: "press Save", Agent: &on, Task: h.task}, func(u Update) { sid = u.SessionID }))

	ses, err := h.st.Session(ctx, sid)
	require.NoError(t, err)
	ran, notRun := 0, 0
	for _, m := range ses.Messages {
		switch {
		case m.Role != "tool":
		case m.Status == "":
			ran++
		case m.Status == store.StatusError && strings.HasPrefix(m.Content, "Not run: one reply runs at most"):
			notRun++
		default:
			t.Errorf("a call ended %q: %s", m.Status, m.Content)
		}
	}
	assert.Equal(t, MaxCallsPerTurn, ran)
	assert.Equal(t, 5, notRun)
	clicks := 0
	for _, c := range h.page.Calls() {
		if strings.HasPrefix(c, "click") {
			clicks++
		}
	}
	assert.Equal(t, MaxCallsPerTurn, clicks, "the page got only the calls that ran: %v", h.page.Calls())
	convs := model.Conversations()
	require.Len(t, convs, 2)
	results := 0
	for _, m := range convs[1].Messages {
		if m.Role == "tool" {
			results++
		}
	}
	assert.Equal(t, n, results, "the model got a result for every call it made")
	assert.Equal(t, "Done.", ses.Messages[len(ses.Messages)-1].Content)
}

// A local model whose server does not read its calls writes them as its text (the JSON of the
// call, finish "stop", as Ollama sends qwen2.5-coder's): they are run as calls, through the
// gate as any other, and the reply does not show them as words. Words that only mention a
// call stay words.
func TestCallsALocalModelWritesAsTextAreRun(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, accountPage(), actingAllowed(site), deny)
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		switch c.Steps() {
		case 0:
			return testkit.Turn{Text: "{\n  \"name\": \"click\",\n  \"arguments\": {\n    \"ref\": \"e2\"\n  }\n}"}
		case 1:
			return testkit.Turn{Text: "Saved. Now the account.\n<tool_call>\n{\"name\": \"click\", \"arguments\": {\"ref\": \"e3\"}}\n</tool_call>"}
		}
		return testkit.Turn{Text: `Saved. To delete the account I would call {"name": "click", "arguments": {"ref": "e3"}}.`}
	})
	useModel(t, h.st, model)
	on := true
	var sid string
	require.NoError(t, h.e.Send(ctx, Input{Text: "press Save, then delete my account", Agent: &on, Task: h.task}, func(u Update) { sid = u.SessionID }))

	clicks := 0
	for _, c := range h.page.Calls() {
		if c == "clicked" {
			clicks++
		}
	}
	assert.Equal(t, 1, clicks, "Save was clicked; the delete asked and was denied: %v", h.page.Calls())
	assert.Len(t, h.user.asked, 1, "the destructive click written as text asked as any other")
	ses, err := h.st.Session(ctx, sid)
	require.NoError(t, err)
	var roles, said []string
	for _, m := range ses.Messages {
		roles = append(roles, m.Role)
		if m.Role == "assistant" && len(m.ToolCalls) > 0 {
			said = append(said, m.Content)
			assert.Equal(t, "tool_calls", m.Finish)
		}
	}
	assert.Equal(t, []string{"", "Saved. Now the account."}, said, "the calls' JSON is not shown as the reply; the words before a tagged call are")
	assert.Equal(t, []string{"user", "assistant", "tool", "assistant", "tool", "assistant"}, roles)
	last := ses.Messages[len(ses.Messages)-1]
	assert.Contains(t, last.Content, `{"name": "click"`, "a reply that mentions a call is words")
	assert.Equal(t, store.StatusDenied, ses.Messages[4].Status)
}

// A model stuck on a call that fails the same way each time is stopped after MaxSameFailures
// steps, not at the step limit, and says so; calls that fail in other ways, or that work, go on.
func TestARunStuckOnOneFailingCallStops(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, accountPage(), actingAllowed(site), allow)
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		switch c.Steps() {
		case 0: // two calls that fail, each its own way
			return testkit.Turn{Calls: []testkit.Call{{Name: "type", Args: map[string]any{"ref": "e1"}}}}
		case 1:
			return testkit.Turn{Calls: []testkit.Call{{Name: "click", Args: map[string]any{"ref": "e2", "button": "sideways"}}}}
		case 2: // one that works
			return testkit.Turn{Calls: []testkit.Call{{Name: "click", Args: map[string]any{"ref": "e2"}}}}
		}
		return testkit.Turn{Calls: []testkit.Call{{Name: "type", Args: map[string]any{"ref": "e1"}}}}
	})
	useModel(t, h.st, model)
	on := true
	var sid string
	require.NoError(t, h.e.Send(ctx, Input{Text: "press Save", Agent: &on, Task: h.task}, func(u Update) { sid = u.SessionID }))

	assert.Len(t, model.Conversations(), 3+MaxSameFailures, "the model was asked again after its run was stuck")
	ses, err := h.st.Session(ctx, sid)
	require.NoError(t, err)
	last := ses.Messages[len(ses.Messages)-1]
	assert.Equal(t, store.StatusStopped, last.Status)
	require.NotNil(t, last.NoticeText)
	assert.Equal(t, "noticeLooping", last.NoticeText.Key)
	assert.Contains(t, last.Notice, "made the same calls 3 times in a row")
}

// A call whose arguments are not JSON is stored and answered: cut off by the length limit, the
// model is told to make it shorter; written wrong (a small model's Python dict), to write JSON,
// not to make it shorter. Either way nothing reaches the page and the run goes on.
func TestArgumentsThatAreNotJSONAreSaidSo(t *testing.T) {
	for _, tt := range []struct{ name, args, finish, want string }{
		{"cut off", `{"ref": "e`, "length", "The call's arguments were cut off (the reply hit its token limit). Make the call again, shorter."},
		{"written wrong", `{'ref': 'e2'}`, "tool_calls", `The call's arguments are not valid JSON ({'ref': 'e2'}). Make the call again, with its arguments as one JSON object that matches the tool's parameters (double quotes around names and strings).`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			h := newHarness(t, accountPage(), actingAllowed(site), allow)
			args, _ := json.Marshal(tt.args)
			var n atomic.Int32
			srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				if n.Add(1) == 1 {
					_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"click","arguments":`+string(args)+`}}]},"finish_reason":null}]}`+"\n\n"+
						`data: {"choices":[{"index":0,"delta":{},"finish_reason":"`+tt.finish+`"}]}`+"\n\ndata: [DONE]\n\n")
					return
				}
				_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Done."},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
			})
			useServer(t, h.st, srv.URL)
			on := true
			var sid string
			require.NoError(t, h.e.Send(ctx, Input{Text: "press Save", Agent: &on, Task: h.task}, func(u Update) { sid = u.SessionID }))
			ses, err := h.st.Session(ctx, sid)
			require.NoError(t, err)
			require.Len(t, ses.Messages, 4, "the reply with the call was not stored: %+v", ses.Messages)
			assert.Nil(t, ses.Messages[1].Error)
			require.Len(t, ses.Messages[1].ToolCalls, 1)
			assert.True(t, ses.Messages[1].ToolCalls[0].Incomplete)
			assert.Equal(t, tt.want, ses.Messages[2].Content)
			assert.Equal(t, "Done.", ses.Messages[3].Content)
			assert.Empty(t, h.page.Calls(), "nothing reached the page")
			_, body := srv.Last()
			assert.Contains(t, body, `"arguments":"{}"`, "the call goes back to the model with empty arguments")
		})
	}
}
