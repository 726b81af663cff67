package agent

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skiff-ai/skiff/internal/attach"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/store"
)

// What a message may carry (attach says why).
const (
	MaxImages     = attach.Max
	MaxImageBytes = attach.MaxImageBytes
	MaxFileText   = attach.MaxFileText
	MaxOriginal   = attach.MaxOriginal
)

var sayNoVision = i18n.Sentence{Key: "noticeNoVision", English: "This model does not see images, so the image was not sent with the message. Choose a model that does and send it again."}

// Attached is an image or a file the user attaches to a message, as the panel sends it.
type Attached = attach.Item

// IsDocument says whether a stored attachment of type mime is a file's text rather than a
// picture.
func IsDocument(mime string) bool { return attach.IsDocument(mime) }

// fileID marks the id of a file's text (a picture's id has no mark), docID the id of a file
// kept with its text (upload_file can give it): what an attachment is, known without reading
// it.
const (
	fileID = "file-"
	docID  = "doc-"
)

// pictures says whether any of the attachments ids is a picture (the others are files' text).
func pictures(ids []string) bool {
	for _, id := range ids {
		id = strings.TrimPrefix(id, store.PrivatePrefix)
		if !strings.HasPrefix(id, fileID) && !strings.HasPrefix(id, docID) {
			return true
		}
	}
	return false
}

// uploadable says whether any of the attachments ids is one upload_file can give a page: a
// picture, or a file kept with its text.
func uploadable(ids []string) bool {
	for _, id := range ids {
		if !strings.HasPrefix(strings.TrimPrefix(id, store.PrivatePrefix), fileID) {
			return true
		}
	}
	return false
}

// random is an attachment id's random part (a file block's mark).
func random(id string) string {
	return strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(id, store.PrivatePrefix), fileID), docID)
}

// documentBlock is a stored file as the model reads it (attach.Block).
func documentBlock(d store.StoredImage, mark string) string {
	return attach.Block(d.Name, string(d.Data), d.Pages, d.Cut, mark)
}

// SaveImages checks the images a user attached to a message of chat session ("": a chat not
// made yet) and stores them, returning their ids in order (a private chat's are kept in
// memory: see store.Private). Nothing is stored unless every image is fine. The caller calls
// kept once the message that holds them is stored (or they were deleted): until then, a
// stopped worker leaves them to the next one to delete (store.Pending).
func (e *Engine) SaveImages(ctx context.Context, imgs []Attached, private bool, session string) (ids []string, kept func(), err error) {
	kept = func() {}
	if err := attach.CheckCount(len(imgs)); err != nil {
		return nil, kept, err
	}
	stored := make([]store.StoredImage, len(imgs))
	originals := make([][]byte, len(imgs))
	for i, img := range imgs {
		c, err := img.Checked()
		if err != nil {
			return nil, kept, err
		}
		stored[i] = store.StoredImage{Mime: c.Mime, Data: c.Data, Name: attachedName(img.Name, i, stored[:i]), Pages: c.Pages, Cut: c.Cut, Original: len(c.Original) > 0}
		originals[i] = c.Original
	}
	for _, img := range stored {
		id := NewID()
		switch {
		case img.Original:
			id = docID + id
		case IsDocument(img.Mime):
			id = fileID + id
		}
		if private {
			id = store.PrivatePrefix + id
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, kept, nil
	}
	change, err := e.Store.Begin(ctx, store.Pending{Session: session, Images: ids})
	if err != nil {
		return nil, kept, err
	}
	for i, img := range stored {
		err := e.Store.SaveImage(ctx, ids[i], img)
		if err == nil && img.Original {
			err = e.Store.SaveOriginal(ctx, ids[i], originals[i])
		}
		if err != nil {
			change.Abandon()
			return nil, kept, err
		}
	}
	return ids, change.Done, nil
}

// dropping notes that a change to chat session is about to drop the messages that hold the
// images (or files, screenshots) ids, and returns what the caller defers: once the change is
// stored, it deletes those the chat no longer holds. Until then a stopped worker leaves them
// to the next one (store.Pending); a change that was not stored deletes nothing.
func (e *Engine) dropping(ctx context.Context, session string, ids []string) (finish func(), err error) {
	if len(ids) == 0 {
		return func() {}, nil
	}
	change, err := e.Store.Begin(ctx, store.Pending{Session: session, Images: ids})
	if err != nil {
		return nil, err
	}
	return change.Settle, nil
}

// attachedName is the name a picture is attached under (the model gives it to upload_file):
// its file's, without folders, else "image N"; one a picture before it in the message has
// gets " (2)", " (3)"… before its extension.
func attachedName(name string, i int, before []store.StoredImage) string {
	name = strings.TrimSpace(name[strings.LastIndexAny(name, "/\\")+1:])
	if name == "" || name == "image" {
		name = fmt.Sprintf("image %d", i+1)
	}
	if len(name) > 120 { // (cut on a letter, keeping its extension: upload_file gives it to a page)
		ext := name[strings.LastIndexByte(name, '.')+1:]
		if len(ext) > 10 || len(ext) == len(name) {
			ext = ""
		} else {
			ext = "." + ext
		}
		base := name[:120-len(ext)]
		for len(base) > 0 && !utf8.RuneStart(name[len(base)]) {
			base = base[:len(base)-1]
		}
		name = base + ext
	}
	taken := func(n string) bool {
		for _, b := range before {
			if b.Name == n {
				return true
			}
		}
		return false
	}
	base, ext := name, ""
	if dot := strings.LastIndexByte(name, '.'); dot > 0 {
		base, ext = name[:dot], name[dot:]
	}
	for k := 2; taken(name); k++ {
		name = fmt.Sprintf("%s (%d)%s", base, k, ext)
	}
	return name
}

var sayAgentNoImages = i18n.Sentence{Key: "noticeAgentNoImages", English: "This agent does not take images, so the image was not sent with the message."}

// agentImages are the pictures among ids as a hosted agent takes them, when it takes any
// (takes); when it does not, the user's message says so and none go. docs are the files among
// them, as blocks of text for the prompt (every agent reads text).
func (e *Engine) agentImages(ctx context.Context, ids []string, takes bool, r *hostedRun) (out []link.Image64, docs []string) {
	imgs, err := e.Store.Images(ctx, ids...)
	if err != nil {
		return nil, nil
	}
	for _, id := range ids {
		img, ok := imgs[id]
		switch {
		case !ok:
		case IsDocument(img.Mime):
			docs = append(docs, documentBlock(img, markOf(random(id)))) // its random part
		default:
			out = append(out, link.Image64{Mime: img.Mime, Data: base64.StdEncoding.EncodeToString(img.Data)})
		}
	}
	if len(out) > 0 && !takes {
		r.mu.Lock()
		i := lastUser(r.ses.Messages)
		if r.ses.Messages[i].NoticeText == nil {
			r.ses.Messages[i].SetNotice(sayAgentNoImages.With())
			r.save()
			r.show(i)
		}
		r.mu.Unlock()
		out = nil
	}
	return out, docs
}
