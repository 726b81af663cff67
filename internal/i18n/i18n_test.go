package i18n

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func words(t *testing.T, lang string) Words {
	t.Helper()
	read := func(l string) Catalog {
		b, err := os.ReadFile(filepath.Join("..", "..", "ui", "_locales", l, "messages.json"))
		require.NoError(t, err)
		c, err := Parse(b)
		require.NoError(t, err)
		return c
	}
	return Words{Lang: lang, Catalog: read(lang), English: read("en")}
}

// The worker's own words come from the real catalogs, in the language the setting means, with
// plurals by the language's rule and English for a key a catalog lacks.
func TestWordsFromTheCatalogs(t *testing.T) {
	assert.Equal(t, "fr", Lang("fr", "en-US"))
	assert.Equal(t, "fr", Lang("auto", "fr-CA"))
	assert.Equal(t, "en", Lang("", "de-DE"))
	assert.Equal(t, "en", Lang("xx", "en"))

	en, fr := words(t, "en"), words(t, "fr")
	assert.Equal(t, "Skiff: 2 waiting for your OK", en.T("buttonWaiting", 2))
	assert.Equal(t, "Skiff : 1 en attente de votre accord", fr.T("buttonWaiting", 1))
	assert.Equal(t, " (et 1 autre)", fr.T("notifyAskMore", 1))
	assert.Equal(t, " (et 3 autres)", fr.T("notifyAskMore", 3))
	assert.Equal(t, "⏰ Nouvelles : terminé", fr.T("notifyRunDone", "⏰ Nouvelles"))
	assert.Equal(t, "Skiff a besoin de votre accord", fr.T("notifyAskTitle"))
	delete(fr.Catalog, "notifyAskContext")
	assert.Equal(t, "Click to open Skiff and answer", fr.T("notifyAskContext"), "English for a missing key")
	assert.Equal(t, "noSuchKey", fr.T("noSuchKey"))
}

// Words that exist only as they came go inside a sentence as those words (no key for a catalog
// to miss); a sentence inside a sentence keeps its key and its English.
func TestVerbatimInsideASentence(t *testing.T) {
	outer := Sentence{Key: "outer", English: "It failed: $1 ($2)."}
	inner := Sentence{Key: "inner", English: "the tab was closed"}
	txt := outer.With(Verbatim("skiffd says no"), inner.With())
	assert.Equal(t, "It failed: skiffd says no (the tab was closed).", txt.English())
	assert.Equal(t, "skiffd says no", txt.Args[0])
	require.IsType(t, Text{}, txt.Args[1])
	assert.Equal(t, "inner", txt.Args[1].(Text).Key)
	assert.Equal(t, "the tab was closed", txt.Args[1].(Text).En)
	assert.True(t, Verbatim("x").IsZero())
	assert.Equal(t, "x", Verbatim("x").English())
}

// A text with no sentence (verbatim words, or nothing) is stored and sent as no text, so a
// reader falls back to the English beside it instead of finding an empty key.
func TestVerbatimIsNoTextInJSON(t *testing.T) {
	v := Verbatim("skiffd says no")
	var holder struct {
		Text *Text `json:"text,omitempty"`
	}
	holder.Text = &v
	b, err := json.Marshal(holder)
	require.NoError(t, err)
	assert.JSONEq(t, `{"text": null}`, string(b))
	require.NoError(t, json.Unmarshal(b, &holder))
	assert.Nil(t, holder.Text)

	s := Sentence{Key: "outer", English: "It failed: $1."}.With(Verbatim("no"))
	b, err = json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"key": "outer", "args": ["no"]}`, string(b))
}

// An error written for the user keeps its sentence inside another (a workflow's check inside
// "Nothing was imported"), and wrapped it still does; any other error is its words.
func TestAnErrorThatIsASentenceStaysOne(t *testing.T) {
	outer := Sentence{Key: "outer", English: "Nothing was imported: $1."}
	inner := Sentence{Key: "inner", English: "step $1 has no target"}
	txt := outer.With(fmt.Errorf("workflow: %w", inner.Error(3)))
	assert.Equal(t, "Nothing was imported: step 3 has no target.", txt.English())
	require.IsType(t, Text{}, txt.Args[0])
	assert.Equal(t, "inner", txt.Args[0].(Text).Key)
	assert.Equal(t, []any{3}, txt.Args[0].(Text).Args)
	plain := outer.With(errors.New("disk full"))
	assert.Equal(t, "disk full", plain.Args[0])
}

// A text is said in the language of the words, with the texts inside it; one no catalog has
// reads as its English.
func TestATextIsSaidInTheLanguageOfTheWords(t *testing.T) {
	en, fr := words(t, "en"), words(t, "fr")
	title := Sentence{Key: "notifyRunDone", English: "$1: done"}
	inner := Sentence{Key: "notifyAskTitle", English: "Skiff needs your OK"}
	txt := title.With(inner.With())
	assert.Equal(t, "Skiff a besoin de votre accord : terminé", fr.Say(txt))
	assert.Equal(t, "Skiff needs your OK: done", en.Say(txt))
	assert.Equal(t, "as it came", fr.Say(Verbatim("as it came")))
	unknown := Sentence{Key: "noSuchKeyAnywhere", English: "only in English"}.With()
	assert.Equal(t, "only in English", fr.Say(unknown))
	var back Text
	require.NoError(t, json.Unmarshal([]byte(`{"key":"noSuchKeyAnywhere","en":"stored English"}`), &back))
	assert.Equal(t, "stored English", fr.Say(back))
}

// Or gives a kept sentence its English back (JSON does not carry it), and words with no
// sentence as they are.
func TestOrIsTheSentenceOrTheWords(t *testing.T) {
	raw, err := json.Marshal(Sentence{Key: "k", English: "click $1"}.With("Book"))
	require.NoError(t, err)
	var back Text
	require.NoError(t, json.Unmarshal(raw, &back))
	require.Empty(t, back.English(), "a text read back has its English")
	got := Or(&back, "click Book")
	assert.Equal(t, "click Book", got.English())
	assert.Equal(t, "k", got.Key)
	got = Or(nil, "Claude Code")
	assert.Equal(t, "Claude Code", got.English())
	assert.True(t, got.IsZero())
}
