//go:build !js

package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// roundTrips is how many navigate → snapshot → click rounds each server runs (after one that
// warms up).
const roundTrips = 20

// BenchmarkToolRoundTrip times what an MCP client waits for: navigate, snapshot and click on a
// local page, through skiffd and the extension in headless Chromium, against Playwright MCP
// doing the same on the same page in the same run. Skiff's gate is set to allow these calls
// (a policy, as a user who chose "always" would have), so no one is asked.
func BenchmarkToolRoundTrip(b *testing.B) {
	site := testkit.NewSite(b)
	page := site.Page("counter.html")
	pw := mcpServer(b, npmTool(b, "playwright-mcp"), "--headless", "--isolated", "--no-sandbox", "--executable-path", mustChromium(b), "--viewport-size", "800x600")

	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	skc, _ := linkedClient(b, br, site.URL)

	skiffRef := regexp.MustCompile(`button "Like" \[(e\d+)\]`)
	pwRef := regexp.MustCompile(`button "Like" \[ref=(\w+)\]`)
	type times struct{ nav, snap, click []time.Duration }
	var s, p times
	for i := range roundTrips + 1 {
		_, dn := callText(b, skc, "navigate", map[string]any{"url": page})
		snap, ds := callText(b, skc, "snapshot", map[string]any{})
		m := skiffRef.FindStringSubmatch(snap)
		if m == nil {
			b.Fatalf("no ref for the Like button in Skiff's snapshot:\n%s", snap)
		}
		_, dc := callText(b, skc, "click", map[string]any{"ref": m[1]})

		_, pn := callText(b, pw, "browser_navigate", map[string]any{"url": page})
		psnap, ps := callText(b, pw, "browser_snapshot", map[string]any{})
		pm := pwRef.FindStringSubmatch(psnap)
		if pm == nil {
			b.Fatalf("no ref for the Like button in Playwright's snapshot:\n%s", psnap)
		}
		_, pc := callText(b, pw, "browser_click", map[string]any{"element": "Like button", "ref": pm[1], "target": pm[1]})
		if i == 0 {
			continue // warm-up
		}
		s.nav, s.snap, s.click = append(s.nav, dn), append(s.snap, ds), append(s.click, dc)
		p.nav, p.snap, p.click = append(p.nav, pn), append(p.snap, ps), append(p.click, pc)
	}
	pct := func(ds []time.Duration, q float64) float64 {
		x := append([]time.Duration(nil), ds...)
		sort.Slice(x, func(i, j int) bool { return x[i] < x[j] })
		return float64(x[int(q*float64(len(x)-1)+0.5)].Microseconds()) / 1000
	}
	var out strings.Builder
	fmt.Fprintf(&out, "tool round trip over %d rounds (ms)      skiffd p50  p95   playwright p50  p95   ratio p50\n", roundTrips)
	for _, row := range []struct {
		name string
		a, b []time.Duration
	}{{"navigate", s.nav, p.nav}, {"snapshot", s.snap, p.snap}, {"click", s.click, p.click}} {
		a50, b50 := pct(row.a, 0.5), pct(row.b, 0.5)
		fmt.Fprintf(&out, "  %-36s %8.1f %6.1f   %12.1f %6.1f   %6.2f×\n", row.name, a50, pct(row.a, 0.95), b50, pct(row.b, 0.95), a50/b50)
		b.ReportMetric(a50, row.name+"-skiffd-p50-ms")
		b.ReportMetric(b50, row.name+"-playwright-p50-ms")
	}
	fmt.Print(out.String())
}

// linkedClient links the extension in br to a skiffd of its own and connects an MCP client to
// it, with the gate set to allow every tool on origin (a policy, as a user who chose "always"
// would have). It returns the client and the extension's panel.
func linkedClient(b *testing.B, br *e2e.Browser, origin string) (*mcp.ClientSession, context.Context) {
	cfg, hub := serveSkiffd(b)
	panel := br.Panel(b)
	e2e.JS[any](b, panel, fmt.Sprintf(`(async () => {
		await skiffTest.call("permission.set", {tool: "*", origin: %q, decision: "allow_always"});
		const st = await skiffTest.call("core.hello");
		const s = st.settings; s.daemon = {enabled: true, port: %d};
		await skiffTest.call("settings.save", {settings: s, keys: {}, daemonToken: %q});
		return true;
	})()`, origin, cfg.Port, cfg.PairToken))
	deadline := time.Now().Add(30 * time.Second)
	for !hub.Status().Connected {
		if time.Now().After(deadline) {
			b.Fatal("the extension did not link to skiffd")
		}
		time.Sleep(50 * time.Millisecond)
	}
	sk := mcp.NewClient(&mcp.Implementation{Name: "skiff-bench", Version: "1"}, nil)
	skc, err := sk.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", cfg.Port), HTTPClient: daemon.BearerClient(cfg.MCPToken)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = skc.Close() })
	return skc, panel
}
