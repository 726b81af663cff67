//go:build !js

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// BenchmarkWorkflowSweep records a workflow on every real page of testdata (Readability's test
// pages, 130) and replays it there with other values and no model: the matcher finding what the
// agent acted on again, on pages no test was written for. On each page a scripted agent loads
// it, reads it, types into up to two of its text fields (clicking the first before, as models
// often do: a click the workflow drops), checks a checkbox and chooses in a list; the run is
// saved as a workflow and replayed at once with new values. It reports each page whose replay
// stopped (and why) or put a value in another field than the agent did (the fields compared by
// their place among the page's fields). It judges nothing: run it with
// `make sweep-workflows` (SKIFF_SWEEP=1); SKIFF_SWEEP_PAGES=a,b sweeps those pages only,
// SKIFF_SWEEP_OUT names a file for the report.
func BenchmarkWorkflowSweep(b *testing.B) {
	if os.Getenv("SKIFF_SWEEP") == "" {
		b.Skip("set SKIFF_SWEEP=1 (make sweep-workflows): it takes a few minutes")
	}
	base := testkit.Pages(b)
	names := testkit.AllPageNames(b)
	if only := os.Getenv("SKIFF_SWEEP_PAGES"); only != "" {
		names = strings.Split(only, ",")
	}
	field := regexp.MustCompile(`(?m)^[ -]*(textbox|searchbox)(?: "([^"\n]*)")? \[(e\d+)\]([^\n]*)`)
	box := regexp.MustCompile(`(?m)^[ -]*checkbox(?: "[^"\n]*")? \[(e\d+)\]`)
	list := regexp.MustCompile(`(?m)^[ -]*combobox(?: "[^"\n]*")? \[(e\d+)\][^\n]*options="[^"]*","([^"]*)"`)
	// acts is what the agent does on a page, from its snapshot: one call a turn.
	acts := func(snap string) []testkit.Call {
		var out []testkit.Call
		n := 0
		for _, m := range field.FindAllStringSubmatch(snap, -1) {
			if n == 2 {
				break
			}
			if strings.Contains(strings.ToLower(m[2]+m[4]), "password") || strings.Contains(m[4], "disabled") || strings.Contains(m[4], "readonly") {
				continue
			}
			if n == 0 {
				out = append(out, testkit.Call{Name: "click", Args: map[string]any{"ref": m[3]}})
			}
			out = append(out, testkit.Call{Name: "type", Args: map[string]any{"ref": m[3], "text": fmt.Sprintf("agent value %d", n)}})
			n++
		}
		if m := box.FindStringSubmatch(snap); m != nil {
			out = append(out, testkit.Call{Name: "click", Args: map[string]any{"ref": m[1]}})
		}
		if m := list.FindStringSubmatch(snap); m != nil {
			out = append(out, testkit.Call{Name: "select_option", Args: map[string]any{"ref": m[1], "values": []string{m[2]}}})
		}
		return out
	}
	var mu sync.Mutex
	var page string
	model := testkit.NewModel(b, func(c *testkit.Conversation) testkit.Turn {
		s := c.Steps()
		if s == 0 {
			mu.Lock()
			defer mu.Unlock()
			return testkit.Turn{Calls: []testkit.Call{{Name: "navigate", Args: map[string]any{"url": page}}}}
		}
		if s == 1 {
			return testkit.Turn{Calls: []testkit.Call{{Name: "snapshot", Args: map[string]any{}}}}
		}
		snap := ""
		for _, m := range c.Messages {
			if m.Role == "tool" && m.Name == "snapshot" {
				snap = m.Text
			}
		}
		if a := acts(snap); s-2 < len(a) {
			return testkit.Turn{Calls: []testkit.Call{a[s-2]}}
		}
		return testkit.Turn{Text: "Done."}
	})
	_, tab, stop := benchPanel(b, "openai", model.URL, "sk-bench", "gpt-test")
	defer stop()
	e2e.JS[any](b, tab, fmt.Sprintf(`skiffTest.call("permission.set", {tool: "*", origin: %q, decision: "allow_always"})`, base))
	e2e.JS[any](b, tab, `chrome.tabs.create({url: "about:blank", active: true}).then(() => true)`)

	// placed says where each value is on the window's active page: its place among the page's
	// text fields, or -1.
	placed := func(values []string) []int {
		raw := e2e.JS[string](b, tab, fmt.Sprintf(`(async () => {
			const [t] = await chrome.tabs.query({active: true, windowId: (await chrome.windows.getCurrent()).id});
			// (A page held by its dialog answers no script: bounded.)
			const r = await Promise.race([chrome.scripting.executeScript({target: {tabId: t.id}, args: [%s], func: (values) => {
				const fields = [...document.querySelectorAll("input, textarea, [contenteditable]")];
				return values.map((v) => fields.findIndex((f) => (f.value ?? f.textContent) === v));
			}}), new Promise((res) => setTimeout(() => res([{result: null}]), 5000))]);
			return JSON.stringify(r[0].result);
		})()`, mustJSON(values)))
		var at []int
		_ = json.Unmarshal([]byte(raw), &at)
		return at
	}
	report, say := sayer()
	recorded, replayed, stopped, misplaced, skipped := 0, 0, 0, 0, 0
	tools := map[string]int{} // the steps of the replays that ended, by tool
	for i, name := range names {
		mu.Lock()
		page = base + "/" + name + "/"
		mu.Unlock()
		fmt.Fprintf(os.Stderr, "\rworkflow sweep %d/%d %-50s", i+1, len(names), name)
		chat, ended := sweepAgent(b, tab, "Fill in what this page asks.")
		if !ended {
			say("  %-40s the agent's run did not end in 60 s\n", name)
			skipped++
			continue
		}
		// What the agent typed, and where it is on the page.
		typed := e2e.JS[[]any](b, tab, fmt.Sprintf(`skiffTest.call("session.open", {sessionId: %q}).then(s => s.messages.filter(m => m.tool && m.tool.name === "type" && m.status !== "error").map(m => m.tool.args.text))`, chat))
		if os.Getenv("SKIFF_SWEEP_DEBUG") != "" {
			fmt.Println(e2e.JS[string](b, tab, fmt.Sprintf(`skiffTest.call("session.open", {sessionId: %q}).then(s => s.messages.map(m => m.role + ": " + (m.tool ? m.tool.name + " " + JSON.stringify(m.tool.args) + " " : "") + (m.status || "") + " " + String(m.content).slice(0, 300)).join("\n"))`, chat)))
		}
		var values []string
		for _, t := range typed {
			values = append(values, t.(string))
		}
		before := placed(values)
		save := e2e.JS[string](b, tab, fmt.Sprintf(`(`+saveWorkflow+`)(%q, %q).then((w) => JSON.stringify(w), (e) => "error: " + e.message)`, chat, name))
		if strings.HasPrefix(save, "error: ") {
			say("  %-40s not saved: %s\n", name, strings.TrimPrefix(save, "error: "))
			skipped++
			continue
		}
		var w struct {
			ID     string
			Params []struct{ Name, Default string }
			Steps  []struct{ Tool string }
		}
		if err := json.Unmarshal([]byte(save), &w); err != nil {
			b.Fatalf("%s: %v (%s)", name, err, save)
		}
		recorded++
		// New values, in the order the agent typed them (a parameter's default is what it typed).
		vals := map[string]string{}
		var want []string
		for _, p := range w.Params {
			if strings.HasPrefix(p.Default, "agent value ") { // (a list's choice keeps its own)
				vals[p.Name] = "replay " + p.Default
			}
		}
		for _, t := range values {
			want = append(want, "replay "+t)
		}
		out := sweepReplay(b, tab, w.ID, vals)
		steps := []string{}
		for _, s := range w.Steps {
			steps = append(steps, s.Tool)
		}
		if out != "" {
			stopped++
			say("  %-40s %s (steps: %s)\n", name, out, strings.Join(steps, " "))
			continue
		}
		replayed++
		for _, s := range steps {
			tools[s]++
		}
		if after := placed(want); fmt.Sprint(after) != fmt.Sprint(before) {
			misplaced++
			say("  %-40s the agent's values were in fields %v, the replay's in %v (steps: %s)\n", name, before, after, strings.Join(steps, " "))
		}
	}
	fmt.Fprintln(os.Stderr)
	for range b.N {
	}
	head := fmt.Sprintf("workflow sweep of %d real pages: %d recorded, %d replayed to the end (their steps: %v), %d stopped, %d with a value in another field, %d not recorded\n", len(names), recorded, replayed, tools, stopped, misplaced, skipped)
	fmt.Print(head + report.String())
	b.ReportMetric(float64(stopped), "stopped")
	b.ReportMetric(float64(misplaced), "misplaced")
	if f := os.Getenv("SKIFF_SWEEP_OUT"); f != "" {
		if err := os.WriteFile(f, []byte(head+report.String()), 0o644); err != nil {
			b.Error(err)
		}
	}
}

