package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// How much of the past the model gets again: images only from the most recent tool results
// that have one, and bulky page reads only from the most recent ones (a long run would
// otherwise resend every snapshot it ever took).
const (
	keepImages = 2
	// keepUserImages: the images the user attached, of this many of the latest messages.
	keepUserImages = 4
	keepReads      = 3
	bulky          = 2000 // bytes: a tool result longer than this counts as a page read
)

// history turns stored messages into the provider conversation. Replies that failed or were
// stopped are sent as far as they got; empty ones are left out, since providers reject empty
// turns. Every tool call gets a result, even one a restart cut off, because providers reject
// a call without its result. Tool results that hold page text are fenced as data.
// tight keeps one page read and one picture, for a model whose window the usual did not fit.
func (e *Engine) history(ctx context.Context, ms []store.Message, vision, agent, tight bool) ([]provider.Message, error) {
	maxReads, maxImages := keepReads, keepImages
	if tight {
		maxReads, maxImages = 1, 1
	}
	results := map[string]*store.Message{}
	imageFrom, readFrom := -1, -1
	images, reads := 0, 0
	for i := len(ms) - 1; i >= 0; i-- {
		m := &ms[i]
		if m.Role != "tool" || m.Tool == nil {
			continue
		}
		results[m.Tool.CallID] = m
		if m.Tool.Image != "" && images < maxImages {
			images++
			imageFrom = i
		}
		if len(m.Content) > bulky && reads < maxReads {
			reads++
			readFrom = i
		}
	}
	if reads < maxReads {
		readFrom = 0
	}
	// The images the user attached go again with the most recent messages that carry some.
	userFrom, withImages := len(ms), 0
	for i := len(ms) - 1; i >= 0 && withImages < keepUserImages; i-- {
		if ms[i].Role == "user" && len(ms[i].Images) > 0 {
			withImages++
			userFrom = i
		}
	}
	var want []string
	if vision {
		for i := max(imageFrom, 0); i < len(ms); i++ {
			if m := ms[i]; imageFrom >= 0 && m.Tool != nil && m.Tool.Image != "" {
				want = append(want, m.Tool.Image)
			}
		}
	}
	// Read whatever a model sees or not: a file's text goes to every model.
	for i := userFrom; i < len(ms); i++ {
		if ms[i].Role == "user" {
			want = append(want, ms[i].Images...)
		}
	}
	imgs := map[string]store.StoredImage{}
	if len(want) > 0 {
		var err error
		if imgs, err = e.Store.Images(ctx, want...); err != nil {
			return nil, err
		}
	}
	index := map[*store.Message]int{}
	for i := range ms {
		index[&ms[i]] = i
	}
	var out []provider.Message
	for i := range ms {
		m := &ms[i]
		switch {
		case m.Role == "tool":
			continue // placed after the call it answers
		case m.Role == "user":
			pm := provider.Message{Role: "user", Content: m.Content}
			if len(m.Images) > 0 {
				missing, blind := 0, 0
				var names, docs []string
				for _, id := range m.Images {
					img, ok := imgs[id]
					switch {
					case !ok || i < userFrom:
						missing++
					case IsDocument(img.Mime):
						docs = append(docs, documentBlock(img, markOf(m.ID)))
						if agent && img.Original && img.Name != "" {
							names = append(names, "“"+img.Name+"”")
						}
					case !vision:
						blind++
					default:
						pm.Images = append(pm.Images, provider.Image{Mime: img.Mime, Data: img.Data})
						if agent && img.Name != "" {
							names = append(names, "“"+img.Name+"”")
						}
					}
				}
				if len(names) > 0 {
					// For an agent, the names the pictures and kept files go by (what
					// upload_file takes).
					pm.Content += "\n[Attached: " + strings.Join(names, ", ") + "]"
				}
				if blind > 0 {
					pm.Content += fmt.Sprintf("\n[The user attached %d image(s); this model cannot see images, so they were not sent.]", blind)
				}
				if missing > 0 {
					pm.Content += fmt.Sprintf("\n[%d file(s) the user attached to this message are no longer sent.]", missing)
				}
				for _, d := range docs {
					pm.Content += "\n\n" + d
				}
			}
			out = append(out, pm)
		case m.Status == store.StatusStreaming:
			continue
		case m.Content == "" && len(m.ToolCalls) == 0:
			continue
		default:
			out = append(out, provider.Message{Role: "assistant", Content: m.Content, ToolCalls: m.ToolCalls, Reasoning: m.Reasoning})
			for _, c := range m.ToolCalls {
				r := results[c.ID]
				if r == nil {
					out = append(out, provider.Message{Role: "tool", ToolCallID: c.ID, ToolName: c.Name, IsError: true, Content: interruptedResult})
					continue
				}
				pm := provider.Message{Role: "tool", ToolCallID: c.ID, ToolName: c.Name, IsError: r.Tool.IsError, Content: toolContent(r)}
				if index[r] < readFrom && len(r.Content) > bulky {
					pm.Content = fmt.Sprintf("[This %s result was %d characters; it was dropped to save room. Run the tool again if you need it.]", c.Name, len(r.Content))
				}
				if id := r.Tool.Image; id != "" {
					if img, ok := imgs[id]; ok {
						pm.Images = []provider.Image{{Mime: img.Mime, Data: img.Data}}
					} else {
						pm.Content += "\n[The screenshot is no longer attached.]"
					}
				}
				out = append(out, pm)
			}
		}
	}
	// A reply that failed (or was stopped before a word) leaves two user messages in a row:
	// they go as one, since the chat templates of some local models (Gemma's, Mistral's, run by
	// llama.cpp or LM Studio) refuse roles that do not alternate.
	merged := out[:0]
	for _, m := range out {
		if n := len(merged); n > 0 && m.Role == "user" && merged[n-1].Role == "user" {
			prev := &merged[n-1]
			prev.Content += "\n\n" + m.Content
			prev.Images = append(prev.Images, m.Images...)
			continue
		}
		merged = append(merged, m)
	}
	return merged, nil
}

// toolContent is what the model reads of a tool's result: whatever a tool that ran returned
// (page text, or an error that may quote the page) is fenced as data, and what in it reads like
// instructions to the model is pointed out after the fence.
func toolContent(m *store.Message) string {
	c := m.Content
	if c == "" {
		switch m.Status {
		case store.StatusInterrupted:
			c = interruptedResult
		default:
			c = "(no output)"
		}
	}
	if m.Tool.StartedAt == 0 && !m.Tool.Quoted {
		return c // not run: Skiff's own words (denied, stopped, no such tool)
	}
	return fenced(m.Tool.Name, markOf(m.ID), c, m.Tool.Flags)
}
