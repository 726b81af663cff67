package tool

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The snapshots of Readability's real test pages, as ext/page/skiff.js took them in Chromium
// (recorded by internal/e2e's TestSnapshotRecordings), format to the golden text beside them.
// The e2e test keeps the recordings true to the live pages; this one keeps the formatting, in
// Go, true to the goldens (go test ./internal/tool -run TestFormatGolden -update rewrites the
// goldens; go test ./internal/e2e -run TestSnapshotRecordings -update records both again).
func TestFormatGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "snapshots", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			var s Snap
			require.NoError(t, json.Unmarshal(raw, &s))
			golden := strings.TrimSuffix(f, ".json") + ".txt"
			got := Format(&s, SnapOptions{})
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
		})
	}
}

// A budget is kept: long texts are shortened first, then texts dropped, then the outline cut,
// and each step says so; interactive elements survive the first steps.
func TestFormatBudget(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "snapshots", "wikipedia.json"))
	require.NoError(t, err)
	var s Snap
	require.NoError(t, json.Unmarshal(raw, &s))
	full := Format(&s, SnapOptions{MaxTokens: 1 << 20, FullText: true})
	refs := len(refsIn(full))
	for _, tc := range []struct {
		tokens int
		note   string
	}{
		{1 << 20, ""},
		{len(full)/4 - 500, "Long texts are shortened to fit the budget"},
		{1500, "Cut at the budget of about 1500 tokens"},
	} {
		got := Format(&s, SnapOptions{MaxTokens: tc.tokens, FullText: true})
		assert.LessOrEqual(t, len(got), tc.tokens*4, "budget %d", tc.tokens)
		if tc.note != "" {
			assert.Contains(t, got, tc.note)
		}
		if tc.tokens > 5000 {
			assert.Equal(t, refs, len(refsIn(got)), "every ref kept at budget %d", tc.tokens)
		}
	}
}

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		in    string
		frame int
		local string
		bad   bool
	}{
		{"e12", 0, "e12", false},
		{"[e3]", 0, "e3", false},
		{"ref=e7", 0, "e7", false},
		{"f5e9", 5, "e9", false},
		{"f5", 0, "", true},
		{"button", 0, "", true},
		{"e", 0, "", true},
	} {
		f, l, err := parseRef(tc.in)
		if tc.bad {
			assert.Error(t, err, tc.in)
			continue
		}
		assert.NoError(t, err, tc.in)
		assert.Equal(t, tc.frame, f, tc.in)
		assert.Equal(t, tc.local, l, tc.in)
	}
}

func TestParseChord(t *testing.T) {
	k, mods, err := parseChord("Control+A")
	require.NoError(t, err)
	assert.Equal(t, "KeyA", k.Code)
	assert.Equal(t, modCtrl, mods)
	assert.Empty(t, k.Text, "a chord types nothing")
	k, mods, err = parseChord("Shift+Tab")
	require.NoError(t, err)
	assert.Equal(t, "Tab", k.Key)
	assert.Equal(t, modShift, mods)
	k, _, err = parseChord("enter")
	require.NoError(t, err)
	assert.Equal(t, "\r", k.Text)
	k, _, err = parseChord("+")
	require.NoError(t, err)
	assert.Equal(t, "+", k.Key)
	_, _, err = parseChord("Hyper+X")
	assert.ErrorContains(t, err, "not a modifier")
	_, _, err = parseChord("Launchpad")
	assert.ErrorContains(t, err, "not a key Skiff knows")
}

// BenchmarkDecodeSnapshot decodes the largest recorded snapshot (a real page, 23 levels deep
// in places), as the core does with every snapshot a page sends.
func BenchmarkDecodeSnapshot(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "snapshots", "wikipedia-2.json"))
	require.NoError(b, err)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		var s Snap
		if err := json.Unmarshal(raw, &s); err != nil {
			b.Fatal(err)
		}
	}
}

// A top frame's reading is reused only when it names every frame below it and none is nested.
func TestPlacesAll(t *testing.T) {
	one, two := 1, 2
	tree := []Item{{Text: "Above"}, {Node: &Node{Role: "main", Kids: []Item{{Node: &Node{Role: "iframe", Frame: &one}}}}}}
	page := Frame{ID: 0, ParentID: -1, URL: "https://a.test/"}
	inner := Frame{ID: 1, ParentID: 0, URL: "https://a.test/inner"}
	assert.True(t, placesAll(tree, []Frame{page, inner}))
	assert.True(t, placesAll(tree, []Frame{page, inner, {ID: 3, ParentID: 0, URL: "chrome-extension://x/y.html"}}), "a frame Skiff cannot script needs no name")
	assert.False(t, placesAll(tree, []Frame{page, inner, {ID: 3, ParentID: 0, URL: "about:blank"}}), "a frame the page wrote is read as the page")
	assert.False(t, placesAll(tree, []Frame{page, inner, {ID: 2, ParentID: 0, URL: "https://b.test/"}}), "a frame the tree does not name")
	assert.False(t, placesAll(tree, []Frame{page, inner, {ID: 2, ParentID: 1, URL: "https://b.test/"}}), "a nested frame")
	tree[1].Node.Kids = append(tree[1].Node.Kids, Item{Node: &Node{Role: "iframe", Frame: &two}})
	assert.True(t, placesAll(tree, []Frame{page, inner, {ID: 2, ParentID: 0, URL: "https://b.test/"}}))
}