// untilStored is a JS function (id, over) that resolves true once the stored state of chat id
// satisfies over. It listens to the storage as the state is written, rather than asking the
// worker (a request every few ms would take the worker's time from the run).
const untilStored = `(id, over) => new Promise((resolve) => {
	const key = "session/" + id;
	const check = (raw) => {
		if (raw === undefined) return;
		if (over(JSON.parse(raw))) {
			chrome.storage.local.onChanged.removeListener(changed);
			resolve(true);
		}
	};
	const changed = (ch) => { if (ch[key]) check(ch[key].newValue); };
	chrome.storage.local.onChanged.addListener(changed);
	chrome.storage.local.get(key).then((v) => check(v[key]));
})`

// saveWorkflow is a JS function (chat, name) that saves the chat's run as a workflow. The run's
// end is stored a moment before the run lets go of its chat (it hands back its tabs between),
// and a save asked in that moment is refused as "wait for the run to finish": asked again.
const saveWorkflow = `async (chat, name) => {
	for (let i = 0; ; i++) {
		try {
			return await skiffTest.call("workflow.save", {sessionId: chat, name});
		} catch (e) {
			if (i === 100 || !/Wait for the run to finish/.test(e.message)) throw e;
			await new Promise((r) => setTimeout(r, 20));
		}
	}
}`

func mustJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(raw)
}

// BenchmarkWorkflowLinkSweep records, on every real page of testdata, a workflow that follows
// one of its links, and replays it: the matcher finding the same link again among the page's
// hundreds, many of them named alike ("Share", "Read more", a footnote's "1"). A scripted agent
// loads the page, lists its links, and clicks one that stays on the test's server (a link
// elsewhere would need the network): one whose name other links with another address share
// when there is one, else one in the middle. It reports each page whose replay stopped, or
// ended at another address than the agent's. Run it with `make sweep-workflows`.
func BenchmarkWorkflowLinkSweep(b *testing.B) {
	if os.Getenv("SKIFF_SWEEP") == "" {
		b.Skip("set SKIFF_SWEEP=1 (make sweep-workflows): it takes a few minutes")
	}
	base := testkit.Pages(b)
	names := testkit.AllPageNames(b)
	if only := os.Getenv("SKIFF_SWEEP_PAGES"); only != "" {
		names = strings.Split(only, ",")
	}
	line := regexp.MustCompile(`(?m)^- \[(e\d+)\] ("(?:[^"\\]|\\.)*") (\S+)$`)
	// pick is the ref of the link the agent follows, from the links tool's answer ("" for none).
	pick := func(listed string) string {
		type link struct{ ref, name, href string }
		var here []link
		hrefs := map[string]map[string]bool{} // name → the addresses links so named lead to
		for _, m := range line.FindAllStringSubmatch(listed, -1) {
			var name string
			if json.Unmarshal([]byte(m[2]), &name) != nil || strings.TrimSpace(name) == "" || !strings.HasPrefix(m[3], base+"/") {
				continue
			}
			here = append(here, link{m[1], name, m[3]})
			if hrefs[name] == nil {
				hrefs[name] = map[string]bool{}
			}
			hrefs[name][m[3]] = true
		}
		var alike []link
		for _, l := range here {
			if len(hrefs[l.name]) > 1 {
				alike = append(alike, l)
			}
		}
		switch {
		case len(alike) > 0:
			return alike[len(alike)/2].ref
		case len(here) > 0:
			return here[len(here)/2].ref
		}
		return ""
	}
	var mu sync.Mutex
	var page string
	model := testkit.NewModel(b, func(c *testkit.Conversation) testkit.Turn {
		switch s := c.Steps(); s {
		case 0:
			mu.Lock()
			defer mu.Unlock()
			return testkit.Turn{Calls: []testkit.Call{{Name: "navigate", Args: map[string]any{"url": page}}}}
		case 1:
			return testkit.Turn{Calls: []testkit.Call{{Name: "links", Args: map[string]any{}}}}
		case 2:
			for _, m := range c.Messages {
				if m.Role == "tool" && m.Name == "links" {
					if ref := pick(m.Text); ref != "" {
						return testkit.Turn{Calls: []testkit.Call{{Name: "click", Args: map[string]any{"ref": ref}}}}
					}
				}
			}
		}
		return testkit.Turn{Text: "Done."}
	})
	_, tab, stop := benchPanel(b, "openai", model.URL, "sk-bench", "gpt-test")
	defer stop()
	e2e.JS[any](b, tab, fmt.Sprintf(`skiffTest.call("permission.set", {tool: "*", origin: %q, decision: "allow_always"})`, base))
	e2e.JS[any](b, tab, `chrome.tabs.create({url: "about:blank", active: true}).then(() => true)`)
	// at is the address of the window's active tab.
	at := func() string {
		return e2e.JS[string](b, tab, `(async () => (await chrome.tabs.query({active: true, windowId: (await chrome.windows.getCurrent()).id}))[0].url)()`)
	}
	report, say := sayer()
	recorded, replayed, stopped, elsewhere, skipped := 0, 0, 0, 0, 0
	for i, name := range names {
		mu.Lock()
		page = base + "/" + name + "/"
		mu.Unlock()
		fmt.Fprintf(os.Stderr, "\rworkflow link sweep %d/%d %-50s", i+1, len(names), name)
		chat, ended := sweepAgent(b, tab, "Follow a link of this page.")
		if !ended {
			say("  %-40s the agent's run did not end in 60 s\n", name)
			skipped++
			continue
		}
		clicked := e2e.JS[string](b, tab, fmt.Sprintf(`skiffTest.call("session.open", {sessionId: %q}).then(s => s.messages.filter(m => m.tool && m.tool.name === "click").map(m => (m.status || "ok") + " " + m.content).join(""))`, chat))
		if os.Getenv("SKIFF_SWEEP_DEBUG") != "" {
			fmt.Println(e2e.JS[string](b, tab, fmt.Sprintf(`skiffTest.call("session.open", {sessionId: %q}).then(s => s.messages.map(m => m.role + ": " + (m.tool ? m.tool.name + " " + JSON.stringify(m.tool.args) + " " : "") + (m.status || "") + " " + String(m.content).slice(0, 300)).join("\n"))`, chat)))
		}
		if !strings.HasPrefix(clicked, "ok ") {
			if clicked != "" {
				say("  %-40s the agent's click failed: %.200s\n", name, clicked)
			}
			skipped++ // (no link to the test's server: nothing to follow)
			continue
		}
		went := at()
		save := e2e.JS[string](b, tab, fmt.Sprintf(`(`+saveWorkflow+`)(%q, %q).then((w) => w.id, (e) => "error: " + e.message)`, chat, name))
		if strings.HasPrefix(save, "error: ") {
			say("  %-40s not saved: %s\n", name, strings.TrimPrefix(save, "error: "))
			skipped++
			continue
		}
		recorded++
		e2e.JS[any](b, tab, `(async () => { const [t] = await chrome.tabs.query({active: true, windowId: (await chrome.windows.getCurrent()).id}); await chrome.tabs.update(t.id, {url: "about:blank"}); return true; })()`)
		out := sweepReplay(b, tab, save, map[string]string{})
		if out != "" {
			stopped++
			say("  %-40s %s\n", name, out)
			continue
		}
		replayed++
		if now := at(); now != went {
			elsewhere++
			say("  %-40s the agent's click went to %s, the replay's to %s\n", name, went, now)
		}
	}
	fmt.Fprintln(os.Stderr)
	for range b.N {
	}
	head := fmt.Sprintf("workflow link sweep of %d real pages: %d recorded, %d replayed to the end, %d stopped, %d ended at another address, %d not recorded (no link to follow, or the agent's click failed)\n", len(names), recorded, replayed, stopped, elsewhere, skipped)
	fmt.Print(head + report.String())
	b.ReportMetric(float64(stopped), "stopped")
	b.ReportMetric(float64(elsewhere), "elsewhere")
	if f := os.Getenv("SKIFF_SWEEP_OUT"); f != "" {
		if err := os.WriteFile(strings.TrimSuffix(f, ".txt")+"-links.txt", []byte(head+report.String()), 0o644); err != nil {
			b.Error(err)
		}
	}
}

