package agent

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/store"
)

// What a message may carry in images: Anthropic's limit per image (the smallest of the big
// providers), a few per message. The panel scales larger pictures down before it sends them.
const (
	MaxImages     = 4
	MaxImageBytes = 5 << 20
)

var (
	sayTooManyImages = i18n.Sentence{Key: "errTooManyImages", English: "A message can carry at most $1 images; remove some and send again."}
	sayImageTooBig   = i18n.Sentence{Key: "errImageTooBig", English: "The image “$1” is larger than $2 MB, even scaled down; attach a smaller one."}
	sayImageType     = i18n.Sentence{Key: "errImageType", English: "“$1” is not a PNG, JPEG, WebP or GIF image, so it cannot be sent."}
	sayNoVision      = i18n.Sentence{Key: "noticeNoVision", English: "This model does not see images, so the image was not sent with the message. Choose a model that does and send it again."}
)

// Attached is an image the user attaches to a message, as the panel sends it.
type Attached struct {
	Name string `json:"name"`
	Mime string `json:"mime"`
	Data []byte `json:"data"`
}

// sniff is the type of an image by its first bytes ("" when it is none Skiff sends): what the
// data is, whatever the file's name or the panel said.
func sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "image/gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// SaveImages checks the images a user attached and stores them, returning their ids in order.
// Nothing is stored unless every image is fine.
func (e *Engine) SaveImages(ctx context.Context, imgs []Attached) ([]string, error) {
	if len(imgs) > MaxImages {
		return nil, sayTooManyImages.Error(MaxImages)
	}
	stored := make([]store.StoredImage, len(imgs))
	for i, img := range imgs {
		mime := sniff(img.Data)
		if mime == "" {
			return nil, sayImageType.Error(i18n.Verbatim(img.Name))
		}
		if len(img.Data) > MaxImageBytes {
			return nil, sayImageTooBig.Error(i18n.Verbatim(img.Name), MaxImageBytes>>20)
		}
		stored[i] = store.StoredImage{Mime: mime, Data: img.Data, Name: attachedName(img.Name, i, stored[:i])}
	}
	var ids []string
	for _, img := range stored {
		id := NewID()
		if err := e.Store.SaveImage(ctx, id, img); err != nil {
			_ = e.Store.DeleteImages(context.WithoutCancel(ctx), ids...)
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// attachedName is the name a picture is attached under (the model gives it to upload_file):
// its file's, without folders, else "image N"; one a picture before it in the message has
// gets " (2)", " (3)"… before its extension.
func attachedName(name string, i int, before []store.StoredImage) string {
	name = strings.TrimSpace(name[strings.LastIndexAny(name, "/\\")+1:])
	if name == "" || name == "image" {
		name = fmt.Sprintf("image %d", i+1)
	}
	if len(name) > 120 {
		name = name[:120]
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

// agentImages are the images ids as a hosted agent takes them, when it takes any (takes); when
// it does not, the user's message says so and none go.
func (e *Engine) agentImages(ctx context.Context, ids []string, takes bool, r *hostedRun) []link.Image64 {
	if !takes {
		r.mu.Lock()
		i := lastUser(r.ses.Messages)
		if r.ses.Messages[i].NoticeText == nil {
			r.ses.Messages[i].SetNotice(sayAgentNoImages.With())
			r.save()
			r.show(i)
		}
		r.mu.Unlock()
		return nil
	}
	imgs, err := e.Store.Images(ctx, ids...)
	if err != nil {
		return nil
	}
	var out []link.Image64
	for _, id := range ids {
		if img, ok := imgs[id]; ok {
			out = append(out, link.Image64{Mime: img.Mime, Data: base64.StdEncoding.EncodeToString(img.Data)})
		}
	}
	return out
}
