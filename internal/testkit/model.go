package testkit

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Model is a local model server that speaks the three wire formats Skiff uses, the format
// chosen by the request path as the real APIs do (/chat/completions: OpenAI; /v1/messages:
// Anthropic; /models/{m}:streamGenerateContent: Gemini). Each request is read into a
// Conversation, Script says the next Turn, and the turn is streamed back the way the real
// APIs stream it: the shapes are those of the recorded streams in
// internal/provider/testdata/recorded, which TestModelMatchesRecordedStreams checks.
type Model struct {
	*Server
	Script func(c *Conversation) Turn

	mu     sync.Mutex
	convs  []*Conversation
	routes map[string]http.HandlerFunc
}

// Handle has the model's server answer path with h, as the server's other endpoints beside
// its chat (Ollama's /api/ps).
func (m *Model) Handle(path string, h http.HandlerFunc) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.routes == nil {
		m.routes = map[string]http.HandlerFunc{}
	}
	m.routes[path] = h
}

// Conversation is a request to a Model, in neutral terms.
type Conversation struct {
	Format   string // "openai", "anthropic" or "google"
	Model    string
	System   string
	Tools    []string // names of the tools offered
	Messages []Msg
	Raw      map[string]any
}

// Msg is one message of a Conversation.
type Msg struct {
	Role   string // "user", "assistant" or "tool"
	Text   string
	Calls  []Call // an assistant's tool calls
	CallID string // a tool result's call
	Name   string // a tool result's tool
	Error  bool   // a tool result that is an error
	Images int    // images that came with a tool result, or with the user's message
	// Pictures are those images' bytes, decoded from the request, in order.
	Pictures [][]byte
}

// Call is a tool call, made by a Turn or found in a Conversation.
type Call struct {
	ID        string
	Name      string
	Args      map[string]any
	Signature string // Gemini's thoughtSignature
}

// Turn is what the model says next: text, tool calls, or both. Delay pauses before each chunk.
// CutAfter, when set, drops the connection after that many events, as a network that fails
// mid-reply does (no finish marker, the response not ended). Whole answers with the turn as one
// JSON body, the non-streamed reply of the format, as a gateway that ignores stream:true does.
// Status, when set, refuses the request: that HTTP status with Body, as a server's error.
type Turn struct {
	Text     string
	Calls    []Call
	Delay    time.Duration
	CutAfter int
	Whole    bool
	Status   int
	Body     string
	// Length ends the reply as one cut at the length limit (max_tokens), in each format's
	// words: finish_reason "length", stop_reason "max_tokens", finishReason "MAX_TOKENS".
	Length bool
	// Hold, when set, stops the reply after the first piece of its text (a third; Gemini's
	// stream, a half) until it is closed (or the client goes away): a test acts while the reply
	// is surely being written.
	Hold <-chan struct{}
	// Cost is what the provider bills for the turn, in US dollars, as OpenRouter says it in
	// the OpenAI format's usage (the other formats carry none).
	Cost float64
}

// Last returns the last message of the conversation.
func (c *Conversation) Last() Msg {
	if len(c.Messages) == 0 {
		return Msg{}
	}
	return c.Messages[len(c.Messages)-1]
}

// Results returns the tool results since the model's last turn.
func (c *Conversation) Results() []Msg {
	var out []Msg
	for i := len(c.Messages) - 1; i >= 0 && c.Messages[i].Role == "tool"; i-- {
		out = append([]Msg{c.Messages[i]}, out...)
	}
	return out
}

// Steps counts the model's turns so far in the current run (since the last user message).
func (c *Conversation) Steps() int {
	n := 0
	for i := len(c.Messages) - 1; i >= 0 && c.Messages[i].Role != "user"; i-- {
		if c.Messages[i].Role == "assistant" {
			n++
		}
	}
	return n
}

