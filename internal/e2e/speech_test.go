//go:build !js

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// spokenReply is a reply with what a listener hears (paragraphs, a list, a table) and what
// they should not (a code block), and a paragraph longer than one utterance.
const spokenReply = "# Two ways\n\nWasm runs in the browser. It also runs outside it.\n\n" +
	"- Wasmtime\n- Wasmer\n\n```sh\nwasmtime hello.wasm --invoke main\n```\n\n| Runtime | JS |\n|---|---|\n| Browser | yes |\n\n" +
	"A long paragraph goes on, with one clause after another, so that it is longer than what the browser's voices read in one utterance before some of them stop, which is about fifteen seconds of speech; it is cut at its sentences. And it ends here."

// speechWatched replaces the browser's voice with a record of it (headless Chromium has none):
// said are the texts given to it, queue the utterances not yet over, cancels how often it was
// told to stop (each stop ends the queued utterances as the browser does, "interrupted").
const speechWatched = `(() => {
	window.said = []; window.queue = []; window.cancels = 0;
	speechSynthesis.speak = (u) => { said.push(u.text); queue.push(u); };
	speechSynthesis.cancel = () => { cancels++; for (const u of queue.splice(0)) u.onerror && u.onerror({error: "interrupted"}); };
	return true;
})()`

// replyToRead opens a chat whose reply is spokenReply.
func replyToRead(t *testing.T) context.Context {
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: spokenReply} })
	tab := browser.Panel(t)
	Configure(t, tab, "openai", m.URL, "sk-test", "gpt-test")
	SendMessage(t, tab, "Where does wasm run?")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && `+lastAssistant+`.querySelector(".speak-msg")`)
	return tab
}

// A reply is read aloud by the browser's voice as its parts a listener follows (no code, no
// buttons, a long paragraph in short utterances, in the reply's language), the button says
// Stop reading while it reads and Read aloud again when it ends or is stopped. The browser's
// speechSynthesis is watched here (it has no voice in headless Chromium): what reaches it is
// what the panel asked it to say.
func TestAReplyIsReadAloudAndStops(t *testing.T) {
	tab := replyToRead(t)
	JS[bool](t, tab, `(() => {
		window.said = []; window.cancels = 0;
		speechSynthesis.speak = (u) => said.push(u);
		speechSynthesis.cancel = () => { cancels++; for (const u of said.splice(0)) u.onerror && u.onerror({error: "interrupted"}); };
		return true;
	})()`)
	speakBtn := `#messages .msg[data-role="assistant"] .speak-msg`
	Do(t, tab, chromedp.Click(speakBtn))
	WaitJS(t, tab, `said.length > 0 && document.querySelector('`+speakBtn+`').textContent === "Stop reading"`)
	parts := JS[[]string](t, tab, `said.map(u => u.text)`)
	all := strings.Join(parts, "|")
	for _, want := range []string{"Two ways", "Wasm runs in the browser. It also runs outside it.", "Wasmtime", "Wasmer", "Runtime, JS", "Browser, yes", "And it ends here."} {
		if !strings.Contains(all, want) {
			t.Errorf("%q is not read: %q", want, parts)
		}
	}
	if strings.Contains(all, "wasmtime hello.wasm") || strings.Contains(all, "Copy") {
		t.Errorf("code or a button is read: %q", parts)
	}
	if langs := JS[[]string](t, tab, `[...new Set(said.map(u => u.lang))]`); len(langs) != 1 || langs[0] != "en" {
		t.Errorf("the voice's language: %q (the reply is English)", langs)
	}
	for _, p := range parts {
		if len(p) > 220 {
			t.Errorf("an utterance of %d characters: %q", len(p), p)
		}
	}
	if got := JS[string](t, tab, `document.querySelector('`+speakBtn+`').getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("aria-pressed while reading: %q", got)
	}
	// The voice reads the last part to its end: the button is Read aloud again.
	JS[bool](t, tab, `(said.at(-1).onend(), true)`)
	WaitJS(t, tab, `document.querySelector('`+speakBtn+`').textContent === "Read aloud"`)

	// Read again, then stopped from its button: the browser is told to stop.
	Do(t, tab, chromedp.Click(speakBtn))
	WaitJS(t, tab, `document.querySelector('`+speakBtn+`').textContent === "Stop reading"`)
	before := JS[int](t, tab, `cancels`)
	Do(t, tab, chromedp.Click(speakBtn))
	WaitJS(t, tab, `document.querySelector('`+speakBtn+`').textContent === "Read aloud"`)
	if JS[int](t, tab, `cancels`) <= before {
		t.Error("Stop reading did not stop the browser's voice")
	}
	if b := JS[string](t, tab, `document.getElementById("banner").textContent`); b != "" {
		t.Errorf("banner after a stop: %q", b)
	}

	// Another chat on screen: what was read is stopped.
	Do(t, tab, chromedp.Click(speakBtn))
	WaitJS(t, tab, `document.querySelector('`+speakBtn+`').textContent === "Stop reading"`)
	before = JS[int](t, tab, `cancels`)
	NewChat(t, tab)
	WaitJS(t, tab, fmt.Sprintf(`cancels > %d`, before))
}

// Where the browser has no voice (headless Chromium, a Linux without a speech service), the
// user is told so in a sentence, and the reply's button is Read aloud again.
func TestAReplyWithoutAVoiceSaysSo(t *testing.T) {
	tab := replyToRead(t)
	if JS[int](t, tab, `speechSynthesis.getVoices().length`) > 0 {
		t.Skip("this browser has voices: it reads the reply")
	}
	speakBtn := `#messages .msg[data-role="assistant"] .speak-msg`
	Do(t, tab, chromedp.Click(speakBtn))
	WaitJS(t, tab, `document.getElementById("banner").textContent.includes("this computer has no voice it can use")`)
	WaitJS(t, tab, `document.querySelector('`+speakBtn+`').textContent === "Read aloud"`)
	if n := len(messages(t, tab)); n != 2 {
		t.Errorf("the chat has %d messages after a failed reading", n)
	}
}

