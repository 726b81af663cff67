package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"sync/atomic"
	"time"

	"github.com/skiff-ai/skiff/internal/sse"
)

// Message is one turn of the conversation as the provider sees it.
type Message struct {
	Role    string `json:"role"` // "user", "assistant" or "tool"
	Content string `json:"content"`
	// ToolCalls are the calls an assistant turn made.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Reasoning is what an assistant turn thought before it answered; it goes back only to
	// the providers that ask for it (DeepSeek's thinking mode).
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCallID and ToolName identify the call a "tool" turn answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	IsError    bool   `json:"isError,omitempty"`
	// Images go with a tool result (a screenshot) or a user's message (the images the user
	// attached), for models that see images.
	Images []Image `json:"images,omitempty"`
}

// Image is a picture sent to the model.
type Image struct {
	Mime string `json:"mime"` // image/jpeg, image/png
	Data []byte `json:"data"`
}

// Tool is a tool offered to the model; Schema is a JSON Schema object.
type Tool struct {
	Name        string
	Description string
	Schema      json.RawMessage
}

// Request is a chat request in Skiff's terms.
type Request struct {
	Model       string
	System      string
	Messages    []Message
	Temperature *float64 // nil: the provider's default
	MaxTokens   int      // 0: the provider's default (Anthropic requires one: DefaultMaxTokens)
	Tools       []Tool
}

// DefaultMaxTokens is sent to Anthropic, which requires max_tokens, when the user set none.
const DefaultMaxTokens = 4096

// ThinkingRoom is added to the reply's limit for the models that count what they think in it
// (Gemini 2.5 and 3, OpenAI's reasoning models): with Settings' 4096 tokens, Gemini 3 thinking
// "high" or o3 thinking "medium" often spent them all before a word of the reply.
const ThinkingRoom = 8192

// withThinking is limit with ThinkingRoom added when thinks, up to most (the models' own
// largest), and 0 (the provider's own) as is.
func withThinking(limit int, thinks bool, most int) int {
	if limit > 0 && thinks {
		return max(limit, min(limit+ThinkingRoom, most))
	}
	return limit
}

// HTTPRequest is what a Doer sends. Header keys are as sent.
type HTTPRequest struct {
	Method string
	URL    string
	Header map[string]string
	Body   []byte
}

// HTTPResponse is what a Doer returns. Header keys are lowercase. Body must be closed.
type HTTPResponse struct {
	Status int
	Header map[string]string
	Body   io.ReadCloser
}

// Doer performs HTTP requests. The browser implementation streams the body as it arrives;
// canceling ctx aborts the request and makes Body's Read return an error.
type Doer interface {
	Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error)
}

// NewRequest encodes r as an HTTP request to p, authenticated with key.
func (p Provider) NewRequest(key string, r Request) (*HTTPRequest, error) {
	if p.BaseURL == "" {
		return nil, fmt.Errorf("%s needs a base URL", p.Name)
	}
	if p.NeedsKey && strings.TrimSpace(key) == "" {
		return nil, &Error{Provider: p.Name, Kind: KindAuth, Said: sayNoKey}
	}
	if r.Model == "" {
		return nil, fmt.Errorf("%s: no model selected", p.Name)
	}
	h := map[string]string{"content-type": "application/json", "accept": "text/event-stream"}
	for k, v := range p.Header {
		h[k] = v
	}
	var (
		url  string
		body any
	)
	switch p.Format {
	case FormatAnthropic:
		url = p.BaseURL + "/v1/messages"
		h["x-api-key"] = key
		body = anthropicBody(r)
	case FormatGoogle:
		url = p.BaseURL + "/models/" + r.Model + ":streamGenerateContent?alt=sse"
		h["x-goog-api-key"] = key
		body = googleBody(r)
	default:
		url = p.BaseURL + "/chat/completions"
		if key != "" {
			h["authorization"] = "Bearer " + key
		}
		body = openaiBody(p, r)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	return &HTTPRequest{Method: "POST", URL: url, Header: h, Body: b}, nil
}

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// FirstWait is how long a provider may take to begin its reply (a reasoning model thinking
// before its first word), LocalFirstWait the same for a server on the user's machine or their
// own endpoint (loading a model, then reading a long page on a CPU), and SilenceWait how long
// a reply may then fall silent. Any bytes (a keep-alive ping too) show the provider is there;
// past a wait nothing is coming, and the reply ends with a KindSilent error, keeping what
// arrived.
var (
	FirstWait      = 5 * time.Minute
	LocalFirstWait = 15 * time.Minute
	SilenceWait    = 2 * time.Minute
)

var errSilent = errors.New("the provider sent nothing")

// Stream sends r to p and yields the decoded events. The last event is always EventFinish or
// EventError (a *Error), unless the caller stops early or ctx is canceled, in which case the
// sequence just ends.
func (p Provider) Stream(ctx context.Context, d Doer, key string, r Request) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		fail := func(err error) { yield(Event{Kind: EventError, Err: err}) }
		req, err := p.NewRequest(key, r)
		if err != nil {
			fail(err)
			return
		}
		// The watchdog: a provider that stops sending is given up on (a call into a peer
		// never waits forever), not waited for until the user presses Stop.
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		first := FirstWait
		if p.Local || !p.NeedsKey {
			first = LocalFirstWait
		}
		var wait atomic.Int64
		wait.Store(int64(first))
		dog := time.AfterFunc(first, func() { cancel(errSilent) })
		defer dog.Stop()
		silent := func() bool {
			if context.Cause(ctx) != errSilent {
				return false
			}
			fail(&Error{Provider: p.Name, Kind: KindSilent, Waited: time.Duration(wait.Load())})
			return true
		}
		resp, err := d.Do(ctx, req)
		if err != nil {
			if !silent() && ctx.Err() == nil {
				fail(AsError(p, err))
			}
			return
		}
		defer resp.Body.Close()
		if resp.Status < 200 || resp.Status > 299 {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
			fail(ResponseError(p, resp.Status, resp.Header, body))
			return
		}
		// What the body begins with decides how it is read, whatever its Content-Type says: a
		// stream begins with a field or a comment; JSON is a whole reply from an API that ignored
		// stream:true, or an error; '<' is a captive portal's or a proxy's page.
		c, body := peek(alive{resp.Body, func() { dog.Reset(time.Duration(wait.Load())) }})
		if c == '{' || c == '[' || c == '<' {
			whole, _ := io.ReadAll(io.LimitReader(body, maxWholeReply))
			if silent() || ctx.Err() != nil {
				return
			}
			var e *Error
			if body, e = p.whole(resp.Status, resp.Header, whole); e != nil {
				fail(e)
				return
			}
		}
		for ev := range p.Decode(body) {
			if ctx.Err() != nil { // canceled: the caller asked to stop, nothing more to report
				silent()
				return
			}
			if ev.Kind == EventText || ev.Kind == EventReasoning || ev.Kind == EventToolCall {
				if wait.Swap(int64(SilenceWait)) != int64(SilenceWait) { // it has begun: a pause is shorter now
					dog.Reset(SilenceWait)
				}
			}
			if !yield(ev) {
				return
			}
		}
	}
}

