package core

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// A provider busy for a moment (Anthropic's 529, a proxy's 503 page) is asked again after a
// pause before anything is said, and the reply comes; one that stays busy ends the turn with
// its error after the retries; one that asks for a long wait (Gemini's RetryInfo of 34 s) is
// not waited out; Stop during a pause stops at once.
func TestPassingFailuresAreAskedAgain(t *testing.T) {
	waits := agent.RetryWaits
	agent.RetryWaits = []time.Duration{50 * time.Millisecond, 100 * time.Millisecond}
	t.Cleanup(func() { agent.RetryWaits = waits })
	overloaded := testkit.Turn{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	page := testkit.Turn{Status: 503, Body: "<html><head><title>503 Service Temporarily Unavailable</title></head><body>nginx</body></html>"}

	send := func(t *testing.T, id string, script func(n int) testkit.Turn) (map[string]any, int, *panel, *Core) {
		t.Helper()
		n := 0
		model := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { n++; return script(n) })
		c := newCore(t, store.NewMemKV(), id, model.URL)
		p := &panel{}
		c.Connect(p)
		p.callOK(t, c, "chat.send", obj{"text": "hello"})
		done := p.waitFor(t, "chat.done")
		return done["message"].(map[string]any), len(model.Conversations()), p, c
	}

	t.Run("busy twice, then the reply", func(t *testing.T) {
		msg, asked, p, _ := send(t, "anthropic", func(n int) testkit.Turn {
			return []testkit.Turn{overloaded, page, {Text: "Hello!"}}[n-1]
		})
		assert.Nil(t, msg["error"])
		assert.Equal(t, "Hello!", msg["content"])
		assert.Nil(t, msg["noticeText"], "the pause's notice is gone once the reply comes")
		assert.Equal(t, 3, asked)
		// Each pause shows under the reply while it lasts, and goes when the reply is asked
		// again: the reply is not silent for the seconds it waits.
		var shown []string
		for _, m := range p.find("chat.message") {
			reply := m["message"].(map[string]any)
			if reply["role"] != "assistant" {
				continue
			}
			text, _ := reply["noticeText"].(map[string]any)
			switch {
			case text == nil:
				shown = append(shown, "-")
			default:
				shown = append(shown, fmt.Sprint(text["key"], text["args"]))
				assert.Equal(t, "streaming", reply["status"])
				assert.Contains(t, reply["notice"], "Anthropic is busy; Skiff asks again in 1 s")
			}
		}
		assert.Equal(t, []string{"-", "noticeRetrying[Anthropic 1]", "-", "noticeRetrying[Anthropic 1]", "-"}, slices.Compact(shown))
	})
	t.Run("busy every time", func(t *testing.T) {
		msg, asked, _, _ := send(t, "anthropic", func(int) testkit.Turn { return overloaded })
		require.NotNil(t, msg["error"])
		assert.Equal(t, "overloaded", msg["error"].(map[string]any)["kind"])
		assert.Equal(t, 1+len(agent.RetryWaits), asked)
	})
	t.Run("a wait too long to wait out", func(t *testing.T) {
		long := testkit.Turn{Status: 429, Body: string(testkit.Recorded(t, "gemini/error_429_resource_exhausted.json"))}
		msg, asked, _, _ := send(t, "google", func(int) testkit.Turn { return long })
		require.NotNil(t, msg["error"])
		assert.Equal(t, "rate_limit", msg["error"].(map[string]any)["kind"])
		assert.Equal(t, 1, asked)
	})
	t.Run("a refusal is not asked again", func(t *testing.T) {
		_, asked, _, _ := send(t, "openai", func(int) testkit.Turn {
			return testkit.Turn{Status: 400, Body: `{"error":{"message":"bad","type":"invalid_request_error"}}`}
		})
		assert.Equal(t, 1, asked)
	})
	t.Run("stop during a pause", func(t *testing.T) {
		agent.RetryWaits = []time.Duration{time.Minute}
		n := 0
		model := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { n++; return overloaded })
		c := newCore(t, store.NewMemKV(), "anthropic", model.URL)
		p := &panel{}
		c.Connect(p)
		res := p.callOK(t, c, "chat.send", obj{"text": "hello"}).(map[string]any)
		require.Eventually(t, func() bool { return len(model.Conversations()) == 1 }, 10*time.Second, 10*time.Millisecond)
		start := time.Now()
		p.callOK(t, c, "chat.stop", obj{"sessionId": res["sessionId"]})
		p.waitFor(t, "chat.done")
		done := p.waitFor(t, "chat.done")["message"].(map[string]any)
		assert.Less(t, time.Since(start), 30*time.Second, "Stop waited for the pause")
		assert.Equal(t, 1, len(model.Conversations()))
		assert.Equal(t, "stopped", done["status"])
		assert.Nil(t, done["noticeText"], "the pause's notice goes with it")
	})
}

