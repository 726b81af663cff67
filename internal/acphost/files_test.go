package acphost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shared folder is a wall: relative and absolute escapes, symlinks out, dot-files, .git
// and device files are refused; inside, reads by line and writes (with new folders) work.
func TestFilesStayInTheirFolder(t *testing.T) {
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("key"), 0o600))
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.md"), []byte("one\ntwo\nthree\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "out")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero")))

	f, err := OpenFiles(dir, false)
	require.NoError(t, err)
	defer f.Close()

	s, err := f.Read(filepath.Join(dir, "notes.md"), 2, 1)
	require.NoError(t, err)
	assert.Equal(t, "two\n", s)
	s, err = f.Read("notes.md", 0, 0)
	require.NoError(t, err)
	assert.Equal(t, "one\ntwo\nthree\n", s)

	for _, p := range []string{
		filepath.Join(outside, "secret.txt"), "../" + filepath.Base(outside) + "/secret.txt",
		filepath.Join(dir, "..", filepath.Base(outside), "secret.txt"),
		"out/secret.txt", "link.txt", ".env", ".git/config", "zero", "/etc/passwd",
	} {
		_, err := f.Read(p, 0, 0)
		assert.Error(t, err, p)
		assert.Error(t, f.Write(p, "x"), p)
	}
	b, _ := os.ReadFile(filepath.Join(outside, "secret.txt"))
	assert.Equal(t, "key", string(b), "nothing outside was written")

	require.NoError(t, f.Write(filepath.Join(dir, "src/new.go"), "package x\n"))
	s, err = f.Read("src/new.go", 0, 0)
	require.NoError(t, err)
	assert.Equal(t, "package x\n", s)

	ls, err := f.List("")
	require.NoError(t, err)
	var names []string
	for _, e := range ls {
		names = append(names, e.Name)
	}
	assert.Equal(t, []string{"src", "notes.md"}, names, "folders first; no dot-files, .git, symlinks or device files")
	_, err = f.List("out")
	assert.Error(t, err, "a symlinked folder that leaves the root cannot be listed")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "empty"), 0o755))
	ls, err = f.List("empty")
	require.NoError(t, err)
	b, _ = json.Marshal(ls)
	assert.Equal(t, "[]", string(b), "an empty folder is a list the clients can map over")

	_, err = OpenFiles("", false)
	assert.Error(t, err)
}
