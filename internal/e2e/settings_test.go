//go:build !js

package e2e

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestMemoriesAreEditableAndReachTheModel(t *testing.T) {
	srv := testkit.OpenAIText(t, "Noted.", 8, 0)
	tab := browser.FreshPanel(t)
	Configure(t, tab, "openai", srv.URL, "sk-mem", "gpt-test")
	Do(t, tab, chromedp.Click("#memories-toggle"))
	WaitJS(t, tab, `document.activeElement.id === "memory-input"`)
	for _, m := range []string{"I am vegetarian", "My name is Ada"} {
		Do(t, tab, chromedp.SendKeys("#memory-input", m+"\r"))
		WaitJS(t, tab, `[...document.querySelectorAll("#memory-list .m-text")].some(n => n.textContent === `+jsString(m)+`)`)
	}
	// Empty: a message next to the field.
	Do(t, tab, chromedp.SendKeys("#memory-input", "   \r"))
	WaitJS(t, tab, `document.querySelector('.field-error[data-for="memory"]').textContent === "a memory cannot be empty"`)
	if b := JS[string](t, tab, `[...document.querySelectorAll("#memory-list .badge")].map(b => b.textContent).join(",")`); b != "user,user" {
		t.Fatalf("badges %q", b)
	}
	// Edit in place, then delete the other.
	mem := func(text string) string {
		return `[...document.querySelectorAll("#memory-list .memory")].find(li => li.querySelector(".m-text")?.textContent === ` + jsString(text) + `)`
	}
	Click(t, tab, mem("I am vegetarian")+`.querySelector(".m-edit")`)
	WaitJS(t, tab, `document.activeElement.matches("#memory-list textarea")`)
	TypeInto(t, tab, "#memory-list textarea", "I am vegan")
	Do(t, tab, chromedp.KeyEvent("\r"))
	WaitJS(t, tab, mem("I am vegan")+` !== undefined`)
	Click(t, tab, mem("My name is Ada")+`.querySelector(".m-delete")`)
	WaitJS(t, tab, `document.querySelectorAll("#memory-list .memory").length === 1`)

	Do(t, tab, chromedp.KeyEvent("\x1b"))
	SendMessage(t, tab, "what should I cook?")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	sys := system(srv.Posts(t)[0])
	if !strings.Contains(sys, "- I am vegan") || strings.Contains(sys, "Ada") || strings.Contains(sys, "vegetarian") {
		t.Fatalf("system content:\n%s", sys)
	}

	// Memories off in Settings: none are sent.
	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `!document.getElementById("models-note").textContent.startsWith("Loading")`)
	Do(t, tab, chromedp.Click("#useMemories"))
	WaitJS(t, tab, `!document.getElementById("useMemories").checked`)
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("settings-status").textContent === "Saved."`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
	SendMessage(t, tab, "and for dessert?")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	if sys := system(srv.Posts(t)[1]); strings.Contains(sys, "vegan") {
		t.Fatalf("memories off, still sent:\n%s", sys)
	}
}

// modelServer speaks OpenAI's /models and /chat/completions for one key.
func modelServer(t *testing.T, key string) *testkit.Server {
	chat := testkit.OpenAIText(t, "ok", 8, 0)
	return testkit.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"error":{"message":"Incorrect API key provided: sk-wr***ng.","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/models") {
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"live-alpha","object":"model"},{"id":"live-beta","object":"model"}]}`)
			return
		}
		chat.Config.Handler.ServeHTTP(w, r)
	})
}