// A model that takes only its own temperature: OpenAI's reasoning models get none (gpt-5.4 is
// the default model, and refused every request that set one); a model under a name Skiff does
// not know that refuses it is asked again without one, and is not sent one again.
func TestAModelThatRefusesATemperatureGetsNone(t *testing.T) {
	refusal := `{"error":{"message":"Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if _, set := c.Raw["temperature"]; set {
			return testkit.Turn{Status: 400, Body: refusal}
		}
		return testkit.Turn{Text: "Done."}
	})
	for _, tc := range []struct {
		provider, model string
		asked           int // requests for two messages
	}{
		{"openai", "gpt-5.4", 2},
		{"openrouter", "openai/gpt-5.4-nano", 2},
		{"custom", "house-reasoner", 3},
	} {
		t.Run(tc.model, func(t *testing.T) {
			before := len(model.Conversations())
			c := newCore(t, store.NewMemKV(), tc.provider, model.URL)
			chooseModel(t, c, tc.provider, tc.model)
			p := &panel{}
			c.Connect(p)
			res := p.callOK(t, c, "chat.send", obj{"text": "one"}).(map[string]any)
			done := p.waitFor(t, "chat.done")
			assert.Equal(t, "Done.", done["message"].(map[string]any)["content"], done)
			p.callOK(t, c, "chat.send", obj{"text": "two", "sessionId": res["sessionId"]}) // callOK forgets what came before
			done = p.waitFor(t, "chat.done")
			assert.Equal(t, "Done.", done["message"].(map[string]any)["content"], done)
			assert.Equal(t, tc.asked, len(model.Conversations())-before)
		})
	}
}

// A reply that failed leaves the user's words without an answer: the next message goes with
// them as one user turn, since some local models' templates (Gemma's: "Conversation roles must
// alternate user/assistant/user/assistant") refuse two in a row.
func TestAFailedReplyLeavesRolesThatAlternate(t *testing.T) {
	asked := 0
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if asked++; asked == 1 {
			return testkit.Turn{Status: 400, Body: `{"error":{"message":"bad","type":"invalid_request_error"}}`}
		}
		return testkit.Turn{Text: "Both, then."}
	})
	c := newCore(t, store.NewMemKV(), "lmstudio", model.URL)
	chooseModel(t, c, "lmstudio", "gemma-3-12b-it")
	p := &panel{}
	c.Connect(p)
	res := p.callOK(t, c, "chat.send", obj{"text": "one"}).(map[string]any)
	require.NotNil(t, p.waitFor(t, "chat.done")["message"].(map[string]any)["error"])
	p.callOK(t, c, "chat.send", obj{"text": "two", "sessionId": res["sessionId"]})
	done := p.waitFor(t, "chat.done")
	assert.Equal(t, "Both, then.", done["message"].(map[string]any)["content"], done)
	convs := model.Conversations()
	require.Len(t, convs, 2)
	msgs := convs[1].Messages
	require.Len(t, msgs, 1, "%+v", msgs)
	assert.Equal(t, "user", msgs[0].Role)
	assert.Contains(t, msgs[0].Text, "one")
	assert.Contains(t, msgs[0].Text, "two")
}

// DeepSeek's thinking mode refuses a history whose assistant turns lack their reasoning
// ("Missing `reasoning_content` field in the assistant message at message index 2"): each goes
// back with what it thought, as the recorded reply streamed it.
func TestDeepSeekGetsItsReasoningBack(t *testing.T) {
	srv := testkit.Replay(t, "deepseek/reasoning.sse", 0)
	c := newCore(t, store.NewMemKV(), "deepseek", srv.URL)
	p := &panel{}
	c.Connect(p)
	res := p.callOK(t, c, "chat.send", obj{"text": "one"}).(map[string]any)
	first := p.waitFor(t, "chat.done")["message"].(map[string]any)
	thought, _ := first["reasoning"].(string)
	require.NotEmpty(t, thought, "the recorded reply's reasoning was not kept: %v", first)
	p.callOK(t, c, "chat.send", obj{"text": "two", "sessionId": res["sessionId"]})
	p.waitFor(t, "chat.done")
	posts := srv.Posts(t)
	require.Len(t, posts, 2)
	msgs := posts[1]["messages"].([]any)
	var back []any
	for _, m := range msgs {
		if m := m.(map[string]any); m["role"] == "assistant" {
			back = append(back, m["reasoning_content"])
		}
	}
	assert.Equal(t, []any{thought}, back)
}

// A reasoning model whose chat template opened its thoughts (DeepSeek-R1's distills on vLLM,
// LocalAI, LM Studio) writes them and then only "</think>": once the tag comes they are the
// reply's thoughts, shown folded, and the next request sends the answer back without them. A
// reply that speaks of the tag stays as written.
func TestThoughtsTheTemplateOpenedAreFolded(t *testing.T) {
	var reply atomic.Value
	srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		text := reply.Load().(string)
		for i := 0; i < len(text); i += 3 { // three bytes a chunk: the tag comes in three
			chunk, _ := json.Marshal(map[string]any{"id": "chatcmpl-7", "object": "chat.completion.chunk", "created": 1738000000, "model": "deepseek-r1-distill-qwen-7b",
				"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": text[i:min(i+3, len(text))]}, "finish_reason": nil}}})
			fmt.Fprintf(w, "data: %s\n\n", chunk)
		}
		_, _ = io.WriteString(w, `data: {"id":"chatcmpl-7","object":"chat.completion.chunk","created":1738000000,"model":"deepseek-r1-distill-qwen-7b","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	})
	c := newCore(t, store.NewMemKV(), "lmstudio", srv.URL+"/v1")
	chooseModel(t, c, "lmstudio", "deepseek-r1-distill-qwen-7b")
	p := &panel{}
	c.Connect(p)

	reply.Store("Okay, the user says hi.\nI should greet them back.\n</think>\n\nHello! How can I help?")
	sid := p.callOK(t, c, "chat.send", obj{"text": "hi"}).(map[string]any)["sessionId"]
	done := p.waitFor(t, "chat.done")["message"].(map[string]any)
	assert.Equal(t, "Hello! How can I help?", done["content"])
	assert.Equal(t, "Okay, the user says hi.\nI should greet them back.", done["reasoning"])
	folded := false // the panel was told as soon as the tag came, before the reply ended
	for _, m := range p.find("chat.message") {
		if msg := m["message"].(map[string]any); msg["role"] == "assistant" && msg["status"] == "streaming" && msg["reasoning"] != nil && msg["reasoning"] != "" {
			folded = true
		}
	}
	assert.True(t, folded, "no update showed the thoughts folded while the reply came")

	reply.Store("You close them with `</think>`\nand the answer follows.")
	p.callOK(t, c, "chat.send", obj{"text": "how do I close thoughts?", "sessionId": sid})
	done = p.waitFor(t, "chat.done")["message"].(map[string]any)
	assert.Equal(t, "You close them with `</think>`\nand the answer follows.", done["content"])
	assert.Empty(t, done["reasoning"])

	posts := srv.Posts(t)
	require.Len(t, posts, 2)
	var back []string
	for _, m := range posts[1]["messages"].([]any) {
		if m := m.(map[string]any); m["role"] == "assistant" {
			back = append(back, m["content"].(string))
		}
	}
	assert.Equal(t, []string{"Hello! How can I help?"}, back, "the thoughts are not sent back")
}

// A reply that ended for another reason than its end says why: cut at the length limit
// (OpenAI's recorded finish_reason "length"), stopped by a safety filter with nothing said
// (Gemini's SAFETY), or a reason Skiff does not know. A tool call the provider could not read
// (Gemini's MALFORMED_FUNCTION_CALL), with nothing said but thoughts, is asked again twice,
// with what the provider said of the call, and then said as such.
func TestARepliesEndSaysWhyItEnded(t *testing.T) {
	notice := func(done map[string]any) (string, []any) {
		text, _ := done["message"].(map[string]any)["noticeText"].(map[string]any)
		if text == nil {
			return "", nil
		}
		args, _ := text["args"].([]any)
		return text["key"].(string), args
	}
	send := func(t *testing.T, id, url string) map[string]any {
		c := newCore(t, store.NewMemKV(), id, url)
		p := &panel{}
		c.Connect(p)
		p.callOK(t, c, "chat.send", obj{"text": "write a long story"})
		return p.waitFor(t, "chat.done")
	}
	// gemini serves Gemini's stream of chunk n to the n-th request (the last one from then on).
	gemini := func(t *testing.T, chunks ...string) *testkit.Server {
		var n atomic.Int32
		return testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "data: "+chunks[min(int(n.Add(1))-1, len(chunks)-1)]+"\r\n\r\n")
		})
	}
	system := func(post map[string]any) string {
		b, _ := json.Marshal(post["systemInstruction"])
		return string(b)
	}

	t.Run("length", func(t *testing.T) {
		done := send(t, "openai", testkit.Replay(t, "openai/finish_length.sse", 0).URL)
		key, args := notice(done)
		assert.Equal(t, "noticeLength", key)
		assert.Equal(t, []any{float64(4096)}, args)
		assert.NotEmpty(t, done["message"].(map[string]any)["content"], "the text that came is kept")
	})
	t.Run("context window full", func(t *testing.T) {
		srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":199000,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"The story begins"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"model_context_window_exceeded","stop_sequence":null},"usage":{"output_tokens":1000}}

event: message_stop
data: {"type":"message_stop"}

`)
		})
		done := send(t, "anthropic", srv.URL)
		key, _ := notice(done)
		assert.Equal(t, "noticeContextFull", key)
		assert.Equal(t, "The story begins", done["message"].(map[string]any)["content"])
	})
	t.Run("safety", func(t *testing.T) {
		srv := gemini(t, `{"candidates":[{"finishReason":"SAFETY","index":0,"safetyRatings":[{"category":"HARM_CATEGORY_DANGEROUS_CONTENT","probability":"HIGH","blocked":true}]}],"usageMetadata":{"promptTokenCount":8,"totalTokenCount":8},"modelVersion":"gemini-2.5-flash"}`)
		key, args := notice(send(t, "google", srv.URL))
		assert.Equal(t, "noticeFiltered", key)
		assert.Equal(t, []any{"SAFETY"}, args)
	})
	const answer = `{"candidates":[{"content":{"parts":[{"text":"Once upon a time."}],"role":"model"},"finishReason":"STOP","index":0}],"modelVersion":"gemini-2.5-flash"}`
	for _, tt := range []struct{ name, first, hint string }{
		{"malformed call, then the reply",
			`{"candidates":[{"content":{},"finishReason":"MALFORMED_FUNCTION_CALL","finishMessage":"Malformed function call: print(default_api.snapshot())","index":0}],"modelVersion":"gemini-2.5-flash"}`,
			"Your last reply tried to call a tool, but the call could not be read (Malformed function call: print(default_api.snapshot()))"},
		{"thoughts, then a malformed call, then the reply",
			`{"candidates":[{"content":{"parts":[{"text":"I should read the page first.","thought":true}],"role":"model"},"finishReason":"MALFORMED_FUNCTION_CALL","index":0}],"modelVersion":"gemini-2.5-flash"}`,
			"Your last reply tried to call a tool, but the call could not be read."},
		{"words, then a malformed call, then the reply",
			`{"candidates":[{"content":{"parts":[{"text":"I will read the page first."}],"role":"model"},"finishReason":"MALFORMED_FUNCTION_CALL","finishMessage":"Malformed function call: print(default_api.snapshot())","index":0}],"modelVersion":"gemini-2.5-flash"}`,
			"Your last reply tried to call a tool, but the call could not be read (Malformed function call: print(default_api.snapshot()))"},
		{"nothing written, then the reply",
			`{"candidates":[{"content":{"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":3130,"totalTokenCount":3130},"modelVersion":"gemini-2.5-flash-lite"}`,
			""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := gemini(t, tt.first, answer)
			done := send(t, "google", srv.URL)
			assert.Equal(t, "Once upon a time.", done["message"].(map[string]any)["content"])
			key, _ := notice(done)
			assert.Empty(t, key)
			posts := srv.Posts(t)
			require.Len(t, posts, 2, "asked once more")
			assert.NotContains(t, system(posts[0]), "could not be read")
			if tt.hint != "" {
				assert.Contains(t, system(posts[1]), tt.hint, "the model is told what went wrong")
			} else {
				assert.Equal(t, system(posts[0]), system(posts[1]), "asked again as it was")
			}
		})
	}
	t.Run("a call through Gemini's OpenAI-compatible endpoint", func(t *testing.T) {
		var n atomic.Int32
		srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			if n.Add(1) == 1 {
				_, _ = io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"},\"finish_reason\":\"function_call_filter: MALFORMED_FUNCTION_CALL\",\"index\":0}],\"model\":\"gemini-2.5-flash\",\"object\":\"chat.completion.chunk\"}\n\ndata: [DONE]\n\n")
				return
			}
			_, _ = io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"Once upon a time.\",\"role\":\"assistant\"},\"finish_reason\":\"stop\",\"index\":0}],\"model\":\"gemini-2.5-flash\",\"object\":\"chat.completion.chunk\"}\n\ndata: [DONE]\n\n")
		})
		done := send(t, "openai", srv.URL)
		assert.Equal(t, "Once upon a time.", done["message"].(map[string]any)["content"])
		assert.Equal(t, 2, srv.Count())
	})
	t.Run("nothing written twice", func(t *testing.T) {
		srv := gemini(t, `{"candidates":[{"content":{"role":"model"},"finishReason":"STOP","index":0}],"modelVersion":"gemini-2.5-flash"}`)
		key, _ := notice(send(t, "google", srv.URL))
		assert.Equal(t, "noticeEmptyReply", key)
		assert.Equal(t, 2, srv.Count(), "asked once more, not again")
		m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "  \n"} })
		key, _ = notice(send(t, "openai", m.URL))
		assert.Equal(t, "noticeEmptyReply", key)
		assert.Len(t, m.Conversations(), 2)
	})
	t.Run("a long blank, then a short reply", func(t *testing.T) {
		// The reply starts again shorter than the blank before it: what reads it as it comes
		// starts again too.
		var n atomic.Int32
		m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn {
			if n.Add(1) == 1 {
				return testkit.Turn{Text: strings.Repeat("\n", 40)}
			}
			return testkit.Turn{Text: "Hi."}
		})
		done := send(t, "openai", m.URL)
		assert.Equal(t, "Hi.", done["message"].(map[string]any)["content"])
		assert.Len(t, m.Conversations(), 2)
	})
	t.Run("a call never read", func(t *testing.T) {
		srv := gemini(t, `{"candidates":[{"content":{},"finishReason":"UNEXPECTED_TOOL_CALL","index":0}],"modelVersion":"gemini-2.5-flash"}`)
		key, args := notice(send(t, "google", srv.URL))
		assert.Equal(t, "noticeBadCall", key)
		assert.Equal(t, []any{"Google Gemini", "UNEXPECTED_TOOL_CALL"}, args)
		posts := srv.Posts(t)
		require.Len(t, posts, 1+agent.MaxBadCalls)
		assert.Equal(t, 1, strings.Count(system(posts[2]), "could not be read"), "the hint is given once, not once per try")
	})
}

// A conversation that no longer fits the model's window (a small local model) is asked again
// once with the latest message only, and the reply says so, instead of ending in an error.
func TestAConversationTooLongForTheModelIsFitted(t *testing.T) {
	tooLong := `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if len(c.Messages) > 2 {
			return testkit.Turn{Status: 400, Body: tooLong}
		}
		return testkit.Turn{Text: "Noted."}
	})
	c := newCore(t, store.NewMemKV(), "openai", model.URL)
	p := &panel{}
	c.Connect(p)
	sid := p.callOK(t, c, "chat.send", obj{"text": "first"}).(map[string]any)["sessionId"]
	p.waitFor(t, "chat.done")
	p.callOK(t, c, "chat.send", obj{"text": "second", "sessionId": sid})
	done := p.waitFor(t, "chat.done")["message"].(map[string]any)
	assert.Nil(t, done["error"])
	assert.Equal(t, "Noted.", done["content"])
	key, _ := done["noticeText"].(map[string]any)["key"].(string)
	assert.Equal(t, "noticeFitted", key)
	convs := model.Conversations()
	require.Len(t, convs, 3)
	require.Len(t, convs[2].Messages, 1)
	assert.Contains(t, convs[2].Messages[0].Text, "second")
}

// A long chat that outgrows a small model's window goes on with as many of its latest messages
// as the window takes, learned from the error's own figures, not with the last message alone;
// the reply says how many earlier messages the model did not get.
func TestALongChatKeepsAllItsLatestTurnsThatFit(t *testing.T) {
	// The server counts a token for every 4 bytes of the request, as llama.cpp's server
	// refuses what its window does not take, with OpenAI's words and figures.
	const window = 2500
	tokens := func(c *testkit.Conversation) int {
		b, _ := json.Marshal(c.Raw)
		return len(b) / 4
	}
	pad := strings.Repeat("words of the chat ", 30) // 540 bytes a message
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if n := tokens(c); n > window {
			return testkit.Turn{Status: 400, Body: fmt.Sprintf(`{"error":{"message":"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, window, n)}
		}
		return testkit.Turn{Text: "Reply to " + c.Last().Text[:7] + ". " + pad}
	})
	c := newCore(t, store.NewMemKV(), "openai", model.URL)
	p := &panel{}
	c.Connect(p)
	var sid any
	var dones []map[string]any // each turn's chat.done (a call forgets what came before it)
	const sent = 12
	for k := range sent {
		params := obj{"text": fmt.Sprintf("msg %03d %s", k, pad)}
		if sid != nil {
			params["sessionId"] = sid
		}
		sid = p.callOK(t, c, "chat.send", params).(map[string]any)["sessionId"]
		dones = append(dones, p.waitFor(t, "chat.done"))
	}
	for k, done := range dones {
		m := done["message"].(map[string]any)
		require.Nil(t, m["error"], "reply %d", k)
		assert.Equal(t, fmt.Sprintf("Reply to msg %03d. ", k)+pad, m["content"])
	}
	// The last request the model took: the latest messages, in order, up to the new one.
	convs := model.Conversations()
	got := convs[len(convs)-1]
	require.LessOrEqual(t, tokens(got), window)
	require.Greater(t, len(got.Messages), 4, "more than the last message goes: %d", len(got.Messages))
	require.Less(t, len(got.Messages), 2*sent-1)
	t.Logf("%d requests; the last took %d messages, %d tokens of %d", len(convs), len(got.Messages), tokens(got), window)
	first := sent - (len(got.Messages)+1)/2
	for j, m := range got.Messages {
		k := first + j/2
		if j%2 == 0 {
			assert.Equal(t, "user", m.Role)
			assert.True(t, strings.HasPrefix(m.Text, fmt.Sprintf("msg %03d ", k)), "message %d: %.20q", j, m.Text)
		} else {
			assert.Equal(t, "assistant", m.Role)
			assert.True(t, strings.HasPrefix(m.Text, fmt.Sprintf("Reply to msg %03d.", k)), "message %d: %.20q", j, m.Text)
		}
	}
	// It is most of what fits: one more turn would not.
	assert.Greater(t, tokens(got)+(2*len(pad)+100)/4, window*8/10, "the cut kept too little: %d tokens", tokens(got))
	last := dones[sent-1]["message"].(map[string]any)
	text := last["noticeText"].(map[string]any)
	assert.Equal(t, "noticeFittedSome", text["key"])
	assert.Equal(t, []any{float64(2*sent - 1 - len(got.Messages))}, text["args"])
}

// Ollama fits a conversation longer than the window it loaded the model with by leaving out
// its start without a word, and that window is 4,096 tokens on most laptops. Skiff asks Ollama
// the window (/api/ps), fits the conversation itself, and the reply says how much room the
// model had and how to give it more. A model that the turn itself loaded tells its window
// after the reply, which then says what Ollama may have left out. A window that takes the
// conversation changes nothing, nor does a server that does not say.
func TestOllamasSmallWindowIsSaid(t *testing.T) {
	var window atomic.Int64   // the window /api/ps tells; 0: the model is not loaded
	var loadsTo atomic.Int64  // the window a request loads the model with (0: none)
	var psAnswers atomic.Bool // false: /api/ps is not there (404), as on another server
	psAnswers.Store(true)
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if w := loadsTo.Load(); w > 0 {
			window.Store(w)
		}
		return testkit.Turn{Text: "Noted."}
	})
	model.Handle("/api/ps", func(w http.ResponseWriter, _ *http.Request) {
		if !psAnswers.Load() {
			http.NotFound(w, nil)
			return
		}
		loaded := map[string]int{"nomic-embed-text:latest": 2048}
		if n := window.Load(); n > 0 {
			loaded["qwen3:latest"] = int(n)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(testkit.OllamaPS(loaded))
	})
	c := newCore(t, store.NewMemKV(), "ollama", model.URL+"/v1")
	chooseModel(t, c, "ollama", "qwen3")
	p := &panel{}
	c.Connect(p)
	pad := strings.Repeat("words of the chat ", 100) // 1.8 KB a message
	var sid any
	send := func(text string) map[string]any {
		params := obj{"text": text + " " + pad}
		if sid != nil {
			params["sessionId"] = sid
		}
		sid = p.callOK(t, c, "chat.send", params).(map[string]any)["sessionId"]
		m := p.waitFor(t, "chat.done")["message"].(map[string]any)
		require.Nil(t, m["error"])
		require.Equal(t, "Noted.", m["content"])
		return m
	}
	notice := func(m map[string]any) (string, []any) {
		nt, _ := m["noticeText"].(map[string]any)
		key, _ := nt["key"].(string)
		args, _ := nt["args"].([]any)
		return key, args
	}
	lastSent := func() *testkit.Conversation {
		convs := model.Conversations()
		return convs[len(convs)-1]
	}

	// A window the conversation fits in: all of it goes, nothing said.
	window.Store(32768)
	for _, text := range []string{"one", "two", "three"} {
		m := send(text)
		key, _ := notice(m)
		assert.Empty(t, key, text)
	}
	assert.Len(t, lastSent().Messages, 5)

	// Ollama's own small window: Skiff sends the latest turns that fit it, and says so.
	window.Store(2048)
	m := send("four")
	key, args := notice(m)
	assert.Equal(t, "noticeServerWindow", key)
	require.Len(t, args, 3)
	assert.Equal(t, []any{"qwen3", float64(2048)}, args[:2])
	assert.Greater(t, args[2].(float64), 2048.0)
	got := lastSent()
	require.Less(t, len(got.Messages), 7)
	assert.True(t, strings.HasPrefix(got.Messages[len(got.Messages)-1].Text, "four "), got.Messages[len(got.Messages)-1].Text)
	assert.Equal(t, "Ollama runs qwen3 with a context window of 2048 tokens, and this conversation takes about "+
		fmt.Sprint(args[2])+", so the model did not get all of it. Raise the context length in Ollama's settings (or start Ollama with OLLAMA_CONTEXT_LENGTH=32768).", m["notice"])

	// The model loaded by the turn itself: all of it went, and the reply says Ollama may have
	// left out its start.
	window.Store(0)
	loadsTo.Store(2048)
	m = send("five")
	key, _ = notice(m)
	assert.Equal(t, "noticeServerWindow", key)
	assert.Len(t, lastSent().Messages, 9, "the window was not known: nothing was fitted")

	// A server that does not say: nothing changes.
	psAnswers.Store(false)
	m = send("six")
	key, _ = notice(m)
	assert.Empty(t, key)
	assert.Len(t, lastSent().Messages, 11)
}

// A reply that never ends (a server that ignores max_tokens, a small model looping) is cut
// far past the length limit, says so, and lets go of the connection: a scheduled run has no
// one to press Stop.
func TestAReplyThatNeverEndsIsCut(t *testing.T) {
	gone := make(chan int, 1) // the bytes the server wrote before the client left
	srv := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		n := 0
		for i := 0; n < 64<<20; i++ { // a bound, so a client that never leaves fails the test
			k, err := fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"again and again %d \"}}]}\n\n", i)
			n += k
			if i%100 == 0 {
				w.(http.Flusher).Flush()
			}
			if err != nil || r.Context().Err() != nil {
				gone <- n
				return
			}
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	})
	c := newCore(t, store.NewMemKV(), "openai", srv.URL)
	p := &panel{}
	c.Connect(p)
	p.callOK(t, c, "chat.send", obj{"text": "count forever"})
	done := p.waitFor(t, "chat.done")["message"].(map[string]any)
	assert.Nil(t, done["error"])
	assert.Nil(t, done["status"], "a reply cut where it ran away is whole, not failed")
	content := done["content"].(string)
	most := agent.RunawayBytes(4096)
	assert.Greater(t, len(content), most)
	assert.Less(t, len(content), most+100, "it was cut as soon as it passed the bound")
	assert.True(t, strings.HasPrefix(content, "again and again 0 again and again 1 "))
	text := done["noticeText"].(map[string]any)
	assert.Equal(t, "noticeRunaway", text["key"])
	assert.Equal(t, []any{float64(4096)}, text["args"])
	select {
	case n := <-gone:
		t.Logf("the server wrote %d bytes before Skiff let go", n)
	case <-time.After(10 * time.Second):
		t.Fatal("Skiff did not let go of the connection")
	}
}
