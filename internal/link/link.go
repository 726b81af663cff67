// Package link is the wire between the extension and skiffd: JSON messages over a WebSocket on
// loopback (or Chrome native messaging), with requests in both directions. The extension dials;
// skiffd checks the socket's origin and the pairing token in the hello, then either side calls
// the other's methods (the table below).
//
//	extension → skiffd   {"type":"hello","token":"…","version":"0.1.0","protocol":2}
//	skiffd → extension   {"type":"welcome","version":"…"}  or  {"type":"refused","message":"…"} and close
//	then, either way:
//	request              {"id":7,"method":"tool.call","params":{…}}
//	its answer           {"id":7,"result":{…}}  or  {"id":7,"error":"a sentence for the user"}
//	                     (with "text":{"key":…,"args":[…]} when it is one of the catalogs')
//	notification         {"method":"client.bye","params":{…}}   (no id, no answer)
//	taking a request back {"method":"link.cancel","params":{"id":7}}   (its caller stopped waiting)
//
// Both ends import this package, so the methods and their shapes cannot drift apart: each
// method is one Method value naming its Params and Result types.
package link

import (
	"context"
	"encoding/json"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// Conn is one end of a link, on either side: a WebSocket or a native messaging pipe. Reads and
// writes give up when ctx is done; Close tells the other end why, where the transport can.
type Conn interface {
	Read(ctx context.Context) ([]byte, error)
	Write(ctx context.Context, b []byte) error
	Close(reason string)
}

// Handshake message types.
const (
	Hello   = "hello"
	Welcome = "welcome"
	Refused = "refused"
)

// Protocol is this link's version: skiffd refuses a hello with another one, in words that say
// which side to update.
const Protocol = 2

// Keepalive is how often the extension pings: under the 30 s after which Chrome stops an idle
// service worker (WebSocket traffic counts as activity since Chrome 116).
const Keepalive = 20 * time.Second

// HelloTimeout is how long skiffd waits for the hello before it closes the socket.
const HelloTimeout = 5 * time.Second

// NativeHost is the native messaging host's name (see skiffd install).
const NativeHost = "ai.skiff.skiffd"

// Path is where skiffd accepts the extension's WebSocket.
const Path = "/ext"

// DefaultPort is skiffd's default loopback port.
const DefaultPort = 8765

// Handshake is the first message each way.
type Handshake struct {
	Type     string `json:"type"`
	Token    string `json:"token,omitempty"`
	Version  string `json:"version,omitempty"`
	Protocol int    `json:"protocol,omitempty"`
	Message  string `json:"message,omitempty"`
}

// Frame is every message after the handshake: a request (Method and ID), a notification
// (Method, no ID) or an answer (ID with Result or Error).
type Frame struct {
	ID     int64           `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	// Text is the error as a sentence of the catalogs (its key and arguments) when the other
	// end wrote it so: the receiver shows it in the user's language; Error is its English.
	Text *i18n.Text `json:"text,omitempty"`
}

// The methods, by direction. A Method's Name is its family.verb; P and R are its params and
// result.
var (
	// Ping: either way, every Keepalive from the extension; skiffd's probe of the worker.
	Ping = Method[struct{}, struct{}]{"link.ping"}
	// ToolCall: skiffd → extension, an outside client's tool call, answered after the gate.
	ToolCall = Method[CallParams, CallResult]{"tool.call"}
	// CallProgress: extension → skiffd (notification), how a call skiffd relayed is getting on (waiting for the user's answer,
	// running), sent by the extension as a notification while the call lasts; skiffd passes it
	// on to the MCP client that asked for progress. An older skiffd drops it unread.
	CallProgress = Method[Progress, struct{}]{"tool.progress"}
	// ClientBye: skiffd → extension (notification), an MCP session ended.
	ClientBye = Method[Client, struct{}]{"client.bye"}
)

// Method names a request's family.verb and, as type parameters, its params and result.
type Method[P, R any] struct{ Name string }

// Call sends a request over p and decodes its result.
func (m Method[P, R]) Call(ctx context.Context, p *Peer, params P) (R, error) {
	var r R
	err := p.Call(ctx, m.Name, params, &r)
	return r, err
}

// Notify sends the method as a notification (no answer).
func (m Method[P, R]) Notify(ctx context.Context, p *Peer, params P) error {
	return p.Notify(ctx, m.Name, params)
}

// Handle registers fn as this end's handler of m in hs.
func (m Method[P, R]) Handle(hs Handlers, fn func(ctx context.Context, params P) (R, error)) {
	hs[m.Name] = func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, err
			}
		}
		return fn(ctx, p)
	}
}

// Client is an MCP client session of skiffd: ID is stable for the session, Name is what the
// client calls itself (its initialize clientInfo), shown to the user as who asks.
type Client struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Kind is who the client is: "" for an outside MCP client, "acp" for an agent skiffd hosts.
	Kind string `json:"kind,omitempty"`
}

// CallParams is a tool call. CallID names it for as long as skiffd runs: a call sent again
// after the link came back (a restarted worker) has the same one, so the extension never runs
// it twice.
type CallParams struct {
	CallID string          `json:"callId"`
	Client Client          `json:"client"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args,omitempty"`
	// Files are the files the call names by path (upload_file), read by skiffd on the
	// client's computer. They go beside the arguments: the extension stores a call's
	// arguments, never these bytes.
	Files []File `json:"files,omitempty"`
}

// File is a file of the computer skiffd runs on: the path a client named it by, its name
// there, its type and its bytes (base64 in JSON).
type File struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Mime string `json:"mime"`
	Data []byte `json:"data"`
}

// Progress is a word on call CallID while it lasts: a sentence for the client's user.
type Progress struct {
	CallID  string `json:"callId"`
	Message string `json:"message"`
}

// CallResult is a tool call's outcome: text for the agent, an optional image, and whether it
// failed (denied by the user, or the tool's error), which MCP reports as isError.
type CallResult struct {
	Text    string `json:"text"`
	Image   *Image `json:"image,omitempty"`
	IsError bool   `json:"isError,omitempty"`
}

// Image is a screenshot (Data is base64 in JSON).
type Image struct {
	Mime string `json:"mime"`
	Data []byte `json:"data"`
}

// Backoff is the reconnect delay after n failed attempts in a row: 1 s, 2 s, 4 s… up to 30 s.
func Backoff(n int) time.Duration {
	d := time.Second
	for i := 0; i < n && d < 30*time.Second; i++ {
		d *= 2
	}
	return min(d, 30*time.Second)
}
