package provider

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/skiff-ai/skiff/internal/sse"
)

type gPart struct {
	Text             string         `json:"text,omitempty"`
	Thought          bool           `json:"thought,omitempty"`
	FunctionCall     *gFunctionCall `json:"functionCall,omitempty"`
	FunctionResponse *gFunctionResp `json:"functionResponse,omitempty"`
	InlineData       *gBlob         `json:"inlineData,omitempty"`
	ThoughtSignature string         `json:"thoughtSignature,omitempty"`
}

// gBlob is inline data: an image sent with a function's response.
type gBlob struct {
	MimeType string `json:"mimeType"`
	Data     []byte `json:"data"` // base64 in JSON
}

type gFunctionCall struct {
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Args         json.RawMessage `json:"args,omitempty"`
	WillContinue bool            `json:"willContinue,omitempty"`
	PartialArgs  []struct {
		JSONPath     string          `json:"jsonPath"`
		StringValue  *string         `json:"stringValue"`
		NumberValue  *float64        `json:"numberValue"`
		BoolValue    *bool           `json:"boolValue"`
		NullValue    json.RawMessage `json:"nullValue"`
		WillContinue bool            `json:"willContinue"`
	} `json:"partialArgs,omitempty"`
}

type gFunctionResp struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

type gContent struct {
	Role  string  `json:"role,omitempty"`
	Parts []gPart `json:"parts"`
}

type gBody struct {
	Contents          []gContent `json:"contents"`
	SystemInstruction *gContent  `json:"systemInstruction,omitempty"`
	GenerationConfig  struct {
		Temperature     *float64 `json:"temperature,omitempty"`
		MaxOutputTokens int      `json:"maxOutputTokens,omitempty"`
	} `json:"generationConfig"`
	Tools []struct {
		FunctionDeclarations []gDecl `json:"functionDeclarations"`
	} `json:"tools,omitempty"`
}

type gDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