// Has reports whether tool name is offered.
func (c *Conversation) Has(name string) bool {
	for _, t := range c.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// NewModel starts a Model with a script.
func NewModel(t testing.TB, script func(c *Conversation) Turn) *Model {
	m := &Model{Script: script}
	m.Server = Serve(t, func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		route := m.routes[r.URL.Path]
		m.mu.Unlock()
		if route != nil {
			route(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		c, err := ParseConversation(r.URL.Path, body)
		if err != nil {
			http.Error(w, `{"error":{"message":"`+err.Error()+`"}}`, http.StatusBadRequest)
			return
		}
		m.mu.Lock()
		m.convs = append(m.convs, c)
		m.mu.Unlock()
		turn := m.Script(c)
		if turn.Status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(turn.Status)
			_, _ = io.WriteString(w, turn.Body)
			return
		}
		if turn.Whole {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(WholeTurn(c.Format, turn))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		StreamTurn(w, r, c.Format, turn)
	})
	return m
}

// Conversations returns every request the model got, in order.
func (m *Model) Conversations() []*Conversation {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Conversation(nil), m.convs...)
}

// FormatOf tells a request's wire format by its path.
func FormatOf(path string) string {
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return "openai"
	case strings.HasSuffix(path, "/v1/messages"):
		return "anthropic"
	case strings.Contains(path, ":streamGenerateContent"):
		return "google"
	}
	return ""
}

// ParseConversation reads a request body of the format its path names.
func ParseConversation(path string, body []byte) (*Conversation, error) {
	c := &Conversation{Format: FormatOf(path)}
	if err := json.Unmarshal(body, &c.Raw); err != nil {
		return nil, fmt.Errorf("the body is not JSON: %v", err)
	}
	var err error
	switch c.Format {
	case "openai":
		err = parseOpenAI(c, body)
	case "anthropic":
		err = parseAnthropic(c, body)
	case "google":
		err = parseGoogle(c, body, path)
	default:
		err = fmt.Errorf("unknown path %s", path)
	}
	return c, err
}

func parseOpenAI(c *Conversation, body []byte) error {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return err
	}
	c.Model = req.Model
	for _, t := range req.Tools {
		c.Tools = append(c.Tools, t.Function.Name)
	}
	names := map[string]string{}
	for _, m := range req.Messages {
		text, pictures := oaContent(m.Content)
		images := len(pictures)
		switch m.Role {
		case "system":
			c.System = text
		case "assistant":
			am := Msg{Role: "assistant", Text: text}
			for _, tc := range m.ToolCalls {
				args := map[string]any{}
				_ = json.Unmarshal([]byte(tc.Function.Arguments), &args)
				am.Calls = append(am.Calls, Call{ID: tc.ID, Name: tc.Function.Name, Args: args})
				names[tc.ID] = tc.Function.Name
			}
			c.Messages = append(c.Messages, am)
		case "tool":
			rest, isErr := strings.CutPrefix(text, "Error: ")
			c.Messages = append(c.Messages, Msg{Role: "tool", Text: rest, CallID: m.ToolCallID, Name: names[m.ToolCallID], Error: isErr})
		default:
			// Images a tool took come in a user message right after the tool results.
			if images > 0 && len(c.Messages) > 0 && c.Messages[len(c.Messages)-1].Role == "tool" {
				last := &c.Messages[len(c.Messages)-1]
				last.Images += images
				last.Pictures = append(last.Pictures, pictures...)
				continue
			}
			c.Messages = append(c.Messages, Msg{Role: "user", Text: text, Images: images, Pictures: pictures})
		}
	}
	return nil
}

func oaContent(raw json.RawMessage) (string, [][]byte) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	var images [][]byte
	for _, p := range parts {
		if p.Type == "image_url" {
			_, data, _ := strings.Cut(p.ImageURL.URL, ";base64,")
			images = append(images, fromBase64(data))
		}
		b.WriteString(p.Text)
	}
	return b.String(), images
}

// fromBase64 is an image's base64 data as bytes (nil when it is not base64).
func fromBase64(data string) []byte {
	b, _ := base64.StdEncoding.DecodeString(data)
	return b
}

// block is a content block of Anthropic's Messages API.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     map[string]any  `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    struct {
		Data string `json:"data"`
	} `json:"source"`
}

// blocks is a message's content or the system prompt in Anthropic's Messages API: a string
// (one text block) or an array of blocks; both are valid, and clients send either (Claude
// Code sends its system prompt as blocks).
type blocks []block

func (bs *blocks) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*bs = blocks{{Type: "text", Text: s}}
		return nil
	}
	return json.Unmarshal(b, (*[]block)(bs))
}

func (bs blocks) text() string {
	var out strings.Builder
	for _, b := range bs {
		out.WriteString(b.Text)
	}
	return out.String()
}

