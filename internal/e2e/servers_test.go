//go:build !js

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// providerServer speaks a provider's wire format by replaying a recorded stream, line by line
// with a pause between lines, and remembers the requests it got.
type providerServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
}

func recordedStream(t testing.TB, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "internal", "provider", "testdata", "recorded", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replay serves file on every POST; status/body override it when status != 0.
func replay(t testing.TB, file string, perLine time.Duration) *providerServer {
	data := recordedStream(t, file)
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if _, err := w.Write(line); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			if perLine > 0 {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(perLine):
				}
			}
		}
	})
}

func serve(t testing.TB, h http.HandlerFunc) *providerServer {
	s := &providerServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := new(bytes.Buffer)
		_, _ = body.ReadFrom(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, r)
		s.bodies = append(s.bodies, body.String())
		s.mu.Unlock()
		// Extension pages preflight cross-origin requests only without host permission; answer anyway.
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			w.Header().Set("Access-Control-Allow-Headers", "*")
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *providerServer) last() (*http.Request, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		return nil, ""
	}
	return s.requests[len(s.requests)-1], s.bodies[len(s.bodies)-1]
}

// ollamaAllowed reports whether Ollama's default CORS policy accepts an Origin: none, or
// localhost / 127.0.0.1 / 0.0.0.0 on any port, or app://, file://, tauri:// and
// vscode-webview:// (Ollama's envconfig.AllowedOrigins without OLLAMA_ORIGINS).
// chrome-extension:// is not among them.
func ollamaAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	for _, p := range []string{"app://", "file://", "tauri://", "vscode-webview://"} {
		if strings.HasPrefix(origin, p) {
			return true
		}
	}
	for _, scheme := range []string{"http://", "https://"} {
		for _, host := range []string{"localhost", "127.0.0.1", "0.0.0.0"} {
			if origin == scheme+host || strings.HasPrefix(origin, scheme+host+":") {
				return true
			}
		}
	}
	return false
}

// ollama is a server that checks Origin the way Ollama does (403, empty body, when the origin
// is not allowed) and otherwise streams an OpenAI-compatible reply.
func ollama(t testing.TB, file string) *providerServer {
	data := recordedStream(t, file)
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		if !ollamaAllowed(r.Header.Get("Origin")) {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(data)
	})
}

func TestOllamaOriginPolicy(t *testing.T) {
	for origin, want := range map[string]bool{
		"":                               true,
		"http://localhost:3000":          true,
		"http://127.0.0.1":               true,
		"chrome-extension://abcdefghijk": false,
		"https://example.com":            false,
		"http://localhost.evil.com":      false,
	} {
		if got := ollamaAllowed(origin); got != want {
			t.Errorf("ollamaAllowed(%q) = %v, want %v", origin, got, want)
		}
	}
}

// openAIText is a server that speaks OpenAI's streaming format and answers every request with
// text, cut into chunks of about size bytes sent pause apart (rune boundaries kept).
func openAIText(t testing.TB, text string, size int, pause time.Duration) *providerServer {
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(v any) bool {
			b, _ := json.Marshal(v)
			if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
				return false
			}
			w.(http.Flusher).Flush()
			return true
		}
		chunk := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1, "model": "test",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		}
		if !send(chunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
			return
		}
		for rest := text; rest != ""; {
			n := min(size, len(rest))
			for n < len(rest) && !utf8.RuneStart(rest[n]) {
				n++
			}
			if !send(chunk(map[string]any{"content": rest[:n]}, nil)) {
				return
			}
			rest = rest[n:]
			if pause > 0 {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(pause):
				}
			}
		}
		send(chunk(map[string]any{}, "stop"))
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	})
}

// bodies returns the JSON bodies of the POSTs the server got.
func (s *providerServer) posts(t testing.TB) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for i, r := range s.requests {
		if r.Method != http.MethodPost {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(s.bodies[i]), &m); err != nil {
			t.Fatalf("request body: %v", err)
		}
		out = append(out, m)
	}
	return out
}

// system returns the system message of an OpenAI-format request body ("" when none).
func system(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	m, _ := msgs[0].(map[string]any)
	if m["role"] != "system" {
		return ""
	}
	s, _ := m["content"].(string)
	return s
}
