package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Replay serves a recorded stream on every request, line by line with perLine between lines
// (0: all at once), as text/event-stream.
func Replay(t testing.TB, file string, perLine time.Duration) *Server {
	data := Recorded(t, file)
	return Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if _, err := w.Write(line); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			if perLine > 0 && !Pause(r, perLine) {
				return
			}
		}
	})
}

// Cut serves the first n events of a recorded stream (events end at a blank line, LF or CRLF),
// then, a moment later, drops the connection (abort) or ends the response without the stream's
// end (clean): a reply cut off mid-way, after its first words arrived.
func Cut(t testing.TB, file string, n int, abort bool) *Server {
	data := bytes.ReplaceAll(Recorded(t, file), []byte("\r\n"), []byte("\n"))
	return Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		events := bytes.SplitAfter(data, []byte("\n\n"))
		for i, ev := range events {
			if i == n {
				Pause(r, 300*time.Millisecond)
				if abort {
					panic(http.ErrAbortHandler)
				}
				return
			}
			if _, err := w.Write(ev); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
}

// Pause waits d, or less when the client goes away; it reports whether the client is still there.
func Pause(r *http.Request, d time.Duration) bool {
	select {
	case <-r.Context().Done():
		return false
	case <-time.After(d):
		return true
	}
}

// OpenAIText is a server that speaks OpenAI's streaming format and answers every request with
// text, cut into chunks of about size bytes sent pause apart (rune boundaries kept).
func OpenAIText(t testing.TB, text string, size int, pause time.Duration) *Server {
	return Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(v any) bool {
			b, _ := json.Marshal(v)
			if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
				return false
			}
			w.(http.Flusher).Flush()
			return true
		}
		if !send(oaChunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
			return
		}
		for rest := text; rest != ""; {
			n := min(size, len(rest))
			for n < len(rest) && !utf8.RuneStart(rest[n]) {
				n++
			}
			if !send(oaChunk(map[string]any{"content": rest[:n]}, nil)) {
				return
			}
			rest = rest[n:]
			if pause > 0 && !Pause(r, pause) {
				return
			}
		}
		send(oaChunk(map[string]any{}, "stop"))
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	})
}

func oaChunk(delta map[string]any, finish any) map[string]any {
	return map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1, "model": "test",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
}

// OllamaAllowed reports whether Ollama's default CORS policy accepts an Origin: none, or
// localhost / 127.0.0.1 / 0.0.0.0 on any port, or app://, file://, tauri:// and
// vscode-webview:// (Ollama's envconfig.AllowedOrigins without OLLAMA_ORIGINS).
// chrome-extension:// is not among them.
func OllamaAllowed(origin string) bool {
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

// Ollama is a server that checks Origin the way Ollama does (403, empty body, when the origin
// is not allowed), answers /api/ps with the models loaded (name:tag → context window), and
// otherwise streams a recorded OpenAI-compatible reply.
func Ollama(t testing.TB, file string, loaded map[string]int) *Server {
	data := Recorded(t, file)
	return Serve(t, func(w http.ResponseWriter, r *http.Request) {
		if !OllamaAllowed(r.Header.Get("Origin")) {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		if r.URL.Path == "/api/ps" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(OllamaPS(loaded))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(data)
	})
}

// OllamaPS is the body of Ollama's GET /api/ps (api.ProcessResponse in Ollama's source): the
// models loaded (by name with its tag), each with the context window it was loaded with.
func OllamaPS(loaded map[string]int) []byte {
	type details struct {
		ParentModel       string   `json:"parent_model"`
		Format            string   `json:"format"`
		Family            string   `json:"family"`
		Families          []string `json:"families"`
		ParameterSize     string   `json:"parameter_size"`
		QuantizationLevel string   `json:"quantization_level"`
	}
	type model struct {
		Name          string    `json:"name"`
		Model         string    `json:"model"`
		Size          int64     `json:"size"`
		Digest        string    `json:"digest"`
		Details       details   `json:"details"`
		ExpiresAt     time.Time `json:"expires_at"`
		SizeVRAM      int64     `json:"size_vram"`
		ContextLength int       `json:"context_length"`
	}
	out := struct {
		Models []model `json:"models"`
	}{Models: []model{}}
	for name, window := range loaded {
		out.Models = append(out.Models, model{Name: name, Model: name, Size: 6_654_289_920, Digest: strings.Repeat("ab", 32),
			Details:   details{Format: "gguf", Family: "qwen3", Families: []string{"qwen3"}, ParameterSize: "8.2B", QuantizationLevel: "Q4_K_M"},
			ExpiresAt: time.Now().Add(5 * time.Minute), SizeVRAM: 6_654_289_920, ContextLength: window})
	}
	b, _ := json.Marshal(out)
	return b
}

// Held replays a recorded stream like Replay, except that the first POST's reply stops halfway until
// release is closed (or the client goes away): a test can act while a reply is surely being
// written. Later replies are sent whole at once.
func Held(t testing.TB, file string) (*Server, chan struct{}) {
	lines := bytes.SplitAfter(Recorded(t, file), []byte("\n"))
	release := make(chan struct{})
	first := make(chan struct{}, 1)
	first <- struct{}{}
	srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		hold := false
		if r.Method == http.MethodPost { // a GET is the panel listing models
			select {
			case <-first:
				hold = true
			default:
			}
		}
		for i, line := range lines {
			if hold && i == len(lines)/2 {
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
			}
			if _, err := w.Write(line); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	return srv, release
}

// UserTexts are the last user message of each request a chat-completions server got, in order.
func (s *Server) UserTexts(t testing.TB) []string {
	var out []string
	for _, body := range s.Posts(t) {
		msgs, _ := body["messages"].([]any)
		if len(msgs) == 0 {
			continue
		}
		last, _ := msgs[len(msgs)-1].(map[string]any)
		text, _ := last["content"].(string)
		if parts, ok := last["content"].([]any); ok && len(parts) > 0 {
			if p, ok := parts[len(parts)-1].(map[string]any); ok {
				text, _ = p["text"].(string)
			}
		}
		out = append(out, text)
	}
	return out
}
