package acphost

import (
	"errors"
	"fmt"
	"github.com/skiff-ai/skiff/internal/link"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Files is the one folder the user chose for agents (in skiffd's config, never a folder a
// client names), opened with os.Root: ".." and symlinks cannot leave it. Dot-files and .git
// are hidden unless allowed, only regular files are read or written (no devices, fifos or
// /proc-like files), and sizes are capped.
type Files struct {
	root     *os.Root
	dir      string
	dotfiles bool
}

// MaxRead and MaxWrite cap a file the agent reads or writes.
const (
	MaxRead  = 4 << 20
	MaxWrite = 4 << 20
)

// OpenFiles opens dir as the agents' folder. dotfiles allows names that start with a dot.
func OpenFiles(dir string, dotfiles bool) (*Files, error) {
	if dir == "" {
		return nil, sayNoFolder.Error()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, sayFolderClosed.Error(abs, reason(err))
	}
	return &Files{root: r, dir: abs, dotfiles: dotfiles}, nil
}

// Dir is the folder's absolute path (an agent's cwd).
func (f *Files) Dir() string { return f.dir }

// Close releases the folder.
func (f *Files) Close() error { return f.root.Close() }

// rel turns an agent's path (absolute, as ACP requires, or relative to the folder) into a
// name inside the folder, refusing what is outside it or hidden.
func (f *Files) rel(path string) (string, error) {
	p := path
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(f.dir, filepath.Clean(p))
		if err != nil || r == ".." || strings.HasPrefix(r, "../") {
			return "", sayOutside.Error(path, f.dir)
		}
		p = r
	}
	p = filepath.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", sayOutside.Error(path, f.dir)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".git" || (!f.dotfiles && strings.HasPrefix(part, ".") && part != ".") {
			return "", sayHidden.Error(path)
		}
	}
	return p, nil
}

// Read returns a text file's content, from line (1-based; 0: the start) for limit lines (0:
// all).
func (f *Files) Read(path string, line, limit int) (string, error) {
	name, err := f.rel(path)
	if err != nil {
		return "", err
	}
	st, err := f.root.Stat(name)
	if err != nil {
		return "", plain(path, err)
	}
	if !st.Mode().IsRegular() {
		return "", sayNotRegular.Error(path)
	}
	if st.Size() > MaxRead {
		return "", sayTooBigToRead.Error(path, st.Size(), MaxRead)
	}
	b, err := f.root.ReadFile(name)
	if err != nil {
		return "", plain(path, err)
	}
	s := string(b)
	if line > 1 || limit > 0 {
		lines := strings.SplitAfter(s, "\n")
		start := max(line-1, 0)
		if start > len(lines) {
			start = len(lines)
		}
		end := len(lines)
		if limit > 0 && start+limit < end {
			end = start + limit
		}
		s = strings.Join(lines[start:end], "")
	}
	return s, nil
}

// Old is what a write would replace: the file's text, and whether it exists.
func (f *Files) Old(path string) (string, bool, error) {
	name, err := f.rel(path)
	if err != nil {
		return "", false, err
	}
	st, err := f.root.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, plain(path, err)
	}
	if !st.Mode().IsRegular() {
		return "", true, sayNotRegular.Error(path)
	}
	s, err := f.Read(path, 0, 0)
	return s, true, err
}

// Write creates or replaces a text file (and its folders).
func (f *Files) Write(path, content string) error {
	name, err := f.rel(path)
	if err != nil {
		return err
	}
	if len(content) > MaxWrite {
		return sayTooBigToWrite.Error(path, len(content), MaxWrite)
	}
	if st, err := f.root.Lstat(name); err == nil && !st.Mode().IsRegular() {
		return sayNotRegular.Error(path)
	}
	if dir := filepath.Dir(name); dir != "." {
		if err := f.root.MkdirAll(dir, 0o755); err != nil {
			return plain(path, err)
		}
	}
	return plain(path, f.root.WriteFile(name, []byte(content), 0o644))
}

// Entry is one item of a folder listing.
type Entry = link.FileEntry

// List lists a folder inside the shared one ("" or "." for its top), folders first.
func (f *Files) List(path string) ([]Entry, error) {
	name := "."
	if path != "" {
		var err error
		if name, err = f.rel(path); err != nil {
			return nil, err
		}
	}
	d, err := f.root.Open(name)
	if err != nil {
		return nil, plain(path, err)
	}
	defer d.Close()
	items, err := d.ReadDir(-1)
	if err != nil {
		return nil, plain(path, err)
	}
	out := []Entry{} // an empty folder is an empty list, not null (the clients map over it)
	for _, it := range items {
		n := it.Name()
		if n == ".git" || (!f.dotfiles && strings.HasPrefix(n, ".")) {
			continue
		}
		e := Entry{Name: n, Dir: it.IsDir()}
		if info, err := it.Info(); err == nil && info.Mode().IsRegular() {
			e.Size = info.Size()
		} else if !it.IsDir() {
			continue // not a regular file: not shown
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dir != out[j].Dir {
			return out[i].Dir
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// plain words an os error without the root's internals.
func plain(path string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return sayNoSuchFile.Error(path)
	case errors.Is(err, fs.ErrPermission):
		return sayNoAccess.Error(path)
	case strings.Contains(err.Error(), "escapes from parent") || strings.Contains(err.Error(), "path escapes"):
		return sayLeadsOutside.Error(path)
	}
	return fmt.Errorf("%s: %w", path, err)
}
