package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// ExportFormat marks a Skiff backup file; ExportVersion is its layout.
const (
	ExportFormat  = "skiff.sessions"
	ExportVersion = 1
	// MaxImport bounds an import file: far above any real history, far below what would stall
	// the worker.
	MaxImport = 64 << 20
	maxTitle  = 500
)

// Export is a backup file: sessions, and the memories when asked for.
type Export struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	ExportedAt int64     `json:"exportedAt"`
	Sessions   []Session `json:"sessions"`
	Memories   []Memory  `json:"memories,omitempty"`
}

// ExportJSON writes sessions (and memories) as an indented backup file.
func ExportJSON(sessions []Session, memories []Memory, now int64) ([]byte, error) {
	return json.MarshalIndent(Export{Format: ExportFormat, Version: ExportVersion, ExportedAt: now,
		Sessions: sessions, Memories: memories}, "", " ")
}

// ExportMarkdown writes a session for reading: a title, then each turn under a heading.
func ExportMarkdown(ses *Session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(ses.Title))
	fmt.Fprintf(&b, "_%s · %s · %s_\n", ses.Provider, ses.Model, time.UnixMilli(ses.CreatedAt).UTC().Format("2006-01-02 15:04 UTC"))
	for _, m := range ses.Messages {
		if m.Role == "tool" && m.Tool != nil {
			fmt.Fprintf(&b, "\n> Tool %s %s: %s\n", m.Tool.Name, oneLine(m.Tool.What), oneLine(m.Tool.Summary))
			continue
		}
		who := "You"
		if m.Role == "assistant" {
			who = "Skiff"
			if m.Model != "" {
				who += " (" + m.Model + ")"
			}
		}
		fmt.Fprintf(&b, "\n## %s\n\n", who)
		if m.Page != nil {
			fmt.Fprintf(&b, "> Page: [%s](%s)\n\n", oneLine(m.Page.Title), m.Page.URL)
		}
		b.WriteString(strings.TrimRight(m.Content, "\n"))
		b.WriteString("\n")
		switch m.Status {
		case StatusStopped:
			b.WriteString("\n_(stopped)_\n")
		case StatusInterrupted:
			b.WriteString("\n_(interrupted)_\n")
		case StatusError:
			if m.Error != nil {
				fmt.Fprintf(&b, "\n_(error: %s)_\n", oneLine(m.Error.Message))
			}
		}
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ImportError says why an import file was refused. Nothing was written.
type ImportError struct{ Reason string }

func (e *ImportError) Error() string { return "This file cannot be imported: " + e.Reason }

func refuse(format string, a ...any) error { return &ImportError{fmt.Sprintf(format, a...)} }

// ParseExport reads and checks a backup file completely before anything is written: a file
// that is not a Skiff export, from a newer Skiff, or with any malformed session is refused
// whole, with the reason.
func ParseExport(data []byte) (*Export, error) {
	if len(data) > MaxImport {
		return nil, refuse("it is %d MB; the limit is %d MB", len(data)>>20, MaxImport>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var head struct {
		Format  *string `json:"format"`
		Version int     `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, refuse("it is not valid JSON (%v)", err)
	}
	if head.Format == nil || *head.Format != ExportFormat {
		return nil, refuse("it is not a Skiff export (no \"format\": %q)", ExportFormat)
	}
	if head.Version < 1 || head.Version > ExportVersion {
		return nil, refuse("it has version %d; this Skiff reads version %d", head.Version, ExportVersion)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var ex Export
	if err := dec.Decode(&ex); err != nil {
		return nil, refuse("it does not match the export layout (%v)", err)
	}
	seen := map[string]bool{}
	for i := range ex.Sessions {
		s := &ex.Sessions[i]
		if err := checkSession(s); err != nil {
			return nil, refuse("session %d: %v", i+1, err)
		}
		if seen[s.ID] {
			return nil, refuse("session %d: id %q appears twice", i+1, s.ID)
		}
		seen[s.ID] = true
	}
	for i, m := range ex.Memories {
		if !validID(m.ID) {
			return nil, refuse("memory %d: bad id", i+1)
		}
		if _, err := checkMemory(m.Content); err != nil {
			return nil, refuse("memory %d: %v", i+1, err.(*FieldError).Message)
		}
		switch m.Source {
		case SourceUser, SourceAuto, SourceAgent:
		default:
			return nil, refuse("memory %d: unknown source %q", i+1, m.Source)
		}
	}
	return &ex, nil
}

func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func checkSession(s *Session) error {
	if !validID(s.ID) {
		return fmt.Errorf("bad id %q (letters, digits, - and _, at most 64)", s.ID)
	}
	if len(s.Title) > maxTitle {
		return fmt.Errorf("title longer than %d bytes", maxTitle)
	}
	if s.Title = oneLine(s.Title); s.Title == "" {
		s.Title = "Imported chat"
	}
	if s.Messages == nil {
		s.Messages = []Message{}
	}
	for j := range s.Messages {
		m := &s.Messages[j]
		if !validID(m.ID) {
			return fmt.Errorf("message %d: bad id", j+1)
		}
		switch m.Role {
		case "user", "assistant":
			m.Tool = nil
		case "tool":
			if m.Tool == nil || m.Tool.CallID == "" || m.Tool.Name == "" {
				return fmt.Errorf("message %d: a tool result without its call", j+1)
			}
			m.Tool.Image = "" // images are not in backups
		default:
			return fmt.Errorf("message %d: role %q is not user, assistant or tool", j+1, m.Role)
		}
		switch m.Status {
		case "", StatusStopped, StatusError, StatusInterrupted, StatusDenied:
		case StatusStreaming, StatusPending, StatusAsking, StatusRunning:
			m.Status = StatusInterrupted // it cannot still be going on here
		default:
			return fmt.Errorf("message %d: unknown status %q", j+1, m.Status)
		}
		if m.Page != nil {
			m.Page.Clip()
		}
	}
	return nil
}

// Import writes the sessions and memories of ex that are not already stored (matched by id),
// in one write, and returns how many of each it added. It never overwrites.
func (s *Store) Import(ctx context.Context, ex *Export) (sessions, memories int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, err := s.index(ctx, "") // what is imported is kept
	if err != nil {
		return 0, 0, err
	}
	have := map[string]bool{}
	for _, m := range idx {
		have[m.ID] = true
	}
	items := map[string]any{}
	for i := range ex.Sessions {
		ses := &ex.Sessions[i]
		// A private chat exported while its window was open is kept once imported: the
		// user chose to keep it.
		ses.ID = strings.TrimPrefix(ses.ID, PrivatePrefix)
		if have[ses.ID] {
			continue
		}
		items[sessionKey(ses.ID)] = ses
		idx = append(idx, ses.Meta())
		sessions++
	}
	if len(ex.Memories) > 0 {
		ms, err := s.Memories(ctx)
		if err != nil {
			return 0, 0, err
		}
		hm := map[string]bool{}
		for _, m := range ms {
			hm[m.ID] = true
		}
		for _, m := range ex.Memories {
			if !hm[m.ID] {
				ms = append(ms, m)
				memories++
			}
		}
		if memories > 0 {
			items["memories"] = ms
		}
	}
	if sessions == 0 && memories == 0 {
		return 0, 0, nil
	}
	items["sessions"] = idx
	return sessions, memories, s.set(ctx, items)
}

// RenameSession sets the title of session id.
func (s *Store) RenameSession(ctx context.Context, id, title string) (*Session, error) {
	title = oneLine(title)
	if title == "" {
		return nil, fieldError("title", sayTitleEmpty)
	}
	if len(title) > maxTitle {
		return nil, fieldError("title", sayTitleLong)
	}
	ses, err := s.Session(ctx, id)
	if err != nil {
		return nil, err
	}
	ses.Title = title
	return ses, s.SaveSession(ctx, ses)
}
