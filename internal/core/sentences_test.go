package core

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/store"
)

// sourceSentences are the i18n.Sentence literals in Skiff's Go code, read from the source.
func sourceSentences(t *testing.T) []i18n.Sentence {
	t.Helper()
	var out []i18n.Sentence
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if sel, ok := lit.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Sentence" || fmt.Sprint(sel.X) != "i18n" {
				return true
			}
			var s i18n.Sentence
			for _, e := range lit.Elts {
				kv := e.(*ast.KeyValueExpr)
				v, err := strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
				require.NoError(t, err, path)
				switch fmt.Sprint(kv.Key) {
				case "Key":
					s.Key = v
				case "English":
					s.English = v
				case "One":
					s.One = v
				}
			}
			out = append(out, s)
			return true
		})
		return nil
	})
	require.NoError(t, err)
	return out
}

var catalogsOnce = sync.OnceValues(func() (map[string]i18n.Catalog, error) {
	out := map[string]i18n.Catalog{}
	for _, l := range i18n.Languages {
		b, err := os.ReadFile(filepath.Join("..", "..", "ui", "_locales", l, "messages.json"))
		if err != nil {
			return nil, err
		}
		if out[l], err = i18n.Parse(b); err != nil {
			return nil, err
		}
	}
	return out, nil
})

// catalogs are the real catalogs, by language.
func catalogs(t *testing.T) map[string]i18n.Catalog {
	t.Helper()
	c, err := catalogsOnce()
	require.NoError(t, err)
	return c
}

// Every sentence the core and the layers below it build for the user is in every catalog,
// and the English catalog says exactly what the Go code says: the panel renders the catalog's
// words, and everything without a catalog (an outside client, an export, the audit log) the
// code's, so the two may not drift apart.
func TestEverySentenceIsInTheCatalogs(t *testing.T) {
	cs := catalogs(t)
	sentences := sourceSentences(t)
	require.Greater(t, len(sentences), 50, "the sentences of core, agent, provider and permission")
	seen := map[string]bool{}
	for _, s := range sentences {
		assert.False(t, seen[s.Key], "%s is used by two sentences", s.Key)
		seen[s.Key] = true
		args := []any{"‹a›", "‹b›", "‹c›", "‹d›"}
		keys := []string{s.Key}
		if s.One != "" {
			keys = []string{s.Key + "_one", s.Key + "_other"}
		}
		for _, l := range i18n.Languages {
			for _, k := range keys {
				_, ok := cs[l][k]
				assert.True(t, ok, "%s has no %s", l, k)
			}
		}
		en := i18n.Words{Lang: "en", Catalog: cs["en"], English: cs["en"]}
		if s.One == "" {
			assert.Equal(t, s.With(args...).English(), en.T(s.Key, args...), "the English of %s", s.Key)
			continue
		}
		for _, n := range []int{1, 3} {
			a := append([]any{n}, args[1:]...)
			assert.Equal(t, s.With(a...).English(), en.T(s.Key, a...), "the English of %s for %d", s.Key, n)
		}
		fr := i18n.Words{Lang: "fr", Catalog: cs["fr"], English: cs["en"]}
		assert.NotEqual(t, fmt.Sprint(s.With(3).English()), fr.T(s.Key, 3), "%s is translated", s.Key)
	}
}

