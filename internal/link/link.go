// Package link is the wire between the extension and skiffd: JSON messages over a WebSocket on
// loopback (or Chrome native messaging), in both directions. The extension dials; skiffd checks
// the socket's origin and the pairing token in the first message, then sends tool calls that
// the extension runs through its permission gate and answers.
//
//	extension → skiffd   {"type":"hello","token":"…","version":"0.1.0"}
//	skiffd → extension   {"type":"welcome","version":"…"}  or  {"type":"refused","message":"…"} and close
//	skiffd → extension   {"type":"call","id":7,"callId":"k3f…-7","client":{"id":"…","name":"claude-code"},"tool":"navigate","args":{…}}
//	extension → skiffd   {"type":"result","id":7,"result":{"text":"…","image":{…},"isError":false}}
//	skiffd → extension   {"type":"bye","client":{…}}           (an MCP session ended)
//	extension → skiffd   {"type":"ping"} every Keepalive;  skiffd → extension {"type":"pong"}
//
// Both ends import this package, so the message shapes cannot drift apart.
package link

import (
	"context"
	"encoding/json"
	"time"
)

// Conn is one end of a link, on either side: a WebSocket or a native messaging pipe. Reads and
// writes give up when ctx is done; Close tells the other end why, where the transport can.
type Conn interface {
	Read(ctx context.Context) ([]byte, error)
	Write(ctx context.Context, b []byte) error
	Close(reason string)
}

// Message types.
const (
	Hello   = "hello"
	Welcome = "welcome"
	Refused = "refused"
	Call    = "call"
	Result  = "result"
	Bye     = "bye"
	Ping    = "ping"
	Pong    = "pong"
)

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

// Msg is one message, either way.
type Msg struct {
	Type string `json:"type"`
	ID   int64  `json:"id,omitempty"`
	// CallID names a call for as long as skiffd runs: a call sent again after the link came
	// back (a restarted worker) has the same one, so the extension never runs it twice.
	CallID  string          `json:"callId,omitempty"`
	Token   string          `json:"token,omitempty"`
	Version string          `json:"version,omitempty"`
	Client  *Client         `json:"client,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
	Result  *CallResult     `json:"result,omitempty"`
	Message string          `json:"message,omitempty"`
}

// Client is an MCP client session of skiffd: ID is stable for the session, Name is what the
// client calls itself (its initialize clientInfo), shown to the user as who asks.
type Client struct {
	ID   string `json:"id"`
	Name string `json:"name"`
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
