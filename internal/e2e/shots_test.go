//go:build !js

package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// An outside agent takes a picture of one element (far down the page, and inside a frame) and of
// the whole page, as Playwright MCP and chrome-devtools-mcp let it: each picture is of what it
// names, at its size, in the colours the page drew there; a page taller than a picture may be
// is cut, and the result says where; an element no one can see is a sentence, not a picture.
func TestOutsideAgentScreenshotsAnElementAndTheWholePage(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	page := site.Page("shots.html")
	callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_always")
	snap := text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "allow_always"))
	m := regexp.MustCompile(`button "In the frame" \[(f\d+e\d+)\]`).FindStringSubmatch(snap)
	if m == nil {
		t.Fatalf("no ref for the frame's button in:\n%s", snap)
	}
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)

	shot := func(args map[string]any) (image.Image, string) {
		t.Helper()
		args["format"] = "png"
		r := callTool(t, panel, cs, "e2e-agent", "screenshot", args, "")
		var img *mcp.ImageContent
		for _, c := range r.Content {
			if ic, ok := c.(*mcp.ImageContent); ok {
				img = ic
			}
		}
		if r.IsError || img == nil {
			t.Fatalf("screenshot %v: error %v, %s", args, r.IsError, text(r))
		}
		pic, err := png.Decode(bytes.NewReader(img.Data))
		if err != nil {
			t.Fatalf("screenshot %v: not a PNG: %v", args, err)
		}
		return pic, text(r)
	}
	near := func(c color.Color, r, g, b uint8) bool {
		cr, cg, cb, _ := c.RGBA()
		d := func(x uint32, y uint8) bool { return int(x>>8)-int(y) < 24 && int(y)-int(x>>8) < 24 }
		return d(cr, r) && d(cg, g) && d(cb, b)
	}
	size := func(p image.Image) (int, int) { return p.Bounds().Dx(), p.Bounds().Dy() }

	// The green card, 1,500 px below the window: brought into view and cut to its box.
	pic, said := shot(map[string]any{"selector": "#low"})
	if w, h := size(pic); w != 300 || h != 120 || !near(pic.At(150, 80), 0, 200, 0) || !strings.Contains(said, "Green card far down") {
		t.Errorf("the green card: %d×%d, middle %v; %s", w, h, pic.At(150, 80), said)
	}
	// The frame's button: where its frame puts it on the page.
	pic, said = shot(map[string]any{"ref": m[1]})
	if w, h := size(pic); w != 120 || h != 40 || !near(pic.At(10, 30), 255, 140, 0) || !near(pic.At(110, 5), 255, 140, 0) {
		t.Errorf("the frame's button: %d×%d, corners %v %v; %s", w, h, pic.At(10, 30), pic.At(110, 5), said)
	}

	// The whole page is taller than a picture may be: its first 8,000 px, from its top, with
	// each card where the page has it.
	var at struct{ Top, Low [2]int }
	at = inTab[struct{ Top, Low [2]int }](t, panel, tab, `(() => {
		const p = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return [Math.round(r.left + scrollX), Math.round(r.top + scrollY)]; };
		return {Top: p("top"), Low: p("low")};
	})()`)
	pic, said = shot(map[string]any{"fullPage": true})
	w, h := size(pic)
	if h != 8000 || w < 400 || !strings.Contains(said, "first 8000 px of") {
		t.Errorf("the whole page: %d×%d; %s", w, h, said)
	}
	if c := pic.At(at.Top[0]+150, at.Top[1]+80); !near(c, 0, 0, 255) {
		t.Errorf("the whole page: the blue card at %v is %v", at.Top, c)
	}
	if c := pic.At(at.Low[0]+150, at.Low[1]+80); !near(c, 0, 200, 0) {
		t.Errorf("the whole page: the green card at %v is %v", at.Low, c)
	}
	if c := pic.At(at.Low[0]+150, 7990); !near(c, 255, 0, 0) {
		t.Errorf("the whole page: its red end at 7,990 px is %v", c)
	}

	r := callTool(t, panel, cs, "e2e-agent", "screenshot", map[string]any{"selector": "#gone"}, "")
	if !r.IsError || !strings.Contains(text(r), "not visible") {
		t.Errorf("a picture of a hidden element: error %v, %s", r.IsError, text(r))
	}
}
