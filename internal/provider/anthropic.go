package provider

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/skiff-ai/skiff/internal/sse"
)

type anBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   any             `json:"content,omitempty"` // tool_result: a string, or blocks with images
	IsError   bool            `json:"is_error,omitempty"`
	Source    *anSource       `json:"source,omitempty"`
	// CacheControl marks the end of a prefix Anthropic keeps for the next request (see
	// cacheMarks).
	CacheControl *anCache `json:"cache_control,omitempty"`
}

// anCache is a prompt-cache breakpoint: Anthropic keeps the request up to it for 5 minutes.
type anCache struct {
	Type string `json:"type"` // "ephemeral"
}

// anSource is an image block's data.
type anSource struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type anMessage struct {
	Role    string    `json:"role"`
	Content []anBlock `json:"content"`
}

type anTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anBody struct {
	Model       string      `json:"model"`
	MaxTokens   int         `json:"max_tokens"`
	System      []anBlock   `json:"system,omitempty"`
	Messages    []anMessage `json:"messages"`
	Stream      bool        `json:"stream"`
	Temperature *float64    `json:"temperature,omitempty"`
	Tools       []anTool    `json:"tools,omitempty"`
}

func anthropicBody(r Request) anBody {
	b := anBody{Model: r.Model, MaxTokens: r.MaxTokens, Stream: true}
	if r.System != "" {
		b.System = []anBlock{{Type: "text", Text: r.System}}
	}
	if b.MaxTokens <= 0 {
		b.MaxTokens = DefaultMaxTokens
	}
	if t := r.Temperature; t != nil {
		v := min(*t, 1) // Anthropic's range is 0–1; Skiff's slider goes to 2.
		b.Temperature = &v
	}
	for _, m := range r.Messages {
		role, blocks := "user", []anBlock(nil)
		switch m.Role {
		case "assistant":
			role = "assistant"
			if m.Content != "" {
				blocks = append(blocks, anBlock{Type: "text", Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				in := sentArgs(tc)
				blocks = append(blocks, anBlock{Type: "tool_use", ID: wireID(FormatAnthropic, tc.ID), Name: tc.Name, Input: in})
			}
		case "tool":
			var content any = m.Content
			if len(m.Images) > 0 {
				parts := []anBlock{{Type: "text", Text: m.Content}}
				for _, img := range m.Images {
					parts = append(parts, anBlock{Type: "image", Source: &anSource{Type: "base64", MediaType: img.Mime, Data: base64.StdEncoding.EncodeToString(img.Data)}})
				}
				content = parts
			}
			blocks = append(blocks, anBlock{Type: "tool_result", ToolUseID: wireID(FormatAnthropic, m.ToolCallID), Content: content, IsError: m.IsError})
		default:
			// The images first, then the words about them (as Anthropic advises).
			for _, img := range m.Images {
				blocks = append(blocks, anBlock{Type: "image", Source: &anSource{Type: "base64", MediaType: img.Mime, Data: base64.StdEncoding.EncodeToString(img.Data)}})
			}
			if m.Content != "" || len(m.Images) == 0 {
				blocks = append(blocks, anBlock{Type: "text", Text: m.Content})
			}
		}
		if len(blocks) == 0 {
			continue
		}
		// Anthropic requires alternating roles: tool results and a following user text merge.
		if n := len(b.Messages); n > 0 && b.Messages[n-1].Role == role {
			b.Messages[n-1].Content = append(b.Messages[n-1].Content, blocks...)
			continue
		}
		b.Messages = append(b.Messages, anMessage{Role: role, Content: blocks})
	}
	for _, t := range r.Tools {
		b.Tools = append(b.Tools, anTool{Name: t.Name, Description: t.Description, InputSchema: t.Schema})
	}
	cacheMarks(&b)
	return b
}

// cacheMarks sets Anthropic's prompt-cache breakpoints, as Claude Code and Cline do: after the
// system prompt (which comes after the tools, so both are kept: 6,000 tokens of tools in an
// agent run), and after each of the last two user turns (the one sent now, for the next
// request, and the one before, which this request reads back). Anthropic caches only what
// it is asked to; the next step of a run then pays a tenth for all that came before, and its
// first token comes sooner. A prefix shorter than the model's minimum (1,024 tokens and up)
// is not cached, at no cost. Four breakpoints at most; never on an empty text.
func cacheMarks(b *anBody) {
	mark := func(bl *anBlock) bool {
		if bl.Type == "text" && bl.Text == "" {
			return false
		}
		bl.CacheControl = &anCache{Type: "ephemeral"}
		return true
	}
	if n := len(b.System); n > 0 {
		mark(&b.System[n-1])
	}
	users := 0
	for i := len(b.Messages) - 1; i >= 0 && users < 2; i-- {
		m := &b.Messages[i]
		if m.Role != "user" {
			continue
		}
		for j := len(m.Content) - 1; j >= 0; j-- {
			if mark(&m.Content[j]) {
				users++
				break
			}
		}
	}
}

type anUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
}

type anEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		Usage anUsage `json:"usage"`
	} `json:"message"`
	// Content and StopReason are a whole message's (type "message"): the reply of a
	// provider that answered stream:true with one JSON body.
	Content []struct {
		Type     string          `json:"type"`
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Text     string          `json:"text"`
		Thinking string          `json:"thinking"`
		Input    json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason   string `json:"stop_reason"`
	ContentBlock struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
		Text string `json:"text"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage anUsage `json:"usage"`
}

type anTool0 struct {
	id, name string
	json     strings.Builder
	stopped  bool
}

type anthropicDecoder struct {
	p          Provider
	tools      map[int]*anTool0
	order      []int
	usage      Usage
	sawUsage   bool
	stopReason string
	done       bool
}

func (u *Usage) mergeAnthropic(a anUsage) bool {
	set := func(dst *int, src *int) bool {
		if src != nil {
			*dst = *src
			return true
		}
		return false
	}
	// message_delta usage is cumulative, so later values replace earlier ones.
	s := set(&u.Input, a.InputTokens)
	s = set(&u.Output, a.OutputTokens) || s
	s = set(&u.CacheRead, a.CacheReadInputTokens) || s
	s = set(&u.CacheWrite, a.CacheCreationInputTokens) || s
	return s
}

func (d *anthropicDecoder) event(ev sse.Event, emit func(Event)) bool {
	data := strings.TrimSpace(ev.Data)
	if data == "" {
		return false
	}
	var e anEvent
	if err := json.Unmarshal([]byte(data), &e); err != nil {
		emit(Event{Kind: EventError, Err: badData(d.p, sayUnreadablePart, []byte(data))})
		return true
	}
	if e.Type == "" {
		e.Type = ev.Type
	}
	switch e.Type {
	case "message_start":
		d.sawUsage = d.usage.mergeAnthropic(e.Message.Usage) || d.sawUsage
	case "content_block_start":
		switch e.ContentBlock.Type {
		case "tool_use", "server_tool_use":
			if d.tools == nil {
				d.tools = map[int]*anTool0{}
			}
			d.tools[e.Index] = &anTool0{id: e.ContentBlock.ID, name: e.ContentBlock.Name}
			d.order = append(d.order, e.Index)
		case "text":
			if e.ContentBlock.Text != "" {
				emit(Event{Kind: EventText, Text: e.ContentBlock.Text})
			}
		}
	case "content_block_delta":
		switch e.Delta.Type {
		case "text_delta":
			if e.Delta.Text != "" {
				emit(Event{Kind: EventText, Text: e.Delta.Text})
			}
		case "thinking_delta":
			if e.Delta.Thinking != "" {
				emit(Event{Kind: EventReasoning, Text: e.Delta.Thinking})
			}
		case "input_json_delta":
			if t := d.tools[e.Index]; t != nil {
				t.json.WriteString(e.Delta.PartialJSON)
				if t.json.Len() > MaxCallArgs {
					emit(Event{Kind: EventError, Err: tooLongCall(d.p, t.name)})
					return true
				}
			}
		}
	case "content_block_stop":
		if t := d.tools[e.Index]; t != nil && !t.stopped {
			t.stopped = true
			d.emitTool(t, emit)
		}
	case "message_delta":
		if e.Delta.StopReason != "" {
			d.stopReason = e.Delta.StopReason
		}
		d.sawUsage = d.usage.mergeAnthropic(e.Usage) || d.sawUsage
	case "message_stop":
		d.done = true
		return true
	case "message": // the whole reply at once
		for _, b := range e.Content {
			switch b.Type {
			case "text":
				if b.Text != "" {
					emit(Event{Kind: EventText, Text: b.Text})
				}
			case "thinking":
				if b.Thinking != "" {
					emit(Event{Kind: EventReasoning, Text: b.Thinking})
				}
			case "tool_use", "server_tool_use":
				t := &anTool0{id: b.ID, name: b.Name, stopped: true}
				t.json.Write(b.Input)
				d.emitTool(t, emit)
			}
		}
		d.stopReason = e.StopReason
		d.sawUsage = d.usage.mergeAnthropic(e.Usage) || d.sawUsage
		d.done = true
		return true
	case "error":
		emit(Event{Kind: EventError, Err: streamError(d.p, []byte(data))})
		return true
	}
	return false
}

func (d *anthropicDecoder) emitTool(t *anTool0, emit func(Event)) {
	args, ok := objectArgs(t.json.String())
	emit(Event{Kind: EventToolCall, ToolCall: &ToolCall{ID: t.id, Name: t.name, Args: args, Incomplete: !ok || !t.stopped}})
}

func (d *anthropicDecoder) end(emit func(Event)) {
	if !d.done && d.stopReason == "" {
		emit(Event{Kind: EventError, Err: truncated(d.p)})
		return
	}
	// A tool_use block cut off by max_tokens never gets content_block_stop.
	for _, i := range d.order {
		if t := d.tools[i]; !t.stopped {
			d.emitTool(t, emit)
		}
	}
	if d.sawUsage {
		u := d.usage
		u.Total = u.Input + u.Output
		emit(Event{Kind: EventUsage, Usage: &u})
	}
	emit(Event{Kind: EventFinish, Finish: normalizeFinish(d.stopReason)})
}
