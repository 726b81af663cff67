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
	var ids []string
	for _, m := range src.Messages[:at+1] {
		ids = append(ids, m.Images...)
		if m.Tool != nil && m.Tool.Image != "" {
			ids = append(ids, m.Tool.Image)
		}
	}
	stored, err := e.Store.Images(ctx, ids...)
	if err != nil {
		return nil, err
	}
	copied := map[string]string{} // an attachment's id in the chat → its copy's
	var made []string
	copyOf := func(id string) string {
		c, ok := copied[id]
		if !ok {
			c = e.copyAttachment(ctx, id, stored[id], ses.ID, &made)
			copied[id] = c
		}
		return c
	}
	for _, m := range src.Messages[:at+1] {
		m.ID = NewID()
		if len(m.Images) > 0 {
			m.Images = append([]string(nil), m.Images...)
			for k, img := range m.Images {
				m.Images[k] = copyOf(img)
			}
		}
		if m.Tool != nil && m.Tool.Image != "" {
			run := *m.Tool
			run.Image = copyOf(run.Image)
			m.Tool = &run
		}
		if m.Role == "user" && len(ses.Messages) == at {
			m.Content = edited
		}
		ses.Messages = append(ses.Messages, m)
	}
	if err := ctx.Err(); err != nil {
		_ = e.Store.DeleteImages(context.WithoutCancel(ctx), made...)
		return nil, err
	}
	if err := e.Store.SaveSession(ctx, ses); err != nil {
		_ = e.Store.DeleteImages(context.WithoutCancel(ctx), made...)
		return nil, err
	}
	return ses, e.Store.SetActive(ctx, ses.ID)
}

// copyAttachment stores img, attachment (or screenshot) id of a chat, as a copy for chat to,
// under an id of the same kind, and returns the copy's id. One the chat lost (img.Data empty:
// its entry is gone) gets an id with nothing under it, which the panel shows as gone: never
// the chat's own id, which deleting the branch would delete from the chat.
func (e *Engine) copyAttachment(ctx context.Context, id string, img store.StoredImage, to string, made *[]string) string {
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
	if img.Mime == "" && len(img.Data) == 0 {
		return c
	}
	*made = append(*made, c) // undone with the rest if the branch is not saved
	if img.Original {
		data, ok, err := e.Store.Original(ctx, id)
		if err != nil || !ok {
			img.Original = false
		} else if e.Store.SaveOriginal(ctx, c, data) != nil {
			return c
		}
	}
	_ = e.Store.SaveImage(ctx, c, img) // one not saved shows as gone, as one the chat lost
	return c
}

// Why a chat is not branched, a reply continued or its versions shown, for the user (their French is in ui/_locales).
var (
	sayBranchHosted    = i18n.Sentence{Key: "errBranchHosted", English: "A chat with an agent skiffd hosts cannot be branched: the agent keeps its own history of the chat, which a copy in Skiff would not follow."}
	sayBranchNoReply   = i18n.Sentence{Key: "errBranchNoReply", English: "That reply is no longer in this chat; it may have been regenerated in another window."}
	sayNoVersions      = i18n.Sentence{Key: "errNoVersions", English: "Only the last reply's versions can be shown, once it has more than one: this one has none, or the chat went on since."}
	sayContinueHosted  = i18n.Sentence{Key: "errContinueHosted", English: "A reply of an agent skiffd hosts cannot be continued from Skiff: ask the agent to go on."}
	sayBranchNotAReply = i18n.Sentence{Key: "errBranchNotAReply", English: "A chat is branched from a finished reply, or from a message of yours: wait for this one to end."}
)
