//go:build !js

package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
)

func tryText(s *mcp.ClientSession, name string, args map[string]any) (string, time.Duration, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	d := time.Since(start)
	if err != nil {
		return "ERR " + err.Error(), d, true
	}
	var t strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			t.WriteString(tc.Text)
		}
	}
	return t.String(), d, res.IsError
}

func BenchmarkZZExplore(b *testing.B) {
	base := testkit.Pages(b)
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	cfg, hub := serveSkiffd(b)
	panel := br.TabWithin(b, br.URL("panel/index.html"), 2*time.Hour)
	e2e.WaitJS(b, panel, `document.body.dataset.ready === "1"`)
	e2e.JS[any](b, panel, fmt.Sprintf(`(async () => {
		await skiffTest.call("permission.set", {tool: "*", origin: %q, decision: "allow_always"});
		const st = await skiffTest.call("core.hello");
		const s = st.settings; s.daemon = {enabled: true, port: %d};
		await skiffTest.call("settings.save", {settings: s, keys: {}, daemonToken: %q});
		return true;
	})()`, base, cfg.Port, cfg.PairToken))
	for !hub.Status().Connected {
		time.Sleep(50 * time.Millisecond)
	}
	sk := mcp.NewClient(&mcp.Implementation{Name: "skiff-bench", Version: "1"}, nil)
	skc, err := sk.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", cfg.Port), HTTPClient: daemon.BearerClient(cfg.MCPToken)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer skc.Close()
	only := regexp.MustCompile(os.Getenv("SKIFF_SNAP_PAGES"))
	kinds := []struct {
		re   *regexp.Regexp
		n    int
		tool string
	}{
		{regexp.MustCompile(`button "([^"\n]*)"[^\n\[]*\[(e\d+)\]`), 4, "click"},
		{regexp.MustCompile(`(?:checkbox|radio|tab|switch) "([^"\n]*)"[^\n\[]*\[(e\d+)\]`), 2, "click"},
		{regexp.MustCompile(`(?:textbox|searchbox|combobox) "([^"\n]*)"[^\n\[]*\[(e\d+)\]`), 2, "type"},
		{regexp.MustCompile(`link "([^"\n]*)"[^\n\[]*\[(e\d+)\]`), 3, "click"},
	}
	out, _ := os.Create("/tmp/explore/log.txt")
	defer out.Close()
	for _, name := range testkit.AllPageNames(b) {
		if !only.MatchString(name) {
			continue
		}
		url := base + "/" + name + "/"
		tryText(skc, "navigate", map[string]any{"url": url})
		snap, _, _ := tryText(skc, "snapshot", map[string]any{})
		for _, k := range kinds {
			ms := k.re.FindAllStringSubmatch(snap, -1)
			step := 1
			if len(ms) > k.n {
				step = len(ms) / k.n
			}
			for i, c := 0, 0; i < len(ms) && c < k.n; i, c = i+step, c+1 {
				m := ms[i]
				args := map[string]any{"ref": m[2]}
				if k.tool == "type" {
					args["text"] = "hello 42"
				}
				txt, d, isErr := tryText(skc, k.tool, args)
				fmt.Fprintf(out, "=== %s %s %q %s %.0fms err=%v\n%s\n", name, k.tool, m[1], m[2], float64(d.Microseconds())/1000, isErr, txt)
				if strings.Contains(txt, "The page changed to") || strings.Contains(txt, "went to") || strings.Contains(txt, "opened a new tab") {
					tryText(skc, "navigate", map[string]any{"url": url})
					snap, _, _ = tryText(skc, "snapshot", map[string]any{})
				}
			}
		}
	}
}
