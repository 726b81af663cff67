package chrome

import (
	"context"
	"sync"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// The catalogs the worker's own words come from (ext/_locales), read once each per worker.
var catalogs = struct {
	sync.Mutex
	m map[string]i18n.Catalog
}{m: map[string]i18n.Catalog{}}

func catalog(ctx context.Context, lang string) i18n.Catalog {
	catalogs.Lock()
	c, ok := catalogs.m[lang]
	catalogs.Unlock()
	if ok {
		return c
	}
	url := chromeAPI("runtime").Call("getURL", "_locales/"+lang+"/messages.json")
	res, err := await(ctx, js.Global().Call("fetch", url))
	if err != nil {
		return nil
	}
	text, err := await(ctx, res.Call("text"))
	if err != nil || text.Type() != js.TypeString {
		return nil
	}
	c, err = i18n.Parse([]byte(text.String()))
	if err != nil {
		return nil
	}
	catalogs.Lock()
	catalogs.m[lang] = c
	catalogs.Unlock()
	return c
}

// words are the messages in the language the setting pref means ("auto": the browser's).
func words(ctx context.Context, pref string) i18n.Words {
	browser := ""
	if ui := chromeAPI("i18n").Call("getUILanguage"); ui.Type() == js.TypeString {
		browser = ui.String()
	}
	lang := i18n.Lang(pref, browser)
	w := i18n.Words{Lang: lang, English: catalog(ctx, "en")}
	w.Catalog = w.English
	if lang != "en" {
		w.Catalog = catalog(ctx, lang)
	}
	return w
}
