package agent

import (
	"fmt"
	"strings"
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
	// A model that writes a long reply over from its start, word for word, adds only what
	// comes past the cut; one that starts it over in other words is kept as it wrote it.
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "On day %d the fox crept along the hedge and watched the hens. ", i+1)
	}
	long := b.String() + "Then it jumped"
	j := newJoiner(long)
	got := ""
	for i := 0; i < len(long); i += 37 {
		got += j.add(long[i:min(len(long), i+37)])
	}
	assert.Empty(t, got, "held while it writes the reply again")
	got += j.add(" over the lazy dog.")
	assert.Equal(t, " over the lazy dog.", got+j.end())
	j = newJoiner(long)
	assert.Equal(t, "", j.add(long[:300])+j.end(), "it wrote the reply again and stopped short of the cut")
	j = newJoiner(long)
	assert.Equal(t, "On day 1 the fox ran", j.add("On day 1 the fox ran"))

	// Given on as it comes once it is clear: the first piece that cannot repeat the end.
	j = newJoiner(base)
	assert.Equal(t, " into", j.add(" into"))
	assert.Equal(t, " the", j.add(" the"))
}
