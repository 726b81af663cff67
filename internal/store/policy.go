package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
)

// Policies returns the user's permission policies, newest first: the kept ones and those
// decided in incognito windows (kept in memory: Policy.Private).
func (s *Store) Policies(ctx context.Context) ([]permission.Policy, error) {
	var ps []permission.Policy
	err := s.bothLists(ctx, "policies", "the permissions", func(b []byte) error {
		var part []permission.Policy
		err := json.Unmarshal(b, &part)
		ps = append(ps, part...)
		return err
	})
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].UpdatedAt > ps[j].UpdatedAt })
	return ps, err
}

// SetPolicy adds a policy, replacing one with the same tool and origin patterns.
func (s *Store) SetPolicy(ctx context.Context, p permission.Policy) error {
	p, err := permission.Normalize(p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := s.Policies(ctx)
	if err != nil {
		return err
	}
	out := []permission.Policy{p}
	for _, q := range ps {
		// An incognito window's decision sits beside a kept one for the same patterns (which
		// holds again once the window closes), and never replaces it.
		if q.Tool != p.Tool || q.Origin != p.Origin || q.Private != p.Private {
			out = append(out, q)
		}
	}
	return s.setPolicies(ctx, out)
}

// setPolicies writes the policies, each where it is kept.
func (s *Store) setPolicies(ctx context.Context, ps []permission.Policy) error {
	kept, private := []permission.Policy{}, []permission.Policy{}
	for _, p := range ps {
		if p.Private {
			private = append(private, p)
		} else {
			kept = append(kept, p)
		}
	}
	if len(private) == 0 {
		if err := s.set(ctx, map[string]any{"policies": kept}); err != nil {
			return err
		}
		return s.kv.Delete(ctx, twin("policies", true))
	}
	return s.set(ctx, map[string]any{"policies": kept, twin("policies", true): private})
}

// RevokePolicy removes the policy with these patterns, the incognito windows' one when private.
// Reset (no patterns) removes every kept policy, and the incognito windows' ones too when
// private (an incognito window's panel lists both; another lists only the kept ones).
func (s *Store) RevokePolicy(ctx context.Context, tool, origin string, private bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := s.Policies(ctx)
	if err != nil {
		return err
	}
	out := []permission.Policy{}
	for _, q := range ps {
		gone := q.Tool == tool && q.Origin == origin && q.Private == private
		if tool == "" {
			gone = !q.Private || private
		}
		if !gone {
			out = append(out, q)
		}
	}
	if tool != "" && len(out) == len(ps) {
		return ErrNoPolicy
	}
	return s.setPolicies(ctx, out)
}

// AuditEntry is one tool call the gate decided: what was asked, by whom, how it was decided,
// and what came of it.
type AuditEntry struct {
	At  int64  `json:"at"` // unix ms
	Who string `json:"who"`
	// WhoText is Who as a sentence the panel shows in the user's language (nil: Who as it is).
	WhoText *i18n.Text `json:"whoText,omitempty"`
	Tool    string     `json:"tool"`
	What    string     `json:"what"` // the call in words (text to type included, passwords not)
	// WhatText is What as a sentence the panel shows in the user's language.
	WhatText *i18n.Text `json:"whatText,omitempty"`
	Origin   string     `json:"origin,omitempty"`
	Decision string     `json:"decision"`
	Result   string     `json:"result,omitempty"`
	// DecisionText and ResultText are Decision and Result as sentences the panel shows in the
	// user's language (nil: the words as they are).
	DecisionText *i18n.Text `json:"decisionText,omitempty"`
	ResultText   *i18n.Text `json:"resultText,omitempty"`
	OK           bool       `json:"ok"`
	// Private: the call was a private chat's (store.Private), and is kept in memory only.
	Private bool `json:"private,omitempty"`
}

// The audit log is kept in chunks of AuditChunk entries (audit/<n>), the last AuditChunks of
// them: an entry costs the write of one chunk, and the log stays bounded.
const (
	AuditChunk  = 20
	AuditChunks = 25
)

type auditHead struct {
	Next int `json:"next"` // entries written so far
}

// Audit appends an entry to the audit log.
func (s *Store) Audit(ctx context.Context, e AuditEntry) error {
	s.auditMu.Lock()
	defer s.auditMu.Unlock()
	if e.Private {
		// A private chat's calls are kept with it, in memory, the last PrivateAudit of them.
		var log []AuditEntry
		if _, err := s.get(ctx, twin("audit", true), &log); err != nil {
			log = nil
		}
		log = append(log, e)
		if len(log) > PrivateAudit {
			log = log[len(log)-PrivateAudit:]
		}
		return s.set(ctx, map[string]any{twin("audit", true): log})
	}
	var h auditHead
	if _, err := s.get(ctx, "audit", &h); err != nil {
		return err
	}
	key := auditKey(h.Next / AuditChunk)
	var chunk []AuditEntry
	if _, err := s.get(ctx, key, &chunk); err != nil {
		chunk = nil // a damaged chunk is started again
	}
	chunk = append(chunk, e)
	h.Next++
	if err := s.set(ctx, map[string]any{key: chunk, "audit": h}); err != nil {
		return err
	}
	if old := h.Next/AuditChunk - AuditChunks; old >= 0 && h.Next%AuditChunk == 1 {
		return s.kv.Delete(ctx, auditKey(old))
	}
	return nil
}

// AuditLog returns the kept audit entries, newest first, and with private the calls of the
// private chats too (for an incognito window's panel).
func (s *Store) AuditLog(ctx context.Context, private bool) ([]AuditEntry, error) {
	var h auditHead
	if _, err := s.get(ctx, "audit", &h); err != nil {
		return nil, err
	}
	last := (h.Next - 1) / AuditChunk
	var keys []string
	for n := max(0, last-AuditChunks+1); n <= last && h.Next > 0; n++ {
		keys = append(keys, auditKey(n))
	}
	if private {
		keys = append(keys, twin("audit", true))
	}
	got, err := s.kv.Get(ctx, keys...)
	if err != nil {
		return nil, err
	}
	out := []AuditEntry{}
	for i := len(keys) - 1; i >= 0; i-- {
		var chunk []AuditEntry
		if b, ok := got[keys[i]]; ok && keys[i] != twin("audit", true) && json.Unmarshal(b, &chunk) == nil {
			for j := len(chunk) - 1; j >= 0; j-- {
				out = append(out, chunk[j])
			}
		}
	}
	var theirs []AuditEntry
	if b, ok := got[twin("audit", true)]; ok && json.Unmarshal(b, &theirs) == nil && len(theirs) > 0 {
		out = append(out, theirs...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].At > out[j].At })
	}
	return out, nil
}

// PrivateAudit is how many of the private chats' calls are kept (in memory, at the audit log's
// twin).
const PrivateAudit = 200

func auditKey(n int) string { return "audit/" + strconv.Itoa(n) }

// ExportAudit is the audit log as a JSON file's text.
func ExportAudit(entries []AuditEntry, now int64) ([]byte, error) {
	b, err := json.MarshalIndent(map[string]any{"format": "skiff.audit", "version": 1, "exportedAt": now, "entries": entries}, "", " ")
	if err != nil {
		return nil, fmt.Errorf("store: audit export: %w", err)
	}
	return b, nil
}
