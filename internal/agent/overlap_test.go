package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// What a continued reply adds, as it comes: without the end of the cut reply when it starts by
// writing that again; whole when it does not, or only seems to for a while.
func TestAContinuedReplyDoesNotRepeatItsEnd(t *testing.T) {
	const base = "The fox crept along the hedge, watched the hens, and then it jumped over the lazy dog and ran"
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"goes on", []string{" into", " the woods."}, " into the woods."},
		{"the end again", []string{"over the lazy", " dog and ran", " into the woods."}, " into the woods."},
		{"the end again, after a blank", []string{"\n\njumped over the lazy dog and ran into the woods."}, " into the woods."},
		{"the end again, cut in many pieces", []string{"it ", "jump", "ed over the l", "azy dog and ran", "", " away."}, " away."},
		{"starts like the end, then not", []string{"over the lazy", " cat, which hissed."}, "over the lazy cat, which hissed."},
		{"a short repeat is kept", []string{"and ran", " home."}, "and ran home."},
		{"ends while it may still repeat", []string{"over the lazy dog"}, "over the lazy dog"},
		{"nothing", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := newJoiner(base)
			got := ""
			for _, c := range tc.chunks {
				got += j.add(c)
			}
			got += j.end()
			assert.Equal(t, tc.want, got)
		})
	}
	// Given on as it comes once it is clear: the first piece that cannot repeat the end.
	j := newJoiner(base)
	assert.Equal(t, " into", j.add(" into"))
	assert.Equal(t, " the", j.add(" the"))
}
