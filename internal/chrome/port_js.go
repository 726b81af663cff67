package chrome

import (
	"context"
	"strings"
	"sync"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/core"
)

// Port is a core.Conn over a chrome.runtime.Port. Messages are JSON strings both ways.
type Port struct {
	v    js.Value
	role core.Role
	done chan struct{}
	// tab, window: the tab a frame that opened the port is in (the overlay's), 0 otherwise.
	tab, window int

	mu     sync.Mutex
	inbox  []string      // unbounded: the JS callback that fills it must never block
	notify chan struct{} // capacity 1: "inbox is not empty"
}

func (p *Port) push(m string) {
	p.mu.Lock()
	p.inbox = append(p.inbox, m)
	p.mu.Unlock()
	select {
	case p.notify <- struct{}{}:
	default:
	}
}

func (p *Port) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	ms := p.inbox
	p.inbox = nil
	return ms
}

var _ core.Conn = (*Port)(nil)

// Send posts msg; a port that has disconnected drops it (the message is in storage anyway).
func (p *Port) Send(msg []byte) {
	select {
	case <-p.done:
		return
	default:
	}
	_, _ = jsCall(func() js.Value { p.v.Call("postMessage", string(msg)); return js.Undefined() })
}

// Role is what the extension page at the other end of the port is.
func (p *Port) Role() core.Role { return p.role }

// Tab is the tab the page at the other end is in, as Chrome reports the sender (the overlay's
// frame is in the page's tab; the side panel is in none).
func (p *Port) Tab() (tabID, windowID int) { return p.tab, p.window }

// SenderRole says which of this extension's own pages opened a port, from the sender Chrome
// vouches for: the side panel (also when opened as a tab) or the overlay. Content scripts, whose
// sender.url is the page's, other extensions (blocked by externally_connectable, checked again
// here) and any other page are refused.
func SenderRole(port js.Value) (core.Role, bool) {
	s := port.Get("sender")
	if !s.Truthy() || s.Get("id").String() != ExtensionID() {
		return "", false
	}
	u := s.Get("url")
	ours := "chrome-extension://" + ExtensionID()
	if u.Type() != js.TypeString || !strings.HasPrefix(u.String(), ours+"/") {
		return "", false
	}
	return core.PageRole(strings.TrimPrefix(u.String(), ours))
}

// Serve connects port to c: messages are handled one at a time, in order, in a goroutine of
// their own (a js.FuncOf callback must not block). It returns the function the worker shim
// calls for each incoming message.
func Serve(ctx context.Context, c *core.Core, port js.Value, role core.Role) js.Func {
	p := &Port{v: port, role: role, done: make(chan struct{}), notify: make(chan struct{}, 1)}
	if tab := port.Get("sender").Get("tab"); tab.Truthy() {
		p.tab, p.window = tab.Get("id").Int(), tab.Get("windowId").Int()
	}
	c.Connect(p)
	var onMsg, onDisc js.Func
	onMsg = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeString {
			p.push(args[0].String())
		}
		return nil
	})
	onDisc = js.FuncOf(func(js.Value, []js.Value) any {
		close(p.done)
		c.Disconnect(p)
		onDisc.Release()
		go onMsg.Release()
		return nil
	})
	port.Get("onDisconnect").Call("addListener", onDisc)
	go func() {
		for {
			select {
			case <-p.notify:
				for _, m := range p.take() {
					c.Handle(ctx, p, []byte(m))
				}
			case <-p.done:
				return
			}
		}
	}()
	return onMsg
}
