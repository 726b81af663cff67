// Package testkit holds the test helpers more than one package needs, one copy of each: an
// HTTP provider.Doer over net/http, local servers that speak the providers' wire formats
// (recorded streams replayed, plain text streamed, a scripted model that calls tools in all
// three formats), and a server for the real pages in testdata/pages. It is imported only by
// tests and benchmarks.
package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/skiff-ai/skiff/internal/provider"
)

// RepoRoot is the module root (where go.mod is).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Doer is a provider.Doer over net/http: what the browser's fetch is to core.wasm.
type Doer struct{}

var _ provider.Doer = Doer{}

func (Doer) Do(ctx context.Context, r *provider.HTTPRequest) (*provider.HTTPResponse, error) {
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return nil, err
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	h := map[string]string{}
	for k := range resp.Header {
		h[strings.ToLower(k)] = resp.Header.Get(k)
	}
	return &provider.HTTPResponse{Status: resp.StatusCode, Header: h, Body: resp.Body}, nil
}

// Server is a local HTTP server that remembers every request it got, with its body.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
}

// Serve starts a Server over h, closed when the test ends. OPTIONS preflights are answered
// permissively without reaching h (the extension has host access, but a test may not).
func Serve(t testing.TB, h http.HandlerFunc) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := new(bytes.Buffer)
		_, _ = body.ReadFrom(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, r)
		s.bodies = append(s.bodies, body.String())
		s.mu.Unlock()
		r.Body = nopBody{bytes.NewReader(body.Bytes())}
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

type nopBody struct{ *bytes.Reader }

func (nopBody) Close() error { return nil }

// Last returns the last request and its body (nil when there was none).
func (s *Server) Last() (*http.Request, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		return nil, ""
	}
	return s.requests[len(s.requests)-1], s.bodies[len(s.bodies)-1]
}

// Posts returns the JSON bodies of the POSTs the server got, in order.
func (s *Server) Posts(t testing.TB) []map[string]any {
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
			t.Fatalf("testkit: request body %q: %v", s.bodies[i], err)
		}
		out = append(out, m)
	}
	return out
}

// Requests are the requests the server got, in order.
func (s *Server) Requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.requests...)
}

// Count is the number of requests so far.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Recorded returns a recorded provider stream or error body from
// internal/provider/testdata/recorded (see its PROVENANCE.md).
func Recorded(t testing.TB, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "internal", "provider", "testdata", "recorded", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
