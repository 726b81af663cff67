//go:build linux

package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/acphost"
	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// BenchmarkRealAgentFirstToken runs a real ACP agent from bench/agents (npm, pinned; `make
// agents` installs it) under skiffd's host, pointed at internal/testkit's model server, offline,
// and compares the first token of a prompt through the agent with the first token of the same
// model server called directly as a provider, in the same run. The agent's start is reported
// on its own. Skipped when the agent is not installed.
func BenchmarkRealAgentFirstToken(b *testing.B) {
	root := e2e.RepoRoot()
	gemini := filepath.Join(root, "bench", "agents", "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
	if _, err := os.Stat(gemini); err != nil {
		b.Skip("Gemini CLI is not installed: cd bench/agents && npm ci")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("no node")
	}
	m := testkit.NewModel(b, func(c *testkit.Conversation) testkit.Turn {
		return testkit.Turn{Text: "Hello from the local model, in a few chunks of text."}
	})
	home := b.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		b.Fatal(err)
	}
	settings := `{"security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}},"telemetry":{"enabled":false},"general":{"enableAutoUpdate":false}}`
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o644); err != nil {
		b.Fatal(err)
	}
	spec := acphost.Spec{Name: "gemini", Title: "Gemini CLI", Command: []string{node, gemini, "--acp", "-m", "gemini-2.5-flash"},
		Env: []string{"GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=" + m.URL, "GEMINI_CLI_HOME=" + home, "GEMINI_CLI_NO_RELAUNCH=true", "HOME=" + home}}

	var direct, agent, starts []float64
	for range max(b.N, 5) {
		// Direct: the provider client against the same server.
		p, _ := provider.Lookup("google")
		p, _ = p.WithBaseURL(m.URL)
		start := time.Now()
		first := make(chan struct{}, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		go func() {
			_ = streamOnce(ctx, p, func() {
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
		var once sync.Once
		got := make(chan struct{})
		var promptAt time.Time
		var mu sync.Mutex
		h := &acphost.Host{Emit: func(e acphost.Event) {
			if e.Kind == "text" && strings.TrimSpace(e.Text) != "" {
				once.Do(func() {
					mu.Lock()
					agent = append(agent, ms(time.Since(promptAt)))
					mu.Unlock()
					close(got)
				})
			}
		}}
		ctx, cancel = context.WithTimeout(context.Background(), 90*time.Second)
		t0 := time.Now()
		a, err := h.Start(ctx, spec)
		if err != nil {
			b.Fatal(err)
		}
		if err := a.NewSession(ctx, "bench"); err != nil {
			b.Fatal(err, a.Log())
		}
		starts = append(starts, ms(time.Since(t0)))
		mu.Lock()
		promptAt = time.Now()
		mu.Unlock()
		stop, err := a.Prompt(ctx, "bench", "Say hello.", nil)
		if err != nil {
			b.Fatal(err, a.Log())
		}
		select {
		case <-got:
		default:
			b.Fatalf("no text from the agent (stop %s): %s", stop, a.Log())
		}
		a.Close()
		cancel()
	}
	b.ReportMetric(pct(direct, .5), "direct-first-token-p50-ms")
	b.ReportMetric(pct(agent, .5), "agent-first-token-p50-ms")
	b.ReportMetric(pct(agent, .5)/pct(direct, .5), "ratio-agent-vs-direct-p50")
	b.ReportMetric(pct(starts, .5), "agent-start-p50-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// streamOnce streams one reply from p and calls first at its first text.
func streamOnce(ctx context.Context, p provider.Provider, first func()) error {
	for ev := range p.Stream(ctx, testkit.Doer{}, "dummy", provider.Request{Model: "gemini-2.5-flash",
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