// sayer is a sweep's report, and say, which adds a line to it and shows it at once (a sweep
// cut short keeps what it found).
func sayer() (*strings.Builder, func(format string, args ...any)) {
	var report strings.Builder
	return &report, func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		report.WriteString(line)
		fmt.Fprint(os.Stderr, "\n"+line)
	}
}

// sweepAgent runs the sweep's scripted agent on task in the window's active tab: its chat, and
// whether its run ended (with "Done.", or an error) within a minute.
func sweepAgent(b *testing.B, tab context.Context, task string) (chat string, ended bool) {
	v := e2e.JS[[]any](b, tab, `(async () => {
		const win = (await chrome.windows.getCurrent()).id;
		const r = await skiffTest.call("chat.send", {text: `+mustJSON(task)+`, agent: true, windowId: win});
		const ok = await Promise.race([(`+untilStored+`)(r.sessionId, (s) => { const m = s.messages.at(-1); return m.role === "assistant" && (m.status === "error" || m.status !== "streaming" && m.content === "Done."); }), new Promise((res) => setTimeout(() => res(false), 60000))]);
		return [r.sessionId, ok];
	})()`)
	return v[0].(string), v[1] == true
}

// sweepReplay replays workflow id with values in the window: "" once it ran to its end, else
// how it stopped, or that it did not end within a minute.
func sweepReplay(b *testing.B, tab context.Context, id string, values map[string]string) string {
	return e2e.JS[string](b, tab, `(async () => {
		const win = (await chrome.windows.getCurrent()).id;
		const r = await skiffTest.call("workflow.run", {id: `+mustJSON(id)+`, values: `+mustJSON(values)+`, windowId: win});
		const ok = await Promise.race([(`+untilStored+`)(r.sessionId, (s) => s.workflow && (s.workflow.done || !!s.workflow.stop)), new Promise((res) => setTimeout(() => res(false), 60000))]);
		if (!ok) return "did not end in 60 s";
		const s = await skiffTest.call("session.open", {sessionId: r.sessionId});
		return s.workflow.done ? "" : "stopped: " + JSON.stringify(s.workflow.stop);
	})()`)
}
