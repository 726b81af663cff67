//go:build js && wasm

// Command gohello is the floor for a Go service worker in make bench's wake benchmark: a Go
// hello-world compiled to wasm that answers the wake ping and does nothing else. Whatever
// Skiff's core takes on top of it to wake is what its own code and size cost.
package main

import "syscall/js"

func main() {
	api := js.Global().Get("Object").New()
	api.Set("connect", js.FuncOf(func(_ js.Value, args []js.Value) any {
		port := args[0]
		return js.FuncOf(func(js.Value, []js.Value) any {
			port.Call("postMessage", `{"type":"reply","id":1,"ok":true,"result":"pong"}`)
			return nil
		})
	}))
	js.Global().Call("__skiffReady", api)
	select {}
}
