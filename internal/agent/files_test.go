package agent

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// Pictures are attached under their file's name, which upload_file takes: no folders, one
// for a nameless paste, and a second of the same name told apart.
func TestPicturesAreAttachedUnderNamesOfTheirOwn(t *testing.T) {
	var before []store.StoredImage
	var got []string
	for i, name := range []string{`C:\Users\ada\Pictures\me.png`, "image", "", "me.png", "me.png", "/tmp/scan"} {
		n := attachedName(name, i, before)
		before = append(before, store.StoredImage{Name: n})
		got = append(got, n)
	}
	assert.Equal(t, []string{"me.png", "image 2", "image 3", "me (2).png", "me (3).png", "scan"}, got)
	// A long name is cut on a letter, not inside one, and keeps its extension.
	long := attachedName(strings.Repeat("写真", 30)+".png", 0, nil)
	assert.True(t, utf8.ValidString(long), "%q", long)
	assert.True(t, strings.HasSuffix(long, "写真.png") && len(long) <= 120, "%q", long)
}

// upload_file is offered to the panel's model only in a chat that holds pictures to give.
func TestFilesToolOnlyWhereThereAreFiles(t *testing.T) {
	names := func(ts []provider.Tool) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return out
	}
	assert.False(t, slices.Contains(names(offered(true, false)), "upload_file"))
	assert.True(t, slices.Contains(names(offered(true, true)), "upload_file"))
	assert.True(t, slices.Contains(names(offered(true, false)), "console_messages"))
}

// A file the user attached goes to the model as its text, so it is no file upload_file can give
// a page: a chat that holds only files is offered no upload_file, and asking for one by its name
// finds nothing; a picture beside it is still found.
func TestAttachedFilesAreNotFilesToUpload(t *testing.T) {
	ctx := context.Background()
	e, _ := hostedEngine(t)
	png := []byte("\x89PNG\r\n\x1a\n rest of a picture")
	ids, _, err := e.SaveImages(ctx, []Attached{{Name: "notes.md", Mime: "text/markdown", Data: []byte("# notes")}, {Name: "me.png", Data: png}}, false, "")
	require.NoError(t, err)
	assert.False(t, pictures(ids[:1]))
	assert.True(t, pictures(ids))
	ses := &store.Session{Messages: []store.Message{{Role: "user", Images: ids}}}
	_, found := e.attached(ses)(ctx, "notes.md")
	assert.False(t, found, "a file's text was given as the file")
	f, found := e.attached(ses)(ctx, "me.png")
	assert.True(t, found)
	assert.Equal(t, png, f.Data)
}

// A file sent with its own bytes is kept apart from its text: upload_file is offered and finds
// the file itself under its name (its text goes to the model as before, and is no picture);
// one too large to keep goes as its text alone; deleting the attachment deletes the file too.
func TestAFileKeptWithItsTextCanBeUploaded(t *testing.T) {
	ctx := context.Background()
	e, st := hostedEngine(t)
	pdf := []byte("%PDF-1.4 the file itself")
	ids, _, err := e.SaveImages(ctx, []Attached{
		{Name: "cv.pdf", Mime: "application/pdf", Data: []byte("[Page 1]\nAda Lovelace"), Pages: 1, Original: pdf},
		{Name: "big.pdf", Mime: "application/pdf", Data: []byte("[Page 1]\nlong"), Original: make([]byte, MaxOriginal+1)},
	}, false, "")
	require.NoError(t, err)
	assert.False(t, pictures(ids))
	assert.True(t, uploadable(ids[:1]))
	assert.False(t, uploadable(ids[1:]), "a file too large to keep is its text alone")
	ses := &store.Session{Messages: []store.Message{{Role: "user", Images: ids}}}
	f, found := e.attached(ses)(ctx, "cv.pdf")
	require.True(t, found)
	assert.Equal(t, pdf, f.Data)
	assert.Equal(t, "application/pdf", f.Mime)
	_, found = e.attached(ses)(ctx, "big.pdf")
	assert.False(t, found)

	require.NoError(t, st.DeleteImages(ctx, ids...))
	_, kept, err := st.Original(ctx, ids[0])
	require.NoError(t, err)
	assert.False(t, kept, "the file outlived its attachment")
}