func parseAnthropic(c *Conversation, body []byte) error {
	var req struct {
		Model    string `json:"model"`
		System   blocks `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content blocks `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return err
	}
	c.Model, c.System = req.Model, req.System.text()
	for _, t := range req.Tools {
		c.Tools = append(c.Tools, t.Name)
	}
	names := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			am := Msg{Role: "assistant"}
			for _, b := range m.Content {
				switch b.Type {
				case "text":
					am.Text += b.Text
				case "tool_use":
					am.Calls = append(am.Calls, Call{ID: b.ID, Name: b.Name, Args: b.Input})
					names[b.ID] = b.Name
				}
			}
			c.Messages = append(c.Messages, am)
			continue
		}
		var text strings.Builder
		var pictures [][]byte // the user's own images (a tool's come inside its result)
		for _, b := range m.Content {
			switch b.Type {
			case "image":
				pictures = append(pictures, fromBase64(b.Source.Data))
			case "tool_result":
				tm := Msg{Role: "tool", CallID: b.ToolUseID, Name: names[b.ToolUseID], Error: b.IsError}
				var s string
				if json.Unmarshal(b.Content, &s) == nil {
					tm.Text = s
				} else {
					var parts []block
					_ = json.Unmarshal(b.Content, &parts)
					for _, p := range parts {
						if p.Type == "image" {
							tm.Images++
							tm.Pictures = append(tm.Pictures, fromBase64(p.Source.Data))
						}
						tm.Text += p.Text
					}
				}
				c.Messages = append(c.Messages, tm)
			case "text":
				text.WriteString(b.Text)
			}
		}
		if text.Len() > 0 || len(pictures) > 0 {
			c.Messages = append(c.Messages, Msg{Role: "user", Text: text.String(), Images: len(pictures), Pictures: pictures})
		}
	}
	return nil
}

func parseGoogle(c *Conversation, body []byte, path string) error {
	type part struct {
		Text         string `json:"text"`
		FunctionCall *struct {
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"functionCall"`
		FunctionResponse *struct {
			Name     string         `json:"name"`
			Response map[string]any `json:"response"`
		} `json:"functionResponse"`
		InlineData *struct {
			Data string `json:"data"`
		} `json:"inlineData"`
	}
	var req struct {
		SystemInstruction *struct {
			Parts []part `json:"parts"`
		} `json:"systemInstruction"`
		Contents []struct {
			Role  string `json:"role"`
			Parts []part `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return err
	}
	if i := strings.Index(path, "/models/"); i >= 0 {
		c.Model = strings.TrimSuffix(path[i+len("/models/"):], ":streamGenerateContent")
	}
	if req.SystemInstruction != nil {
		for _, p := range req.SystemInstruction.Parts {
			c.System += p.Text
		}
	}
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			c.Tools = append(c.Tools, d.Name)
		}
	}
	// Gemini gives calls no ids: results answer calls by name, in order.
	n := 0
	var open []Call
	for _, ct := range req.Contents {
		if ct.Role == "model" {
			am := Msg{Role: "assistant"}
			for _, p := range ct.Parts {
				if p.FunctionCall != nil {
					call := Call{ID: fmt.Sprintf("call_%d", n), Name: p.FunctionCall.Name, Args: p.FunctionCall.Args}
					n++
					am.Calls = append(am.Calls, call)
					open = append(open, call)
				} else {
					am.Text += p.Text
				}
			}
			c.Messages = append(c.Messages, am)
			continue
		}
		var text strings.Builder
		var pictures [][]byte // the user's own images: those after no screenshot of this turn
		first := len(c.Messages)
		for _, p := range ct.Parts {
			switch {
			case p.FunctionResponse != nil:
				tm := Msg{Role: "tool", Name: p.FunctionResponse.Name}
				for i, oc := range open {
					if oc.Name == tm.Name {
						tm.CallID = oc.ID
						open = append(open[:i], open[i+1:]...)
						break
					}
				}
				if r, ok := p.FunctionResponse.Response["result"].(string); ok {
					tm.Text = r
				} else if e, ok := p.FunctionResponse.Response["error"].(string); ok {
					tm.Text, tm.Error = e, true
				}
				c.Messages = append(c.Messages, tm)
			case p.InlineData != nil:
				shot := false
				for i := len(c.Messages) - 1; i >= first; i-- {
					if c.Messages[i].Role == "tool" && c.Messages[i].Name == "screenshot" {
						c.Messages[i].Images++
						c.Messages[i].Pictures = append(c.Messages[i].Pictures, fromBase64(p.InlineData.Data))
						shot = true
						break
					}
				}
				if !shot {
					pictures = append(pictures, fromBase64(p.InlineData.Data))
				}
			default:
				text.WriteString(p.Text)
			}
		}
		if text.Len() > 0 || len(pictures) > 0 {
			c.Messages = append(c.Messages, Msg{Role: "user", Text: text.String(), Images: len(pictures), Pictures: pictures})
		}
	}
	return nil
}

