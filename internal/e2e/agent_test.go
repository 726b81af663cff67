//go:build !js

package e2e

import (
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// script plays calls one after the other, one per model turn, then says done.
func script(calls ...testkit.Call) func(c *testkit.Conversation) testkit.Turn {
	return func(c *testkit.Conversation) testkit.Turn {
		if s := c.Steps(); s < len(calls) {
			return testkit.Turn{Calls: []testkit.Call{calls[s]}}
		}
		return testkit.Turn{Text: "Done."}
	}
}

func TestAgentSmoke(t *testing.T) {
	site := testkit.NewSite(t)
	m := testkit.NewModel(t, script(
		testkit.Call{Name: "snapshot"},
		testkit.Call{Name: "click", Args: map[string]any{"selector": "#accept"}},
		testkit.Call{Name: "click", Args: map[string]any{"selector": "#buy"}},
	))
	panel := agentPanel(t, "openai", m)
	tab := openTab(t, panel, site.Page("overlay.html"))
	cards := runAgent(t, panel, "buy it")
	t.Log(cardsString(cards))
	if got := inTab[string](t, panel, tab, `document.getElementById("out").textContent`); got != "bought (trusted=true)" {
		t.Fatalf("page says %q", got)
	}
	if !strings.Contains(cards[0].Result, "button") {
		t.Errorf("snapshot: %s", cards[0].Result)
	}
}
