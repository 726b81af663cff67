package provider

import (
	"context"
	"encoding/json"
	"io"
	"strings"
)

// LoadedWindow is the context window, in tokens, that the Ollama server p points at loaded
// model with: its /api/ps's context_length. Ollama fits a conversation longer than that by
// leaving out its start without a word (server/prompt.go keeps the system messages and the
// last turn), and the window is 4,096 tokens on a machine with less than 24 GB of video
// memory unless the user raised it. It is 0 when the server does not say: not Ollama, an
// older Ollama, the model not loaded yet, or no answer within ctx.
func (p Provider) LoadedWindow(ctx context.Context, d Doer, model string) int {
	if p.ID != "ollama" || p.BaseURL == "" {
		return 0
	}
	root := strings.TrimSuffix(strings.TrimRight(p.BaseURL, "/"), "/v1")
	resp, err := d.Do(ctx, &HTTPRequest{Method: "GET", URL: root + "/api/ps", Header: map[string]string{"accept": "application/json"}})
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.Status != 200 {
		return 0
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if json.Unmarshal(body, &ps) != nil {
		return 0
	}
	want := tagged(model)
	for _, m := range ps.Models {
		if tagged(m.Name) == want || tagged(m.Model) == want {
			return max(m.ContextLength, 0)
		}
	}
	return 0
}

// tagged is an Ollama model's name with its tag: "qwen3" is "qwen3:latest".
func tagged(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return ""
	}
	if !strings.Contains(n[strings.LastIndex(n, "/")+1:], ":") {
		n += ":latest"
	}
	return n
}
