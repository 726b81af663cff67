package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	staticImport = regexp.MustCompile(`(?m)^import [^;]*?from "\./([a-z./]+\.js)"`)
	byID         = regexp.MustCompile(`\$\("([A-Za-z0-9_-]+)"\)`)
)

// modules is entry and every module it imports at its start (not the ones it imports later,
// as office.js), each once; web/ modules import the shared ones from beside them.
func modules(t *testing.T, dir, entry string, seen map[string]bool) {
	path := filepath.Join(dir, entry)
	if _, err := os.Stat(path); os.IsNotExist(err) && dir != "." {
		path = entry // the web client's shared modules
	}
	if seen[path] {
		return
	}
	seen[path] = true
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, m := range staticImport.FindAllStringSubmatch(string(b), -1) {
		modules(t, filepath.Dir(path), m[1], seen)
	}
}

// A module three pages share (the composer, the attachments) that looks up an element one of
// them lacks throws as it loads, and that page's script stops: the overlay, missing the agent's
// mode picker, never started. Every element a page's modules look up by id ($("…")) is in it.
func TestEveryElementAPageLooksUpIsThere(t *testing.T) {
	for page, entry := range map[string]string{"index.html": "main.js", "overlay.html": "overlay.js", "web/index.html": "app.js"} {
		html, err := os.ReadFile(page)
		require.NoError(t, err)
		seen := map[string]bool{}
		modules(t, filepath.Dir(page), entry, seen)
		for mod := range seen {
			if mod == "dom.js" {
				continue // its banner() and announce() are the panel's, called only there
			}
			b, err := os.ReadFile(mod)
			require.NoError(t, err)
			for _, m := range byID.FindAllStringSubmatch(string(b), -1) {
				assert.Contains(t, string(html), `id="`+m[1]+`"`, "%s uses #%s, which %s does not have", mod, m[1], page)
			}
		}
	}
}