// Every error the layers below the core keep as a named value reaches the user as a sentence of
// its own, never as "Skiff could not do that: agent: …" (an internal string in English). The
// names are read from the source, so a new one fails here until it is said.
func TestEveryNamedErrorIsASentence(t *testing.T) {
	known := map[string]error{
		"agent.ErrNotAsking": agent.ErrNotAsking, "agent.ErrHostedPrivate": agent.ErrHostedPrivate, "agent.ErrNoHost": agent.ErrNoHost,
		"agent.ErrQueueFull": agent.ErrQueueFull, "agent.ErrNotQueued": agent.ErrNotQueued, "agent.ErrQueueRunning": agent.ErrQueueRunning,
		"agent.ErrNothingQueued": agent.ErrNothingQueued, "agent.ErrBusy": agent.ErrBusy, "agent.ErrEmpty": agent.ErrEmpty,
		"agent.ErrKeptChat": agent.ErrKeptChat, "agent.ErrNothingToEdit": agent.ErrNothingToEdit,
		"agent.ErrNothingToRegenerate": agent.ErrNothingToRegenerate, "agent.ErrReplayStart": agent.ErrReplayStart, "agent.ErrNothingToContinue": agent.ErrNothingToContinue, "agent.ErrNoBrowser": agent.ErrNoBrowser,
		"link.ErrClosed": link.ErrClosed, "store.ErrNoMemory": store.ErrNoMemory, "store.ErrNoPolicy": store.ErrNoPolicy,
		"store.ErrQuota": store.ErrQuota, "store.ErrNotFound": store.ErrNotFound, "store.ErrNewerSchema": store.ErrNewerSchema,
		"store.ErrNoWorkflow": store.ErrNoWorkflow, "store.ErrNoSchedule": store.ErrNoSchedule, "store.ErrMemoryFull": store.ErrMemoryFull,
	}
	// Said where they are met, with what only that place knows.
	elsewhere := map[string]string{
		"agent.ErrAskExpired":   "decide says how long the ask waited",
		"permission.ErrPattern": "a policy's check wraps it in a field error",
	}
	for _, pkg := range []string{"agent", "store", "link", "permission", "workflow", "schedule"} {
		dir := filepath.Join("..", pkg)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, 0)
			require.NoError(t, err)
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						if !strings.HasPrefix(n.Name, "Err") {
							continue
						}
						name := pkg + "." + n.Name
						if _, ok := elsewhere[name]; ok {
							continue
						}
						err, ok := known[name]
						if !assert.True(t, ok, "%s is not in this test: say it (core.sentences) and add it", name) {
							continue
						}
						said, _ := Say(err)
						assert.NotEqual(t, sayCouldNot.Key, said.Key, "%s reaches the user as %q", name, said.English())
					}
				}
			}
		}
	}
}

// What Settings refuses reads in the user's language too: a rule's pattern, a base URL, the
// base URL a provider needs.
func TestSettingsRefusalsAreSentences(t *testing.T) {
	ctx := context.Background()
	c := New(ctx, store.NewMemKV(), nil, nil, nil)
	fr := i18n.Words{Lang: "fr", Catalog: catalogs(t)["fr"], English: catalogs(t)["en"]}
	_, err := c.setPolicy(ctx, PolicyParams{Tool: "act:click", Origin: "example.com", Decision: permission.AllowAlways})
	said, field := Say(err)
	assert.Equal(t, "policy", field)
	assert.Equal(t, "“example.com” does not name its scheme (an exact origin does: https://example.com)", said.English())
	assert.Equal(t, "« example.com » ne nomme pas son schéma (une origine exacte le fait : https://example.com)", fr.Say(said))

	st := store.DefaultSettings()
	st.BaseURLs = map[string]string{"openai": "ftp://x"}
	said, field = Say(st.Validate())
	assert.Equal(t, "baseURL.openai", field)
	assert.Equal(t, "l’URL de base doit commencer par http:// ou https:// et nommer un hôte ; reçu « ftp://x »", fr.Say(said))

	st = store.DefaultSettings()
	st.Provider = "custom"
	_, _, _, err = st.Resolve()
	said, _ = Say(err)
	assert.True(t, strings.HasSuffix(fr.Say(said), " a besoin d’une URL de base (par exemple http://localhost:8080/v1)"), fr.Say(said))
}

// A backup refused on import says why in the user's language, down to the message at fault.
func TestImportRefusalsAreSentences(t *testing.T) {
	_, err := store.ParseExport([]byte(`{"format": "skiff.sessions", "version": 1, "sessions": [{"id": "a", "title": "t", "messages": [{"id": "m1", "role": "robot", "content": "x"}]}]}`))
	said, _ := Say(err)
	assert.Equal(t, "This file cannot be imported: session 1: message 1: role “robot” is not user, assistant or tool", said.English())
	fr := i18n.Words{Lang: "fr", Catalog: catalogs(t)["fr"], English: catalogs(t)["en"]}
	assert.Equal(t, "Ce fichier ne peut pas être importé : discussion 1 : message 1 : le rôle « robot » n’est ni user, ni assistant, ni tool", fr.Say(said))
}