func TestSettingsExplainThemselves(t *testing.T) {
	srv := modelServer(t, "sk-right")
	tab := browser.FreshPanel(t)
	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `document.querySelectorAll("#provider-grid input[type=radio]").length === 11`)
	// The grid says which providers need a key and which run locally.
	if s := JS[string](t, tab, `[...document.querySelectorAll("#provider-grid .provider")].map(l => l.textContent).join("|")`); !strings.Contains(s, "OpenAINeeds a key") && !strings.Contains(s, "OpenAIneeds a key") || !strings.Contains(s, "Ollamaon this computer") {
		t.Fatalf("grid %q", s)
	}
	// A server of one's own has no catalogue to fall back to: out of reach, the note says so
	// (it said "Cannot read properties of null").
	Do(t, tab, chromedp.Click(`#provider-grid label:has(input[value="custom"])`))
	WaitJS(t, tab, `document.querySelector('#provider-grid input[value="custom"]').checked`)
	TypeInto(t, tab, "#baseURL", "http://127.0.0.1:9/v1")
	Do(t, tab, chromedp.Click("#load-models"))
	WaitJS(t, tab, `document.getElementById("models-note").textContent.startsWith("Built-in list (Custom (OpenAI-compatible): could not reach the provider")`)
	// Picking a provider redraws the form, and the grid's labels stay the nodes they were (a
	// press under way on one is not lost to a redraw).
	JS[bool](t, tab, `document.querySelector('#provider-grid label:has(input[value="groq"])').skiffMark = true`)
	Do(t, tab, chromedp.Click(`#provider-grid label:has(input[value="groq"])`))
	WaitJS(t, tab, `document.querySelector('#provider-grid input[value="groq"]').checked`)
	if !JS[bool](t, tab, `document.querySelector('#provider-grid label:has(input[value="groq"])').skiffMark === true`) {
		t.Fatal("picking a provider replaced the grid's labels")
	}
	TypeInto(t, tab, "#baseURL", srv.URL)
	// No key yet: the model list falls back to the catalogue and says why.
	Do(t, tab, chromedp.Click("#load-models"))
	WaitJS(t, tab, `document.getElementById("models-note").textContent.startsWith("Built-in list (add a key")`)
	if n := JS[int](t, tab, `document.querySelectorAll("#models option").length`); n == 0 {
		t.Fatal("no catalogue models")
	}
	// Test connection with a wrong key, then the right one; neither is saved by testing.
	Do(t, tab, chromedp.SendKeys("#apiKey", "sk-wrong"))
	Do(t, tab, chromedp.Click("#test-connection"))
	WaitJS(t, tab, `document.getElementById("test-status").className.includes("bad")`)
	if msg := JS[string](t, tab, `document.getElementById("test-status").textContent`); !strings.Contains(msg, "API key was rejected") {
		t.Fatalf("wrong key: %q", msg)
	}
	TypeInto(t, tab, "#apiKey", "sk-right")
	Do(t, tab, chromedp.Click("#test-connection"))
	WaitJS(t, tab, `document.getElementById("test-status").textContent === "Connected to Groq: 2 models available."`)

	// Invalid numbers: a message next to the field, nothing saved.
	TypeInto(t, tab, "#temperature", "2.5")
	TypeInto(t, tab, "#memoryCount", "")
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.querySelector('.field-error[data-for="memoryCount"]').textContent === "enter a whole number between 0 and 100"`)
	TypeInto(t, tab, "#memoryCount", "5")
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.querySelector('.field-error[data-for="temperature"]').textContent === "must be between 0 and 2"`)
	if f := JS[string](t, tab, `document.activeElement.id`); f != "temperature" {
		t.Errorf("focus on %q, want the field in error", f)
	}
	TypeInto(t, tab, "#temperature", "0.3")
	TypeInto(t, tab, "#maxTokens", "999")
	Do(t, tab, chromedp.Click("#streaming"))
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("settings-status").textContent === "Saved."`)

	// Saved with a key: the live list replaces the catalogue; the badge names the choice.
	WaitJS(t, tab, `document.getElementById("models-note").textContent === "2 models from Groq."`)
	if opts := JS[string](t, tab, `[...document.querySelectorAll("#models option")].map(o => o.value).join(",")`); opts != "live-alpha,live-beta" {
		t.Fatalf("models %q", opts)
	}
	TypeInto(t, tab, "#model", "live-beta")
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("model-badge").textContent === "Groq · live-beta"`)

	// The key never reaches the panel, and everything else survives a reopen.
	reopened := browser.Panel(t)
	if s := JS[string](t, reopened, `JSON.stringify(skiffTest.state) + document.documentElement.outerHTML`); strings.Contains(s, "sk-right") {
		t.Fatal("the API key reached the panel")
	}
	Do(t, reopened, chromedp.Click("#settings-toggle"))
	got := JS[string](t, reopened, `[document.querySelector("#provider-grid input:checked").value, ...["temperature", "maxTokens"].map(id => document.getElementById(id).value), document.getElementById("streaming").checked, document.getElementById("memoryCount").value, document.getElementById("key-note").textContent].join("|")`)
	if got != "groq|0.3|999|false|5|A key is saved. Leave blank to keep it." {
		t.Fatalf("after reopen %q", got)
	}
	// Streaming off: the reply appears whole, with the typing indicator until then.
	Do(t, reopened, chromedp.Click("#settings-toggle"))
	SendMessage(t, reopened, "hi")
	WaitJS(t, reopened, lastAssistant+`?.dataset.status === "done"`)
	if c := messages(t, reopened)[1].Content; c != "ok" {
		t.Fatalf("reply %q", c)
	}
}

