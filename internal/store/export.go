package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// ExportFormat marks a Skiff backup file; ExportVersion is its layout (2 added the saved
// prompts and the pins: a Skiff that reads version 1 only says to update, rather than taking a
// backup it would read in part).
const (
	ExportFormat  = "skiff.sessions"
	ExportVersion = 2
	// MaxImport bounds an import file: far above any real history, far below what would stall
	// the worker.
	MaxImport = 64 << 20
	maxTitle  = 500
)

// Export is a backup file: sessions, the memories, the saved prompts (when the user saved
// theirs) and which chats are pinned.
type Export struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	ExportedAt int64     `json:"exportedAt"`
	Sessions   []Session `json:"sessions"`
	Memories   []Memory  `json:"memories,omitempty"`
	Prompts    []Prompt  `json:"prompts,omitempty"`
	Pinned     []string  `json:"pinned,omitempty"`
}

// ExportJSON writes ex as an indented backup file, marked with its format, version and time.
func ExportJSON(ex Export, now int64) ([]byte, error) {
	ex.Format, ex.Version, ex.ExportedAt = ExportFormat, ExportVersion, now
	return json.MarshalIndent(ex, "", " ")
}

// Pinned lists the kept chats that are pinned, for a backup.
func (s *Store) Pinned(ctx context.Context) ([]string, error) { return s.pinList(ctx, "pins") }

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

// ImportError says why an import file was refused. Nothing was written. Reason is in English,
// Text the same for the user in their language.
type ImportError struct {
	Reason string
	Text   i18n.Text
}

func (e *ImportError) Error() string { return "This file cannot be imported: " + e.Reason }

func refuse(s i18n.Sentence, a ...any) error {
	t := s.With(a...)
	return &ImportError{Reason: t.English(), Text: t}
}

// Why a file cannot be imported (their French is in ui/_locales).
var (
	sayImpTooBig     = i18n.Sentence{Key: "impTooBig", English: "it is $1 MB; the limit is $2 MB"}
	sayImpNotJSON    = i18n.Sentence{Key: "impNotJSON", English: "it is not valid JSON ($1)"}
	sayImpNotExport  = i18n.Sentence{Key: "impNotExport", English: "it is not a Skiff export (no \"format\": “$1”)"}
	sayImpVersion    = i18n.Sentence{Key: "impVersion", English: "it has version $1; this Skiff reads version $2"}
	sayImpLayout     = i18n.Sentence{Key: "impLayout", English: "it does not match the export layout ($1)"}
	sayImpSession    = i18n.Sentence{Key: "impSession", English: "session $1: $2"}
	sayImpTwice      = i18n.Sentence{Key: "impTwice", English: "session $1: id “$2” appears twice"}
	sayImpMemoryID   = i18n.Sentence{Key: "impMemoryID", English: "memory $1: bad id"}
	sayImpPrompts    = i18n.Sentence{Key: "impPrompts", English: "its saved prompts: $1"}
	sayImpPinned     = i18n.Sentence{Key: "impPinned", English: "pinned chat $1: “$2” is not one of its chats"}
	sayImpMemory     = i18n.Sentence{Key: "impMemory", English: "memory $1: $2"}
	sayImpMemorySrc  = i18n.Sentence{Key: "impMemorySource", English: "memory $1: unknown source “$2”"}
	sayImpBadID      = i18n.Sentence{Key: "impBadID", English: "bad id “$1” (letters, digits, - and _, at most 64)"}
	sayImpTitleLong  = i18n.Sentence{Key: "impTitleLong", English: "title longer than $1 bytes"}
	sayImpMessageID  = i18n.Sentence{Key: "impMessageID", English: "message $1: bad id"}
	sayImpToolNoCall = i18n.Sentence{Key: "impToolNoCall", English: "message $1: a tool result without its call"}
	sayImpRole       = i18n.Sentence{Key: "impRole", English: "message $1: role “$2” is not user, assistant or tool"}
	sayImpStatus     = i18n.Sentence{Key: "impStatus", English: "message $1: unknown status “$2”"}
)