// StreamTurn writes turn as format's event stream.
func StreamTurn(w http.ResponseWriter, r *http.Request, format string, turn Turn) {
	sent := 0
	// The events each format sends up to its first piece of text.
	upToText := map[string]int{"anthropic": 4, "google": 1}[format]
	if upToText == 0 {
		upToText = 2
	}
	send := func(event string, v any) bool {
		if turn.Hold != nil && sent == upToText {
			select {
			case <-turn.Hold:
			case <-r.Context().Done():
				return false
			}
		}
		if turn.CutAfter > 0 && sent == turn.CutAfter {
			Pause(r, 300*time.Millisecond) // the first words arrive, then
			panic(http.ErrAbortHandler)    // the connection drops: the client reads an error
		}
		sent++
		if turn.Delay > 0 && !Pause(r, turn.Delay) {
			return false
		}
		b, _ := json.Marshal(v)
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		w.(http.Flusher).Flush()
		return true
	}
	switch format {
	case "anthropic":
		streamAnthropic(send, turn)
	case "google":
		streamGoogle(send, turn)
	default:
		streamOpenAI(send, turn)
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
		w.(http.Flusher).Flush()
	}
}

// WholeTurn is turn as format's non-streamed reply: a chat.completion, a Message, or the JSON
// array of GenerateContentResponse that streamGenerateContent gives without alt=sse.
func WholeTurn(format string, turn Turn) any {
	switch format {
	case "anthropic":
		content := []any{}
		if turn.Text != "" {
			content = append(content, map[string]any{"type": "text", "text": turn.Text})
		}
		stop := "end_turn"
		for i, c := range turn.Calls {
			stop = "tool_use"
			content = append(content, map[string]any{"type": "tool_use", "id": callID(c, i, "toolu_skiff"), "name": c.Name, "input": json.RawMessage(argsJSON(c))})
		}
		return map[string]any{"id": "msg_skiff", "type": "message", "role": "assistant", "model": "claude-test", "content": content,
			"stop_reason": stop, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 100, "output_tokens": 20}}
	case "google":
		var parts []any
		if turn.Text != "" {
			parts = append(parts, map[string]any{"text": turn.Text})
		}
		for _, c := range turn.Calls {
			parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": json.RawMessage(argsJSON(c))}})
		}
		return []any{map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120}, "modelVersion": "gemini-test"}}
	}
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	if turn.Text != "" {
		msg["content"] = turn.Text
	}
	finish := "stop"
	var calls []any
	for i, c := range turn.Calls {
		finish = "tool_calls"
		calls = append(calls, map[string]any{"id": callID(c, i, "call_skiff"), "type": "function", "function": map[string]any{"name": c.Name, "arguments": argsJSON(c)}})
	}
	if calls != nil {
		msg["tool_calls"] = calls
	}
	return map[string]any{"id": "chatcmpl-skiff", "object": "chat.completion", "created": 1727346178, "model": "gpt-test",
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}},
		"usage":   openAIUsage(turn)}
}

// openAIUsage is what the OpenAI format counts of a turn: 100 tokens in, 20 out, and, when the
// turn has a cost, what OpenRouter adds to it (usage.cost, in US dollars).
func openAIUsage(turn Turn) map[string]any {
	u := map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
	if turn.Cost > 0 {
		u["cost"] = turn.Cost
	}
	return u
}

