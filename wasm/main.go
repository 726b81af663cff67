//go:build js && wasm

// Command wasm is core.wasm, Skiff's core in the service worker. It wires internal/core to the
// browser through internal/chrome and exposes one global to the worker shim (ext/sw.js):
//
//	skiffCore.connect(port) -> function(msg string) | null
//	    Adopts a chrome.runtime.Port opened by the panel. Returns the function the shim calls
//	    with each message the port receives (JSON strings), or null (and disconnects the port)
//	    when the sender is not one of this extension's pages.
//	skiffCore.event(kind string, data string, sender object | null)
//	    A browser event the shim forwards: "message" (a runtime message, with its sender),
//	    "debugger.event", "debugger.detach", "tab.removed", "tab.committed".
//	skiffCore.wake()
//	    The worker started or the keepalive alarm fired: bring the link to skiffd up if the
//	    settings ask for it (a no-op when it is up).
//	skiffCore.due()
//	    The schedule alarm fired: run the scheduled runs whose time has come.
//	skiffCore.forgetPrivate() -> Promise
//	    The last incognito window closed: stop the private chats' runs and drop what was kept
//	    of them (store.Private); resolves once done.
//
// When the core is ready it calls globalThis.__skiffReady(skiffCore) (ext/sw.js also calls it
// with null and a message when core.wasm cannot load). Data a newer Skiff saved does not stop
// the start: every request that reads it answers that Skiff needs updating (store.OpenNow).
package main

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/chrome"
	"github.com/skiff-ai/skiff/internal/core"
	"github.com/skiff-ai/skiff/internal/schedule"
)

func main() {
	ctx := context.Background()
	browser := chrome.NewBrowser()
	c := core.New(ctx, chrome.CachedStorage(), chrome.Fetch{}, chrome.Rules{}, browser)
	c.Notifier = chrome.Notifier{}
	c.Dialer = chrome.Linker{}
	c.Alarms = &chrome.Alarms{}
	schedule.Wall = chrome.Wall // the user's zone as the browser knows it, daylight saving included
	core.Version = chrome.ExtensionVersion()
	api := js.Global().Get("Object").New()
	api.Set("connect", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return js.Null()
		}
		port := args[0]
		role, ok := chrome.SenderRole(port)
		if !ok {
			port.Call("disconnect")
			return js.Null()
		}
		return chrome.Serve(ctx, c, port, role)
	}))
	api.Set("event", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 3 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return nil
		}
		kind, data := args[0].String(), []byte(args[1].String())
		browser.Event(kind, data, args[2])
		if kind == "tab.committed" || kind == "tab.removed" {
			var e struct {
				TabID   int `json:"tabId"`
				FrameID int `json:"frameId"`
			}
			if json.Unmarshal(data, &e) == nil {
				c.Event(kind, e.TabID, e.FrameID)
			}
		}
		return nil
	}))
	api.Set("wake", js.FuncOf(func(js.Value, []js.Value) any {
		go agent.Safe("the link", func() { c.StartLink(ctx) })
		return nil
	}))
	api.Set("due", js.FuncOf(func(js.Value, []js.Value) any {
		go agent.Safe("the scheduled runs", func() { c.Due(ctx) })
		return nil
	}))
	api.Set("forgetPrivate", js.FuncOf(func(js.Value, []js.Value) any {
		var run js.Func
		run = js.FuncOf(func(_ js.Value, args []js.Value) any {
			resolve := args[0]
			run.Release()
			go func() {
				defer resolve.Invoke()
				agent.Safe("forgetting private chats", func() { c.ForgetPrivate(ctx) })
			}()
			return nil
		})
		return js.Global().Get("Promise").New(run)
	}))
	js.Global().Set("skiffCore", api)
	go agent.Safe("the start", func() { c.Start(ctx) })
	js.Global().Call("__skiffReady", api)
	select {}
}
