package provider

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/skiff-ai/skiff/internal/sse"
)

type oaMessage struct {
	Role       string       `json:"role"`
	Content    any          `json:"content"` // a string, parts ([]oaPart), or null`
	ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
	// ReasoningContent is an assistant turn's thinking, for DeepSeek (sendsReasoning).
	ReasoningContent *string `json:"reasoning_content,omitempty"`
}

type oaToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type oaTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type oaBody struct {
	Model               string         `json:"model"`
	Messages            []oaMessage    `json:"messages"`
	Stream              bool           `json:"stream"`
	StreamOptions       map[string]any `json:"stream_options,omitempty"`
	Temperature         *float64       `json:"temperature,omitempty"`
	MaxTokens           int            `json:"max_tokens,omitempty"`
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
	Tools               []oaTool       `json:"tools,omitempty"`
}

// oaPart is a part of a user message's content: text or an image.
type oaPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url,omitempty"`
	// CacheControl is an Anthropic prompt-cache breakpoint, which OpenRouter passes on for
	// Claude (see cacheClaude).
	CacheControl *anCache `json:"cache_control,omitempty"`
}

func dataURL(img Image) string {
	return "data:" + img.Mime + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

// openaiReasoning: OpenAI's reasoning models (o1, o3, o4-mini, the GPT-5 family, gpt-5.4 the
// default among them), under their name or a gateway's ("openai/gpt-5.4-nano") or on another
// host (Azure, a proxy), take only their own temperature ("Unsupported value: 'temperature'
// does not support 0.7 with this model") and max_completion_tokens, not max_tokens.
func openaiReasoning(model string) bool {
	m := toLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	return strings.HasPrefix(m, "gpt-5") || strings.HasPrefix(m, "o1") || strings.HasPrefix(m, "o3") || strings.HasPrefix(m, "o4")
}

func openaiBody(p Provider, r Request) oaBody {
	b := oaBody{Model: r.Model, Stream: true, Temperature: r.Temperature}
	reasoning := openaiReasoning(r.Model)
	if reasoning {
		b.Temperature = nil
	}
	if p.usageOption {
		b.StreamOptions = map[string]any{"include_usage": true}
	}
	if p.maxCompletionTokens || reasoning {
		b.MaxCompletionTokens = withThinking(r.MaxTokens, reasoning, 100000)
	} else {
		b.MaxTokens = r.MaxTokens
	}
	if r.System != "" {
		b.Messages = append(b.Messages, oaMessage{Role: "system", Content: r.System})
	}
	// A tool message holds text only: the images of a run of tool results follow it, in one
	// user message, once every call of the assistant turn has its result.
	var images []oaPart
	flushImages := func() {
		if len(images) > 0 {
			b.Messages = append(b.Messages, oaMessage{Role: "user", Content: images})
			images = nil
		}
	}
	for _, m := range r.Messages {
		if m.Role != "tool" {
			flushImages()
		}
		switch m.Role {
		case "tool":
			content := m.Content
			if m.IsError {
				content = "Error: " + content // the format has no error flag: say it in words
			}
			id := wireID(FormatOpenAI, m.ToolCallID)
			b.Messages = append(b.Messages, oaMessage{Role: "tool", Content: content, ToolCallID: id})
			for _, img := range m.Images {
				images = append(images, oaPart{Type: "text", Text: "The image from " + m.ToolName + " (" + id + "):"})
				p := oaPart{Type: "image_url"}
				p.ImageURL = &struct {
					URL string `json:"url"`
				}{dataURL(img)}
				images = append(images, p)
			}
		case "assistant":
			om := oaMessage{Role: "assistant", Content: m.Content}
			if p.sendsReasoning {
				om.ReasoningContent = &m.Reasoning
			}
			for _, tc := range m.ToolCalls {
				var c oaToolCall
				c.ID, c.Type = wireID(FormatOpenAI, tc.ID), "function"
				c.Function.Name, c.Function.Arguments = tc.Name, string(sentArgs(tc))
				om.ToolCalls = append(om.ToolCalls, c)
			}
			if len(om.ToolCalls) > 0 && m.Content == "" {
				om.Content = nil
			}
			b.Messages = append(b.Messages, om)
		default:
			if len(m.Images) == 0 {
				b.Messages = append(b.Messages, oaMessage{Role: "user", Content: m.Content})
				continue
			}
			parts := []oaPart{}
			if m.Content != "" {
				parts = append(parts, oaPart{Type: "text", Text: m.Content})
			}
			for _, img := range m.Images {
				p := oaPart{Type: "image_url"}
				p.ImageURL = &struct {
					URL string `json:"url"`
				}{dataURL(img)}
				parts = append(parts, p)
			}
			b.Messages = append(b.Messages, oaMessage{Role: "user", Content: parts})
		}
	}
	flushImages()
	for _, t := range r.Tools {
		var ot oaTool
		ot.Type = "function"
		ot.Function.Name, ot.Function.Description, ot.Function.Parameters = t.Name, t.Description, t.Schema
		b.Tools = append(b.Tools, ot)
	}
	if p.ID == "openrouter" && strings.HasPrefix(toLower(r.Model), "anthropic/") {
		cacheClaude(&b)
	}
	return b
}

// cacheClaude marks what Anthropic should keep of a request to Claude through OpenRouter, as
// Skiff's own Anthropic requests do (cacheMarks): Anthropic caches only what is marked, and
// OpenRouter passes the marks on from text parts. The system prompt (with the tools before it)
// and the last user message's text are marked; OpenRouter's other providers need none.
func cacheClaude(b *oaBody) {
	marked := func(text string) []oaPart {
		return []oaPart{{Type: "text", Text: text, CacheControl: &anCache{Type: "ephemeral"}}}
	}
	if len(b.Messages) > 0 && b.Messages[0].Role == "system" {
		if sys, ok := b.Messages[0].Content.(string); ok && sys != "" {
			b.Messages[0].Content = marked(sys)
		}
	}
	for i := len(b.Messages) - 1; i > 0; i-- {
		m := &b.Messages[i]
		if m.Role != "user" {
			continue
		}
		switch c := m.Content.(type) {
		case string:
			if c != "" {
				m.Content = marked(c)
			}
		case []oaPart:
			for j := len(c) - 1; j >= 0; j-- {
				if c[j].Type == "text" && c[j].Text != "" {
					c[j].CacheControl = &anCache{Type: "ephemeral"}
					break
				}
			}
		}
		break
	}
}

// oaChunk is a chat.completion.chunk. Fields a provider may send as null are pointers or
// RawMessage so that null reads as "absent".
type oaChunk struct {
	Choices []struct {
		Delta oaDelta `json:"delta"`
		// Message is the whole reply of a provider that answered stream:true with one
		// chat.completion: it is read as one delta.
		Message      *oaDelta `json:"message"`
		FinishReason *string  `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		TotalTokens         int `json:"total_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
		// What the request was billed: OpenRouter's in dollars, xAI's in ticks (10^10 a dollar).
		Cost      float64 `json:"cost"`
		CostTicks int64   `json:"cost_in_usd_ticks"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
	// Object is "error" in vLLM's in-band error ({"object":"error","message":…}).
	Object string `json:"object"`
}

// oaDelta is what one chunk adds to the reply.
type oaDelta struct {
	Content          json.RawMessage `json:"content"` // string, null, or (Mistral) an array of parts
	ReasoningContent *string         `json:"reasoning_content"`
	Reasoning        *string         `json:"reasoning"`
	ToolCalls        []struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// mistralPart is one element of Mistral's array-valued delta.content.
type mistralPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking []struct {
		Text string `json:"text"`
	} `json:"thinking"`
}

type oaPending struct {
	id, name string
	args     strings.Builder
}

type openaiDecoder struct {
	p      Provider
	calls  []*oaPending
	byKey  map[string]*oaPending
	finish string
	usage  *Usage
	done   bool // [DONE] seen
	think  thinkTags
}

func newOpenAIDecoder(p Provider) *openaiDecoder {
	return &openaiDecoder{p: p, byKey: map[string]*oaPending{}}
}

func (d *openaiDecoder) event(ev sse.Event, emit func(Event)) bool {
	if ev.Type == "error" { // Groq: `event: error` with {"error":{...}}
		emit(Event{Kind: EventError, Err: streamError(d.p, []byte(ev.Data))})
		return true
	}
	data := strings.TrimSpace(ev.Data)
	if data == "" {
		return false
	}
	if data == "[DONE]" {
		d.done = true
		return true
	}
	var c oaChunk
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		emit(Event{Kind: EventError, Err: badData(d.p, sayUnreadablePart, []byte(data))})
		return true
	}
	if len(c.Error) > 0 && string(c.Error) != "null" || c.Object == "error" { // OpenRouter, vLLM: in-band error in a 200 stream
		emit(Event{Kind: EventError, Err: streamError(d.p, []byte(data))})
		return true
	}
	for _, ch := range c.Choices {
		dl := ch.Delta
		if ch.Message != nil {
			dl = *ch.Message
		}
		switch {
		case dl.ReasoningContent != nil && *dl.ReasoningContent != "":
			emit(Event{Kind: EventReasoning, Text: *dl.ReasoningContent})
		case dl.Reasoning != nil && *dl.Reasoning != "":
			// OpenRouter duplicates this in reasoning_details; it is read once, here.
			emit(Event{Kind: EventReasoning, Text: *dl.Reasoning})
		}
		d.content(dl.Content, emit)
		for _, tc := range dl.ToolCalls {
			key := ""
			switch {
			case tc.Index != nil:
				key = "i" + strconv.Itoa(*tc.Index)
			case tc.ID != "": // Mistral sends complete calls with no index
				key = "id" + tc.ID
			case len(d.calls) > 0:
				key = "last"
			}
			pc := d.byKey[key]
			if pc == nil && key == "last" {
				pc = d.calls[len(d.calls)-1]
			}
			if pc == nil {
				pc = &oaPending{}
				d.byKey[key] = pc
				d.calls = append(d.calls, pc)
			}
			if tc.ID != "" {
				pc.id = tc.ID
			}
			if tc.Function.Name != "" {
				pc.name = tc.Function.Name
			}
			pc.args.WriteString(tc.Function.Arguments)
			if pc.args.Len() > MaxCallArgs {
				emit(Event{Kind: EventError, Err: tooLongCall(d.p, pc.name)})
				return true
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			d.finish = *ch.FinishReason
		}
	}
	if u := c.Usage; u != nil {
		d.usage = &Usage{Input: u.PromptTokens, Output: u.CompletionTokens, Total: u.TotalTokens}
		if u.PromptTokensDetails != nil {
			d.usage.CacheRead = u.PromptTokensDetails.CachedTokens
		}
		if u.CompletionTokensDetails != nil {
			d.usage.Reasoning = u.CompletionTokensDetails.ReasoningTokens
		}
		if u.Cost > 0 {
			d.usage.Cost = u.Cost
		} else if u.CostTicks > 0 {
			d.usage.Cost = float64(u.CostTicks) / 1e10
		}
	}
	return false
}

func (d *openaiDecoder) content(raw json.RawMessage, emit func(Event)) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			d.think.add(s, emit)
		}
		return
	}
	var parts []mistralPart
	if json.Unmarshal(raw, &parts) != nil {
		return
	}
	for _, pt := range parts {
		switch pt.Type {
		case "thinking":
			for _, t := range pt.Thinking {
				if t.Text != "" {
					emit(Event{Kind: EventReasoning, Text: t.Text})
				}
			}
		case "text":
			if pt.Text != "" {
				emit(Event{Kind: EventText, Text: pt.Text})
			}
		}
	}
}

func (d *openaiDecoder) end(emit func(Event)) {
	d.think.end(emit)
	if d.finish == "" && !d.done {
		emit(Event{Kind: EventError, Err: truncated(d.p)})
		return
	}
	if d.finish == "error" { // OpenRouter's end of a reply that failed, when it sends no error with it
		emit(Event{Kind: EventError, Err: &Error{Provider: d.p.Name, Kind: KindStream, Status: 200, Said: sayEndedWithError}})
		return
	}
	for i, pc := range d.calls {
		args, ok := objectArgs(pc.args.String())
		id := pc.id
		if id == "" {
			id = "call_" + strconv.Itoa(i)
		}
		emit(Event{Kind: EventToolCall, ToolCall: &ToolCall{ID: id, Name: pc.name, Args: args, Incomplete: !ok}})
	}
	if d.usage != nil {
		if d.usage.Total == 0 {
			d.usage.Total = d.usage.Input + d.usage.Output
		}
		emit(Event{Kind: EventUsage, Usage: d.usage})
	}
	raw := d.finish
	if raw == "" {
		raw = "stop"
	}
	emit(Event{Kind: EventFinish, Finish: normalizeFinish(raw)})
}
