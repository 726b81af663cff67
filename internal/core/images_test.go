package core

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// pngBytes is a real 1×1 PNG.
var pngBytes, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

// An image the user attaches goes to the model with the message, in each wire format, is
// stored with the chat (and read back by its id), and is left out (said, not dropped silently)
// for a model that does not see images.
func TestAttachedImagesReachTheModel(t *testing.T) {
	for _, id := range []string{"openai", "anthropic", "google", "deepseek"} {
		t.Run(id, func(t *testing.T) {
			model := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "A red square."} })
			c := newCore(t, store.NewMemKV(), id, model.URL)
			p := &panel{}
			c.Connect(p)
			res := p.callOK(t, c, "chat.send", obj{"text": "What is this?", "images": []obj{{"name": "square.png", "mime": "image/png", "data": pngBytes}}})
			done := p.waitFor(t, "chat.done")
			require.Equal(t, "A red square.", done["message"].(map[string]any)["content"])
			convs := model.Conversations()
			require.Len(t, convs, 1)
			last := convs[0].Messages[len(convs[0].Messages)-1]
			require.Equal(t, "user", last.Role)

			ses, err := c.Store.Session(context.Background(), res.(map[string]any)["sessionId"].(string))
			require.NoError(t, err)
			user := ses.Messages[0]
			require.Len(t, user.Images, 1)
			img := p.callOK(t, c, "tool.image", obj{"imageId": user.Images[0]}).(map[string]any)
			assert.Equal(t, "image/png", img["mime"])

			if id == "deepseek" {
				assert.Zero(t, last.Images, "a model that does not see images got one")
				assert.Contains(t, last.Text, "cannot see images")
				require.NotNil(t, user.NoticeText)
				assert.Equal(t, "noticeNoVision", user.NoticeText.Key)
				return
			}
			assert.Nil(t, user.NoticeText)
			require.Equal(t, 1, last.Images, "the model got no image: %+v", last)
			assert.Equal(t, pngBytes, last.Pictures[0])
			assert.Contains(t, last.Text, "What is this?")
		})
	}
}

// What is not an image, too many images, or one too large, is refused with a sentence, and
// nothing is stored or sent.
func TestAttachedImagesAreChecked(t *testing.T) {
	model := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "ok"} })
	kv := store.NewMemKV()
	c := newCore(t, kv, "openai", model.URL)
	p := &panel{}
	c.Connect(p)
	before := kv.Writes
	five := []obj{}
	for range 5 {
		five = append(five, obj{"name": "a.png", "data": pngBytes})
	}
	for _, tc := range []struct {
		images []obj
		key    string
	}{
		{[]obj{{"name": "notes.txt", "mime": "image/png", "data": []byte("<svg onload=alert(1)>")}}, "errImageType"},
		{five, "errTooManyImages"},
		{[]obj{{"name": "a.png", "data": pngBytes}, {"name": "huge.png", "data": append(append([]byte{}, pngBytes...), make([]byte, 5<<20)...)}}, "errImageTooBig"},
	} {
		r := p.call(t, c, "chat.send", obj{"text": "look", "images": tc.images})
		require.Equal(t, false, r["ok"], r)
		e := r["error"].(map[string]any)
		assert.Equal(t, tc.key, e["text"].(map[string]any)["key"], e)
		assert.False(t, strings.Contains(e["message"].(string), "agent:"), e)
	}
	assert.Empty(t, model.Conversations())
	assert.Equal(t, before, kv.Writes, "something was stored")

	// An image alone is a message.
	p.callOK(t, c, "chat.send", obj{"text": "", "images": []obj{{"name": "a.png", "data": pngBytes}}})
	p.waitFor(t, "chat.done")
	require.Len(t, model.Conversations(), 1)
}
