// Provider questions the panel asks: the model list, whether a key works, which local model
// servers are running. All of them resolve a provider the same way, through the settings.

package core

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// resolve is Settings.Resolve for provider id (the chosen one when id is ""), with a base URL
// and key being typed in the form (not saved yet) in place of the saved ones when given.
func resolve(s store.Settings, id, baseURL, key string) (provider.Provider, string, error) {
	if id != "" {
		s.Provider = id
	}
	// Resolve reads only the chosen provider's entries, so one-entry maps stand in for the
	// saved ones (which s shares with the caller and must not be written).
	if baseURL != "" {
		s.BaseURLs = map[string]string{s.Provider: baseURL}
	}
	if k := strings.TrimSpace(key); k != "" {
		s.APIKeys = map[string]string{s.Provider: k}
	}
	p, k, _, err := s.Resolve()
	return p, k, err
}

// Models is the answer to "models": the live list when it could be fetched, else the catalogue
// and why (Error in English, ErrorText for the panel in the user's language).
type Models struct {
	Models    []provider.Model `json:"models"`
	Live      bool             `json:"live"`
	Error     string           `json:"error,omitempty"`
	ErrorText *i18n.Text       `json:"errorText,omitempty"`
}

// builtIn is the catalogue of p, with why the live list is not there.
func builtIn(p provider.Provider, why i18n.Text) *Models {
	return &Models{Models: p.Models, Error: why.English(), ErrorText: &why}
}

func (c *Core) models(ctx context.Context, req ProviderParams) (*Models, error) {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	p, key, err := resolve(s, req.Provider, req.BaseURL, req.Key) // the form's, not saved yet, when given
	if err != nil {
		return nil, err
	}
	if p.NeedsKey && key == "" {
		return builtIn(p, sayModelsNeedKey.With()), nil
	}
	live, err := p.ListModels(ctx, c.Doer, key)
	if err != nil {
		return builtIn(p, provider.AsError(p, err).Text()), nil
	}
	if len(live) == 0 {
		return builtIn(p, sayModelsNone.With()), nil
	}
	return &Models{Models: live, Live: true}, nil
}

// Tested is the answer to "provider.test" (Message in English, MessageText for the panel in the
// user's language).
type Tested struct {
	OK          bool       `json:"ok"`
	Message     string     `json:"message"`
	MessageText *i18n.Text `json:"messageText,omitempty"`
	Models      int        `json:"models"`
}

// tested is how a test of the connection went, said as t.
func tested(ok bool, models int, t i18n.Text) *Tested {
	return &Tested{OK: ok, Models: models, Message: t.English(), MessageText: &t}
}

// The model list's and the connection test's words (their French is in ui/_locales).
var (
	sayModelsNeedKey = i18n.Sentence{Key: "sModelsNeedKey", English: "add a key to load the live model list"}
	sayModelsNone    = i18n.Sentence{Key: "sModelsNone", English: "the provider listed no models"}
	sayTestNeedsKey  = i18n.Sentence{Key: "sTestNeedsKey", English: "Enter an API key first."}
	sayTestOK        = i18n.Sentence{Key: "sTestOK", English: "Connected to $2: $1 models available.", One: "Connected to $2: 1 model available."}
)

// testProvider checks a provider with the key and base URL being typed (or the saved ones when
// none are given) by listing its models: it proves the host answers and the key is accepted,
// and costs no tokens.
func (c *Core) testProvider(ctx context.Context, req ProviderParams) (*Tested, error) {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	p, key, err := resolve(s, req.Provider, req.BaseURL, req.Key)
	if err != nil {
		return nil, err
	}
	if p.NeedsKey && key == "" {
		return tested(false, 0, sayTestNeedsKey.With()), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ms, err := p.ListModels(ctx, c.Doer, key)
	if err != nil {
		return tested(false, 0, provider.AsError(p, err).Text()), nil
	}
	return tested(true, len(ms), sayTestOK.With(len(ms), p.Name)), nil
}

// Found is a local model server that answered.
type Found struct {
	Provider string           `json:"provider"`
	Name     string           `json:"name"`
	BaseURL  string           `json:"baseURL"`
	Models   []provider.Model `json:"models"`
}

// detect looks for Ollama (port 11434) and LM Studio (port 1234) on this machine, at their
// saved base URLs or their defaults, in parallel, giving each DetectTimeout.
func (c *Core) detect(ctx context.Context, _ struct{}) ([]Found, error) {
	s, err := c.Store.Settings(ctx)
	if err != nil {
		s = store.DefaultSettings()
	}
	ids := []string{"ollama", "lmstudio"}
	slots := make([]*Found, len(ids)) // each probe fills its own: the order is the list's
	var wg sync.WaitGroup
	for i, id := range ids {
		p, _, err := resolve(s, id, "", "")
		if err != nil {
			continue
		}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, DetectTimeout)
			defer cancel()
			if ms, err := p.ListModels(ctx, c.Doer, ""); err == nil {
				slots[i] = &Found{Provider: p.ID, Name: p.Name, BaseURL: p.BaseURL, Models: ms}
			}
		})
	}
	wg.Wait()
	found := []Found{}
	for _, f := range slots {
		if f != nil {
			found = append(found, *f)
		}
	}
	return found, nil
}

// DetectTimeout bounds each local-server probe of "detect".
var DetectTimeout = 2 * time.Second
