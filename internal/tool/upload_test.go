package tool

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAcceptsTheKindsAFieldNames(t *testing.T) {
	pdf := File{Name: "CV.PDF", Mime: "application/pdf"}
	png := File{Name: "me.png", Mime: "image/png"}
	for _, c := range []struct {
		accept string
		f      File
		ok     bool
	}{
		{"", pdf, true},
		{".pdf,.doc", pdf, true},               // by extension, whatever its case
		{" .doc , application/pdf", pdf, true}, // by type, spaces around
		{"image/*", png, true},
		{"image/*", pdf, false},
		{".png", pdf, false},
		{"image/jpeg", png, false},
	} {
		assert.Equal(t, c.ok, accepts(c.accept, c.f), "%q takes %s", c.accept, c.f.Name)
	}
}

func TestAFieldTakesWhatAPersonsChooserWould(t *testing.T) {
	one := fileField{Field: "button “CV”", Accept: ".pdf"}
	_, err := one.fits([]File{{Name: "a.pdf"}, {Name: "b.pdf"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "takes one file, not 2")
	warn, err := one.fits([]File{{Name: "a.txt", Mime: "text/plain"}})
	require.NoError(t, err, "a kind it does not ask for is said, not refused")
	assert.Equal(t, " The field asks for .pdf, which a.txt is not: the page may refuse it.", warn)
	_, err = fileField{Field: "x", Disabled: true}.fits([]File{{Name: "a"}})
	assert.ErrorContains(t, err, "is disabled")
	warn, err = fileField{Multiple: true}.fits([]File{{Name: "a"}, {Name: "b"}})
	assert.NoError(t, err)
	assert.Empty(t, warn)
}

// A call's files come beside its arguments, by the paths it names; without them (the panel's
// model, or a path skiffd did not read) the call says where files come from.
func TestFilesComeWithTheCall(t *testing.T) {
	ctx := WithFiles(context.Background(), []File{{Path: "/a/cv.pdf", Name: "cv.pdf", Data: []byte("x")}, {Path: "/b/me.png", Name: "me.png"}})
	got, err := chosen(ctx, []string{"/b/me.png", "/a/cv.pdf"})
	require.NoError(t, err)
	assert.Equal(t, []string{"me.png", "cv.pdf"}, []string{got[0].Name, got[1].Name})
	_, err = chosen(ctx, []string{"/c/other.txt"})
	assert.ErrorContains(t, err, `the file "/c/other.txt" did not come with this call`)
	_, err = chosen(context.Background(), []string{"/a/cv.pdf"})
	assert.ErrorContains(t, err, "through skiffd")
	_, err = chosen(ctx, nil)
	assert.ErrorContains(t, err, "say which files")
}

func TestSizesReadAsAPersonReadsThem(t *testing.T) {
	assert.Equal(t, "a (12 bytes)", sized(File{Name: "a", Data: make([]byte, 12)}))
	assert.Equal(t, "a (12.3 KB)", sized(File{Name: "a", Data: make([]byte, 12345)}))
	assert.Equal(t, "a (2.5 MB)", sized(File{Name: "a", Data: make([]byte, 2_500_000)}))
	assert.True(t, strings.HasSuffix(holds(nil, []File{{Name: "a"}}), "The page took them from the field and emptied it."))
	assert.Empty(t, holds([]string{"a"}, []File{{Name: "a"}}))
}
