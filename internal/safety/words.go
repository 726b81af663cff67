package safety

import "strings"

// A small matcher of word sequences, instead of package regexp: regexp and the Unicode tables
// it pulls in add about half a megabyte to core.wasm, which every worker wake pays for.
//
// Text is cut into tokens: words (ASCII letters and digits, apostrophes, and any non-ASCII
// byte, lowercased) and single punctuation marks; a line break is a token of its own. A
// pattern is a sequence of steps; each step is a set of alternatives (a word, or words joined
// by "_" for a phrase), may be optional, and may skip up to gap tokens before it.

type token struct {
	s        string
	from, to int // byte offsets in the text
}

func tokenize(text string) []token {
	var out []token
	i := 0
	for i < len(text) {
		c := text[i]
		if p := punct(text[i:]); p > 0 {
			out = append(out, token{text[i : i+p], i, i + p})
			i += p
			continue
		}
		switch {
		case wordByte(c):
			j := i
			for j < len(text) && wordByte(text[j]) && punct(text[j:]) == 0 {
				j++
			}
			w := text[i:j]
			w = strings.ReplaceAll(w, "’", "'")
			out = append(out, token{lower(w), i, j})
			i = j
		case c == '\n':
			out = append(out, token{"\n", i, i + 1})
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		default:
			out = append(out, token{text[i : i+1], i, i + 1})
			i++
		}
	}
	return out
}

// Punctuation outside ASCII, which must not glue to the words it surrounds.
var wide = []string{"“", "”", "‘", "«", "»", "„", "–", "—", "…", "·", "•", "\u00a0", "：", "，", "。"}

// punct returns the length of the non-ASCII punctuation s starts with, or 0.
func punct(s string) int {
	if len(s) == 0 || s[0] < 0x80 {
		return 0
	}
	for _, w := range wide {
		if strings.HasPrefix(s, w) {
			return len(w)
		}
	}
	return 0
}

func stops(t string) bool { return t == "\n" || t == "." || t == "!" || t == "?" }

func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '\'' || c >= 0x80
}

func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// step is one position of a pattern.
type step struct {
	alts [][]string // each alternative is a sequence of tokens
	gap  int        // tokens that may come before it (after the previous step)
	opt  bool
	// line: the step must start a line (the first token, or one after a line break).
	line bool
}

// one is a step: alternatives separated by spaces, words of a phrase joined by "_".
func one(gap int, alts string) step {
	var s step
	s.gap = gap
	for _, a := range strings.Fields(alts) {
		s.alts = append(s.alts, strings.Split(a, "_"))
	}
	return s
}

// lineStart makes a step match only at the start of a line.
func lineStart(s step) step {
	s.line = true
	return s
}

// maybe is an optional step.
func maybe(gap int, alts string) step {
	s := one(gap, alts)
	s.opt = true
	return s
}

// pattern is a sequence of steps.
type pattern []step

// find returns the byte span of the first match of p in toks, or ok false.
func (p pattern) find(toks []token) (from, to int, ok bool) {
	for i := range toks {
		if p[0].line && i > 0 && toks[i-1].s != "\n" {
			continue
		}
		if end, ok := p.match(toks, 0, i, true); ok {
			return toks[i].from, toks[end-1].to, true
		}
	}
	return 0, 0, false
}

// match tries step k at token i (exactly at i when first, else within the step's gap) and
// returns the end of the whole match.
func (p pattern) match(toks []token, k, i int, first bool) (int, bool) {
	if k == len(p) {
		return i, true
	}
	s := p[k]
	gap := s.gap
	if first {
		gap = 0
	}
	for g := 0; g <= gap && i+g <= len(toks); g++ {
		at := i + g
		if g > 0 && stops(toks[at-1].s) {
			break // a step never reaches over a line break or the end of a sentence
		}
		if s.line && at > 0 && toks[at-1].s != "\n" {
			continue
		}
		for _, alt := range s.alts {
			if at+len(alt) > len(toks) {
				continue
			}
			hit := true
			for j, w := range alt {
				if toks[at+j].s != w {
					hit = false
					break
				}
			}
			if !hit {
				continue
			}
			if end, ok := p.match(toks, k+1, at+len(alt), false); ok {
				return end, true
			}
		}
	}
	if s.opt {
		return p.match(toks, k+1, i, first)
	}
	return 0, false
}
