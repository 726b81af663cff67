//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skiff-ai/skiff/internal/testkit"
	"github.com/skiff-ai/skiff/internal/workflow"
)

// setLanguage switches the panel's language as saving Settings does: the setting is stored and
// the open panel switches at once.
func setLanguage(t *testing.T, panel context.Context, l string) {
	t.Helper()
	saveSettings(t, panel, `{language: `+jsString(l)+`}`)
	JS[bool](t, panel, `import("./i18n.js").then(m => m.setLanguage(`+jsString(l)+`)).then(() => true)`)
}

// What the core writes for the user reaches a French user in French: a provider's failure in
// the chat (with the provider's own words kept as they came), what a call will do and why it
// asks, the page chip, the link's status, a refused setting, and the answer to a request the
// core refuses. A chat on screen is drawn again in the new language when the setting changes,
// from the keys it stored.
func TestCoreSentencesFollowTheLanguage(t *testing.T) {
	srv := unauthorized(t)
	panel := browser.FreshPanel(t)
	Configure(t, panel, "openai", srv.URL, "bad-key-test", "gpt-4o")
	setLanguage(t, panel, "fr")
	SendMessage(t, panel, "salut")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "error"`)
	fr := "OpenAI : la clé d’API a été refusée ou manque ; vérifiez-la dans les Réglages (HTTP 401). Incorrect API key provided"
	if got := messages(t, panel)[1].Notice; !strings.HasPrefix(got, fr) {
		t.Errorf("the failure in French: %q", got)
	}
	setLanguage(t, panel, "en")
	en := "OpenAI: the API key was rejected or is missing; check it in Settings (HTTP 401). Incorrect API key provided"
	WaitJS(t, panel, lastAssistant+`.querySelector(".notice").textContent.startsWith(`+jsString(en)+`)`)

	setLanguage(t, panel, "fr")
	got := JS[string](t, panel, `skiffTest.call("session.export", {format: "pdf"}).then(() => "no error", (e) => e.message)`)
	if got != "Skiff ne sait pas exporter en « pdf » ; choisissez JSON ou Markdown." {
		t.Errorf("a refused request in French: %q", got)
	}
	got = JS[string](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, temperature: 5}, keys: {}})).then(() => "saved", (e) => e.field + ": " + e.message)`)
	if got != "temperature: doit être entre 0 et 2" {
		t.Errorf("a setting refused in French: %q", got)
	}

	// The chip on a page Skiff may not read, and the link's status when skiffd is not there.
	other := browser.Tab(t, "about:blank")
	Do(t, other, chromedp.Navigate("chrome://version"))
	WaitJS(t, panel, `document.getElementById("page-chip").dataset.state === "unavailable"`)
	if got := chip(t, panel); got != "Skiff ne peut pas lire cette page (les pages du navigateur sont hors limites)." {
		t.Errorf("the chip in French: %q", got)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now
	JS[bool](t, panel, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, daemon: {enabled: true, port: `+strconv.Itoa(port)+`}}, keys: {}, daemonToken: "a-token-nobody-knows"})).then(() => true)`)
	t.Cleanup(func() { saveSettings(t, panel, `{daemon: {enabled: false}}`) })
	if JS[bool](t, panel, `document.getElementById("settings").hidden`) {
		Do(t, panel, chromedp.Click("#settings-toggle"))
	}
	WaitJS(t, panel, `document.getElementById("link-status").textContent.includes(`+jsString("Skiff n’a pas pu joindre skiffd sur le port "+strconv.Itoa(port)+". Est-il lancé ?")+`)`)

	// An ask's reason, on the card.
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Like"`),
		clickOn(t, `button "Like"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel2 := agentPanel(t, "openai", m)
	setLanguage(t, panel2, "fr")
	openTab(t, panel2, site.Page("counter.html"))
	startAgent(t, panel2, "appuie")
	a := waitAsk(t, panel2)
	if why := a.Facts["Pourquoi"]; why != "Agir dans votre navigateur demande d’abord." {
		t.Errorf("the ask's reason in French: %q (%+v)", why, a)
	}
	if !strings.HasPrefix(a.What, "cliquer sur bouton “Like” [") || !strings.HasPrefix(a.Question, "Autoriser le modèle de cette discussion à cliquer sur bouton “Like” [") {
		t.Errorf("the call in French: %q / %q", a.What, a.Question)
	}
	reply(t, panel2, "deny_once")
	waitAsk(t, panel2) // the model tries again, and this time the user lets it
	reply(t, panel2, "allow_once")
	// The audit log says the calls in French too, a read as well as an act (the view shows
	// the log as it is when it opens: open it once both clicks are in it).
	WaitJS(t, panel2, `skiffTest.call("permission.list").then((p) => p.audit.filter((a) => a.tool === "click" && a.result).length === 2)`)
	Do(t, panel2, chromedp.Click("#permissions-toggle"))
	what := func(tool string) string {
		return `[...document.querySelectorAll("#audit-list li")].find((n) => n.querySelector(".a-tool")?.textContent === "` + tool + `")?.querySelector(".a-what").textContent`
	}
	WaitJS(t, panel2, what("click")+`?.startsWith("cliquer sur bouton “Like” [")`)
	if got := JS[string](t, panel2, what("snapshot")+` || ""`); got != "regarder la page" {
		t.Errorf("a read in the audit log, in French: %q", got)
	}
	// How each was decided and what came of it, in French too.
	how := func(tool string) string {
		return `[...document.querySelectorAll("#audit-list li")].find((n) => n.querySelector(".a-tool")?.textContent === "` + tool + `")?.querySelector(".a-what + .note").textContent`
	}
	if got := JS[string](t, panel2, how("click")+` || ""`); !strings.Contains(got, "vous l’avez refusé · non exécuté") {
		t.Errorf("a denied click's decision in the audit log, in French: %q", got)
	}
	if got := JS[string](t, panel2, how("snapshot")+` || ""`); !strings.Contains(got, "autorisé : lire un site que vous laissez Skiff lire · ") || !strings.Contains(got, " éléments interactifs, ") {
		t.Errorf("a read's decision in the audit log, in French: %q", got)
	}
	// An act's result is the element it acted on, in the user's words.
	clicks := JS[[]string](t, panel2, `[...document.querySelectorAll("#audit-list li")].filter((n) => n.querySelector(".a-tool")?.textContent === "click").map((n) => n.querySelector(".a-what + .note").textContent)`)
	if !slices.ContainsFunc(clicks, func(s string) bool {
		return strings.Contains(s, "vous l’avez autorisé une fois · bouton “Like”")
	}) {
		t.Errorf("an allowed click's result in the audit log, in French: %q", clicks)
	}
	// Who made it, too: the model of a chat in the panel.
	if got := JS[string](t, panel2, `[...document.querySelectorAll("#audit-list li")].find((n) => n.querySelector(".a-tool")?.textContent === "click")?.querySelector(".a-head .note").textContent || ""`); !strings.HasSuffix(got, " · le modèle du panneau") {
		t.Errorf("who made a call, in the audit log in French: %q", got)
	}
	Do(t, panel2, chromedp.Click("#permissions-toggle"))
	setLanguage(t, panel2, "en")
}

// untranslated lists the panel's words that stay the same in French: every text node and every
// placeholder, title and label, in every view (the hidden ones too), read in English, then in
// French. A brand or a code word is one or two words; a sentence left English has three or more.
const untranslated = `(async () => {
	const read = () => {
		const out = new Map();
		const walk = (n, path) => {
			if (n.nodeType === Node.TEXT_NODE) {
				const s = n.textContent.trim();
				if (s) out.set(path, s);
				return;
			}
			if (n.nodeType !== Node.ELEMENT_NODE || ["SCRIPT", "STYLE", "CODE", "KBD", "PRE", "OPTION"].includes(n.tagName)) return;
			if (n.closest("#messages, #history-list, #memory-list, #policy-list, #audit-list, #provider-grid, #model-list, #workflow-list, #schedule-list, #file-list")) return;
			for (const a of ["placeholder", "title", "aria-label"]) if (n.getAttribute(a)) out.set(path + "@" + a, n.getAttribute(a));
			[...n.childNodes].forEach((c, i) => walk(c, path + "/" + (c.id ? "#" + c.id : i)));
		};
		walk(document.body, "body");
		return out;
	};
	const m = await import("./i18n.js");
	await m.setLanguage("en");
	const en = read();
	await m.setLanguage("fr");
	const fr = read();
	await m.setLanguage("en");
	const left = [];
	for (const [k, v] of en) {
		const words = v.split(/\s+/).filter((w) => /[a-z]{3,}/i.test(w));
		if (fr.get(k) === v && words.length >= 3) left.push(k + ": " + v);
	}
	return left;
})()`

// No sentence of the panel stays English in French: the static views (Settings, History,
// Memories, Permissions, Files, Workflows, the welcome screen) and the composer.
func TestNoEnglishLeftInFrench(t *testing.T) {
	panel := browser.FreshPanel(t)
	if left := JS[[]string](t, panel, untranslated); len(left) > 0 {
		t.Errorf("%d places stay English in French:\n%s", len(left), strings.Join(left, "\n"))
	}
}

// A French user sees no English the catalogs translate, in any view of the panel: every line of
// text on screen and every label, title and placeholder of what is shown is checked against
// the English of each message whose French differs. A word left out of the catalogs (a label in
// the page's HTML without its key, a string a module writes as it is) fails here.
func TestNoEnglishLeftInTheFrenchPanel(t *testing.T) {
	panel := browser.FreshPanel(t)
	Configure(t, panel, "openai", "http://127.0.0.1:9/v1", "sk-test", "gpt-4o")
	// Something in every view: a chat whose reply failed, one imported without a title, a
	// memory, a rule, a workflow, a schedule.
	SendMessage(t, panel, "hello")
	WaitJS(t, panel, lastAssistant+`?.dataset.status === "error"`)
	site := testkit.NewSite(t)
	wf := withDatesAndAResult(t, site)
	JS[bool](t, panel, `Promise.all([
		skiffTest.call("memory.add", {content: "The user drinks tea."}),
		skiffTest.call("session.import", {data: JSON.stringify({format: "skiff.sessions", version: 1, sessions: [{id: "untitled1", title: "", messages: [{id: "m1", role: "user", content: "hi"}]}]})}),
		skiffTest.call("permission.set", {tool: "act:*", origin: "https://example.com", decision: "allow_always"}),
		skiffTest.call("workflow.import", {data: `+jsString(wf)+`}).then(ws => skiffTest.call("schedule.save", {workflow: ws[0].id, repeat: {every: "daily", time: "08:00"}})),
	]).then(() => true)`)
	Do(t, panel, chromedp.Reload()) // as a panel opened afterwards: it lists the imported chat
	WaitJS(t, panel, `document.body.dataset.ready === "1"`)
	setLanguage(t, panel, "fr")
	t.Cleanup(func() { setLanguage(t, panel, "en") })
	// The failed reply's details open (how long it took).
	WaitJS(t, panel, lastAssistant+`?.querySelector(".info-msg") !== null`)
	Click(t, panel, lastAssistant+`.querySelector(".info-msg")`)
	// Each view, once what it lists is drawn.
	drawn := map[string]string{
		"chat":        lastAssistant + `?.dataset.status === "error" && !!` + lastAssistant + `.querySelector(".m-info")`,
		"history":     `document.querySelectorAll("#session-list .session").length === 2`,
		"memories":    `!!document.querySelector("#memory-list .memory")`,
		"workflows":   `!!document.querySelector("#workflow-list .workflow") && !!document.querySelector("#schedule-list .schedule")`,
		"files":       `document.getElementById("file-list").childElementCount > 0 || !!document.querySelector("#files .note")`,
		"permissions": `!!document.querySelector("#policy-list .policy") && document.getElementById("audit-list").childElementCount > 0`,
		"settings":    `!!document.querySelector("#provider-grid input, #provider-grid button")`,
	}
	for _, view := range []string{"chat", "history", "memories", "workflows", "files", "permissions", "settings"} {
		if view != "chat" {
			Click(t, panel, `document.getElementById("`+view+`-toggle")`)
			WaitJS(t, panel, `document.body.dataset.view === "`+view+`" && !document.getElementById("`+view+`").hidden`)
		}
		WaitJS(t, panel, drawn[view])
		if left := englishShown(t, panel); len(left) > 0 {
			t.Errorf("the %s view shows English to a French user: %q", view, left)
		}
		if view == "chat" { // and its find bar and model menu, open
			Do(t, panel, chromedp.KeyEvent("f", chromedp.KeyModifiers(kb.ModifierCtrl)))
			WaitJS(t, panel, `!document.getElementById("find-bar").hidden`)
			Do(t, panel, chromedp.SendKeys("#find-input", "zzz"))
			WaitJS(t, panel, `document.getElementById("find-count").textContent !== ""`)
			Click(t, panel, `document.getElementById("model-badge")`)
			WaitJS(t, panel, `!document.getElementById("model-menu").hidden && document.querySelectorAll("#model-options li").length > 0`)
			if left := englishShown(t, panel); len(left) > 0 {
				t.Errorf("the find bar or the model menu shows English to a French user: %q", left)
			}
			Do(t, panel, chromedp.KeyEvent(kb.Escape))
			WaitJS(t, panel, `document.getElementById("model-menu").hidden`)
			Click(t, panel, `document.getElementById("find-close")`)
		}
		if view == "settings" { // and a connection test that fails
			Click(t, panel, `document.getElementById("test-connection")`)
			WaitJS(t, panel, `document.getElementById("test-status").classList.contains("bad")`)
			if left := englishShown(t, panel); len(left) > 0 {
				t.Errorf("a failed connection test shows English to a French user: %q", left)
			}
		}
		if view == "workflows" { // and its forms: run, schedule, edit
			for _, form := range []string{"wf-run:wf-form", "wf-schedule:sc-form", "wf-edit:wf-edit-form"} {
				button, drawn, _ := strings.Cut(form, ":")
				Click(t, panel, `document.querySelector(".workflow .`+button+`")`)
				WaitJS(t, panel, `!!document.querySelector(".workflow .`+drawn+`")`)
			}
			if left := englishShown(t, panel); len(left) > 0 {
				t.Errorf("the workflow's forms show English to a French user: %q", left)
			}
			// A date's part in a month's name of another language is said as a part.
			if got := JS[string](t, panel, `document.querySelector(".workflow .wf-steps").textContent`); !strings.Contains(got, "choisir le mois et l’année de {{date}} dans") {
				t.Errorf("the workflow's steps: %q", got)
			}
		}
		if view != "chat" {
			Click(t, panel, `document.getElementById("`+view+`-toggle")`) // back to the chat
			WaitJS(t, panel, `document.body.dataset.view === "chat"`)
		}
	}
}

// withDatesAndAResult is reserveWorkflow's workflow without a password, with a stay's dates (the
// last counting from the first) and an address found for the restaurant: its forms show each
// kind of parameter and step there is.
func withDatesAndAResult(t *testing.T, site *testkit.Site) string {
	t.Helper()
	_, wf := reserveWorkflow(t, site)
	var w workflow.Workflow
	if err := json.Unmarshal([]byte(wf), &w); err != nil {
		t.Fatal(err)
	}
	w.Params = append(w.Params, workflow.Param{Name: "date", Label: "Check-in", Default: "2026-12-10"},
		workflow.Param{Name: "date_2", Label: "Check-out", Default: "2026-12-13", From: "date", Days: 3})
	result := site.Page("booking.html?at=Luigi")
	w.Steps = append(w.Steps, workflow.Step{Tool: "wait_for", Args: json.RawMessage(`{"text":"{{date:d}} {{date:mmmm yyyy}} {{date_2}}"}`)},
		workflow.Step{Tool: "select_option", Args: json.RawMessage(`{"ref":"@1","values":["{{date:mmmm yyyy:de}}"]}`), URL: w.Steps[0].URL, Origin: site.URL,
			Targets: []workflow.Target{{Role: "combobox", Name: "Monat", Tag: "select"}}},
		workflow.Step{Tool: "navigate", Args: json.RawMessage(`{"url":` + strconv.Quote(result) + `}`), URL: result, Origin: site.URL, For: "restaurant"})
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// englishShown is what the panel shows (its lines of text, and the labels, titles and
// placeholders of what is on screen) that is the English of a message whose French differs.
func englishShown(t *testing.T, panel context.Context) []string {
	t.Helper()
	// The messages with placeholders become patterns (a placeholder matches any words) when
	// their own words are long enough to say something.
	n := JS[int](t, panel, `globalThis.englishOnly ? englishOnly.length : Promise.all(["en", "fr"].map(l => fetch("/_locales/" + l + "/messages.json").then(r => r.json()))).then(([en, fr]) => {
		const keys = Object.keys(en).filter(k => fr[k] && fr[k].message !== en[k].message);
		globalThis.englishOnly = keys.filter(k => !en[k].message.includes("$") && en[k].message.trim().length > 2).map(k => en[k].message.trim());
		// Messages of three words or more are looked for inside lines too: a French sentence with
		// an English part in it.
		globalThis.englishParts = englishOnly.filter(m => m.split(/\s+/).length >= 3);
		globalThis.englishPatterns = keys.map(k => en[k].message.trim().split(/\$[A-Za-z0-9_]+\$/)).filter(parts => parts.length > 1 && parts.join("").replace(/[^A-Za-z]/g, "").length >= 12)
			.map(parts => new RegExp("^" + parts.map(p => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+") + "$", "s"));
		return englishOnly.length;
	})`)
	if n < 300 {
		t.Fatalf("only %d English messages read from the catalogs", n)
	}
	return JS[[]string](t, panel, `(() => {
		const set = new Set(globalThis.englishOnly);
		// A card's title is its tool's name (click, type), an identifier the model calls: no word to translate.
		for (const n of document.querySelectorAll(".t-name")) set.delete(n.textContent.trim());
		const shown = (n) => !!(n.offsetWidth || n.offsetHeight || n.getClientRects().length);
		const out = [];
		for (let line of document.body.innerText.split("\n")) {
			line = line.trim();
			if (set.has(line) || line && englishPatterns.some(re => re.test(line))) out.push(line);
			else for (const part of englishParts) if (set.has(part) && line.includes(part)) out.push(part + " in: " + line);
		}
		for (const n of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
			if (!shown(n)) continue;
			for (const a of ["aria-label", "title", "placeholder"]) {
				const v = (n.getAttribute(a) || "").trim();
				if (set.has(v)) out.push(a + " of <" + n.tagName.toLowerCase() + (n.id ? "#" + n.id : "") + ">: " + v);
			}
		}
		return out;
	})()`)
}

// An agent run a French user watches is French on screen: the cards of its calls (what each
// does, how it was allowed, what came of it), the ask and its buttons, the run's end. A card's
// title stays its tool's name, which is what the model calls.
func TestNoEnglishInAFrenchAgentRun(t *testing.T) {
	site := testkit.NewSite(t)
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		clickOn(t, `button "Helpful"`),
	}}
	m := testkit.NewModel(t, p.script)
	panel := agentPanel(t, "openai", m)
	setLanguage(t, panel, "fr")
	t.Cleanup(func() { setLanguage(t, panel, "en") })
	openTab(t, panel, site.Page("review.html"))
	NewChat(t, panel)
	agentOn(t, panel)
	WaitJS(t, panel, `(c => c.hidden || c.dataset.state === "attached" || c.dataset.state === "unavailable")(document.getElementById("page-chip"))`)
	if left := englishShown(t, panel); len(left) > 0 {
		t.Errorf("a new agent chat shows English: %q", left)
	}
	Do(t, panel, chromedp.SendKeys("#input", "Say it helped\r"))
	WaitJS(t, panel, `!!document.querySelector(".msg.tool .ask .allow-once:not([disabled])")`)
	if left := englishShown(t, panel); len(left) > 0 {
		t.Errorf("a call that asks shows English: %q", left)
	}
	untilDone(t, panel, `document.getElementById("stop").hidden && !!document.querySelector('.msg[data-role="user"]')`)
	JS[bool](t, panel, `(document.querySelectorAll(".msg.tool details").forEach(d => d.open = true), true)`) // every card's result shown
	if left := englishShown(t, panel); len(left) > 0 {
		t.Errorf("the run's cards show English: %q", left)
	}
	// The reader comment that speaks to the AI is flagged on the card that read it, in French.
	if got := JS[string](t, panel, `[...document.querySelectorAll(".msg.tool .flag-note")].map(n => n.textContent).join(" | ")`); !strings.Contains(got, "contient du texte qui ressemble à des instructions pour l’IA") || !strings.Contains(got, "demande d’ignorer des instructions") {
		t.Errorf("the warning on what the page said: %q", got)
	}
}

// A fault of the panel's own code reads as a sentence, never as its internal message: Settings
// once showed "Cannot read properties of null (reading 'map')" where a model list was. Here the
// Memories view's drawing fails as such a fault would (the page's document refuses a list
// item); the view says something went wrong in the panel, the console keeps the details. The
// core's own refusals still read as they are.
func TestAPanelFaultReadsAsASentence(t *testing.T) {
	panel := browser.FreshPanel(t)
	JS[bool](t, panel, `skiffTest.call("memory.add", {content: "The user drinks tea."}).then(() => true)`)
	JS[bool](t, panel, `(() => {
		const make = document.createElement.bind(document);
		document.createElement = (tag, ...rest) => {
			if (tag === "li") throw new TypeError("Cannot read properties of null (reading 'map')");
			return make(tag, ...rest);
		};
		return true;
	})()`)
	Click(t, panel, `document.getElementById("memories-toggle")`)
	WaitJS(t, panel, `document.getElementById("memories-note").textContent === "Something went wrong in Skiff's panel; its console has the details."`)
	if got := JS[string](t, panel, `document.body.innerText`); strings.Contains(got, "Cannot read") {
		t.Errorf("the panel shows its internal message: %q", got)
	}
	if got := JS[string](t, panel, `skiffTest.call("memory.add", {content: ""}).then(() => "", e => e.said ? e.message : "not said: " + e.message)`); got == "" || strings.HasPrefix(got, "not said") {
		t.Errorf("the core's refusal: %q", got)
	}
}
