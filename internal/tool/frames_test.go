package tool

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

// framesPage is a tab of four frames for the frame introductions: frame 1 answers, frame 2
// cannot be scripted, and frame 3's page did not load (Chrome lists it as failed).
type framesPage struct {
	Browser // only what a snapshot uses is implemented
	mu      sync.Mutex
	knows   [][]int
	called  []int // the frames scripted
}

func (p *framesPage) Frames(context.Context, int) ([]Frame, error) {
	return []Frame{{ID: 0, ParentID: -1, URL: "https://a.test/"}, {ID: 1, ParentID: 0, URL: "https://a.test/f"}, {ID: 2, ParentID: 0, URL: "https://down.test/"},
		{ID: 3, ParentID: 0, URL: "https://gone.test/ad", Failed: true}}, nil
}

func (p *framesPage) Dialog(int) (Dialog, bool) { return Dialog{}, false }

func (p *framesPage) Script(_ context.Context, s Script) ([]FrameResult, error) {
	f := s.Frames[0]
	p.mu.Lock()
	p.called = append(p.called, f)
	p.mu.Unlock()
	if f == 2 {
		return nil, ErrErrorPage
	}
	answer := `{"ok":1}`
	switch s.Call {
	case "knows":
		var a struct {
			FrameIDs []int `json:"frameIds"`
		}
		b, _ := json.Marshal(s.Args)
		_ = json.Unmarshal(b, &a)
		p.mu.Lock()
		p.knows = append(p.knows, a.FrameIDs)
		p.mu.Unlock()
		answer = `{"ok":1,"all":true}`
	case "snapshot":
		answer = `{"url":"https://a.test/","tree":[]}`
		if f == 0 {
			answer = `{"url":"https://a.test/","tree":[{"role":"iframe","name":"Advert","ref":"e1","frame":-1,"src":"https://gone.test/ad"},{"role":"iframe","name":"Inner","ref":"e2","frame":-1,"src":"https://a.test/f"}]}`
		}
	}
	return []FrameResult{{FrameID: f, Result: json.RawMessage(answer)}}, nil
}

// A frame that cannot say which frame it is (Chrome shows its error page there) is not waited
// for: the top frame is asked to wait only for the frames that spoke, so a page with a dead ad
// frame is not read half a second late at every snapshot.
func TestFramesThatCannotSpeakAreNotWaitedFor(t *testing.T) {
	p := &framesPage{}
	e := &Env{Browser: p}
	if _, err := e.Snapshot(context.Background(), 1, "", false); err != nil {
		t.Fatal(err)
	}
	if len(p.knows) != 1 || !slices.Equal(p.knows[0], []int{1}) {
		t.Errorf("the top frame was asked to wait for the hellos of %v; want [[1]]", p.knows)
	}
}

// A frame whose page did not load (Chrome shows its error page there) is not scripted, and its
// iframe says so, where one Skiff could not read says that.
func TestAFrameThatDidNotLoadSaysSo(t *testing.T) {
	p := &framesPage{}
	e := &Env{Browser: p}
	s, err := e.Snapshot(context.Background(), 1, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(p.called, 3) {
		t.Errorf("the frame that did not load was scripted: %v", p.called)
	}
	text := Format(s, SnapOptions{})
	for _, want := range []string{"iframe \"Advert\" [e1]:\n  (its page did not load)", "iframe \"Inner\" [e2]:\n  (empty, or not readable)"} {
		if !strings.Contains(text, want) {
			t.Errorf("want %q in\n%s", want, text)
		}
	}
}

// A frame a page wrote itself (about:srcdoc, about:blank: a rich text editor's body) is
// scripted as part of the page that holds it; one in a page Skiff cannot script, or with no
// parent, is not.
func TestFramesAPageWroteAreItsOwn(t *testing.T) {
	can := scriptable([]Frame{
		{ID: 0, ParentID: -1, URL: "https://a.test/"},
		{ID: 1, ParentID: 0, URL: "about:srcdoc"},
		{ID: 2, ParentID: 1, URL: "about:blank"},
		{ID: 3, ParentID: 0, URL: "chrome-extension://x/y.html"},
		{ID: 4, ParentID: 3, URL: "about:blank"},
		{ID: 5, ParentID: 9, URL: "about:blank"},
		{ID: 6, ParentID: 0, URL: "data:text/html,hi"},
	})
	for id, want := range []bool{true, true, true, false, false, false, false} {
		if can[id] != want {
			t.Errorf("frame %d: scriptable %v, want %v", id, can[id], want)
		}
	}
}

// failingFrame is a page whose code answers every call with a failure that names an element.
type failingFrame struct{ Browser }

func (failingFrame) Dialog(int) (Dialog, bool) { return Dialog{}, false }

func (failingFrame) Script(_ context.Context, s Script) ([]FrameResult, error) {
	return []FrameResult{{FrameID: s.Frames[0], Result: json.RawMessage(`{"error":"button “Pay” is behind dialog “Cookies” [e5]; or see [e12] and [eleven]","retry":1}`)}}, nil
}

// A failure in a frame names the frame's elements by their global refs, as its snapshot does:
// "[e5]" in frame 4 is "[f4e5]", and would be the top page's e5 to a model that acted on it.
func TestAFrameFailureNamesItsElementsByGlobalRefs(t *testing.T) {
	e := &Env{Browser: failingFrame{}}
	for frame, want := range map[int]string{
		0: "button “Pay” is behind dialog “Cookies” [e5]; or see [e12] and [eleven]",
		4: "button “Pay” is behind dialog “Cookies” [f4e5]; or see [f4e12] and [eleven]",
	} {
		err := e.call(context.Background(), 1, frame, pageFiles, "locate", nil, nil)
		if err == nil || err.Error() != want {
			t.Errorf("in frame %d: %v", frame, err)
		}
	}
}

func TestGlobalRefs(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "",
		"no refs here":              "no refs here",
		"[e5]":                      "[f2e5]",
		"a [e5] b [e61] c":          "a [f2e5] b [f2e61] c",
		"[e] [e5x] [ee5] [f3e5] [e": "[e] [e5x] [ee5] [f3e5] [e",
		"the end [e12":              "the end [e12",
		"[[e1]]":                    "[[f2e1]]",
	} {
		if got := globalRefs(in, 2); got != want {
			t.Errorf("globalRefs(%q) = %q, want %q", in, got, want)
		}
	}
}