func googleBody(r Request) gBody {
	var b gBody
	b.GenerationConfig.Temperature = r.Temperature
	b.GenerationConfig.MaxOutputTokens = withThinking(r.MaxTokens, thinks(r.Model), 65536)
	if r.System != "" {
		b.SystemInstruction = &gContent{Parts: []gPart{{Text: r.System}}}
	}
	for _, m := range r.Messages {
		role, parts := "user", []gPart(nil)
		switch m.Role {
		case "assistant":
			role = "model"
			if m.Content != "" {
				parts = append(parts, gPart{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				args := sentArgs(tc)
				parts = append(parts, gPart{FunctionCall: &gFunctionCall{Name: tc.Name, Args: args}, ThoughtSignature: tc.Signature})
			}
		case "tool":
			key := "result"
			if m.IsError {
				key = "error"
			}
			parts = append(parts, gPart{FunctionResponse: &gFunctionResp{Name: m.ToolName, Response: map[string]any{key: m.Content}}})
			for _, img := range m.Images {
				parts = append(parts, gPart{InlineData: &gBlob{MimeType: img.Mime, Data: img.Data}})
			}
		default:
			for _, img := range m.Images {
				parts = append(parts, gPart{InlineData: &gBlob{MimeType: img.Mime, Data: img.Data}})
			}
			if m.Content != "" || len(m.Images) == 0 {
				parts = append(parts, gPart{Text: m.Content})
			}
		}
		if len(parts) == 0 {
			continue
		}
		if n := len(b.Contents); n > 0 && b.Contents[n-1].Role == role {
			b.Contents[n-1].Parts = append(b.Contents[n-1].Parts, parts...)
			continue
		}
		b.Contents = append(b.Contents, gContent{Role: role, Parts: parts})
	}
	// In a turn, the function responses come first (one per call, in order), then the images
	// that go with them, then the user's text.
	for i := range b.Contents {
		parts := b.Contents[i].Parts
		sort.SliceStable(parts, func(x, y int) bool { return partRank(parts[x]) < partRank(parts[y]) })
	}
	// Gemini 3 refuses a history whose step's first function call has no thought signature
	// ("Function call is missing a thought_signature in functionCall parts"): a call another
	// model made, or a workflow's step, has none. Google's documented stand-in takes its place.
	if signsCalls(r.Model) {
		for i := range b.Contents {
			if b.Contents[i].Role != "model" {
				continue
			}
			for j := range b.Contents[i].Parts {
				if pt := &b.Contents[i].Parts[j]; pt.FunctionCall != nil {
					if pt.ThoughtSignature == "" {
						pt.ThoughtSignature = "skip_thought_signature_validator"
					}
					break // only a step's first call carries one
				}
			}
		}
	}
	if len(r.Tools) > 0 {
		b.Tools = make([]struct {
			FunctionDeclarations []gDecl `json:"functionDeclarations"`
		}, 1)
		for _, t := range r.Tools {
			b.Tools[0].FunctionDeclarations = append(b.Tools[0].FunctionDeclarations, gDecl{t.Name, t.Description, t.Schema})
		}
	}
	return b
}

// thinks: Gemini 2.5 and later think before they answer, and count it in maxOutputTokens.
func thinks(model string) bool {
	m := strings.TrimPrefix(toLower(model), "models/")
	return strings.HasPrefix(m, "gemini-2.5") || signsCalls(m)
}

// signsCalls: Gemini 3 and later check the thought signatures of the calls sent back to them.
func signsCalls(model string) bool {
	m := strings.TrimPrefix(toLower(model), "models/")
	return strings.HasPrefix(m, "gemini-") && len(m) > 7 && m[7] >= '3' && m[7] <= '9'
}

func partRank(p gPart) int {
	switch {
	case p.FunctionResponse != nil:
		return 0
	case p.InlineData != nil:
		return 1
	}
	return 2
}

type gChunk struct {
	Candidates []struct {
		Content       gContent `json:"content"`
		FinishReason  string   `json:"finishReason"`
		FinishMessage string   `json:"finishMessage"`
	} `json:"candidates"`
	UsageMetadata *struct {
		PromptTokenCount        *int `json:"promptTokenCount"`
		CandidatesTokenCount    int  `json:"candidatesTokenCount"`
		TotalTokenCount         int  `json:"totalTokenCount"`
		ThoughtsTokenCount      int  `json:"thoughtsTokenCount"`
		CachedContentTokenCount int  `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
	PromptFeedback *struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
	Error json.RawMessage `json:"error"`
}

// gStreaming is a function call whose arguments arrive as partialArgs (Vertex).
type gStreaming struct {
	name, signature string
	values          map[string]any
}

type googleDecoder struct {
	p       Provider
	n       int // calls emitted, for synthesized ids
	pending *gStreaming
	finish  string
	// finishMessage is what the candidate said of its finish (finishMessage).
	finishMessage string
	usage         *Usage
}

func (d *googleDecoder) event(ev sse.Event, emit func(Event)) bool {
	data := strings.TrimSpace(ev.Data)
	if data == "" {
		return false
	}
	var c gChunk
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		emit(Event{Kind: EventError, Err: badData(d.p, sayUnreadablePart, []byte(data))})
		return true
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		emit(Event{Kind: EventError, Err: streamError(d.p, []byte(data))})
		return true
	}
	if c.PromptFeedback != nil && c.PromptFeedback.BlockReason != "" && len(c.Candidates) == 0 {
		d.finish = c.PromptFeedback.BlockReason
	}
	for _, cand := range c.Candidates {
		for _, pt := range cand.Content.Parts {
			switch {
			case pt.FunctionCall != nil:
				d.functionCall(pt, emit)
			case pt.Text != "" && pt.Thought:
				emit(Event{Kind: EventReasoning, Text: pt.Text})
			case pt.Text != "":
				emit(Event{Kind: EventText, Text: pt.Text})
			}
		}
		if cand.FinishReason != "" {
			d.finish, d.finishMessage = cand.FinishReason, cand.FinishMessage
		}
	}
	if u := c.UsageMetadata; u != nil && u.PromptTokenCount != nil {
		// Every chunk repeats usage; the last one is final, so replace.
		d.usage = &Usage{Input: *u.PromptTokenCount, Output: u.CandidatesTokenCount, Reasoning: u.ThoughtsTokenCount,
			CacheRead: u.CachedContentTokenCount, Total: u.TotalTokenCount}
	}
	return false
}

func (d *googleDecoder) functionCall(pt gPart, emit func(Event)) {
	fc := pt.FunctionCall
	if s := d.pending; s != nil {
		for _, pa := range fc.PartialArgs {
			path := strings.TrimPrefix(pa.JSONPath, "$.")
			switch {
			case pa.StringValue != nil:
				prev, _ := s.values[path].(string)
				s.values[path] = prev + *pa.StringValue
			case pa.NumberValue != nil:
				s.values[path] = *pa.NumberValue
			case pa.BoolValue != nil:
				s.values[path] = *pa.BoolValue
			default:
				s.values[path] = nil
			}
		}
		if fc.Name == "" && !fc.WillContinue { // the empty functionCall{} ends it
			d.pending = nil
			args, _ := json.Marshal(s.values) // keys sorted: stable, and order carries no meaning
			d.emitCall(s.name, "", json.RawMessage(args), s.signature, emit)
		}
		return
	}
	if fc.WillContinue && len(fc.Args) == 0 {
		d.pending = &gStreaming{name: fc.Name, signature: pt.ThoughtSignature, values: map[string]any{}}
		return
	}
	args := fc.Args
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	d.emitCall(fc.Name, fc.ID, args, pt.ThoughtSignature, emit)
}

func (d *googleDecoder) emitCall(name, id string, args json.RawMessage, sig string, emit func(Event)) {
	if id == "" {
		// Gemini's Developer API gives no call ids; results are matched by name and order.
		id = "call_" + strconv.Itoa(d.n)
	}
	d.n++
	emit(Event{Kind: EventToolCall, ToolCall: &ToolCall{ID: id, Name: name, Args: args, Signature: sig}})
}

func (d *googleDecoder) end(emit func(Event)) {
	if d.finish == "" {
		emit(Event{Kind: EventError, Err: truncated(d.p)})
		return
	}
	if s := d.pending; s != nil {
		args, _ := json.Marshal(s.values)
		d.pending = nil
		emit(Event{Kind: EventToolCall, ToolCall: &ToolCall{ID: "call_" + strconv.Itoa(d.n), Name: s.name, Args: args, Signature: s.signature, Incomplete: true}})
	}
	if d.usage != nil {
		emit(Event{Kind: EventUsage, Usage: d.usage})
	}
	f := normalizeFinish(d.finish)
	f.Message = d.finishMessage
	if d.n > 0 && f.Reason == "stop" {
		f.Reason = "tool_calls"
	}
	emit(Event{Kind: EventFinish, Finish: f})
}
