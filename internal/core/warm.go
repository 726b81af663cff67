package core

import (
	"context"
	"encoding/json"
	"time"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/provider"
)

// warmEvents is about as many events as a reply streams before V8 has optimized the decoder's
// hot functions (measured: the first reply's last stall came near its 140th).
const warmEvents = 300

// warmUp runs the code a streamed reply runs for each event (the user's provider's decoder,
// the update pushed to the chat) over a made-up reply, while the user writes theirs. Without
// it, the worker's first reply stalls in bursts as V8 compiles that code on first use and
// optimizes it once hot; Chrome keeps no compiled code for an extension's wasm between
// workers, so each new worker pays again (bench: BenchmarkStreamOverhead). It lets the worker's
// other work go first every few events, stops when a run starts, and takes 100-150 ms, most of
// it waiting.
func (c *Core) warmUp(ctx context.Context) {
	if len(c.Engine.RunningIDs()) > 0 {
		return
	}
	p, _ := provider.Lookup("openai")
	if s, err := c.Store.Settings(ctx); err == nil {
		if q, ok := provider.Lookup(s.Provider); ok {
			p = q
		}
	}
	n := 0
	for ev := range p.Warm(warmEvents) {
		if ev.Kind != provider.EventText {
			continue
		}
		_, _ = json.Marshal(agent.Update{Type: agent.UpdateDelta, SessionID: "warm", MessageID: "warm", Text: ev.Text})
		if n++; n%16 == 0 {
			time.Sleep(time.Millisecond) // the worker's other work (a port's message) goes first
			if len(c.Engine.RunningIDs()) > 0 {
				return // a reply is streaming: it warms its own path, and this would only slow it
			}
		}
	}
}
