package core

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// File is a file for the panel to offer as a download.
type File struct {
	Name string `json:"name"`
	Mime string `json:"mime"`
	Text string `json:"text"`
}

// export makes a backup of every session and memory ("json"), or one session for reading
// ("markdown").
func (c *Core) export(ctx context.Context, req *request) (*File, error) {
	day := c.Engine.Now().UTC().Format("2006-01-02")
	switch req.Format {
	case "markdown":
		ses, err := c.Store.Session(ctx, req.SessionID)
		if err != nil {
			return nil, err
		}
		return &File{Name: "skiff-" + slug(ses.Title) + ".md", Mime: "text/markdown", Text: store.ExportMarkdown(ses)}, nil
	case "json":
		idx, err := c.Store.Sessions(ctx)
		if err != nil {
			return nil, err
		}
		all := make([]store.Session, 0, len(idx))
		for _, m := range idx {
			ses, err := c.Store.Session(ctx, m.ID)
			if err != nil {
				return nil, fmt.Errorf("reading %q: %w", m.Title, err)
			}
			all = append(all, *ses)
		}
		mems, err := c.Store.Memories(ctx)
		if err != nil {
			return nil, err
		}
		b, err := store.ExportJSON(all, mems, c.Engine.Now().UnixMilli())
		if err != nil {
			return nil, err
		}
		return &File{Name: "skiff-backup-" + day + ".json", Mime: "application/json", Text: string(b)}, nil
	}
	return nil, fmt.Errorf("unknown export format %q", req.Format)
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
	Skipped  int `json:"skipped"` // sessions already present
}

func (c *Core) importFile(ctx context.Context, data string) (*Imported, error) {
	ex, err := store.ParseExport([]byte(data))
	if err != nil {
		return nil, err
	}
	n, m, err := c.Store.Import(ctx, ex)
	if err != nil {
		return nil, err
	}
	return &Imported{Sessions: n, Memories: m, Skipped: len(ex.Sessions) - n}, nil
}

// Tested is the answer to "provider.test".
type Tested struct {
	OK      bool   `json:"ok"`
	Message string `json:"message"`
	Models  int    `json:"models"`
}

// testProvider checks a provider with the key and base URL being typed (or the saved ones when
// none are given) by listing its models: it proves the host answers and the key is accepted,
// and costs no tokens.
func (c *Core) testProvider(ctx context.Context, req *request) (*Tested, error) {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	p, ok := provider.Lookup(req.Provider)
	if !ok {
		return nil, &store.FieldError{Field: "provider", Message: "unknown provider"}
	}
	base := s.BaseURLs[p.ID]
	if req.BaseURL != "" {
		base = req.BaseURL
	}
	if p, err = p.WithBaseURL(base); err != nil {
		return nil, &store.FieldError{Field: "baseURL", Message: err.Error()}
	}
	key := s.APIKeys[p.ID]
	if strings.TrimSpace(req.Key) != "" {
		key = strings.TrimSpace(req.Key)
	}
	if p.NeedsKey && key == "" {
		return &Tested{Message: "Enter an API key first."}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ms, err := p.ListModels(ctx, c.Doer, key)
	if err != nil {
		return &Tested{Message: err.Error()}, nil
	}
	return &Tested{OK: true, Models: len(ms), Message: fmt.Sprintf("Connected to %s: %d models available.", p.Name, len(ms))}, nil
}

// Found is a local model server that answered.
type Found struct {
	Provider string           `json:"provider"`
	Name     string           `json:"name"`
	BaseURL  string           `json:"baseURL"`
	Models   []provider.Model `json:"models"`
}

// detect looks for Ollama (port 11434) and LM Studio (port 1234) on this machine, at their
// saved base URLs or their defaults, in parallel, giving each DetectTimeout.
func (c *Core) detect(ctx context.Context) []Found {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		s = store.DefaultSettings()
	}
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		found = []Found{}
	)
	for _, id := range []string{"ollama", "lmstudio"} {
		p, _ := provider.Lookup(id)
		if q, err := p.WithBaseURL(s.BaseURLs[id]); err == nil {
			p = q
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(ctx, DetectTimeout)
			defer cancel()
			ms, err := p.ListModels(ctx, c.Doer, "")
			if err != nil {
				return
			}
			mu.Lock()
			found = append(found, Found{Provider: p.ID, Name: p.Name, BaseURL: p.BaseURL, Models: ms})
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(found) == 2 && found[0].Provider != "ollama" {
		found[0], found[1] = found[1], found[0]
	}
	return found
}

// DetectTimeout bounds each local-server probe of "detect".
var DetectTimeout = 2 * time.Second
