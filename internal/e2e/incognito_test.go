//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// A user who lets Skiff into incognito windows gets chats there that Skiff keeps in memory
// only, as Chrome keeps those windows' history: an agent run about an incognito page (its
// message, the page it read, the calls in the audit log) leaves not one byte in the extension's
// storage on disk, is listed in the incognito panel only, does not go into a kept chat, and is
// gone once the last incognito window closes. In a browser of its own, whose extension is let
// into incognito windows on chrome://extensions, as the toggle does.
func TestIncognitoChatsAreNotKept(t *testing.T) {
	site := testkit.NewSite(t)
	const secret = "INCOGNITO-7c1e"
	var incognitoTab atomic.Int64
	model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		if c.Steps() == 0 && strings.Contains(c.Last().Text, secret) {
			return testkit.Turn{Calls: []testkit.Call{{Name: "snapshot", Args: map[string]any{}}}}
		}
		if c.Steps() == 1 && c.Last().Name == "snapshot" && strings.Contains(c.Last().Text, "Counters") {
			return testkit.Turn{Calls: []testkit.Call{{Name: "history_search", Args: map[string]any{"text": secret}}}}
		}
		// A kept chat's run looks for the incognito tab (a model told by a page, or guessing).
		if c.Steps() == 0 && strings.Contains(c.Last().Text, "Which tabs") {
			return testkit.Turn{Calls: []testkit.Call{{Name: "tabs_list", Args: map[string]any{}}}}
		}
		if c.Steps() == 1 && c.Last().Name == "tabs_list" {
			return testkit.Turn{Calls: []testkit.Call{{Name: "snapshot", Args: map[string]any{"tabId": incognitoTab.Load()}}}}
		}
		// A kept chat asks for what a private chat was allowed Always.
		if c.Steps() == 0 && strings.Contains(c.Last().Text, "Search my history") {
			return testkit.Turn{Calls: []testkit.Call{{Name: "history_search", Args: map[string]any{"text": "kept"}}}}
		}
		if c.Steps() == 2 && c.Last().Name == "snapshot" {
			return testkit.Turn{Calls: []testkit.Call{{Name: "tab_switch", Args: map[string]any{"tabId": incognitoTab.Load()}}}}
		}
		return testkit.Turn{Text: "Done."}
	})
	b := launchWithAccess(t, "incognitoAccess", true)
	panel := b.Panel(t)
	Configure(t, panel, "openai", model.URL, "sk-incognito", "gpt-test")
	JS[any](t, panel, fmt.Sprintf(`skiffTest.call("permission.set", {tool: "*", origin: %q, decision: "allow_always"})`, site.URL))

	// A kept chat, from the panel's own window.
	kept := JS[string](t, panel, `(async () => (await skiffTest.call("chat.send", {text: "A kept question", windowId: (await chrome.windows.getCurrent()).id})).sessionId)()`)
	WaitJS(t, panel, `chrome.storage.local.get("session/`+kept+`").then(v => JSON.parse(v["session/`+kept+`"] || "{}").messages?.at(-1)?.content === "Done.")`)

	win := JS[float64](t, panel, fmt.Sprintf(`chrome.windows.create({incognito: true, url: %q}).then(w => w.id)`, site.Page("counter.html")))
	WaitJS(t, panel, fmt.Sprintf(`chrome.tabs.query({windowId: %v}).then(ts => ts.length === 1 && ts[0].incognito && ts[0].status === "complete")`, win))
	incognitoTab.Store(int64(JS[float64](t, panel, fmt.Sprintf(`chrome.tabs.query({windowId: %v}).then(ts => ts[0].id)`, win))))

	// The chat on the page, opened in the incognito tab: its new chat and its message are a
	// private chat's.
	ov := b.Overlay(t, b.Page(t, site.Page("counter.html")), fmt.Sprintf(`chrome.tabs.get(%d)`, incognitoTab.Load()))
	Click(t, ov, `document.getElementById("new")`)
	WaitJS(t, ov, `!!document.querySelector("#messages") && document.activeElement === document.getElementById("input")`)
	Do(t, ov, chromedp.SendKeys("#input", "Hello from the page\r"))
	WaitJS(t, ov, `[...document.querySelectorAll('#messages .msg[data-role="assistant"]')].at(-1)?.dataset.status === "done"`)
	onPage := JS[string](t, ov, `skiffTest.state.active.id`)
	if !strings.HasPrefix(onPage, "private-") {
		t.Errorf("the chat on an incognito page is %q", onPage)
	}

	// A kept chat's agent does not see the incognito window: not in tabs_list, and a call that
	// names its tab is refused.
	JS[string](t, panel, `(async () => (await skiffTest.call("chat.send", {sessionId: "`+kept+`", text: "Which tabs are open?", agent: true, windowId: (await chrome.windows.getCurrent()).id})).sessionId)()`)
	// (Listing the tabs asks: Allow once, as the user.)
	Eventually(t, 60*time.Second, func() bool {
		if JS[bool](t, panel, `!!document.querySelector(".allow-once:not([disabled])")`) {
			Click(t, panel, `document.querySelector(".allow-once:not([disabled])")`)
		}
		return JS[bool](t, panel, `chrome.storage.local.get("session/`+kept+`").then(v => { const m = JSON.parse(v["session/`+kept+`"] || "{}").messages || []; return m.length > 4 && m.at(-1).content === "Done."; })`)
	}, "the kept chat's run did not end")
	tools := JS[string](t, panel, `skiffTest.call("session.open", {sessionId: "`+kept+`"}).then(s => s.messages.filter(m => m.tool).map(m => m.tool.name + ": " + m.content).join("\n"))`)
	if !strings.Contains(tools, "tabs_list: ") || strings.Contains(tools, site.URL) || strings.Contains(tools, "Counters") {
		t.Errorf("a kept chat saw the incognito tab:\n%s", tools)
	}
	if n := strings.Count(tools, "That tab is in an incognito window"); n != 2 {
		t.Errorf("a kept chat's snapshot and tab_switch of the incognito tab were not refused (%d refusals):\n%s", n, tools)
	}

	// The incognito page does not go into the kept chat.
	got := JS[string](t, panel, fmt.Sprintf(`skiffTest.call("chat.send", {sessionId: %q, text: "And this page?", windowId: %v}).then(() => "sent", e => e.message)`, kept, win))
	if got != "This chat is kept on this computer, so it does not take what is in an incognito window. Start a new chat there: Skiff keeps it only while an incognito window is open." {
		t.Errorf("a kept chat took an incognito page: %q", got)
	}

	// An agent run about the incognito page, in a chat of its own.
	priv := JS[string](t, panel, fmt.Sprintf(`skiffTest.call("chat.send", {text: "What is on this page? %s", agent: true, windowId: %v}).then(r => r.sessionId)`, secret, win))
	if !strings.HasPrefix(priv, "private-") {
		t.Fatalf("the chat about an incognito page is %q", priv)
	}
	// Searching the history asks, in the incognito window's panel only (this one's window is
	// not incognito): the user answers Always there, which lasts as long as the incognito
	// windows.
	privSes := `chrome.storage.session.get("private/session/` + priv + `").then(v => JSON.parse(v["private/session/` + priv + `"] || "{}"))`
	WaitJS(t, panel, privSes+`.then(s => s.messages?.some(m => m.status === "asking"))`)
	if JS[bool](t, panel, `!document.getElementById("chat-asks").hidden`) {
		t.Errorf("a panel of a window that is not incognito shows the private chat's ask: %s", JS[string](t, panel, `document.getElementById("chat-asks").textContent`))
	}
	JS[any](t, panel, privSes+`.then(s => skiffTest.call("tool.decide", {sessionId: s.id, messageId: s.messages.find(m => m.status === "asking").id, decision: "allow_always"}))`)
	WaitJS(t, panel, privSes+`.then(s => s.messages?.at(-1)?.content === "Done.")`)
	if p := JS[string](t, panel, `chrome.storage.session.get("private/policies").then(v => v["private/policies"] || "")`); !strings.Contains(p, `"private":true`) {
		t.Errorf("the Always answered in the private chat is not kept in memory: %q\n%s", p, JS[string](t, panel, `chrome.storage.session.get(null).then(v => JSON.stringify(v))`))
	}
	// It stays in incognito windows: this panel's permissions view does not show it, an
	// incognito panel's does, and a kept chat making the same call is still asked.
	Click(t, panel, `document.getElementById("permissions-toggle")`)
	WaitJS(t, panel, `document.getElementById("policy-list").textContent.includes(`+jsString(site.URL)+`)`)
	if l := JS[string](t, panel, `document.getElementById("policy-list").textContent + "\n" + document.getElementById("audit-list").textContent`); strings.Contains(strings.Split(l, "\n")[0], "incognito") || strings.Contains(l, secret) {
		t.Errorf("a panel of a window that is not incognito shows the incognito window's decision or calls:\n%s", l)
	}
	if p := JS[string](t, panel, `skiffTest.call("permission.list", {private: true}).then(r => JSON.stringify(r.policies))`); !strings.Contains(p, `"private":true`) {
		t.Errorf("an incognito panel's permissions do not show the Always answered there: %s", p)
	}
	JS[string](t, panel, `(async () => (await skiffTest.call("chat.send", {sessionId: "`+kept+`", text: "Search my history", agent: true, windowId: (await chrome.windows.getCurrent()).id})).sessionId)()`)
	keptSes := `chrome.storage.local.get("session/` + kept + `").then(v => JSON.parse(v["session/` + kept + `"] || "{}"))`
	WaitJS(t, panel, keptSes+`.then(s => s.messages?.at(-1)?.status === "asking" && s.messages.at(-1).tool?.name === "history_search")`)
	JS[any](t, panel, keptSes+`.then(s => skiffTest.call("tool.decide", {sessionId: s.id, messageId: s.messages.at(-1).id, decision: "deny_once"}))`)
	WaitJS(t, panel, keptSes+`.then(s => s.messages?.at(-1)?.content === "Done.")`)
	read := JS[string](t, panel, `chrome.storage.session.get("private/session/`+priv+`").then(v => v["private/session/`+priv+`"])`)
	if !strings.Contains(read, "snapshot") || !strings.Contains(read, "Counters") {
		t.Errorf("the private chat does not hold its run: %s", read)
	}
	audit := JS[string](t, panel, `skiffTest.call("permission.list", {private: true}).then(r => JSON.stringify(r.audit.filter(a => a.private)))`)
	if !strings.Contains(audit, "snapshot") {
		t.Errorf("an incognito panel's audit log does not show the private chat's call while its window is open: %s", audit)
	}
	if audit := JS[string](t, panel, `skiffTest.call("permission.list").then(r => JSON.stringify(r.audit))`); strings.Contains(audit, `"private":true`) {
		t.Errorf("the audit log of a panel outside incognito windows shows the private chat's calls: %s", audit)
	}
	if f := JS[string](t, panel, `skiffTest.call("audit.export").then(f => f.text)`); strings.Contains(f, `"private": true`) || strings.Contains(f, secret) {
		t.Errorf("the audit log exported outside incognito windows holds the private chat's calls")
	}
	// Not one byte of it on disk.
	// (The site is in the policies: the user allowed it by name, from a window that is not incognito.)
	disk := JS[string](t, panel, `chrome.storage.local.get(null).then(v => { delete v.policies; return JSON.stringify(v); })`)
	for _, leak := range []string{secret, site.URL, strings.TrimPrefix(site.URL, "http://"), "private-", "Counters"} {
		if strings.Contains(disk, leak) {
			t.Errorf("the storage on disk holds %q", leak)
		}
	}
	// Listed in the incognito panel only.
	if l := JS[string](t, panel, `skiffTest.call("session.list", {private: false}).then(l => l.map(m => m.id).join(" "))`); l != kept {
		t.Errorf("a panel of a window that is not incognito lists %q", l)
	}
	if l := JS[string](t, panel, `skiffTest.call("session.list", {private: true}).then(l => l.map(m => m.id).join(" "))`); l != priv+" "+onPage {
		t.Errorf("an incognito panel lists %q", l)
	}
	if h := JS[string](t, panel, `skiffTest.call("session.search", {query: "`+secret+`", private: false}).then(l => JSON.stringify(l))`); h != "[]" {
		t.Errorf("a search in a kept panel finds the private chat: %s", h)
	}

	if backup := JS[string](t, panel, `skiffTest.call("session.export", {format: "json"}).then(f => f.text)`); strings.Contains(backup, secret) || !strings.Contains(backup, kept) {
		t.Errorf("a backup holds the private chat, or not the kept one")
	}

	// The last incognito window closes: nothing of the chat is left.
	JS[bool](t, panel, fmt.Sprintf(`chrome.windows.remove(%v).then(() => true)`, win))
	WaitJS(t, panel, `chrome.storage.session.get(null).then(v => !Object.keys(v).some(k => k.startsWith("private/")))`)
	if l := JS[string](t, panel, `skiffTest.call("session.list", {private: true}).then(l => JSON.stringify(l))`); l != "[]" {
		t.Errorf("after the incognito window closed, the private chats are %s", l)
	}
	if audit := JS[string](t, panel, `skiffTest.call("permission.list").then(r => JSON.stringify(r.audit))`); strings.Contains(audit, site.URL) {
		t.Errorf("after the incognito window closed, the audit log holds its call: %s", audit)
	}
	if l := JS[string](t, panel, `skiffTest.call("session.list", {private: false}).then(l => l.map(m => m.id).join(" "))`); l != kept {
		t.Errorf("the kept chats are %q", l)
	}
	if p := JS[string](t, panel, `skiffTest.call("permission.list").then(r => JSON.stringify(r.policies))`); strings.Contains(p, "private") || !strings.Contains(p, site.URL) {
		t.Errorf("after the incognito window closed, the policies are %s", p)
	}
}
