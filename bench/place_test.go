//go:build !js

package bench

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skiff-ai/skiff/internal/e2e"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// BenchmarkPlaceCost times what an outside client pays when it acts on an element its last
// snapshot did not show (a ref from find_text, or from past a snapshot's cut): the page is read
// once more before the call, for the place a saved workflow keeps (Task.place). On real pages
// of several sizes, through skiffd, a hover on the last link a snapshot of 40,000 tokens shows
// is timed after such a snapshot and after one of 500 that is cut before it, alternating, 10
// of each; it reports the medians and their ratio.
func BenchmarkPlaceCost(b *testing.B) {
	base := testkit.Pages(b)
	br, stop, err := e2e.Launch(filepath.Join(e2e.RepoRoot(), "ext"), func(string, ...any) {})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	skc, _ := linkedClient(b, br, base)
	link := regexp.MustCompile(`link "[^"\n]*" \[(e\d+)\]`)
	var out strings.Builder
	fmt.Fprintf(&out, "hover on the last link a snapshot shows (ms, median of 10)   shown   not shown   ratio\n")
	for _, page := range []string{"nytimes-1", "engadget", "wikipedia", "wikipedia-2"} {
		callText(b, skc, "navigate", map[string]any{"url": base + "/" + page + "/"})
		full, _ := callText(b, skc, "snapshot", map[string]any{"maxTokens": 40000})
		all := link.FindAllStringSubmatch(full, -1)
		if len(all) == 0 {
			b.Fatalf("%s: no link in the snapshot", page)
		}
		cut, _ := callText(b, skc, "snapshot", map[string]any{"maxTokens": 500})
		ref := all[len(all)-1][1]
		if strings.Contains(cut, " ["+ref+"]") {
			b.Fatalf("%s: a snapshot of 500 tokens shows its last link", page)
		}
		var shown, unshown []float64
		for i := range 21 {
			budget := 40000
			if i%2 == 1 {
				budget = 500 // (the page's head only)
			}
			snap, _ := callText(b, skc, "snapshot", map[string]any{"maxTokens": budget})
			if strings.Contains(snap, " ["+ref+"]") != (i%2 == 0) {
				b.Fatalf("%s: the snapshot of %d tokens shows %s: %v", page, budget, ref, i%2 == 0)
			}
			_, d := callText(b, skc, "hover", map[string]any{"ref": ref})
			switch {
			case i == 0: // warm-up
			case i%2 == 0:
				shown = append(shown, float64(d.Microseconds())/1000)
			default:
				unshown = append(unshown, float64(d.Microseconds())/1000)
			}
		}
		a, c := pct(shown, .5), pct(unshown, .5)
		fmt.Fprintf(&out, "  %-46s %7.1f %11.1f %7.2f×\n", fmt.Sprintf("%s (%d links)", page, len(all)), a, c, c/a)
		b.ReportMetric(c-a, page+"-extra-ms")
	}
	for range b.N {
	}
	fmt.Print(out.String())
}
