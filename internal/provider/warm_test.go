package provider

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The warm-up goes through each wire format's real decoder: every event it makes is read as
// the text it carries (a made-up event the decoder did not understand would warm nothing).
func TestWarmDecodesItsReplyInEachFormat(t *testing.T) {
	for _, p := range All() {
		texts, other := 0, 0
		for ev := range p.Warm(50) {
			switch {
			case ev.Kind == EventText:
				texts++
			case ev.Kind == EventError: // the made-up reply has no end marker: it ends cut
			default:
				other++
			}
		}
		assert.Equal(t, 50, texts, p.ID)
		assert.Zero(t, other, p.ID)
	}
}
