// Package wslink is a link.Conn over a coder/websocket connection, for skiffd and the tests
// that stand in for the extension (the extension's own side is the browser's WebSocket, in
// internal/chrome). Kept out of internal/link so core.wasm does not carry the library.
package wslink

import (
	"context"

	"github.com/coder/websocket"

	"github.com/skiff-ai/skiff/internal/link"
)

// Conn is a link over ws.
func Conn(ws *websocket.Conn) link.Conn { return conn{ws} }

type conn struct{ ws *websocket.Conn }

func (c conn) Read(ctx context.Context) ([]byte, error) {
	_, b, err := c.ws.Read(ctx)
	return b, err
}

func (c conn) Write(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Close closes at once when reason is empty, else with a policy-violation status naming it.
func (c conn) Close(reason string) {
	if reason == "" {
		_ = c.ws.CloseNow()
		return
	}
	_ = c.ws.Close(websocket.StatusPolicyViolation, reason)
}
