//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/skiff-ai/skiff/internal/acphost"
	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// realAgent is one of the real ACP agents of the opt-in tier: its npm package (pinned in
// bench/agents/package.json), the script it runs, the provider wire format it speaks, and how
// to point it at a local model server, offline (../shared/ACP.md).
type realAgent struct {
	name, pkg, script string
	format, model     string // the provider it calls, and the model it asks for
	args              []string
	env               func(home, url string) []string
	setup             func(home string) error
}

var realAgents = []realAgent{
	{name: "gemini", pkg: "@google/gemini-cli", script: "bundle/gemini.js", format: "google", model: "gemini-2.5-flash",
		args: []string{"--acp", "-m", "gemini-2.5-flash"},
		env: func(home, url string) []string {
			return []string{"GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_CLI_HOME=" + home, "GEMINI_CLI_NO_RELAUNCH=true", "HOME=" + home}
		},
		setup: func(home string) error {
			if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}},"telemetry":{"enabled":false},"general":{"enableAutoUpdate":false}}`), 0o644)
		}},
	{name: "claude", pkg: "@agentclientprotocol/claude-agent-acp", script: "dist/index.js", format: "anthropic", model: "claude-sonnet-4-5",
		env: func(home, url string) []string {
			env := []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				"ENABLE_TOOL_SEARCH=false", "HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude")}
			if os.Geteuid() == 0 {
				env = append(env, "IS_SANDBOX=1")
			}
			return env
		}},
	{name: "qwen", pkg: "@qwen-code/qwen-code", script: "cli-entry.js", format: "openai", model: "local-model",
		args: []string{"--acp"},
		env: func(home, url string) []string {
			return []string{"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=dummy", "OPENAI_MODEL=local-model", "HOME=" + home}
		},
		// Qwen Code hides MCP tools behind its tool_search bridge unless their schemas fit the
		// threshold (as Claude's ENABLE_TOOL_SEARCH=false): declared up front, they show.
		setup: func(home string) error {
			if err := os.MkdirAll(filepath.Join(home, ".qwen"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), []byte(`{"tools":{"toolSearch":{"threshold":100}},"security":{"folderTrust":{"enabled":false}}}`), 0o644)
		}},
}

// BenchmarkRealAgents (SKIFF_BENCH_DEBUG=1 logs each agent's stderr and its tools) runs each real ACP agent of bench/agents (npm, pinned; skipped when not
// installed) under skiffd's host, pointed at internal/testkit's model server, offline, with
// skiffd's MCP endpoint as its browser tools. For each it reports whether it worked (a reply,
// and Skiff's tools offered to its model), its start, and the first token of a prompt through
// it against the same model server called directly as a provider, in the same run.
func BenchmarkRealAgents(b *testing.B) {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("no node")
	}
	root := filepath.Join(e2e.RepoRoot(), "bench", "agents", "node_modules")
	for _, ra := range realAgents {
		b.Run(ra.name, func(b *testing.B) {
			script := filepath.Join(root, ra.pkg, ra.script)
			if _, err := os.Stat(script); err != nil {
				b.Skipf("%s is not installed: cd bench/agents && npm ci", ra.pkg)
			}
			b.Logf("%s %s", ra.pkg, packageVersion(b, filepath.Join(root, ra.pkg)))
			runRealAgent(b, node, script, ra)
		})
	}
}

func packageVersion(b *testing.B, dir string) string {
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		b.Fatal(err)
	}
	var p struct{ Version string }
	_ = json.Unmarshal(raw, &p)
	return p.Version
}

func runRealAgent(b *testing.B, node, script string, ra realAgent) {
	var mu sync.Mutex
	offered := map[string]bool{} // the tools the agent's model was offered, over every request
	found := false               // Skiff's tools came back from the agent's own tool search
	m := testkit.NewModel(b, func(c *testkit.Conversation) testkit.Turn {
		mu.Lock()
		for _, t := range c.Tools {
			offered[t] = true
		}
		mu.Unlock()
		// An agent that keeps MCP tools behind its own search tool (Qwen Code does) is asked,
		// in a prompt of its own, to search for Skiff's: what comes back says they are reachable.
		last := c.Messages[len(c.Messages)-1]
		if last.Role == "user" && strings.Contains(last.Text, searchPrompt) && slices.Contains(c.Tools, "tool_search") {
			return testkit.Turn{Calls: []testkit.Call{{Name: "tool_search", Args: map[string]any{"query": "snapshot"}}}}
		}
		if last.Role == "tool" && last.Name == "tool_search" && strings.Contains(last.Text, "skiff") && strings.Contains(last.Text, "snapshot") {
			mu.Lock()
			found = true
			mu.Unlock()
		}
		return testkit.Turn{Text: "Hello from the local model, in a few chunks of text."}
	})
	mcpURL, token, home0 := skiffdMCP(b)
	skiffd := buildSkiffd(b)

	var direct, agent, starts []float64
	for range max(b.N, 3) {
		p, _ := provider.Lookup(ra.format)
		base := m.URL
		if ra.format == "openai" {
			base += "/v1"
		}
		p, _ = p.WithBaseURL(base)
		start := time.Now()
		first := make(chan struct{}, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		go func() {
			_ = streamOnce(ctx, p, ra.model, func() {
				select {
				case first <- struct{}{}:
				default:
				}
			})
		}()
		select {
		case <-first:
			direct = append(direct, ms(time.Since(start)))
		case <-ctx.Done():
			b.Fatal("the provider gave no token")
		}
		cancel()

		// Through the agent, started fresh each time (its start reported apart).
		home := b.TempDir()
		if ra.setup != nil {
			if err := ra.setup(home); err != nil {
				b.Fatal(err)
			}
		}
		spec := acphost.Spec{Name: ra.name, Title: ra.name, Command: append([]string{node, script}, ra.args...), Env: ra.env(home, m.URL)}
		var once sync.Once
		got := make(chan struct{})
		var promptAt time.Time
		var told *acphost.Usage // the context window and cost it last told of
		h := &acphost.Host{
			Emit: func(e acphost.Event) {
				if e.Kind == "usage" && e.Usage != nil {
					mu.Lock()
					told = e.Usage
					mu.Unlock()
				}
				if e.Kind == "text" && strings.TrimSpace(e.Text) != "" {
					once.Do(func() {
						mu.Lock()
						agent = append(agent, ms(time.Since(promptAt)))
						mu.Unlock()
						close(got)
					})
				}
			},
			// As skiffd gives them: over HTTP when the agent takes it, else `skiffd stdio`,
			// which relays to the skiffd that serves (its home names it).
			MCP: func(_ acphost.Spec, http bool) []acp.McpServer {
				if http {
					return []acp.McpServer{{Http: &acp.McpServerHttpInline{Name: "skiff", Type: "http", Url: mcpURL,
						Headers: []acp.HttpHeader{{Name: "Authorization", Value: "Bearer " + token}}}}}
				}
				return []acp.McpServer{{Stdio: &acp.McpServerStdio{Name: "skiff", Command: skiffd, Args: []string{"stdio"},
					Env: []acp.EnvVariable{{Name: "SKIFFD_AGENT_TOKEN", Value: token}, {Name: "SKIFFD_HOME", Value: home0}}}}}
			},
		}
		ctx, cancel = context.WithTimeout(context.Background(), 120*time.Second)
		t0 := time.Now()
		a, err := h.Start(ctx, spec)
		if err != nil {
			b.Fatal(err)
		}
		if err := a.NewSession(ctx, "bench"); err != nil {
			b.Fatal(err, logOf(a))
		}
		starts = append(starts, ms(time.Since(t0)))
		mu.Lock()
		promptAt = time.Now()
		mu.Unlock()
		turn, err := a.Prompt(ctx, "bench", "Say hello.", nil)
		if err != nil {
			b.Fatal(err, logOf(a))
		}
		select {
		case <-got:
		default:
			b.Fatalf("no text from %s (stop %s): %s", ra.name, turn.StopReason, logOf(a))
		}
		if len(starts) == 1 { // what the agent told of its turn, which the reply's Details show
			mu.Lock()
			b.Logf("%s: its turn's model %q, tokens %+v", ra.name, turn.Model, turn.Usage)
			if told != nil {
				b.Logf("%s: its context window %d of %d tokens, cost %+v", ra.name, told.Used, told.Size, told.Cost)
			}
			mu.Unlock()
		}
		mu.Lock()
		search := len(starts) == 1 && offered["tool_search"] && !offersSkiff(offered)
		mu.Unlock()
		if search { // once, after the timed prompt
			if _, err := a.Prompt(ctx, "bench", searchPrompt, nil); err != nil {
				b.Fatal(err, logOf(a))
			}
		}
		if os.Getenv("SKIFF_BENCH_DEBUG") != "" { // what the agent wrote on stderr
			b.Log(logOf(a))
		}
		a.Close()
		cancel()
	}
	mu.Lock()
	skiff := 0
	for t := range offered {
		if strings.Contains(t, "skiff") && strings.Contains(t, "snapshot") {
			skiff++
		}
	}
	b.Logf("%s: %d tools offered to its model; Skiff's snapshot among them: %v; found through the agent's tool_search: %v", ra.name, len(offered), skiff > 0, found)
	if os.Getenv("SKIFF_BENCH_DEBUG") != "" {
		b.Logf("the tools: %v", offered)
	}
	mu.Unlock()
	b.ReportMetric(float64(skiff), "skiff-tools-offered")
	if found {
		b.ReportMetric(1, "skiff-tools-found-by-search")
	}
	b.ReportMetric(pct(direct, .5), "direct-first-token-p50-ms")
	b.ReportMetric(pct(agent, .5), "agent-first-token-p50-ms")
	b.ReportMetric(pct(agent, .5)/pct(direct, .5), "ratio-agent-vs-direct-p50")
	b.ReportMetric(pct(starts, .5), "agent-start-p50-ms")
}

// serveSkiffd serves a skiffd of its own (its configuration saved in a new home, its port
// chosen by the system) until the benchmark ends, with hub as its extension's side.
func serveSkiffd(b *testing.B) (*daemon.Config, *daemon.Hub) {
	cfg, err := daemon.Load(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Port = ln.Addr().(*net.TCPAddr).Port
	if err := cfg.Save(); err != nil { // its port, for `skiffd stdio` to find it
		b.Fatal(err)
	}
	hub := daemon.NewHub(cfg.PairToken)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = daemon.Serve(ctx, ln, cfg, hub, nil) }()
	b.Cleanup(func() { cancel(); <-done })
	return cfg, hub
}

// skiffdMCP is a skiffd's MCP endpoint (no browser linked: the tools are listed, a call says
// the browser is not linked): its address, its bearer token and its home.
func skiffdMCP(b *testing.B) (string, string, string) {
	cfg, _ := serveSkiffd(b)
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", cfg.Port), cfg.MCPToken, cfg.Dir()
}

// buildSkiffd builds the skiffd command into a temporary folder.
func buildSkiffd(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "skiffd")
	build := exec.Command("go", "build", "-o", bin, "./cmd/skiffd")
	build.Dir = e2e.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	return bin
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// streamOnce streams one reply from p and calls first at its first text.
func streamOnce(ctx context.Context, p provider.Provider, model string, first func()) error {
	for ev := range p.Stream(ctx, testkit.Doer{}, "dummy", provider.Request{Model: model,
		Messages: []provider.Message{{Role: "user", Content: "Say hello."}}}) {
		if ev.Kind == provider.EventText && ev.Text != "" {
			first()
		}
		if ev.Kind == provider.EventError {
			return ev.Err
		}
	}
	return nil
}

// searchPrompt asks the scripted model to look for Skiff's tools with the agent's own search.
const searchPrompt = "Find Skiff's page tools."

// offersSkiff says whether Skiff's snapshot tool is among the tools offered.
func offersSkiff(offered map[string]bool) bool {
	for t := range offered {
		if strings.Contains(t, "skiff") && strings.Contains(t, "snapshot") {
			return true
		}
	}
	return false
}

// logOf is what an agent wrote to its stderr, then what the ACP library noted of the
// connection.
func logOf(a *acphost.Agent) string {
	own, notes := a.Log()
	return own + "\n" + notes
}
