package provider

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"strings"
)

// EventKind says which field of an Event is set.
type EventKind int

const (
	// EventText carries Text: a piece of the visible answer.
	EventText EventKind = iota + 1
	// EventReasoning carries Text: a piece of the model's reasoning ("thinking").
	EventReasoning
	// EventToolCall carries ToolCall: one call, assembled from all its fragments.
	EventToolCall
	// EventUsage carries Usage: the final token counts (sent once, before EventFinish).
	EventUsage
	// EventFinish carries Finish: the stream ended normally. It is always the last event.
	EventFinish
	// EventError carries Err (a *Error): the stream failed. It is always the last event;
	// the text that arrived before it is valid partial output.
	EventError
)

// Event is one decoded piece of a provider stream.
type Event struct {
	Kind     EventKind
	Text     string
	ToolCall *ToolCall
	Usage    *Usage
	Finish   Finish
	Err      error
}

// Finish is why the model stopped, normalized across formats, with the provider's own word.
type Finish struct {
	// Reason is one of "stop", "length", "context_full", "tool_calls", "content_filter",
	// FinishBadCall, or the provider's value lowercased when it maps to none of these.
	Reason string `json:"reason"`
	// Raw is the provider's value (end_turn, STOP, max_tokens...).
	Raw string `json:"raw,omitempty"`
	// Message is what the provider said of it, when it says more than its word (Gemini's
	// finishMessage: "Malformed function call: print(default_api.snapshot())").
	Message string `json:"message,omitempty"`
}

// FinishBadCall: the model wrote a tool call its provider could not read, and the provider
// dropped it (Gemini's MALFORMED_FUNCTION_CALL, also through its OpenAI-compatible endpoint as
// "function_call_filter: MALFORMED_FUNCTION_CALL", and UNEXPECTED_TOOL_CALL: a call to a tool
// it was not given). Asking again usually works.
const FinishBadCall = "bad_call"

// ToolCall is a complete tool call.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Args is the argument object as JSON. When Incomplete, it is the raw text received,
	// which may not be valid JSON.
	Args json.RawMessage `json:"args"`
	// Incomplete is set when the stream stopped (max tokens) before the call's arguments ended.
	Incomplete bool `json:"incomplete,omitempty"`
	// Signature is Gemini's thoughtSignature, which must be sent back with the call.
	Signature string `json:"signature,omitempty"`
}

// MarshalJSON writes Args as a string of their text when they are not JSON (a call cut off, or
// written wrong: Incomplete), so that a reply holding such a call is still stored and shown;
// a request sends such a call's arguments as {} in every format.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	type plain ToolCall // without this method
	if len(c.Args) > 0 && !json.Valid(c.Args) {
		c.Args, _ = json.Marshal(string(c.Args))
	}
	return json.Marshal(plain(c))
}

// sentArgs are a call's arguments as a request sends them back: an object, or {} for a call
// whose arguments were cut off, not JSON, or JSON but not an object ("just text" from one model
// would make Anthropic and Gemini refuse every later request of the chat).
func sentArgs(c ToolCall) json.RawMessage {
	a := bytes.TrimSpace(c.Args)
	if c.Incomplete || len(a) == 0 || a[0] != '{' || !json.Valid(a) {
		return json.RawMessage("{}")
	}
	return c.Args
}

// Usage is token accounting for one response. Totals are taken as the provider reports them
// (xAI's total includes reasoning tokens); Total is computed only when the provider gives none.
type Usage struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	Reasoning  int `json:"reasoning,omitempty"`
	CacheRead  int `json:"cacheRead,omitempty"`
	CacheWrite int `json:"cacheWrite,omitempty"`
	Total      int `json:"total"`
	// Cost is what the provider says it billed, in US dollars (OpenRouter's usage.cost, xAI's
	// cost_in_usd_ticks); 0 when it says nothing.
	Cost float64 `json:"cost,omitempty"`
}

// Plus is u and v counted together (two requests' tokens).
func (u Usage) Plus(v Usage) Usage {
	return Usage{Input: u.Input + v.Input, Output: u.Output + v.Output, Reasoning: u.Reasoning + v.Reasoning,
		CacheRead: u.CacheRead + v.CacheRead, CacheWrite: u.CacheWrite + v.CacheWrite, Total: u.Total + v.Total,
		Cost: u.Cost + v.Cost}
}

func normalizeFinish(raw string) Finish {
	f := Finish{Raw: raw}
	switch raw {
	case "stop", "end_turn", "stop_sequence", "STOP", "pause_turn":
		f.Reason = "stop"
	case "length", "max_tokens", "MAX_TOKENS", "model_length":
		f.Reason = "length"
	case "model_context_window_exceeded": // Anthropic: the conversation filled the window
		f.Reason = "context_full"
	case "tool_calls", "tool_use", "function_call":
		f.Reason = "tool_calls"
	case "content_filter", "refusal", "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY":
		f.Reason = "content_filter"
	case "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "function_call_filter: MALFORMED_FUNCTION_CALL":
		f.Reason = FinishBadCall
	default:
		f.Reason = toLower(raw)
	}
	return f
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// objectArgs turns accumulated argument text into the JSON object to hand to a tool:
// empty text means no arguments ({}); anything else must be valid JSON.
// Some models (and the servers that run them) encode the object once more, as a JSON string
// that holds it, or send null for no arguments: both are taken for what they mean.
func objectArgs(s string) (json.RawMessage, bool) {
	if len(s) == 0 || isBlank(s) || s == "null" {
		return json.RawMessage("{}"), true
	}
	if !json.Valid([]byte(s)) {
		// A whole object with a closing brace too many after it (small local models write
		// {"ref": "e2"}}): the object is the arguments.
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
			d := json.NewDecoder(strings.NewReader(t))
			var first json.RawMessage
			if d.Decode(&first) == nil && strings.Trim(t[d.InputOffset():], "}] \t\r\n") == "" {
				return first, true
			}
		}
		return json.RawMessage(s), false
	}
	var inner string
	if s[0] == '"' && json.Unmarshal([]byte(s), &inner) == nil {
		if t := strings.TrimSpace(inner); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
			return json.RawMessage(t), true
		}
	}
	return json.RawMessage(s), true
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// wireID is a tool call's id as a wire format takes it, the same for the call and its result.
// A chat keeps the ids its models gave, and a chat may change models: Mistral's API (and the
// local servers that run Mistral's templates) refuses any id that is not 9 letters or digits
// ("Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9"), and
// Anthropic's one with other characters than letters, digits, _ and - (Kimi's
// "functions.get_weather:0"). Such an id is replaced by 9 letters and digits drawn from it.
func wireID(f Format, id string) string {
	ok := id != ""
	for i := 0; i < len(id) && ok; i++ {
		c := id[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || f == FormatAnthropic && (c == '_' || c == '-')
	}
	if ok && (f == FormatAnthropic || len(id) == 9) {
		return id
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	n := h.Sum64()
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := make([]byte, 9)
	for i := range b {
		b[i] = digits[n%62]
		n /= 62
	}
	return string(b)
}
