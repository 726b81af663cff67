package provider

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzDecoder checks the decoder's contract on arbitrary input: no panic, exactly one terminal
// event and it is last, and splitting the input changes nothing.
func fuzzDecoder(f *testing.F, providerID, dir string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "recorded", dir, "*.sse"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err == nil {
			f.Add(b, uint16(len(b)/2))
		}
	}
	f.Add([]byte("data: [DONE]\n\n"), uint16(3))
	f.Add([]byte("\xef\xbb\xbfdata: {}\r\n\r\nevent: error\ndata: {\"error\":\"x\"}\n\n"), uint16(9))
	p := mustLookup(providerID)
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		whole := collect(p, bytes.NewReader(data))
		if len(whole) == 0 {
			t.Fatal("no events: the terminal event is missing")
		}
		for i, ev := range whole {
			terminal := ev.Kind == EventFinish || ev.Kind == EventError
			if terminal != (i == len(whole)-1) {
				t.Fatalf("event %d of %d has kind %d", i, len(whole), ev.Kind)
			}
			if ev.Kind == EventError && ev.Err.Error() == "" {
				t.Fatal("error without a message")
			}
		}
		s := int(split) % (len(data) + 1)
		parts := collect(p, &splitReader{parts: [][]byte{data[:s:s], data[s:]}})
		if len(parts) != len(whole) {
			t.Fatalf("split at %d: %d events, whole: %d", s, len(parts), len(whole))
		}
		for i := range whole {
			if whole[i].Kind != parts[i].Kind || whole[i].Text != parts[i].Text ||
				!strings.EqualFold(errText(whole[i].Err), errText(parts[i].Err)) {
				t.Fatalf("split at %d: event %d differs", s, i)
			}
		}
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func FuzzDecodeOpenAI(f *testing.F)    { fuzzDecoder(f, "openrouter", "*") }
func FuzzDecodeAnthropic(f *testing.F) { fuzzDecoder(f, "anthropic", "anthropic") }
func FuzzDecodeGoogle(f *testing.F)    { fuzzDecoder(f, "google", "gemini") }
