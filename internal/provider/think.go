package provider

import "strings"

// thinkTags reads what a model thinks out of the text of a reply that opens with <think> and
// says it after </think>: reasoning models served without a reasoning parser (DeepSeek-R1 and
// QwQ on Ollama, vLLM, LM Studio and some clouds' OpenAI-compatible endpoints) put their
// thoughts in the content that way. The thoughts go out as reasoning (shown folded, never sent
// back); a reply that does not open with the tag is text from its first character.
type thinkTags struct {
	state int // unknown (blank so far, or a start of the tag), thinking, or text
	held  string
	lead  bool // just past </think>: the blank lines before the answer are dropped
}

const (
	thinkUnknown = iota
	thinkInside
	thinkText
)

const openThink, closeThink = "<think>", "</think>"

// maxBlankLead is how much blank before <think> is held while it may still come.
const maxBlankLead = 4 << 10

func (t *thinkTags) add(s string, emit func(Event)) {
	switch t.state {
	case thinkText:
		t.text(s, emit)
	case thinkUnknown:
		t.held += s
		rest := strings.TrimLeft(t.held, " \t\r\n")
		switch {
		case strings.HasPrefix(rest, openThink):
			t.state, t.held = thinkInside, ""
			t.add(rest[len(openThink):], emit)
		case !strings.HasPrefix(openThink, rest) || len(t.held) > maxBlankLead:
			// Its first words, with the blank before them (a continued reply's first space
			// matters); a broken model that writes only newlines is text once it has written
			// more than any reply opens with.
			t.state = thinkText
			s, t.held = t.held, ""
			t.text(s, emit)
		}
	case thinkInside:
		s = t.held + s
		if i := strings.Index(s, closeThink); i >= 0 {
			t.state, t.held, t.lead = thinkText, "", true
			reason(s[:i], emit)
			t.text(s[i+len(closeThink):], emit)
			return
		}
		// What may be the start of </think> waits for the next part.
		keep := 0
		for k := min(len(s), len(closeThink)-1); k > 0; k-- {
			if strings.HasSuffix(s, closeThink[:k]) {
				keep = k
				break
			}
		}
		t.held = s[len(s)-keep:]
		reason(s[:len(s)-keep], emit)
	}
}

func (t *thinkTags) text(s string, emit func(Event)) {
	if t.lead {
		if s = strings.TrimLeft(s, " \t\r\n"); s == "" {
			return
		}
		t.lead = false
	}
	if s != "" {
		emit(Event{Kind: EventText, Text: s})
	}
}

// end gives what was held when the reply ends: a start of the tag that never came is text,
// thoughts cut off before </think> are thoughts.
func (t *thinkTags) end(emit func(Event)) {
	s := t.held
	t.held = ""
	if t.state == thinkInside {
		reason(s, emit)
	} else {
		t.text(s, emit)
	}
}

func reason(s string, emit func(Event)) {
	if s != "" {
		emit(Event{Kind: EventReasoning, Text: s})
	}
}

// UnopenedThoughts splits a reply whose thoughts were opened by the model's chat template,
// not by the model: DeepSeek-R1's distills, QwQ and others end their prompt with <think>, so
// they write their thoughts and only the closing tag (reported against vLLM, LocalAI,
// xinference and DeepSeek-R1 itself; DeepSeek's own parser splits on the closing tag alone).
// ok when reply holds "</think>" on a line of its own end (after a newline, or before one),
// outside code, with words before it and no <think> among them; the thoughts are the words
// before it, the rest what follows, without the blank lines that open it. A reply that speaks
// of the tag (in backticks, in a code block, mid-sentence) is not split.
func UnopenedThoughts(reply string) (thoughts, rest string, ok bool) {
	at := strings.Index(reply, closeThink)
	if at < 0 {
		return "", "", false
	}
	before, after := reply[:at], reply[at+len(closeThink):]
	lineStart := strings.HasSuffix(strings.TrimRight(before, " \t"), "\n")
	lineEnd := strings.HasPrefix(strings.TrimLeft(after, " \t"), "\n") || strings.HasPrefix(strings.TrimLeft(after, " \t"), "\r")
	switch {
	case !lineStart && !lineEnd,
		strings.HasSuffix(before, "`"),
		strings.Count(before, "```")%2 == 1,
		strings.Contains(before, openThink),
		strings.TrimSpace(before) == "":
		return "", "", false
	}
	return strings.TrimSpace(before), strings.TrimLeft(after, " \t\r\n"), true
}
