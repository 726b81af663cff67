package tool

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
)

// framesPage is a tab of three frames for the frame introductions: frame 1 answers, frame 2
// shows Chrome's error page (its site did not load) and cannot be scripted.
type framesPage struct {
	Browser // only what a snapshot uses is implemented
	mu      sync.Mutex
	knows   [][]int
}

func (p *framesPage) Frames(context.Context, int) ([]Frame, error) {
	return []Frame{{ID: 0, ParentID: -1, URL: "https://a.test/"}, {ID: 1, ParentID: 0, URL: "https://a.test/f"}, {ID: 2, ParentID: 0, URL: "https://down.test/"}}, nil
}

func (p *framesPage) Dialog(int) (Dialog, bool) { return Dialog{}, false }

func (p *framesPage) Script(_ context.Context, s Script) ([]FrameResult, error) {
	f := s.Frames[0]
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
