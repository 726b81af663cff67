package core

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// Continue goes on with a reply that was cut off (at the length limit, or by a stream that
// broke) in each wire format: the model reads the chat with the cut reply last and the ask to
// go on, what it writes is added to that same reply, which then reads whole, with its notice
// gone and both parts' tokens counted; a reply that ended whole is not continued.
func TestContinueGoesOnWithACutReply(t *testing.T) {
	// Where each format's stream is cut: after its first words (OpenAI: the role, two pieces;
	// Anthropic: the start, the block, a ping, a piece; Gemini: the first of two pieces).
	cutAfter := map[string]int{"openai": 3, "anthropic": 4, "google": 1}
	for _, id := range []string{"openai", "anthropic", "google"} {
		t.Run(id, func(t *testing.T) {
			model := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
				last := c.Last().Text
				switch {
				case strings.Contains(last, "cut off") && strings.Contains(c.Messages[len(c.Messages)-2].Text, "fox"):
					// A model that writes the end of the cut reply again first.
					return testkit.Turn{Text: "lived by the river bank and fished every day."}
				case strings.Contains(last, "fox"):
					return testkit.Turn{Text: "Once upon a time a fox lived by the river bank", Length: true}
				case strings.Contains(last, "cut off"):
					return testkit.Turn{Text: " comes in twice a day."}
				case strings.Contains(last, "tide"):
					return testkit.Turn{Text: "The tide", Length: true}
				}
				return testkit.Turn{Text: "One two three four five six seven eight nine", CutAfter: cutAfter[id]}
			})
			c := newCore(t, store.NewMemKV(), id, model.URL)
			ctx := context.Background()
			p := &panel{}
			c.Connect(p)
			sid := p.callOK(t, c, "chat.send", obj{"text": "When is the tide?"}).(map[string]any)["sessionId"].(string)
			p.waitFor(t, "chat.done")
			ses, err := c.Store.Session(ctx, sid)
			require.NoError(t, err)
			cut := ses.Messages[1]
			require.Equal(t, "length", cut.Finish, "%+v", cut)
			require.NotNil(t, cut.NoticeText)
			require.NotNil(t, cut.Usage)

			p.reset()
			p.callOK(t, c, "chat.continue", obj{"sessionId": sid})
			done := p.waitFor(t, "chat.done")["message"].(map[string]any)
			assert.Equal(t, "The tide comes in twice a day.", done["content"])
			assert.Equal(t, cut.ID, done["id"], "the same reply goes on")
			assert.Nil(t, done["noticeText"], "the length notice stayed")
			convs := model.Conversations()
			asked := convs[len(convs)-1].Messages
			require.Len(t, asked, 3, "%+v", asked)
			assert.Equal(t, "assistant", asked[1].Role)
			assert.Equal(t, "The tide", strings.TrimSpace(asked[1].Text))
			assert.Contains(t, asked[2].Text, "Continue it from exactly where it stops")
			ses, err = c.Store.Session(ctx, sid)
			require.NoError(t, err)
			require.Len(t, ses.Messages, 2, "the ask to go on was stored")
			require.NotNil(t, ses.Messages[1].Usage)
			assert.Equal(t, 2*cut.Usage.Output, ses.Messages[1].Usage.Output, "both parts' tokens")
			assert.NotEqual(t, "length", ses.Messages[1].Finish)

			r := p.call(t, c, "chat.continue", obj{"sessionId": sid})
			e, ok := r["error"].(map[string]any)
			require.True(t, ok, "a whole reply was continued: %v", r)
			assert.Equal(t, "errNothingToContinue", e["text"].(map[string]any)["key"])

			// A stream that broke midway keeps its words, and goes on from them.
			p.reset()
			p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": "Count for me."})
			failed := p.waitFor(t, "chat.done")["message"].(map[string]any)
			require.Equal(t, "error", failed["status"], "%v", failed)
			partial := failed["content"].(string)
			require.NotEmpty(t, partial)
			p.reset()
			p.callOK(t, c, "chat.continue", obj{"sessionId": sid})
			done = p.waitFor(t, "chat.done")["message"].(map[string]any)
			assert.Equal(t, partial+" comes in twice a day.", done["content"])
			assert.Nil(t, done["status"])
			assert.Nil(t, done["error"])

			// A model that starts by writing the reply's end again: the reply reads once, on
			// screen as it comes too.
			p.reset()
			p.callOK(t, c, "chat.send", obj{"sessionId": sid, "text": "Tell me about the fox."})
			p.waitFor(t, "chat.done")
			p.reset()
			p.callOK(t, c, "chat.continue", obj{"sessionId": sid})
			done = p.waitFor(t, "chat.done")["message"].(map[string]any)
			assert.Equal(t, "Once upon a time a fox lived by the river bank and fished every day.", done["content"])
			var deltas strings.Builder
			for _, d := range p.find("chat.delta") {
				deltas.WriteString(d["text"].(string))
			}
			assert.Equal(t, " and fished every day.", deltas.String())
		})
	}
}
