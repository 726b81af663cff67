// Export and import of chats, as files the panel offers for download or reads from disk.

package core

import (
	"context"
	"strings"

	"github.com/skiff-ai/skiff/internal/store"
)

// File is a file for the panel to offer as a download.
type File struct {
	Name string `json:"name"`
	Mime string `json:"mime"`
	Text string `json:"text"`
}

// export makes a backup of every session and memory ("json"), or one session for reading
// ("markdown"). A backup holds the kept chats only: an incognito window's chats (store.Private)
// are not kept anywhere, a backup file included; one of them can be exported on its own.
func (c *Core) export(ctx context.Context, req ExportParams) (*File, error) {
	day := c.Engine.Now().UTC().Format("2006-01-02")
	switch req.Format {
	case "markdown":
		ses, err := c.Store.Session(ctx, req.SessionID)
		if err != nil {
			return nil, err
		}
		return &File{Name: "skiff-" + slug(ses.Title) + ".md", Mime: "text/markdown", Text: store.ExportMarkdown(ses)}, nil
	case "json":
		all, err := c.Store.AllSessions(ctx)
		if err != nil {
			return nil, err
		}
		kept := all[:0]
		for _, s := range all {
			if !store.Private(s.ID) {
				kept = append(kept, s)
			}
		}
		all = kept
		mems, err := c.Store.Memories(ctx)
		if err != nil {
			return nil, err
		}
		st, err := c.Store.Settings(ctx)
		if err != nil {
			return nil, err
		}
		pinned, err := c.Store.Pinned(ctx)
		if err != nil {
			return nil, err
		}
		b, err := store.ExportJSON(store.Export{Sessions: all, Memories: mems, Prompts: st.Prompts, Pinned: pinned}, c.Engine.Now().UnixMilli())
		if err != nil {
			return nil, err
		}
		return &File{Name: "skiff-backup-" + day + ".json", Mime: "application/json", Text: string(b)}, nil
	}
	return nil, problemf(sayExportFormat, req.Format)
}

// slug makes a file name part from a title: lowercase ASCII letters and digits, runs of
// anything else as one "-".
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else if n := b.Len(); n > 0 && b.String()[n-1] != '-' {
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		s = "chat"
	}
	return s
}

// Imported says what an import added.
type Imported struct {
	Sessions int `json:"sessions"`
	Memories int `json:"memories"`
	Prompts  int `json:"prompts"` // saved prompts added (those of a name the user had are not)
	Skipped  int `json:"skipped"` // sessions already present
	// Settings are the settings after prompts were added (the panel offers them at once).
	Settings *PublicSettings `json:"settings,omitempty"`
}

func (c *Core) importFile(ctx context.Context, p ImportParams) (*Imported, error) {
	ex, err := store.ParseExport([]byte(p.Data))
	if err != nil {
		return nil, err
	}
	n, m, err := c.Store.Import(ctx, ex)
	if err != nil {
		return nil, err
	}
	c.sessionsChanged() // new chats, or pins
	// The prompts go after the chats (the settings are written apart): a failure here leaves
	// the chats imported and says why.
	k, err := c.Store.ImportPrompts(ctx, ex.Prompts)
	if err != nil {
		return nil, err
	}
	out := &Imported{Sessions: n, Memories: m, Prompts: k, Skipped: len(ex.Sessions) - n}
	if k > 0 {
		st, err := c.Store.Settings(ctx)
		if err != nil {
			return nil, err
		}
		ps := public(st)
		out.Settings = &ps
	}
	return out, nil
}