// maxWholeReply bounds a reply that came as one JSON body.
const maxWholeReply = 4 << 20

// peek reads r up to its first byte that is not white space or a byte order mark. It returns
// that byte (0 when the body ends or fails before one) and the whole body, those bytes included.
func peek(r io.Reader) (byte, io.Reader) {
	var head []byte
	buf := make([]byte, 512)
	for len(head) < 4096 {
		n, err := r.Read(buf)
		head = append(head, buf[:n]...)
		for _, c := range buf[:n] {
			switch c {
			case ' ', '\t', '\r', '\n', 0xEF, 0xBB, 0xBF:
			default:
				return c, io.MultiReader(bytes.NewReader(head), r)
			}
		}
		if err != nil {
			break
		}
	}
	return 0, io.MultiReader(bytes.NewReader(head), r)
}

// whole reads a 200 answer that is not an event stream. A whole reply in p's format becomes the
// stream it stands for (one event; Google: one per element of its array), so that it is decoded
// as one. An error envelope or a web page is the error it says, and anything else a response
// Skiff could not read.
func (p Provider) whole(status int, header map[string]string, body []byte) (io.Reader, *Error) {
	body = bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\ufeff")))
	if looksLikeHTML(body) || parseErrorBody(&Error{}, body) {
		return nil, ResponseError(p, status, header, body)
	}
	parts := []json.RawMessage{body}
	if p.Format == FormatGoogle && body[0] == '[' && json.Unmarshal(body, &parts) != nil {
		parts = nil
	}
	var shape struct {
		Type       string            `json:"type"`
		Choices    []json.RawMessage `json:"choices"`
		Candidates []json.RawMessage `json:"candidates"`
	}
	known := len(parts) > 0 && json.Unmarshal(parts[0], &shape) == nil
	switch p.Format {
	case FormatAnthropic:
		known = known && shape.Type == "message"
	case FormatGoogle:
		known = known && len(shape.Candidates) > 0
	default:
		known = known && len(shape.Choices) > 0
	}
	var stream bytes.Buffer
	for _, part := range parts {
		stream.WriteString("data: ")
		known = known && json.Compact(&stream, part) == nil
		stream.WriteString("\n\n")
	}
	if !known {
		return nil, badData(p, sayNotAStream, body)
	}
	if p.Format != FormatAnthropic && p.Format != FormatGoogle {
		stream.WriteString("data: [DONE]\n\n") // a whole chat.completion: nothing was cut
	}
	return &stream, nil
}

// alive is a response body whose reads that bring bytes tell the watchdog so.
type alive struct {
	io.Reader
	tick func()
}

func (a alive) Read(b []byte) (int, error) {
	n, err := a.Reader.Read(b)
	if n > 0 {
		a.tick()
	}
	return n, err
}

// decoder turns one format's SSE events into Events.
type decoder interface {
	// event handles one SSE event and reports whether the stream is complete.
	event(ev sse.Event, emit func(Event)) (done bool)
	// end flushes what is pending (tool calls, usage) and emits the terminal event: a finish
	// when the provider's end marker was seen, else a truncation error.
	end(emit func(Event))
}

// Decode decodes a response body in p's wire format. Read errors become a KindNetwork
// error; a stream that ends without its finish marker becomes KindTruncated.
func (p Provider) Decode(r io.Reader) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		var d decoder
		switch p.Format {
		case FormatAnthropic:
			d = &anthropicDecoder{p: p}
		case FormatGoogle:
			d = &googleDecoder{p: p}
		default:
			d = newOpenAIDecoder(p)
		}
		stopped := false
		emit := func(ev Event) {
			if stopped {
				return
			}
			if !yield(ev) || ev.Kind == EventFinish || ev.Kind == EventError {
				stopped = true
			}
		}
		for ev, err := range sse.Read(r) {
			if errors.Is(err, sse.ErrUnexpectedEOF) {
				emit(Event{Kind: EventError, Err: truncated(p)})
				return
			}
			if err != nil {
				// It answered, then the connection dropped: the reply is cut, what came is kept.
				emit(Event{Kind: EventError, Err: &Error{Provider: p.Name, Kind: KindTruncated, Status: 200,
					Said: sayDropped, Err: err}})
				return
			}
			if d.event(ev, emit) || stopped {
				break
			}
		}
		d.end(emit)
	}
}
