package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ollamaStream is a reply as Ollama's OpenAI-compatible endpoint streams it, one chunk per part.
func ollamaStream(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		delta := map[string]any{"content": p}
		if i == 0 {
			delta["role"] = "assistant"
		}
		chunk, _ := json.Marshal(map[string]any{"id": "chatcmpl-199", "object": "chat.completion.chunk", "created": 1750587274, "model": "deepseek-r1",
			"system_fingerprint": "fp_ollama", "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}})
		fmt.Fprintf(&b, "data: %s\n\n", chunk)
	}
	b.WriteString(`data: {"id":"chatcmpl-199","object":"chat.completion.chunk","created":1750587274,"model":"deepseek-r1","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}

// A reasoning model served without a reasoning parser (DeepSeek-R1 on Ollama) opens its reply
// with <think>…</think>: its thoughts are reasoning, however the tags are cut across chunks, and
// the reply is what follows. A reply that does not open with the tag is text as it came.
func TestThoughtsInThinkTagsAreReasoning(t *testing.T) {
	p := mustLookup("ollama")
	for _, tt := range []struct {
		name              string
		text              string // the whole content, cut below at every place
		reasoning, answer string
	}{
		{"thoughts, then the answer", "<think>\nThe user greets me.\n</think>\n\nHello! How can I help?", "\nThe user greets me.\n", "Hello! How can I help?"},
		{"blank lines before the tag", "\n\n<think>Sum: 2+2=4 < 5</think>4", "Sum: 2+2=4 < 5", "4"},
		{"no thoughts (thinking off)", "<think>\n\n</think>\n\nParis.", "\n\n", "Paris."},
		{"no tag", "Paris is the capital.", "", "Paris is the capital."},
		{"a reply that opens with other markup", "<b>Paris</b> is the capital.", "", "<b>Paris</b> is the capital."},
		{"a start of the tag that is not one", "<thin ice>", "", "<thin ice>"},
		{"a tag later in the reply is words", "Use <think> tags like this: <think>x</think>.", "", "Use <think> tags like this: <think>x</think>."},
		{"cut off while thinking", "<think>Let me see</th", "Let me see</th", ""},
		{"a continued reply's first space", " and the boats come home.", "", " and the boats come home."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for cut := 0; cut <= len(tt.text); cut++ {
				for step := 1; step <= 3; step++ {
					var parts []string
					for i := 0; i < len(tt.text); i += step {
						end := min(len(tt.text), i+step)
						if i < cut && cut < end {
							end = cut
						}
						parts = append(parts, tt.text[i:end])
						i = end - step
					}
					r := fold(t, collect(p, strings.NewReader(ollamaStream(parts...))))
					assert.Equal(t, tt.reasoning, r.Reasoning, "%q", parts)
					assert.Equal(t, tt.answer, r.Text, "%q", parts)
					assert.Equal(t, "stop", r.Finish)
				}
			}
		})
	}
}

// A broken model that writes nothing but blank lines is read as text once it has written more
// than a reply opens with, not held while the blank grows.
func TestABlankReplyIsNotHeldForever(t *testing.T) {
	var got strings.Builder
	var tt thinkTags
	emit := func(e Event) { got.WriteString(e.Text) }
	for range 2000 {
		tt.add("\n\n\n", emit)
	}
	tt.end(emit)
	assert.Equal(t, strings.Repeat("\n", 6000), got.String())
	assert.Equal(t, thinkText, tt.state)
}

// A model whose chat template opened its thoughts writes them with only the closing tag
// (DeepSeek-R1's distills on vLLM, LocalAI, xinference): the words before a "</think>" that
// ends or starts a line are its thoughts. A reply that speaks of the tag is not split.
func TestThoughtsTheTemplateOpenedAreFound(t *testing.T) {
	for _, tt := range []struct {
		name, reply, thoughts, rest string
		ok                          bool
	}{
		{"R1's shape", "Okay, the user asks why the sky is blue.\nRayleigh scattering.\n</think>\n\nThe sky is blue because air scatters blue light most.", "Okay, the user asks why the sky is blue.\nRayleigh scattering.", "The sky is blue because air scatters blue light most.", true},
		{"the tag ends the thoughts' line", "Short thought.</think>\n\nAnswer.", "Short thought.", "Answer.", true},
		{"Windows line ends", "Thinking.\r\n</think>\r\n\r\nAnswer.", "Thinking.", "Answer.", true},
		{"the tag just came", "Thinking.\n</think>", "Thinking.", "", true},
		{"in backticks", "Close the block with `</think>`\nand go on.", "", "", false},
		{"in a code block", "Like this:\n```\n<think>x\n</think>\ny\n```\n", "", "", false},
		{"mid-sentence", "The </think> tag closes thoughts.", "", "", false},
		{"at the end of what came, mid-line", "The tag </think>", "", "", false},
		{"opened by the model: not this case", "Text <think>\nx\n</think>\ny", "", "", false},
		{"nothing before it", "\n</think>\n\nParis.", "", "", false},
		{"no tag", "Paris.", "", "", false},
	} {
		th, rest, ok := UnopenedThoughts(tt.reply)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.thoughts, th, tt.name)
		assert.Equal(t, tt.rest, rest, tt.name)
	}
}
