// Package chrome binds the interfaces the rest of Skiff declares (provider.Doer, store.KV,
// core.Rules, core.Conn) to the browser: fetch, chrome.storage.local, declarativeNetRequest and
// runtime Ports. It is the only package besides wasm/ that imports syscall/js, and every call
// into JS that can throw goes through one recover helper (jsCall).
//
// Built only for GOOS=js GOARCH=wasm; `GOOS=js GOARCH=wasm go vet ./...` checks it.
package chrome
