package agent

import (
	"context"
	"strings"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/store"
)

// BranchMark begins the title of a chat branched from another: "↳ " and the other's title.
const BranchMark = "↳ "

// Branch starts a new chat from chat id as it was at its message msgID, which the user goes on
// from another way while the chat itself stays as it is (ChatGPT's "Branch in new chat", and
// its edit of an earlier message). At a reply, the new chat is a copy of the messages up to
// it; at a message of the user's, with edited (their new words), a copy of the messages before
// it and then that message saying edited (its page and attachments kept), to run again as
// Regenerate runs the last one. The copy has its attachments and screenshots copied too
// (deleting either chat deletes its own), is private when the chat is, and is the active chat.
// A chat with an agent skiffd hosts is not branched: the agent keeps its own history of it,
// which a copy here would not change.
func (e *Engine) Branch(ctx context.Context, id, msgID, edited string) (*store.Session, error) {
	src, err := e.Session(ctx, id)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(src.Provider, HostedPrefix) {
		return nil, sayBranchHosted.Error()
	}
	at := -1
	for i, m := range src.Messages {
		if m.ID == msgID {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, sayBranchNoReply.Error()
	}
	title := strings.TrimPrefix(src.Title, BranchMark)
	switch m := src.Messages[at]; {
	case m.Role == "user":
		if strings.TrimSpace(edited) == "" {
			return nil, ErrEmpty
		}
		if at == 0 && title == store.TitleFrom(m.Content) {
			title = store.TitleFrom(edited) // still the automatic title: it follows the edit, as Edit's does
		}
	case m.Role != "assistant" || m.Status == store.StatusStreaming || len(m.ToolCalls) > 0:
		return nil, sayBranchNotAReply.Error()
	}
	now := e.now()
	ses := &store.Session{
		Header:    store.Header{ID: NewID(), Title: BranchMark + title, Provider: src.Provider, Model: src.Model, CreatedAt: now, UpdatedAt: now},
		Agent:     src.Agent,
		PlanFirst: src.PlanFirst,
		BranchOf:  &store.BranchOf{ID: src.ID, Title: src.Title},
		Messages:  make([]store.Message, 0, at+1),
	}
	if store.Private(src.ID) {
		ses.ID = store.PrivatePrefix + ses.ID
	}
	// The chat's attachments and screenshots, read in one call, each copied once.
	ids := store.ImagesOf(src.Messages[:at+1])
	stored, err := e.Store.Images(ctx, ids...)
	if err != nil {
		return nil, err
	}
	// Each attachment gets its copy's id first, so that what is about to be copied is written
	// before the first copy: a worker stopped before the branch is saved leaves copies the
	// next one deletes (store.Pending), not copies no chat holds.
	copied := map[string]string{} // an attachment's id in the chat → its copy's
	var copies []string
	for _, id := range ids {
		if _, ok := copied[id]; !ok {
			copied[id] = copyID(id, ses.ID)
			copies = append(copies, copied[id])
		}
	}
	var change *store.Change // none without copies
	if len(copies) > 0 {
		if change, err = e.Store.Begin(ctx, store.Pending{Session: ses.ID, Images: copies}); err != nil {
			return nil, err
		}
	}
	for _, id := range ids {
		e.copyAttachment(ctx, id, stored[id], copied[id])
	}
	for _, m := range src.Messages[:at+1] {
		m.ID = NewID()
		if len(m.Images) > 0 {
			m.Images = append([]string(nil), m.Images...)
			for k, img := range m.Images {
				m.Images[k] = copied[img]
			}
		}
		if m.Tool != nil && m.Tool.Image != "" {
			run := *m.Tool
			run.Image = copied[run.Image]
			m.Tool = &run
		}
		if m.Role == "user" && len(ses.Messages) == at {
			m.Content = edited
		}
		ses.Messages = append(ses.Messages, m)
	}
	err = ctx.Err()
	if err == nil {
		err = e.Store.SaveSession(ctx, ses)
	}
	if err != nil {
		change.Abandon() // the copies go
		return nil, err
	}
	change.Done()
	return ses, e.Store.SetActive(ctx, ses.ID)
}

// copyID is the id of the copy, for chat to, of attachment (or screenshot) id: a new id of
// the same kind, private when the chat is. Never the chat's own id, which deleting the branch
// would delete from the chat.
func copyID(id, to string) string {
	bare := strings.TrimPrefix(id, store.PrivatePrefix)
	kind := ""
	if strings.HasPrefix(bare, fileID) {
		kind = fileID
	} else if strings.HasPrefix(bare, docID) {
		kind = docID
	}
	c := kind + NewID()
	if store.Private(to) {
		c = store.PrivatePrefix + c
	}
	return c
}

// copyAttachment stores img, attachment (or screenshot) id of a chat, under c, its copy's id.
// One the chat lost (img.Data empty: its entry is gone) is not stored: the panel shows the
// copy as gone too.
func (e *Engine) copyAttachment(ctx context.Context, id string, img store.StoredImage, c string) {
	if img.Mime == "" && len(img.Data) == 0 {
		return
	}
	if img.Original {
		data, ok, err := e.Store.Original(ctx, id)
		if err != nil || !ok {
			img.Original = false
		} else if e.Store.SaveOriginal(ctx, c, data) != nil {
			return
		}
	}
	_ = e.Store.SaveImage(ctx, c, img) // one not saved shows as gone, as one the chat lost
}

// Why a chat is not branched, a reply continued or its versions shown, for the user (their French is in ui/_locales).
var (
	sayBranchHosted    = i18n.Sentence{Key: "errBranchHosted", English: "A chat with an agent skiffd hosts cannot be branched: the agent keeps its own history of the chat, which a copy in Skiff would not follow."}
	sayBranchNoReply   = i18n.Sentence{Key: "errBranchNoReply", English: "That reply is no longer in this chat; it may have been regenerated in another window."}
	sayNoVersions      = i18n.Sentence{Key: "errNoVersions", English: "Only the last reply's versions can be shown, once it has more than one: this one has none, or the chat went on since."}
	sayContinueHosted  = i18n.Sentence{Key: "errContinueHosted", English: "A reply of an agent skiffd hosts cannot be continued from Skiff: ask the agent to go on."}
	sayBranchNotAReply = i18n.Sentence{Key: "errBranchNotAReply", English: "A chat is branched from a finished reply, or from a message of yours: wait for this one to end."}
)
