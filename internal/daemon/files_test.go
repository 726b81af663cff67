package daemon

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// skiffd reads the files an upload_file call names, on its own computer, by absolute path
// only, and refuses what it must not send with a sentence.
func TestUploadsReadTheNamedFiles(t *testing.T) {
	dir := t.TempDir()
	cv := filepath.Join(dir, "cv.pdf")
	require.NoError(t, os.WriteFile(cv, []byte("%PDF-1.7 hello"), 0o600))
	noExt := filepath.Join(dir, "notes")
	require.NoError(t, os.WriteFile(noExt, []byte("plain words\n"), 0o600))
	args := func(paths ...string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"ref": "e1", "files": paths})
		return b
	}
	files, err := Uploads(args(cv, noExt))
	require.NoError(t, err)
	require.Len(t, files, 2)
	assert.Equal(t, cv, files[0].Path)
	assert.Equal(t, "cv.pdf", files[0].Name)
	assert.Equal(t, "application/pdf", files[0].Mime)
	assert.Equal(t, []byte("%PDF-1.7 hello"), files[0].Data)
	assert.Equal(t, "text/plain", files[1].Mime, "by its bytes, without parameters")

	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxUploadFile+1)) // sparse: nothing is written
	require.NoError(t, f.Close())
	for _, c := range []struct{ path, says string }{
		{"cv.pdf", "is not an absolute path"},
		{filepath.Join(dir, "gone.pdf"), "There is no file " + filepath.Join(dir, "gone.pdf")},
		{dir, "is a folder"},
		{big, "skiffd sends files of up to 25 MB"},
	} {
		_, err := Uploads(args(c.path))
		if assert.Error(t, err, c.path) {
			assert.Contains(t, err.Error(), c.says)
			assert.True(t, strings.HasSuffix(err.Error(), "."), "a sentence: %s", err)
		}
	}
	files, err = Uploads(json.RawMessage(`{"ref":"e1"}`))
	assert.NoError(t, err, "no files: the tool says what is missing")
	assert.Empty(t, files)
}
