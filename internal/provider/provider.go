// Package provider knows the eleven LLM providers Skiff talks to: their registry entry (base
// URL, wire format, headers, a fallback model catalogue), how a chat request is encoded for each
// of the three wire formats (OpenAI-compatible, Anthropic, Google Gemini), and how each format's
// stream is decoded into one Event type. It does no I/O of its own: HTTP goes through a Doer, so
// the same code runs over the browser's fetch in core.wasm and over net/http in tests.
package provider

import (
	"strings"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Format is a wire format: how requests are encoded and streams decoded.
type Format string

const (
	FormatOpenAI    Format = "openai"
	FormatAnthropic Format = "anthropic"
	FormatGoogle    Format = "google"
)

// Model is a catalogue entry. ContextLength is 0 when unknown.
type Model struct {
	ID            string `json:"id"`
	Name          string `json:"name,omitempty"`
	ContextLength int    `json:"contextLength,omitempty"`
}

// Provider is a registry entry.
type Provider struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	BaseURL string `json:"baseURL"`
	Format  Format `json:"format"`
	// NeedsKey is false for local servers (Ollama, LM Studio) and custom endpoints.
	NeedsKey bool `json:"needsKey"`
	// Local marks servers on the user's machine: they check the Origin header, so the
	// extension strips it for their host (see LocalHosts).
	Local bool `json:"local"`
	// EditableURL means the user may (or, for custom, must) set the base URL.
	EditableURL bool `json:"editableURL"`
	// Header holds extra headers sent on every request.
	Header map[string]string `json:"-"`
	// Models is the catalogue shown when the live model list cannot be fetched.
	Models []Model `json:"models"`
	// usageOption: the server accepts stream_options.include_usage (Mistral rejects unknown fields).
	usageOption bool
	// maxCompletionTokens: OpenAI's reasoning models reject max_tokens.
	maxCompletionTokens bool
	// sendsReasoning: every assistant turn goes back with its reasoning_content (DeepSeek's
	// thinking mode refuses a tool call's turn without it: "Missing `reasoning_content` field
	// in the assistant message at message index 2").
	sendsReasoning bool
	// KeyURL is where a user gets a key.
	KeyURL string `json:"keyURL,omitempty"`
	// NameText is Name as a sentence, for a provider without a brand (the user's own server):
	// the panel says it in the user's language. nil for a brand, the same in every language.
	NameText *i18n.Text `json:"nameText,omitempty"`
}

var registry = []Provider{
	{ID: "openai", Name: "OpenAI", BaseURL: "https://api.openai.com/v1", Format: FormatOpenAI, NeedsKey: true,
		usageOption: true, maxCompletionTokens: true, KeyURL: "https://platform.openai.com/api-keys",
		Models: []Model{{"gpt-5.4", "GPT-5.4", 400000}, {"gpt-5.4-mini", "GPT-5.4 mini", 400000}, {"gpt-5.4-nano", "GPT-5.4 nano", 400000}, {"gpt-4.1", "GPT-4.1", 1047576}, {"gpt-4o-mini", "GPT-4o mini", 128000}}},
	{ID: "anthropic", Name: "Anthropic", BaseURL: "https://api.anthropic.com", Format: FormatAnthropic, NeedsKey: true,
		KeyURL: "https://console.anthropic.com/settings/keys",
		Header: map[string]string{"anthropic-version": "2023-06-01", "anthropic-dangerous-direct-browser-access": "true"},
		Models: []Model{{"claude-sonnet-4-5-20250929", "Claude Sonnet 4.5", 200000}, {"claude-haiku-4-5-20251001", "Claude Haiku 4.5", 200000}, {"claude-sonnet-4-20250514", "Claude Sonnet 4", 200000}}},
	{ID: "google", Name: "Google Gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta", Format: FormatGoogle, NeedsKey: true,
		KeyURL: "https://aistudio.google.com/apikey",
		Models: []Model{{"gemini-2.5-flash", "Gemini 2.5 Flash", 1048576}, {"gemini-2.5-pro", "Gemini 2.5 Pro", 1048576}, {"gemini-2.0-flash", "Gemini 2.0 Flash", 1048576}}},
	{ID: "groq", Name: "Groq", BaseURL: "https://api.groq.com/openai/v1", Format: FormatOpenAI, NeedsKey: true, usageOption: true,
		KeyURL: "https://console.groq.com/keys",
		Models: []Model{{"openai/gpt-oss-120b", "GPT-OSS 120B", 131072}, {"moonshotai/kimi-k2-instruct-0905", "Kimi K2", 262144}, {"llama-3.3-70b-versatile", "Llama 3.3 70B", 131072}}},
	{ID: "openrouter", Name: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1", Format: FormatOpenAI, NeedsKey: true, usageOption: true,
		KeyURL: "https://openrouter.ai/keys",
		Header: map[string]string{"HTTP-Referer": "https://github.com/skiff-ai/skiff", "X-Title": "Skiff"},
		Models: []Model{{"openrouter/auto", "Auto", 0}, {"anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5", 1000000}, {"openai/gpt-5.4-nano", "GPT-5.4 nano", 400000}}},
	{ID: "mistral", Name: "Mistral", BaseURL: "https://api.mistral.ai/v1", Format: FormatOpenAI, NeedsKey: true,
		KeyURL: "https://console.mistral.ai/api-keys",
		Models: []Model{{"mistral-small-latest", "Mistral Small", 128000}, {"mistral-large-latest", "Mistral Large", 128000}, {"magistral-medium-latest", "Magistral Medium", 40000}}},
	{ID: "deepseek", Name: "DeepSeek", BaseURL: "https://api.deepseek.com", Format: FormatOpenAI, NeedsKey: true, usageOption: true, sendsReasoning: true,
		KeyURL: "https://platform.deepseek.com/api_keys",
		Models: []Model{{"deepseek-chat", "DeepSeek Chat", 128000}, {"deepseek-reasoner", "DeepSeek Reasoner", 128000}}},
	{ID: "xai", Name: "xAI", BaseURL: "https://api.x.ai/v1", Format: FormatOpenAI, NeedsKey: true, usageOption: true,
		KeyURL: "https://console.x.ai",
		Models: []Model{{"grok-4-fast-reasoning", "Grok 4 Fast", 2000000}, {"grok-4", "Grok 4", 256000}}},
	{ID: "ollama", Name: "Ollama", BaseURL: "http://localhost:11434/v1", Format: FormatOpenAI, Local: true, EditableURL: true, usageOption: true,
		Models: []Model{{"llama3.2", "Llama 3.2", 131072}, {"qwen3", "Qwen 3", 40960}, {"gemma3", "Gemma 3", 131072}}},
	{ID: "lmstudio", Name: "LM Studio", BaseURL: "http://localhost:1234/v1", Format: FormatOpenAI, Local: true, EditableURL: true, Models: []Model{}},
	{ID: "custom", Name: sayCustom.English, Format: FormatOpenAI, EditableURL: true, Models: []Model{}},
}

