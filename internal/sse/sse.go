// Package sse reads Server-Sent Events streams (WHATWG rules: BOM, CR/LF/CRLF, comments,
// multi-line data) with go-sse's parser.
//
// It exists because github.com/tmaxmax/go-sse's root package imports net/http, which would add
// 2.2 MB to core.wasm; the parser in ./parser is go-sse's own, copied unchanged, and Read
// behaves exactly as go-sse's sse.Read (the tests check both on the same input).
package sse

import (
	"io"
	"strings"

	"github.com/skiff-ai/skiff/internal/sse/parser"
)

// Event is one dispatched SSE event.
type Event struct {
	// Type is the "event" field, empty when the event is unnamed.
	Type string
	// Data is the data lines of the event joined with "\n".
	Data string
}

// ErrUnexpectedEOF is yielded when the input ends in the middle of a line: the producer was
// cut off.
var ErrUnexpectedEOF = parser.ErrUnexpectedEOF

// MaxEventSize bounds a single event; larger events end the stream with bufio.ErrTooLong.
// Provider chunks are small; 1 MiB leaves room for a large tool-call argument in one chunk.
const MaxEventSize = 1 << 20

// Read parses r and yields its events in order. It stops at the first read error, which is
// yielded with a zero Event; reaching EOF is not an error. As in go-sse, an event that is cut
// off by EOF (no blank line after it) is still yielded: callers that need to know whether the
// producer finished must look at the content (a provider's finish marker), not at framing.
func Read(r io.Reader) func(yield func(Event, error) bool) {
	return func(yield func(Event, error) bool) {
		p := parser.New(r)
		p.Buffer(nil, MaxEventSize)

		typ, sb, dirty := "", strings.Builder{}, false
		emit := func() bool {
			data := sb.String()
			if data != "" {
				data = data[:len(data)-1]
			}
			ok := yield(Event{Type: typ, Data: data}, nil)
			sb.Reset()
			typ, dirty = "", false
			return ok
		}
		for f := (parser.Field{}); p.Next(&f); {
			switch f.Name {
			case parser.FieldNameData:
				sb.WriteString(f.Value)
				sb.WriteByte('\n')
				dirty = true
			case parser.FieldNameEvent:
				typ = f.Value
				dirty = true
			case parser.FieldNameID:
				// go-sse marks the event dirty on a valid id; ids carry nothing a provider uses.
				if strings.IndexByte(f.Value, 0) == -1 {
					dirty = true
				}
			case parser.FieldNameRetry, parser.FieldNameComment:
				// retry without a reconnecting client and comments (": OPENROUTER PROCESSING") are ignored.
			default:
				if dirty && !emit() {
					return
				}
			}
		}
		err := p.Err()
		if err == io.EOF { //nolint:errorlint // the parser returns io.EOF unwrapped
			if dirty {
				emit()
			}
			return
		}
		if err != nil {
			yield(Event{}, err)
		}
	}
}