// Settings › Read aloud: the speed chosen reaches every utterance; a voice saved on another
// computer (or removed since) is kept, said to be missing, and the reply's language picks the
// voice meanwhile. Headless Chromium has no voice, which the form says.
func TestReadAloudTakesTheSpeedAndVoiceChosen(t *testing.T) {
	tab := replyToRead(t)
	defer JS[bool](t, tab, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, speech: {}}, keys: {}})).then(() => true)`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `document.querySelectorAll("#speechRate option").length === 6`)
	if got := JS[string](t, tab, `[...document.querySelectorAll("#speechRate option")].map(o => o.textContent).join(" ")`); got != "0.75× Normal 1.25× 1.5× 1.75× 2×" {
		t.Errorf("the speeds offered: %q", got)
	}
	if JS[int](t, tab, `speechSynthesis.getVoices().length`) == 0 {
		if got := JS[string](t, tab, `document.getElementById("speech-note").textContent`); !strings.HasPrefix(got, "This computer offers Chrome no voice") {
			t.Errorf("the note without voices: %q", got)
		}
	}
	Do(t, tab, chromedp.SetValue("#speechRate", "1.5"))
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("settings-status").textContent === "Saved."`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
	JS[bool](t, tab, `(() => { window.said = []; speechSynthesis.speak = (u) => said.push(u); speechSynthesis.cancel = () => {}; return true })()`)
	speakBtn := `#messages .msg[data-role="assistant"] .speak-msg`
	Do(t, tab, chromedp.Click(speakBtn))
	WaitJS(t, tab, `said.length > 3`)
	if rates := JS[[]float64](t, tab, `[...new Set(said.map(u => u.rate))]`); len(rates) != 1 || rates[0] != 1.5 {
		t.Errorf("the utterances' rates: %v", rates)
	}
	JS[bool](t, tab, `(said.at(-1).onend(), true)`)
	WaitJS(t, tab, `document.querySelector('`+speakBtn+`').textContent === "Read aloud"`)

	// A voice this computer does not have: kept in the form, said to be missing; the reply's
	// language chooses meanwhile.
	JS[bool](t, tab, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, speech: {voice: "Missing Voice", rate: 1.5}}, keys: {}})).then(s => (skiffTest.state.settings = s, true))`)
	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `document.getElementById("speechVoice").value === "Missing Voice"`)
	if got := JS[string](t, tab, `document.getElementById("speech-note").textContent`); got != "The voice chosen before, Missing Voice, is not on this computer: the automatic one reads." {
		t.Errorf("the note on a missing voice: %q", got)
	}
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("settings-status").textContent === "Saved."`)
	if got := JS[string](t, tab, `skiffTest.call("core.hello").then(st => st.settings.speech.voice + " " + st.settings.speech.rate)`); got != "Missing Voice 1.5" {
		t.Errorf("saving the form again stored %q", got)
	}
	Do(t, tab, chromedp.Click("#settings-toggle"))
	JS[bool](t, tab, `(said.length = 0, true)`)
	Do(t, tab, chromedp.Click(speakBtn))
	WaitJS(t, tab, `said.length > 3`)
	if got := JS[string](t, tab, `[...new Set(said.map(u => (u.voice ? u.voice.name : "none") + " " + u.lang))].join()`); got != "none en" {
		t.Errorf("with a missing voice, the utterances have %q", got)
	}
}