// All returns the registry in display order. The slice is a copy.
func All() []Provider {
	out := append([]Provider(nil), registry...)
	for i := range out {
		if out[i].Name == sayCustom.English {
			t := sayCustom.With()
			out[i].NameText = &t
		}
	}
	return out
}

// Lookup returns the provider with the given id.
func Lookup(id string) (Provider, bool) {
	for _, p := range registry {
		if p.ID == id {
			return p, true
		}
	}
	return Provider{}, false
}

// WithBaseURL returns p pointed at base (for Ollama, LM Studio and custom endpoints).
// An empty base keeps the default. The URL must be absolute http(s).
func (p Provider) WithBaseURL(base string) (Provider, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		if p.BaseURL == "" {
			return p, sayNeedsBaseURL.Error(p.Name)
		}
		return p, nil
	}
	if err := CheckBaseURL(base); err != nil {
		return p, err
	}
	p.BaseURL = p.endpoint(strings.TrimRight(base, "/"))
	return p, nil
}

// endpoint is base as requests to p, a server whose address the user sets, are built on it.
// What people paste for an OpenAI-compatible server is often the whole address of its chat
// endpoint (…/v1/chat/completions, as its docs show a curl), Ollama's own API (…:11434/api),
// or the server's root (http://localhost:11434), while Ollama, LM Studio, vLLM, llama.cpp and
// LiteLLM all answer at /v1: each is read as the base it names, which a request to base +
// "/chat/completions" then finds.
func (p Provider) endpoint(base string) string {
	if p.Format != FormatOpenAI || !p.EditableURL {
		return base
	}
	for _, end := range []string{"/chat/completions", "/completions", "/responses", "/models"} {
		if len(base) > len(end) && strings.EqualFold(base[len(base)-len(end):], end) {
			base = strings.TrimRight(base[:len(base)-len(end)], "/")
			break
		}
	}
	if p.ID == "ollama" && len(base) > 4 && strings.EqualFold(base[len(base)-4:], "/api") {
		base = base[:len(base)-4]
	}
	if u, ok := weburl.Split(base); ok && strings.Trim(u.Rest, "/") == "" {
		base = strings.TrimRight(base, "/") + "/v1"
	}
	return base
}

// CheckBaseURL reports whether s is usable as a base URL, with a message for the settings form.
func CheckBaseURL(s string) error {
	u, ok := weburl.Web(s)
	if !ok {
		return sayBaseURLWeb.Error(s)
	}
	if u.HasQueryOrFragment() {
		return sayBaseURLQuery.Error(s)
	}
	return nil
}

// What is wrong with a base URL, for the settings form (their French is in ui/_locales).
var (
	sayNeedsBaseURL = i18n.Sentence{Key: "fieldNeedsBaseURL", English: "$1 needs a base URL (for example http://localhost:8080/v1)"}
	sayBaseURLWeb   = i18n.Sentence{Key: "fieldBaseURLWeb", English: "base URL must start with http:// or https:// and name a host, got “$1”"}
	sayBaseURLQuery = i18n.Sentence{Key: "fieldBaseURLQuery", English: "base URL must not have a query or fragment: “$1”"}
)

// Host returns the host:port of the provider's base URL ("" when unset).
func (p Provider) Host() string {
	u, _ := weburl.Split(p.BaseURL)
	return u.Host
}

// SeesImages reports whether a model takes images (screenshots) as input. Models of the big
// hosted families do; for the rest the model's name tells (llava, vision, -vl…). A model
// wrongly taken for one that sees only loses its screenshot tool.
func SeesImages(p Provider, model string) bool {
	m := toLower(model)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(m, w) {
				return true
			}
		}
		return false
	}
	switch p.ID {
	case "openai":
		return !has("gpt-3.5", "o1-mini", "o3-mini")
	case "anthropic", "google":
		return true
	case "xai":
		return has("grok-4", "vision", "grok-2-image")
	case "deepseek":
		return false
	case "mistral":
		return has("pixtral", "mistral-small", "mistral-medium", "mistral-large-2411", "magistral")
	}
	return has("vision", "llava", "-vl", "vl-", "gpt-4o", "gpt-4.1", "gpt-5", "claude", "gemini", "gemma3", "gemma-3", "llama-4", "llama4", "pixtral", "qwen2.5vl", "minicpm-v", "moondream", "scout", "maverick")
}
