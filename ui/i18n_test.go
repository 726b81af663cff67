package ui

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type message struct {
	Message      string `json:"message"`
	Description  string `json:"description"`
	Placeholders map[string]struct {
		Content string `json:"content"`
	} `json:"placeholders"`
}

func catalog(t *testing.T, locale string) map[string]message {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("_locales", locale, "messages.json"))
	require.NoError(t, err)
	var c map[string]message
	require.NoError(t, json.Unmarshal(b, &c), locale)
	return c
}

var placeholderRef = regexp.MustCompile(`\$([A-Za-z0-9_@]+)\$`)

// Chrome says nothing about a missing key (getMessage answers ""), so this is what keeps the
// locales whole: every key in every locale, with the same placeholders, each one used by its
// message; and every key the code names exists.
func TestCatalogsAreWhole(t *testing.T) {
	en := catalog(t, "en")
	entries, err := os.ReadDir("_locales")
	require.NoError(t, err)
	var locales []string
	for _, e := range entries {
		locales = append(locales, e.Name())
	}
	assert.Equal(t, []string{"en", "fr"}, locales)
	validKey := regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	for _, l := range locales {
		c := catalog(t, l)
		assert.ElementsMatch(t, slices.Collect(maps.Keys(en)), slices.Collect(maps.Keys(c)), "the keys of %s", l)
		for k, m := range c {
			assert.Regexp(t, validKey, k)
			assert.NotEmpty(t, strings.TrimSpace(m.Message), "%s: %s is empty", l, k)
			want := en[k].Placeholders
			assert.Equal(t, len(want), len(m.Placeholders), "%s: %s's placeholders", l, k)
			for name, p := range want {
				assert.Equal(t, p.Content, m.Placeholders[name].Content, "%s: %s's placeholder %s", l, k, name)
			}
			for _, ref := range placeholderRef.FindAllStringSubmatch(m.Message, -1) {
				_, ok := m.Placeholders[strings.ToLower(ref[1])]
				assert.True(t, ok, "%s: %s names $%s$, which it does not declare", l, k, ref[1])
			}
			for name := range m.Placeholders {
				assert.Contains(t, strings.ToLower(m.Message), "$"+name+"$", "%s: %s does not use its placeholder %s", l, k, name)
			}
		}
	}

	has := func(k string) bool {
		_, ok := en[k]
		_, one := en[k+"_one"]
		_, other := en[k+"_other"]
		return ok || (one && other)
	}
	uses := map[string]*regexp.Regexp{
		"*.html":               regexp.MustCompile(`data-i18n(?:-title|-placeholder|-label)?="([^"]+)"`),
		"*.js":                 regexp.MustCompile(`\b(?:t|tr)\(\s*"([^"]+)"(\s*\+)?`),
		"../ext/manifest.json": regexp.MustCompile(`__MSG_([A-Za-z0-9_]+)__`),
		"../ext/sw.js":         regexp.MustCompile(`getMessage\("([^"]+)"`),
		"../ext/page/*.js":     regexp.MustCompile(`getMessage\("([^"]+)"`),
		"composer.js":          regexp.MustCompile(`"(placeholder[A-Za-z]+)"`),
	}
	used := 0
	for glob, re := range uses {
		files, err := filepath.Glob(glob)
		require.NoError(t, err)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				used++
				if len(m) > 2 && m[2] != "" { // t("prefix_" + …): some key has the prefix
					assert.True(t, slices.ContainsFunc(slices.Collect(maps.Keys(en)), func(k string) bool { return strings.HasPrefix(k, m[1]) }),
						"%s names keys starting %q, and the catalog has none", f, m[1])
					continue
				}
				assert.True(t, has(m[1]), "%s names %q, which the catalog does not have", f, m[1])
			}
		}
	}
	assert.Greater(t, used, 30)
}
