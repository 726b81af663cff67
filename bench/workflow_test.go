//go:build !js

package bench

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// formFields are long-form.html's fields, in order.
var formFields = []string{"First name", "Last name", "Email", "Phone", "Street", "City", "Postcode", "Country"}

// value is what run who types into field f (an email field takes an address: the form checks it).
func value(who, f string) string {
	if f == "Email" {
		return strings.ReplaceAll(who, " ", ".") + "@example.com"
	}
	return who + " " + f
}

// refOf is the ref of the element a snapshot line names as what (`textbox "City"`).
func refOf(c *testkit.Conversation, what string) string {
	re := regexp.MustCompile(regexp.QuoteMeta(what) + `[^\n\[]*\[(e\d+)\]`)
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if m := c.Messages[i]; m.Role == "tool" && m.Name == "snapshot" {
			if g := re.FindStringSubmatch(m.Text); g != nil {
				return g[1]
			}
		}
	}
	return "e0"
}

// BenchmarkWorkflowReplay: a 10-step task (load a form, type into its 8 fields, send it) done by
// a scripted agent, one call per turn as agents work, answering at once (the fastest a model
// can be: a real one adds its own latency to each of the 11 turns), against the workflow saved
// from that run, replayed with other values and no model. Same browser, same page, the same
// permissions (the site allowed), alternating, 5 runs each.
func BenchmarkWorkflowReplay(b *testing.B) {
	site := testkit.NewSite(b)
	page := site.Page("long-form.html")
	// SKIFF_BENCH_MODEL_MS=N has the scripted model take N ms before it answers each turn (a
	// model's own time; the measure is with none): what a replay saves a user whose
	// model is not instant.
	think, _ := strconv.Atoi(os.Getenv("SKIFF_BENCH_MODEL_MS"))
	model := testkit.NewModel(b, func(c *testkit.Conversation) testkit.Turn {
		time.Sleep(time.Duration(think) * time.Millisecond)
		s := c.Steps()
		switch {
		case s == 0:
			return testkit.Turn{Calls: []testkit.Call{{Name: "navigate", Args: map[string]any{"url": page}}}}
		case s == 1:
			return testkit.Turn{Calls: []testkit.Call{{Name: "snapshot", Args: map[string]any{}}}}
		case s < 2+len(formFields):
			f := formFields[s-2]
			return testkit.Turn{Calls: []testkit.Call{{Name: "type", Args: map[string]any{"ref": refOf(c, `textbox "`+f+`"`), "text": value("model", f)}}}}
		case s == 2+len(formFields):
			return testkit.Turn{Calls: []testkit.Call{{Name: "click", Args: map[string]any{"ref": refOf(c, `button "Send address"`)}}}}
		}
		return testkit.Turn{Text: "Done."}
	})
	_, tab, stop := benchPanel(b, "openai", model.URL, "sk-bench", "gpt-test")
	defer stop()
	e2e.JS[any](b, tab, fmt.Sprintf(`skiffTest.call("permission.set", {tool: "*", origin: %q, decision: "allow_always"})`, site.URL))
	e2e.JS[any](b, tab, fmt.Sprintf(`chrome.tabs.create({url: %q, active: true}).then(() => true)`, page))

	// done waits until the chat's stored state shows its run is over and returns the ms since
	// t0. It listens to the storage, as the state is written, rather than asking the worker
	// (a request every few ms would take the worker's time from the run it times).
	// done waits until the chat's stored state shows its run is over and returns the ms since t0.
	const done = `(id, t0, over) => (` + untilStored + `)(id, over).then(() => performance.now() - t0)`
	agentRun := func() (float64, string) {
		v := e2e.JS[[]any](b, tab, `(async () => {
			const win = (await chrome.windows.getCurrent()).id;
			const t0 = performance.now();
			const r = await skiffTest.call("chat.send", {text: "Fill in the delivery address and send it.", agent: true, windowId: win});
			const ms = await (`+done+`)(r.sessionId, t0, (s) => { const m = s.messages.at(-1); return m.role === "assistant" && m.status !== "streaming" && m.content === "Done."; });
			return [ms, r.sessionId];
		})()`)
		return v[0].(float64), v[1].(string)
	}
	// forms is how many forms the site got, once the last one sent has arrived (a click's POST
	// lands after the call that made it).
	forms := func(want int) int {
		for end := time.Now().Add(5 * time.Second); len(site.Forms()) < want && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
		return len(site.Forms())
	}
	ms, chat := agentRun()
	if forms(1) != 1 {
		b.Fatalf("the agent's run sent %d forms: %s", forms(1), e2e.JS[string](b, tab, fmt.Sprintf(`skiffTest.call("session.open", {sessionId: %q}).then(s => s.messages.map(m => m.role + ": " + (m.tool ? m.tool.name + " " + JSON.stringify(m.tool.args) + " " : "") + (m.status || "") + " " + String(m.content).slice(0, 200)).join("\n"))`, chat)))
	}
	id := e2e.JS[string](b, tab, fmt.Sprintf(`(`+saveWorkflow+`)(%q, "Delivery address").then((w) => w.id)`, chat))
	replay := func(k int) float64 {
		values := []string{}
		for _, f := range formFields {
			values = append(values, fmt.Sprintf("%q: %q", strings.ToLower(strings.ReplaceAll(f, " ", "_")), value(fmt.Sprintf("replay %d", k), f)))
		}
		return e2e.JS[float64](b, tab, `(async () => {
			const win = (await chrome.windows.getCurrent()).id;
			const t0 = performance.now();
			const r = await skiffTest.call("workflow.run", {id: `+fmt.Sprintf("%q", id)+`, values: {`+strings.Join(values, ", ")+`}, windowId: win});
			return (`+done+`)(r.sessionId, t0, (s) => s.workflow && (s.workflow.done || !!s.workflow.stop));
		})()`)
	}
	agent, replays := []float64{ms}, []float64{}
	calls := len(model.Conversations())
	replayCalls := 0 // model calls made while a replay ran
	for k := range 5 {
		n := len(model.Conversations())
		replays = append(replays, replay(k))
		replayCalls += len(model.Conversations()) - n
		if k < 4 {
			ms, _ := agentRun()
			agent = append(agent, ms)
		}
	}
	if forms(10) != 10 {
		b.Fatalf("%d forms sent (want 10): a replay stopped", forms(10))
	}
	last := site.Forms()[len(site.Forms())-1]
	if last.Get("city") != "replay 4 City" {
		b.Fatalf("the last replay sent %v", last)
	}
	// SKIFF_BENCH_STEPS=1 prints each call of the last agent chat and the last replay: its tool,
	// how long it ran, and when it started (ms from the chat's start): where the time goes.
	if os.Getenv("SKIFF_BENCH_STEPS") != "" {
		fmt.Println(e2e.JS[string](b, tab, `skiffTest.call("session.list").then(async (l) => { const out = []; for (const m of l.slice(0, 2)) { const s = await skiffTest.call("session.open", {sessionId: m.id}); out.push(s.title + ": " + s.messages.filter(x => x.tool).map(x => x.tool.name + "=" + x.tool.durationMs + "/" + (x.createdAt - s.messages[0].createdAt)).join(" ")); } return out.join("\n"); })`))
	}
	for range b.N {
	}
	b.ReportMetric(pct(agent, .5), "agent-ms")
	b.ReportMetric(pct(replays, .5), "replay-ms")
	b.ReportMetric(pct(replays, .5)/pct(agent, .5), "ratio")
	b.ReportMetric(float64(calls), "agent-model-calls")
	b.ReportMetric(float64(replayCalls)/float64(len(replays)), "replay-model-calls")
	b.ReportMetric(float64(think), "model-ms-per-turn")
	fmt.Printf("10-step task, agent (model taking %d ms a turn, %d model calls): %v ms; replay (%d model calls in %d replays): %v ms\n", think, calls, rounded(agent), replayCalls, len(replays), rounded(replays))
}
