package store

import (
	"context"
	"sort"
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
// case, most recently updated first (all of them for an empty query). It reads all sessions in
// one storage call.
func (s *Store) Search(ctx context.Context, query string) ([]Hit, error) {
	words := strings.Fields(strings.ToLower(query))
	all, err := s.AllSessions(ctx)
	if err != nil {
		return nil, err
	}
	hits := []Hit{}
	for _, ses := range all {
		texts := make([]string, 0, len(ses.Messages)+1)
		texts = append(texts, strings.ToLower(ses.Title))
		for _, msg := range ses.Messages {
			texts = append(texts, strings.ToLower(msg.Content))
		}
		if !containsAll(texts, words) {
			continue
		}
		h := Hit{Meta: ses.Meta()}
		for i, msg := range ses.Messages {
			if len(words) == 0 {
				break
			}
			if j := strings.Index(texts[i+1], words[0]); j >= 0 {
				h.Snippet = snippet(msg.Content, j, len(words[0]))
				break
			}
		}
		hits = append(hits, h)
	}
	pinned, _ := s.pins(ctx)
	for i := range hits {
		hits[i].Pinned = pinned[hits[i].ID]
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Pinned && !hits[j].Pinned })
	return hits, nil
}

// containsAll reports whether every word is in at least one of texts.
func containsAll(texts, words []string) bool {
	for _, w := range words {
		found := false
		for _, t := range texts {
			if strings.Contains(t, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
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
