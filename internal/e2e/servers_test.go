//go:build !js

package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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
