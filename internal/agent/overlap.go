package agent

import "strings"

// Continue's join. A model told to write only what comes next after a cut reply often starts
// by writing the reply's last words again: those are left out, so the reply reads once. The
// start of what comes is held back until it is clear whether it repeats the end (a repeat is
// at least minOverlap bytes, at most maxOverlap), then given on as it comes. One that starts
// the whole reply over, word for word, is held while it writes it again, and only what it adds
// past the cut goes on.
const (
	minOverlap = 16
	maxOverlap = 400
)

type joiner struct {
	whole   string // the reply gone on from
	tail    string // its end
	pending string // what came and is held back
	done    bool   // decided: what comes goes on as it is
}

func newJoiner(base string) *joiner {
	return &joiner{whole: strings.TrimLeft(base, " \t\n"), tail: base[max(0, len(base)-maxOverlap):]}
}

// add takes text as it comes and returns what goes on the reply now ("" while it is held).
func (j *joiner) add(text string) string {
	if j.done {
		return text
	}
	j.pending += text
	return j.decide(false)
}

// end returns what is still held when the reply ends (a try that brought nothing leaves the
// next try to be joined as the first).
func (j *joiner) end() string {
	if j.done || j.pending == "" {
		return ""
	}
	return j.decide(true)
}

// decide gives what is held once it is clear: without the end of the reply it starts with
// again (the longest such end), or whole when it does not. While what is held could still grow
// into an end of the reply, it is held, unless last.
func (j *joiner) decide(last bool) string {
	p := strings.TrimLeft(j.pending, " \t\n")
	if p == "" && !last {
		return ""
	}
	if len(j.whole) > len(j.tail) {
		// The reply again from its start (a shorter one is all its own end, below).
		switch {
		case strings.HasPrefix(p, j.whole):
			j.done = true
			return p[len(j.whole):]
		case strings.HasPrefix(j.whole, p) && !last:
			return ""
		case strings.HasPrefix(j.whole, p) && len(p) >= minOverlap:
			j.done = true // it ended before the cut: it added nothing
			return ""
		}
	}
	full := ""
	for at := 0; at+minOverlap <= len(j.tail); at++ {
		end := j.tail[at:]
		if len(end) > len(p) && strings.HasPrefix(end, p) && !last && len(j.pending) < maxOverlap {
			return "" // it may yet be this end again: wait for more
		}
		if full == "" && strings.HasPrefix(p, end) {
			full = end
		}
	}
	j.done = true
	if full != "" {
		return p[len(full):]
	}
	return j.pending
}
