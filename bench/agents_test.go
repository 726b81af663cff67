//go:build linux

package bench

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/testkit/acpagent"
)

// BenchmarkSkiffdAgents runs the skiffd binary with the scripted ACP agent and a linked
// extension, opens 1 then 3 chats (one agent process serves them all), and reports skiffd's
// resident memory idle, with one chat and with three, and the agent's. It also reports a
// prompt's round trip through skiffd and the agent (the overhead ACP adds before any model).
func BenchmarkSkiffdAgents(b *testing.B) {
	dir := b.TempDir()
	bin := buildSkiffd(b)
	home := filepath.Join(dir, "home")
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg, err := daemon.Load(home)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Port = port
	cfg.AgentSettings = daemon.AgentSettings{Folder: dir, Agents: nil}
	if err := cfg.Save(); err != nil {
		b.Fatal(err)
	}
	// The agent is added the way a user adds one.
	agent := acpagent.Build(b)
	add := exec.Command(bin, "agents", "add", "test", "Test Agent", agent)
	add.Env = append(os.Environ(), "SKIFFD_HOME="+home)
	if out, err := add.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "SKIFFD_HOME="+home)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }()
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var ext *testkit.Extension
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			c.Close()
			break
		}
		if i > 100 {
			b.Fatal("skiffd did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	ext = testkit.LinkExtension(b, ctx, base, "chrome-extension://"+daemon.ExtensionID, cfg.PairToken)
	idle := rss(cmd.Process.Pid)
	open := func(chat string) {
		if _, err := link.AgentOpen.Call(ctx, ext.Peer, link.AgentOpenParams{Agent: "test", Session: chat}); err != nil {
			b.Fatal(err)
		}
		if _, err := link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: chat, Text: "hello"}); err != nil {
			b.Fatal(err)
		}
	}
	open("chat-1")
	one := rss(cmd.Process.Pid)
	open("chat-2")
	open("chat-3")
	three := rss(cmd.Process.Pid)
	var trips []float64
	for range max(b.N, 20) {
		start := time.Now()
		if _, err := link.AgentPrompt.Call(ctx, ext.Peer, link.AgentPromptParams{Session: "chat-2", Text: "ping"}); err != nil {
			b.Fatal(err)
		}
		trips = append(trips, float64(time.Since(start).Microseconds())/1000)
	}
	p50, p95 := pct(trips, .5), pct(trips, .95)
	b.ReportMetric(float64(idle)/1024, "skiffd-idle-MiB")
	b.ReportMetric(float64(one)/1024, "skiffd-1chat-MiB")
	b.ReportMetric(float64(three)/1024, "skiffd-3chats-MiB")
	b.ReportMetric(float64(agentRSS(cmd.Process.Pid))/1024, "agent-MiB")
	b.ReportMetric(p50, "prompt-p50-ms")
	b.ReportMetric(p95, "prompt-p95-ms")
}

// rss is a process's resident memory in KiB.
func rss(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// agentRSS sums the resident memory of pid's children (the agents).
func agentRSS(pid int) int {
	ents, _ := os.ReadDir("/proc")
	total := 0
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", n))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so read after its last ')'.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			total += rss(n)
		}
	}
	return total
}