// pieces cuts s into n parts or fewer, at byte positions (as the real streams cut JSON).
func pieces(s string, n int) []string {
	if len(s) <= n {
		return []string{s}
	}
	var out []string
	step := (len(s) + n - 1) / n
	for len(s) > 0 {
		k := min(step, len(s))
		for k < len(s) && s[k]&0xC0 == 0x80 {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

func argsJSON(c Call) string {
	if c.Args == nil {
		return "{}"
	}
	b, _ := json.Marshal(c.Args)
	return string(b)
}

func callID(c Call, i int, prefix string) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("%s%02d", prefix, i)
}

func streamOpenAI(send func(string, any) bool, turn Turn) {
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-skiff", "object": "chat.completion.chunk", "created": 1727346178, "model": "gpt-test",
			"system_fingerprint": "fp_test", "choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
	}
	if !send("", chunk(map[string]any{"role": "assistant", "content": nil}, nil)) {
		return
	}
	for _, p := range pieces(turn.Text, 3) {
		if p != "" && !send("", chunk(map[string]any{"content": p}, nil)) {
			return
		}
	}
	for i, c := range turn.Calls {
		head := map[string]any{"index": i, "id": callID(c, i, "call_skiff"), "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}
		if !send("", chunk(map[string]any{"tool_calls": []any{head}}, nil)) {
			return
		}
		for _, p := range pieces(argsJSON(c), 3) {
			if !send("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": p}}}}, nil)) {
				return
			}
		}
	}
	finish := "stop"
	if len(turn.Calls) > 0 {
		finish = "tool_calls"
	}
	if turn.Length {
		finish = "length"
	}
	if !send("", chunk(map[string]any{}, finish)) {
		return
	}
	send("", map[string]any{"id": "chatcmpl-skiff", "object": "chat.completion.chunk", "created": 1727346178, "model": "gpt-test", "choices": []any{},
		"usage": openAIUsage(turn)})
}

func streamAnthropic(send func(string, any) bool, turn Turn) {
	ok := send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_skiff", "type": "message", "role": "assistant",
		"model": "claude-test", "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}}})
	index := 0
	if ok && turn.Text != "" {
		ok = send("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{"type": "text", "text": ""}}) &&
			send("ping", map[string]any{"type": "ping"})
		for _, p := range pieces(turn.Text, 3) {
			ok = ok && send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "text_delta", "text": p}})
		}
		ok = ok && send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	for i, c := range turn.Calls {
		ok = ok && send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": callID(c, i, "toolu_skiff"), "name": c.Name, "input": map[string]any{}}}) &&
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "input_json_delta", "partial_json": ""}})
		for _, p := range pieces(argsJSON(c), 3) {
			ok = ok && send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "input_json_delta", "partial_json": p}})
		}
		ok = ok && send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	stop := "end_turn"
	if len(turn.Calls) > 0 {
		stop = "tool_use"
	}
	if turn.Length {
		stop = "max_tokens"
	}
	ok = ok && send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	_ = ok && send("message_stop", map[string]any{"type": "message_stop"})
}

func streamGoogle(send func(string, any) bool, turn Turn) {
	cand := func(parts []any, finish string) map[string]any {
		c := map[string]any{"content": map[string]any{"parts": parts, "role": "model"}}
		if finish != "" {
			c["finishReason"] = finish
		}
		out := map[string]any{"candidates": []any{c}, "modelVersion": "gemini-test", "responseId": "skiff"}
		if finish != "" {
			out["usageMetadata"] = map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120}
		}
		return out
	}
	texts := pieces(turn.Text, 2)
	for i, p := range texts {
		last := i == len(texts)-1 && len(turn.Calls) == 0
		finish := ""
		if last {
			finish = "STOP"
			if turn.Length {
				finish = "MAX_TOKENS"
			}
		}
		if p == "" && !last {
			continue
		}
		if !send("", cand([]any{map[string]any{"text": p}}, finish)) {
			return
		}
	}
	if len(turn.Calls) > 0 {
		var parts []any
		for _, c := range turn.Calls {
			args := c.Args
			if args == nil {
				args = map[string]any{}
			}
			part := map[string]any{"functionCall": map[string]any{"name": c.Name, "args": args}}
			if c.Signature != "" {
				part["thoughtSignature"] = c.Signature
			}
			parts = append(parts, part)
		}
		send("", cand(parts, "STOP"))
	}
}

// PNG is a 1×1 transparent PNG, for tests that need an image.
var PNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
