package store

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Hit is a session that matches a search, with the text around the first match in its
// messages (empty when only the title matched).
type Hit struct {
	Meta
	Snippet string `json:"snippet,omitempty"`
}

// Search returns the sessions whose title or messages contain every word of query, ignoring
// case, most recently updated first. It reads all sessions in one storage call.
func (s *Store) Search(ctx context.Context, query string) ([]Hit, error) {
	words := strings.Fields(strings.ToLower(query))
	idx, err := s.Sessions(ctx)
	if err != nil || len(words) == 0 {
		hits := make([]Hit, len(idx))
		for i, m := range idx {
			hits[i] = Hit{Meta: m}
		}
		return hits, err
	}
	keys := make([]string, len(idx))
	for i, m := range idx {
		keys[i] = sessionKey(m.ID)
	}
	got, err := s.kv.Get(ctx, keys...)
	if err != nil {
		return nil, err
	}
	hits := []Hit{}
	for _, m := range idx {
		var ses Session
		if b, ok := got[sessionKey(m.ID)]; ok {
			_ = json.Unmarshal(b, &ses) // a corrupt session still matches by title
		}
		texts := make([]string, 0, len(ses.Messages)+1)
		texts = append(texts, strings.ToLower(m.Title))
		for _, msg := range ses.Messages {
			texts = append(texts, strings.ToLower(msg.Content))
		}
		all := true
		for _, w := range words {
			found := false
			for _, t := range texts {
				if strings.Contains(t, w) {
					found = true
					break
				}
			}
			if !found {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		h := Hit{Meta: m}
		for _, msg := range ses.Messages {
			if i := strings.Index(strings.ToLower(msg.Content), words[0]); i >= 0 {
				h.Snippet = snippet(msg.Content, i, len(words[0]))
				break
			}
		}
		hits = append(hits, h)
	}
	return hits, nil
}

// snippet returns about 40 bytes either side of s[i:i+n], on rune boundaries, on one line.
// (strings.ToLower keeps byte offsets for the text people search; where it does not, the
// snippet is merely off by a few characters.)
func snippet(s string, i, n int) string {
	i = min(i, len(s))
	from, to := max(i-40, 0), min(i+n+40, len(s))
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	out := oneLine(s[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(s) {
		out += "…"
	}
	return out
}