// TestFirstRunOffersLocalModels needs Ollama's port, 11434, on 127.0.0.1.
func TestFirstRunOffersLocalModels(t *testing.T) {
	// Nothing running: the welcome says so and points to Settings.
	tab := browser.FreshPanel(t)
	WaitJS(t, tab, `!document.getElementById("welcome").hidden && document.getElementById("welcome-text").textContent.startsWith("No local model found")`)
	Do(t, tab, chromedp.Click("#welcome-settings"))
	WaitJS(t, tab, `document.body.dataset.view === "settings"`)

	// An Ollama on its default port (checking Origin as Ollama does): the welcome offers it.
	ln, err := net.Listen("tcp", "127.0.0.1:11434")
	if err != nil {
		t.Fatalf("port 11434 is taken (is a real Ollama running?): %v", err)
	}
	chat := testkit.Recorded(t, "openai/text_include_usage_obfuscation.sse")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !testkit.OllamaAllowed(r.Header.Get("Origin")) {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		switch r.URL.Path {
		case "/v1/models":
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"llama3.2:3b","object":"model"},{"id":"qwen3:8b","object":"model"}]}`)
		case "/v1/chat/completions":
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(chat)
		default:
			w.WriteHeader(404)
		}
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	tab = browser.FreshPanel(t)
	WaitJS(t, tab, `document.querySelector("#welcome-found .use-local")?.dataset.provider === "ollama"`)
	if opts := JS[string](t, tab, `[...document.querySelectorAll("#welcome-found option")].map(o => o.value).join(",")`); opts != "llama3.2:3b,qwen3:8b" {
		t.Fatalf("offered %q", opts)
	}
	Do(t, tab, chromedp.SetValue("#welcome-found select", "qwen3:8b"))
	Do(t, tab, chromedp.Click("#welcome-found .use-local"))
	WaitJS(t, tab, `document.getElementById("welcome").hidden && document.getElementById("model-badge").textContent === "Ollama · qwen3:8b"`)
	Do(t, tab, chromedp.SendKeys("#input", "hello\r"))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	if c := messages(t, tab)[1].Content; c != "Olá!" {
		t.Fatalf("reply %q", c)
	}
}

// The model badge opens the model menu: the provider in use's models (its live list), then the
// other providers set up with the model each keeps. Typing filters, Enter chooses, and the next
// message goes to the model chosen, at the other provider too; Escape closes, and "All
// settings…" opens Settings.
func TestTheModelMenuChangesTheModel(t *testing.T) {
	groq := modelServer(t, "sk-groq")
	anthropic := testkit.Replay(t, "anthropic/text.sse", 0)
	tab := browser.FreshPanel(t)
	Configure(t, tab, "anthropic", anthropic.URL, "sk-anthropic", "claude-sonnet-4-20250514")
	Configure(t, tab, "groq", groq.URL, "sk-groq", "live-alpha")
	WaitJS(t, tab, `document.getElementById("model-badge").textContent === "Groq · live-alpha"`)

	offered := `[...document.querySelectorAll("#model-options li")].map(li => (li.getAttribute("role") === "option" ? "" : "#") + li.textContent + (li.getAttribute("aria-selected") === "true" ? "*" : "")).join("|")`
	Click(t, tab, `document.getElementById("model-badge")`)
	WaitJS(t, tab, `!document.getElementById("model-menu").hidden && document.activeElement.id === "model-find"`)
	WaitJS(t, tab, offered+` === "#Groq|live-alpha*|live-beta|#Other providers|Anthropic · claude-sonnet-4-20250514"`)
	if got := JS[string](t, tab, `document.getElementById("model-badge").getAttribute("aria-expanded")`); got != "true" {
		t.Errorf("the badge is aria-expanded=%q with its menu open", got)
	}
	Do(t, tab, chromedp.SendKeys("#model-find", "beta"))
	WaitJS(t, tab, offered+` === "#Groq|live-beta"`)
	Do(t, tab, chromedp.KeyEvent(kb.Enter))
	WaitJS(t, tab, `document.getElementById("model-badge").textContent === "Groq · live-beta" && document.getElementById("model-menu").hidden && document.activeElement.id === "input"`)
	if got := JS[string](t, tab, `skiffTest.call("core.hello").then(st => st.settings.provider + " " + st.settings.models.groq)`); got != "groq live-beta" {
		t.Errorf("stored: %q", got)
	}
	SendMessage(t, tab, "hello")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	if _, body := groq.Last(); !strings.Contains(body, `"model":"live-beta"`) {
		t.Errorf("the message went to Groq as %s", body)
	}

	// The other provider, by the arrows.
	Click(t, tab, `document.getElementById("model-badge")`)
	WaitJS(t, tab, offered+` === "#Groq|live-alpha|live-beta*|#Other providers|Anthropic · claude-sonnet-4-20250514"`)
	Do(t, tab, chromedp.KeyEvent(kb.ArrowDown))
	WaitJS(t, tab, `document.getElementById("model-find").getAttribute("aria-activedescendant") === "mo-2"`)
	Do(t, tab, chromedp.KeyEvent(kb.Enter))
	WaitJS(t, tab, `document.getElementById("model-badge").textContent === "Anthropic · claude-sonnet-4-20250514"`)
	Do(t, tab, chromedp.SendKeys("#input", "and now?"+kb.Enter))
	WaitJS(t, tab, `document.querySelectorAll('#messages .msg[data-role="assistant"]').length === 2 && `+lastAssistant+`.dataset.status === "done"`)
	if got := JS[string](t, tab, lastAssistant+`.querySelector(".content, .m-body, .markdown")?.textContent || `+lastAssistant+`.textContent`); !strings.Contains(got, "Olá!") {
		t.Errorf("the second reply: %q", got)
	}
	if n := len(anthropic.Posts(t)); n != 1 {
		t.Errorf("Anthropic got %d messages", n)
	}

	// Typing finds the other providers' models too, from their live lists (asked for once the
	// user types: a panel opened afresh has none of them yet).
	Do(t, tab, chromedp.Reload())
	WaitJS(t, tab, `document.body.dataset.ready === "1"`)
	Click(t, tab, `document.getElementById("model-badge")`)
	WaitJS(t, tab, offered+`.startsWith("#Anthropic|") && `+offered+`.endsWith("|#Other providers|Groq · live-beta")`)
	Do(t, tab, chromedp.SendKeys("#model-find", "alpha"))
	WaitJS(t, tab, offered+` === "#Other providers|Groq · live-alpha"`)
	Do(t, tab, chromedp.KeyEvent(kb.Escape))
	WaitJS(t, tab, `document.getElementById("model-menu").hidden`)

	// Alt+M opens it too; Escape closes it, back on the badge; All settings opens Settings.
	Do(t, tab, chromedp.KeyEvent("m", chromedp.KeyModifiers(kb.ModifierAlt)))
	WaitJS(t, tab, `!document.getElementById("model-menu").hidden && document.activeElement.id === "model-find"`)
	Do(t, tab, chromedp.KeyEvent(kb.Escape))
	WaitJS(t, tab, `document.getElementById("model-menu").hidden && document.activeElement.id === "model-badge"`)
	Click(t, tab, `document.getElementById("model-badge")`)
	// Its live list, or the note that it failed, moves "All settings…" as it comes.
	WaitJS(t, tab, `!document.getElementById("model-menu").hidden && !document.getElementById("model-options").hasAttribute("aria-busy")`)
	Click(t, tab, `document.getElementById("model-settings")`)
	WaitJS(t, tab, `document.body.dataset.view === "settings" && document.getElementById("model-menu").hidden`)
	// A choice made with Settings open shows there: a Save of the form cannot undo it.
	Click(t, tab, `document.getElementById("model-badge")`)
	Do(t, tab, chromedp.SendKeys("#model-find", "groq"))
	WaitJS(t, tab, offered+` === "#Other providers|Groq · live-beta|Groq · live-alpha"`)
	Do(t, tab, chromedp.KeyEvent(kb.Enter))
	WaitJS(t, tab, `document.getElementById("model-badge").textContent === "Groq · live-beta" && document.querySelector('#provider-grid input[value="groq"]').checked && document.getElementById("model").value === "live-beta"`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
}