// Settings › Read aloud › Read replies aloud as they come: a reply to a message sent from the
// panel is read while it streams, each paragraph once it is finished, and what is left when it
// ends, each line once and in order; the reply's button says Stop reading meanwhile. Stop
// ends the reading with the reply. With the box unticked nothing is read by itself.
func TestRepliesAreReadAsTheyCome(t *testing.T) {
	const first, second, third = "Wasm runs in the browser.", "It also runs on servers, where a runtime such as Wasmtime loads it.", "That is all."
	holds := map[string]chan struct{}{"two": make(chan struct{}), "three": make(chan struct{}), "five": make(chan struct{})}
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		said := strings.TrimSpace(c.Last().Text)
		if said == "five" { // one paragraph, held before its end
			return testkit.Turn{Text: "Wasm runs in the browser, and it also runs on servers where a runtime loads it.", Hold: holds[said]}
		}
		return testkit.Turn{Text: first + "\n\n" + second + "\n\n" + third, Hold: holds[said]}
	})
	released := map[string]bool{}
	release := func(k string) {
		if !released[k] {
			released[k] = true
			close(holds[k])
		}
	}
	t.Cleanup(func() { release("two"); release("three"); release("five") }) // a failed test lets its replies end
	tab := browser.Panel(t)
	defer JS[bool](t, tab, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, speech: {}, streaming: true}, keys: {}})).then(() => true)`)
	Configure(t, tab, "openai", m.URL, "sk-test", "gpt-test")
	JS[bool](t, tab, speechWatched)
	SendMessage(t, tab, "one")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	if said := JS[[]string](t, tab, `said`); len(said) != 0 {
		t.Errorf("read by itself with the box unticked: %q", said)
	}

	Do(t, tab, chromedp.Click("#settings-toggle"))
	WaitJS(t, tab, `!document.getElementById("speech").hidden`)
	Do(t, tab, chromedp.Click("#speechAsItComes"))
	Do(t, tab, chromedp.Click("#save"))
	WaitJS(t, tab, `document.getElementById("settings-status").textContent === "Saved."`)
	Do(t, tab, chromedp.Click("#settings-toggle"))

	// The first paragraph is read while the reply is still being written.
	SendMessage(t, tab, "two")
	WaitJS(t, tab, `said.length === 1`)
	if got := JS[[]string](t, tab, `said`); got[0] != first {
		t.Errorf("read first: %q", got)
	}
	if s := JS[string](t, tab, lastAssistant+`.dataset.status`); s != "streaming" {
		t.Errorf("the reply is %q while its first paragraph is read", s)
	}
	release("two")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && said.length === 3`)
	if got := JS[[]string](t, tab, `said`); strings.Join(got, "|") != first+"|"+second+"|"+third {
		t.Errorf("read: %q", got)
	}
	if got := JS[string](t, tab, `queue.at(-1).lang`); got != "en" {
		t.Errorf("the voice's language: %q", got)
	}
	WaitJS(t, tab, lastAssistant+`.querySelector(".speak-msg")?.textContent === "Stop reading"`)
	JS[bool](t, tab, `(queue.splice(0).forEach((u) => u.onend()), true)`)
	WaitJS(t, tab, lastAssistant+`.querySelector(".speak-msg")?.textContent === "Read aloud"`)

	// Stopped while it is written: the reading stops with it, and nothing more is read.
	JS[bool](t, tab, speechWatched)
	SendMessage(t, tab, "three")
	WaitJS(t, tab, `said.length === 1`)
	before := JS[int](t, tab, `cancels`)
	Do(t, tab, chromedp.Click("#stop"))
	WaitJS(t, tab, fmt.Sprintf(`%s?.dataset.status === "stopped" && cancels > %d`, lastAssistant, before))
	release("three")
	if got := JS[[]string](t, tab, `said`); len(got) != 1 {
		t.Errorf("read after Stop: %q", got)
	}
	if b := JS[string](t, tab, `document.getElementById("banner").textContent`); b != "" {
		t.Errorf("banner: %q", b)
	}

	// A reply still being read when the next one is written, whose first paragraph is not
	// finished yet: Stop stops the reading of the one before too.
	JS[bool](t, tab, speechWatched)
	SendMessage(t, tab, "four")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && said.length === 3`)
	Do(t, tab, chromedp.SendKeys("#input", "five"+kb.Enter)) // in the same chat
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "streaming" && `+lastAssistant+`.textContent.includes("Wasm runs")`)
	before = JS[int](t, tab, `cancels`)
	Do(t, tab, chromedp.Click("#stop"))
	WaitJS(t, tab, fmt.Sprintf(`%s?.dataset.status === "stopped" && cancels > %d`, lastAssistant, before))
	WaitJS(t, tab, `[...document.querySelectorAll(".speak-msg")].every((b) => b.textContent === "Read aloud")`)
	release("five")
	if got := JS[[]string](t, tab, `said`); len(got) != 3 {
		t.Errorf("read after Stop: %q", got)
	}

	// With streaming off, a reply is read whole when it ends.
	JS[bool](t, tab, `skiffTest.call("core.hello").then(st => skiffTest.call("settings.save", {settings: {...st.settings, streaming: false}, keys: {}})).then(() => true)`)
	JS[bool](t, tab, speechWatched)
	SendMessage(t, tab, "six")
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done" && said.length > 0`)
	if got := JS[[]string](t, tab, `said`); strings.Join(strings.Fields(strings.Join(got, " ")), " ") != first+" "+second+" "+third {
		t.Errorf("a reply that did not stream was read as %q", got)
	}
	JS[bool](t, tab, `(queue.splice(0).forEach((u) => u.onend()), true)`)
	WaitJS(t, tab, lastAssistant+`.querySelector(".speak-msg")?.textContent === "Read aloud"`)

	// The replies of one agent run are read one after the other: a reply read as it comes
	// does not cut off the one before it (which ends nothing any more), and Stop reading stops
	// both.
	got := JS[string](t, tab, `import(new URL("speech.js", location.href)).then(async (m) => {
		said.length = 0; const c0 = cancels; const ends = [];
		const en = async () => "en";
		const a = m.reader("a", (e) => ends.push("a" + e), {}, en);
		a.add("One.");
		const b = m.reader("b", (e) => ends.push("b" + e), {}, en, true);
		a.add("Two."); a.finish(); b.add("Three.");
		await new Promise((r) => setTimeout(r, 0));
		const first = said.join(" ") + " / cancels " + (cancels - c0) + " / " + ends.join();
		m.stopSpeaking(); a.add("Four."); b.add("Five.");
		await new Promise((r) => setTimeout(r, 0));
		const second = said.join(" ") + " / cancels " + (cancels - c0) + " / " + ends.join();
		// A text the browser refuses ends its reader, in words; the next reader still reads.
		const speak = speechSynthesis.speak;
		speechSynthesis.speak = () => { throw new Error("refused"); };
		const c = m.reader("c", (e) => ends.push("c:" + e), {}, en);
		c.add("Six."); c.finish();
		await new Promise((r) => setTimeout(r, 0));
		speechSynthesis.speak = speak;
		m.reader("d", () => {}, {}, en).add("Seven.");
		await new Promise((r) => setTimeout(r, 0));
		return first + " // " + second + " // " + said.at(-1) + " / " + ends.join();
	})`)
	if want := "One. Two. Three. / cancels 0 / a // One. Two. Three. / cancels 1 / a,b // Seven. / a,b,c:failed"; got != want {
		t.Errorf("two replies read as they come: %q, want %q", got, want)
	}
}