// ParseExport reads and checks a backup file completely before anything is written: a file
// that is not a Skiff export, from a newer Skiff, or with any malformed session is refused
// whole, with the reason.
func ParseExport(data []byte) (*Export, error) {
	if len(data) > MaxImport {
		return nil, refuse(sayImpTooBig, len(data)>>20, MaxImport>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var head struct {
		Format  *string `json:"format"`
		Version int     `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, refuse(sayImpNotJSON, err)
	}
	if head.Format == nil || *head.Format != ExportFormat {
		return nil, refuse(sayImpNotExport, ExportFormat)
	}
	if head.Version < 1 || head.Version > ExportVersion {
		return nil, refuse(sayImpVersion, head.Version, ExportVersion)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var ex Export
	if err := dec.Decode(&ex); err != nil {
		return nil, refuse(sayImpLayout, err)
	}
	seen := map[string]bool{}
	for i := range ex.Sessions {
		s := &ex.Sessions[i]
		if err := checkSession(s); err != nil {
			return nil, refuse(sayImpSession, i+1, err)
		}
		dated(s, ex.ExportedAt)
		if seen[s.ID] {
			return nil, refuse(sayImpTwice, i+1, s.ID)
		}
		seen[s.ID] = true
	}
	if err := checkPrompts(ex.Prompts); err != nil {
		return nil, refuse(sayImpPrompts, err)
	}
	for i, id := range ex.Pinned {
		if !seen[id] {
			return nil, refuse(sayImpPinned, i+1, id)
		}
	}
	for i, m := range ex.Memories {
		if !validID(m.ID) {
			return nil, refuse(sayImpMemoryID, i+1)
		}
		if _, err := checkMemory(m.Content); err != nil {
			return nil, refuse(sayImpMemory, i+1, memoryWords(err))
		}
		switch m.Source {
		case SourceUser, SourceAuto, SourceAgent:
		default:
			return nil, refuse(sayImpMemorySrc, i+1, m.Source)
		}
	}
	return &ex, nil
}

// dated gives a chat without times (a file another program wrote) the times its messages
// have, else the file's: History lists it by them ("56 years ago" for a time of 0).
func dated(s *Session, exportedAt int64) {
	first, last := int64(0), int64(0)
	for _, m := range s.Messages {
		if m.CreatedAt > 0 && (first == 0 || m.CreatedAt < first) {
			first = m.CreatedAt
		}
		last = max(last, m.CreatedAt)
	}
	if s.UpdatedAt <= 0 {
		s.UpdatedAt = last
		if last == 0 {
			s.UpdatedAt = max(s.CreatedAt, exportedAt)
		}
	}
	if s.CreatedAt <= 0 {
		s.CreatedAt = s.UpdatedAt
		if first > 0 {
			s.CreatedAt = first
		}
	}
}

// memoryWords is a memory's check as words inside another sentence: its sentence when it has one.
func memoryWords(err error) any {
	var fe *FieldError
	if errors.As(err, &fe) && fe.Text != nil {
		return *fe.Text
	}
	return err.Error()
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
		return sayImpBadID.Error(s.ID)
	}
	if len(s.Title) > maxTitle {
		return sayImpTitleLong.Error(maxTitle)
	}
	if s.Title = oneLine(s.Title); s.Title == "" {
		s.Title = "Imported chat"
	}
	if s.Messages == nil {
		s.Messages = []Message{}
	}
	if b := s.BranchOf; b != nil && (!validID(b.ID) || len(b.Title) > maxTitle) {
		s.BranchOf = nil // where it came from is a note: a bad one is dropped, not the chat
	} else if b != nil {
		b.Title = oneLine(b.Title)
	}
	for j := range s.Messages {
		m := &s.Messages[j]
		if !validID(m.ID) {
			return sayImpMessageID.Error(j + 1)
		}
		switch m.Role {
		case "user", "assistant":
			m.Tool = nil
		case "tool":
			if m.Tool == nil || m.Tool.CallID == "" || m.Tool.Name == "" {
				return sayImpToolNoCall.Error(j + 1)
			}
			m.Tool.Image = "" // images are not in backups
		default:
			return sayImpRole.Error(j+1, m.Role)
		}
		switch m.Status {
		case "", StatusStopped, StatusError, StatusInterrupted, StatusDenied:
		case StatusStreaming, StatusPending, StatusAsking, StatusRunning:
			m.Status = StatusInterrupted // it cannot still be going on here
		default:
			return sayImpStatus.Error(j+1, m.Status)
		}
		if m.Page != nil {
			m.Page.Clip()
		}
		// A reply's versions: whole replies of their own, a few; others are dropped, not the chat.
		if len(m.Versions) > 0 && (m.Role != "assistant" || len(m.Versions) >= maxVersions) {
			m.Versions = nil
		}
		for k := range m.Versions {
			v := &m.Versions[k]
			v.Role, v.Tool, v.Versions, v.Version, v.ToolCalls, v.Images, v.Page = "assistant", nil, nil, 0, nil, nil, nil
			if v.Status != "" && v.Status != StatusStopped && v.Status != StatusError {
				v.Status = StatusInterrupted
			}
		}
		m.Version = min(max(m.Version, 0), len(m.Versions))
	}
	return nil
}

// maxVersions bounds the versions of a reply a backup may hold (the agent keeps 10).
const maxVersions = 10

// Import writes the sessions and memories of ex that are not already stored (matched by id),
// in one write, and returns how many of each it added. It never overwrites.
func (s *Store) Import(ctx context.Context, ex *Export) (sessions, memories int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx, had, err := s.readIndex(ctx, "sessions") // what is imported is kept
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
		delete(s.deleted, ses.ID) // deleted before, and brought back by the user
		if err := sessionItems(ses, items); err != nil {
			return 0, 0, err
		}
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
	pinned := false
	if len(ex.Pinned) > 0 {
		pins, err := s.Pinned(ctx)
		if err != nil {
			return 0, 0, err
		}
		for _, id := range ex.Pinned {
			if id = strings.TrimPrefix(id, PrivatePrefix); !slices.Contains(pins, id) {
				pins, pinned = append(pins, id), true
			}
		}
		if pinned {
			items["pins"] = pins
		}
	}
	if sessions == 0 && memories == 0 && !pinned {
		return 0, 0, nil
	}
	if sessions > 0 {
		indexItems("sessions", idx, had, items) // an import only adds: no part goes
	}
	return sessions, memories, s.set(ctx, items)
}

// ImportPrompts adds to the user's saved prompts those of ps whose names they do not have yet
// (case aside), as many as the bound leaves room for, and says how many it added. A user who
// never saved theirs gets the backup's.
func (s *Store) ImportPrompts(ctx context.Context, ps []Prompt) (int, error) {
	if len(ps) == 0 {
		return 0, nil
	}
	st, err := s.Settings(ctx)
	if err != nil {
		return 0, err
	}
	have := map[string]bool{}
	for _, p := range st.Prompts {
		have[strings.ToLower(p.Name)] = true
	}
	list := slices.Clip(st.Prompts)
	if list == nil {
		list = []Prompt{}
	}
	added := 0
	for _, p := range ps {
		if !have[strings.ToLower(p.Name)] && len(list) < MaxPrompts {
			list = append(list, p)
			have[strings.ToLower(p.Name)] = true
			added++
		}
	}
	if added == 0 {
		return 0, nil
	}
	st.Prompts = list
	return added, s.SaveSettings(ctx, st)
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
