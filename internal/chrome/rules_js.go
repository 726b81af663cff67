package chrome

import (
	"context"
	"syscall/js"

	"github.com/skiff-ai/skiff/internal/core"
)

// Rules implements core.Rules with declarativeNetRequest session rules: for each local host,
// the extension's own requests (initiator = this extension) lose their Origin header, which is
// what Ollama and LM Studio check. Nothing else is touched: not other hosts, not pages' requests.
type Rules struct{}

var _ core.Rules = Rules{}

// firstRuleID leaves room below for static rules.
const firstRuleID = 1000

func (Rules) SetLocalHosts(ctx context.Context, hosts []string) error {
	dnr := chromeAPI("declarativeNetRequest")
	existing, err := callAPI(ctx, dnr, "getSessionRules")
	if err != nil {
		return err
	}
	remove := js.Global().Get("Array").New()
	for i := 0; i < existing.Length(); i++ {
		if id := existing.Index(i).Get("id").Int(); id >= firstRuleID {
			remove.Call("push", id)
		}
	}
	add := js.Global().Get("Array").New()
	id := firstRuleID
	for _, h := range hosts {
		for _, scheme := range []string{"http", "https"} {
			add.Call("push", js.ValueOf(map[string]any{
				"id":       id,
				"priority": 1,
				"action": map[string]any{
					"type":           "modifyHeaders",
					"requestHeaders": []any{map[string]any{"header": "origin", "operation": "remove"}},
				},
				"condition": map[string]any{
					"urlFilter":        "|" + scheme + "://" + h + "/",
					"initiatorDomains": []any{ExtensionID()},
					"resourceTypes":    []any{"xmlhttprequest", "other"},
				},
			}))
			id++
		}
	}
	opt := js.ValueOf(map[string]any{})
	opt.Set("removeRuleIds", remove)
	opt.Set("addRules", add)
	_, err = callAPI(ctx, dnr, "updateSessionRules", opt)
	return err
}
