package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/link"
)

// Doctor checks every link of the chain, from the configuration to a round trip into the
// extension's worker, and prints one line per check: "ok", or "FIX" with what to do. It
// reports whether everything needed works.
func Doctor(ctx context.Context, cfg *Config, w io.Writer) bool {
	good := true
	ok := func(format string, a ...any) { fmt.Fprintf(w, "ok   "+format+"\n", a...) }
	fix := func(format string, a ...any) { good = false; fmt.Fprintf(w, "FIX  "+format+"\n", a...) }
	note := func(format string, a ...any) { fmt.Fprintf(w, "note "+format+"\n", a...) }

	ok("configuration in %s (port %d, extension %s)", cfg.Dir(), cfg.Port, cfg.Extension())
	base := "http://127.0.0.1:" + strconv.Itoa(cfg.Port)
	hc := BearerClient(cfg.MCPToken)
	hc.Timeout = 10 * time.Second

	// The daemon, and that it takes this configuration's token.
	resp, err := hc.Get(base + "/status?probe=1")
	if err != nil {
		fix("skiffd is not running on 127.0.0.1:%d: start it with `skiffd serve` (or let your MCP client spawn `skiffd stdio`)", cfg.Port)
		nativeCheck(cfg, ok, note)
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		fix("the skiffd on port %d does not take this configuration's token: it runs with another configuration; stop it and start `skiffd serve` again", cfg.Port)
		return false
	}
	var st StatusReply
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&st) != nil {
		fix("something else answers on port %d (HTTP %d): stop it, or give skiffd another port with --port", cfg.Port, resp.StatusCode)
		return false
	}
	ok("skiffd %s is up on 127.0.0.1:%d", st.Version, cfg.Port)

	// MCP itself: initialize and list the tools, as a client does.
	mctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "skiffd doctor", Version: Version}, nil)
	cs, err := client.Connect(mctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: BearerClient(cfg.MCPToken)}, nil)
	if err != nil {
		fix("MCP over HTTP fails on %s/mcp: %v", base, err)
	} else {
		n := 0
		for _, err := range cs.Tools(mctx, nil) {
			if err != nil {
				break
			}
			n++
		}
		_ = cs.Close()
		ok("MCP answers on %s/mcp with %d tools (clients send `Authorization: Bearer <skiffd token>`)", base, n)
	}

	// The extension's link, the pairing, and a round trip into its worker.
	switch {
	case st.Extension.Connected && st.Extension.RoundTripMs > 0:
		ok("the extension (Skiff %s) is linked and paired; a ping into its worker took %.1f ms", st.Extension.Version, st.Extension.RoundTripMs)
	case st.Extension.Connected:
		fix("the extension is linked but its worker did not answer a ping: reload Skiff in chrome://extensions")
	case st.Extension.Refused > 0:
		fix("the extension tried to link at %s with a wrong pairing token: paste the token `skiffd pair` prints into Skiff's Settings › Outside agents", time.UnixMilli(st.Extension.Refused).Format("15:04:05"))
	default:
		fix("the extension is not linked: in Chrome, open Skiff's Settings › Outside agents, turn the link on (port %d) and paste the token `skiffd pair` prints", cfg.Port)
	}
	nativeCheck(cfg, ok, note)
	return good
}

// nativeCheck reports the native messaging host manifests (optional: the link also works by
// WebSocket).
func nativeCheck(cfg *Config, ok, note func(string, ...any)) {
	found := 0
	for _, d := range ManifestDirs() {
		f := filepath.Join(d, link.NativeHost+".json")
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var m HostManifest
		if json.Unmarshal(b, &m) != nil {
			note("%s is not valid JSON: run `skiffd install` again", f)
			continue
		}
		if _, err := os.Stat(m.Path); err != nil {
			note("%s points at %s, which is gone: run `skiffd install` again", f, m.Path)
			continue
		}
		found++
		ok("native messaging host installed in %s", d)
	}
	if found == 0 {
		note("no native messaging host is installed (optional; the link works over the port): `skiffd install` adds it")
	}
}