// Every control is reachable through the continuations, however the page lays them out: a
// paragraph of thousands of inline links is one line of text, and a cut inside it must not
// skip the rest of that line (a real page, archive-of-our-own, lost 3,000 of its 3,872 links).
func TestEveryControlReachableThroughContinuations(t *testing.T) {
	for _, tc := range []struct {
		name   string
		layout func(links []Item) []Item
	}{
		{"one long line", func(links []Item) []Item {
			return []Item{{Node: &Node{Role: "paragraph", Kids: links}}}
		}},
		{"a line each", func(links []Item) []Item {
			out := make([]Item, len(links))
			for i, l := range links {
				out[i] = Item{Node: &Node{Role: "listitem", Kids: []Item{l}}}
			}
			return []Item{{Node: &Node{Role: "list", Kids: out}}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var links []Item
			for i := range 3000 {
				links = append(links, Item{Text: "tag"}, Item{Node: &Node{Role: "link", Name: fmt.Sprintf("Tag number %d", i), Ref: fmt.Sprintf("e%d", i+1), Inline: 1}})
			}
			s := &Snap{URL: "https://tags.test/", Title: "Tags", Tree: tc.layout(links)}
			seen := map[string]bool{}
			text := Format(s, SnapOptions{})
			for range 500 {
				for _, r := range refsIn(text) {
					seen[r] = true
				}
				i := strings.Index(text, `after="`)
				if i < 0 {
					break
				}
				j := strings.IndexByte(text[i+7:], '"')
				text = Format(s, SnapOptions{After: text[i+7 : i+7+j]})
			}
			assert.Equal(t, 3000, len(seen), "every link reached through after=")
		})
	}
}

// A page's snapshot shortens a long run of text and says so once; a part of the page asked for
// by its ref (FullText) keeps it whole; a control's name is never shortened.
func TestLongTextsAreShortenedInAPageSnapshot(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "snapshots", "v8-blog.json"))
	require.NoError(t, err)
	var s Snap
	require.NoError(t, json.Unmarshal(raw, &s))
	long := `without any JavaScript runtime code from Emscripten.`
	page := Format(&s, SnapOptions{})
	assert.NotContains(t, page, long)
	assert.Contains(t, page, `p: When emcc sees we only want Wasm then it makes it "standalone" - a Wasm file that can run by itself as much as possible, without any JavaScript runtime code fro…`)
	assert.Equal(t, 1, strings.Count(page, "[Long texts are shortened (…)"))
	part := Format(&s, SnapOptions{FullText: true})
	assert.Contains(t, part, long)
	assert.NotContains(t, part, "Long texts are shortened")
	assert.Equal(t, len(refsIn(part)), len(refsIn(page)), "no control lost")
}

// A nameless clickable box that shows a few words is said by them, as a link is by its own
// (`clickable "1" [e2]`, a day of air-datepicker's calendar), on its line or in a line of
// text; one that shows many is its text, and a box without a ref says nothing.
func TestANamelessClickableIsSaidByItsFewWords(t *testing.T) {
	box := func(ref, text string) *Node { return &Node{Role: "generic", Ref: ref, Kids: []Item{{Text: text}}} }
	long := strings.Repeat("many words ", 10)
	s := &Snap{URL: "https://a.test/", Tree: []Item{{Node: box("e1", "1")}, {Node: box("e2", long)}, {Node: &Node{Role: "generic", Kids: []Item{{Text: "2"}}}}}}
	page := Format(s, SnapOptions{})
	assert.Contains(t, page, "\nclickable \"1\" [e1]\n")
	assert.Contains(t, page, "\nclickable [e2]: many words")
	assert.Equal(t, []string{"1", "", ""}, []string{s.Tree[0].Said(), s.Tree[1].Said(), s.Tree[2].Said()})
}

// A box the page scrolls inside says so, and how far it goes each way (sideways too: a strip of
// cards), in screens of its own.
func TestBoxesThatScrollSayHowFar(t *testing.T) {
	var s Snap
	require.NoError(t, json.Unmarshal([]byte(`{"url":"https://chat.example/","title":"Chat","tree":[
		{"role":"navigation","name":"Channels","ref":"e1","scroll":{"u":0,"d":3.4},"kids":[{"role":"link","name":"general","ref":"e2"}]},
		{"role":"scrollable","ref":"e3","scroll":{"u":1,"d":0.5},"kids":[{"t":"Message 1"}]},
		{"role":"list","ref":"e4","scroll":{"u":2.5,"d":0},"kids":[{"role":"listitem","name":"Last"}]},
		{"role":"scrollable","ref":"e5","scroll":{"u":0,"d":1},"kids":[{"t":"Only one more"}]},
		{"role":"list","name":"Deals","ref":"e6","scroll":{"l":0,"r":3},"kids":[{"role":"listitem","name":"Kettle"}]},
		{"role":"table","ref":"e7","scroll":{"u":0,"d":2,"l":0.5,"r":1},"kids":[{"t":"Prices"}]}]}`), &s))
	page := Format(&s, SnapOptions{})
	for _, line := range []string{
		`navigation "Channels" [e1] scrollable (3.4 screens below):`,
		`scrollable [e3] (1 screen above, 0.5 below):`,
		`list [e4] scrollable (2.5 screens above):`,
		`scrollable [e5] (1 screen below):`,
		`list "Deals" [e6] scrollable (3 screens to the right):`,
		`table [e7] scrollable (2 screens below, 0.5 to the left, 1 to the right):`,
	} {
		assert.Contains(t, page, line)
	}
}
