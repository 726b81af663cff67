package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/tool"
)

// Page is a fake browser tab for native tests of the tool loop and the gate: one tab showing a
// page of Elements, answering the page-side API (ext/page/skiff.js) the way the real one does
// for what it knows (target, locate, focusIs, focusForTyping, fieldValue, settle…), and
// recording every input event the tools send through the debugger. It implements tool.Tabs,
// tool.Pages and tool.Debugger; Browser(page) makes a tool.Browser of it.
type Page struct {
	URL   string
	Title string
	// Elements by ref as the model sees it: "e3" in the top document, "f2e3" in frame 2.
	Elements map[string]*Element
	// Focus is the ref of the focused element ("" is the page itself). Tab moves it along
	// TabOrder, as a person's Tab key does.
	Focus    string
	TabOrder []string
	// Leaves: the page goes on as a press lands on it (a link followed on mousedown), so the
	// document asked whether the press reached its element is a new one that armed nothing.
	Leaves bool

	mu     sync.Mutex
	armed  string   // the element a click is expected on (armClick)
	last   string   // the element the last press reached
	inputs []string // what the tools sent: "click e5", "key Enter e5", "type e3 …"
	calls  []string // every page-side call, by name
	point  map[[2]float64]string
}

// Element is an element of a fake page.
type Element struct {
	Ref, Role, Name, Tag, Type, Field string
	// Frame is the child frame the element is in (0: the top document), Origin that frame's.
	Frame  int
	Origin string
	Link   string // for a link: where it goes
	Form   string // for a field or button in a form: the form's action
	// Enter is the ref of the control Enter in this field presses (its form's default button).
	Enter string
	// Implicit: Enter in this field submits its form.
	Implicit bool
	// In is the ref of the control a click on this element activates (a span in a button).
	In    string
	Value string
}

// At puts ref at a point of the viewport, for clicks by coordinates.
func (p *Page) At(x, y float64, ref string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.point == nil {
		p.point = map[[2]float64]string{}
	}
	p.point[[2]float64{x, y}] = ref
}

// Inputs lists the input events the tools sent, in order.
func (p *Page) Inputs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.inputs...)
}

// Calls lists the page-side calls made, in order.
func (p *Page) Calls() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.calls...)
}

func (p *Page) tab() tool.Tab {
	return tool.Tab{ID: 1, WindowID: 1, GroupID: -1, URL: p.URL, Title: p.Title, Active: true, Status: "complete"}
}

// tool.Tabs

func (p *Page) Tabs(context.Context, int) ([]tool.Tab, error) { return []tool.Tab{p.tab()}, nil }
func (p *Page) Tab(_ context.Context, id int) (tool.Tab, error) {
	if id != 1 {
		return tool.Tab{}, tool.ErrNoTab
	}
	return p.tab(), nil
}
func (p *Page) ActiveTab(context.Context, int) (tool.Tab, error) { return p.tab(), nil }
func (p *Page) OpenTab(context.Context, string, bool, int) (tool.Tab, error) {
	return tool.Tab{}, ErrUnsupported
}
func (p *Page) CloseTabs(context.Context, []int) error { return ErrUnsupported }
func (p *Page) ActivateTab(context.Context, int) error { return nil }

// tool.Pages

func (p *Page) Frames(context.Context, int) ([]tool.Frame, error) {
	fs := []tool.Frame{{ID: 0, ParentID: -1, URL: p.URL}}
	seen := map[int]bool{}
	for _, e := range p.Elements {
		if e.Frame != 0 && !seen[e.Frame] {
			seen[e.Frame] = true
			fs = append(fs, tool.Frame{ID: e.Frame, ParentID: 0, URL: e.Origin + "/frame"})
		}
	}
	return fs, nil
}

func (p *Page) Script(_ context.Context, s tool.Script) ([]tool.FrameResult, error) {
	frame := 0
	if len(s.Frames) > 0 {
		frame = s.Frames[0]
	}
	var args struct {
		Target struct {
			Ref, Selector, Expect string
			X, Y                  *float64
		} `json:"target"`
		Focused bool   `json:"focused"`
		Ref     string `json:"ref"`
		Focus   *struct {
			Clear bool `json:"clear"`
		} `json:"focus"`
	}
	b, _ := json.Marshal(s.Args)
	_ = json.Unmarshal(b, &args)
	p.mu.Lock()
	p.calls = append(p.calls, s.Call)
	p.mu.Unlock()
	answer := func(v any) ([]tool.FrameResult, error) {
		raw, _ := json.Marshal(v)
		return []tool.FrameResult{{FrameID: frame, Result: raw}}, nil
	}
	fail := func(msg string) ([]tool.FrameResult, error) { return answer(map[string]any{"error": msg}) }
	full := func(local string) string {
		if frame == 0 {
			return local
		}
		return fmt.Sprintf("f%d%s", frame, local)
	}
	find := func() *Element {
		p.mu.Lock()
		defer p.mu.Unlock()
		t := args.Target
		switch {
		case args.Focused:
			return p.Elements[p.Focus]
		case t.Ref != "":
			return p.Elements[full(t.Ref)]
		case t.Selector != "":
			for _, e := range p.Elements {
				if "#"+e.Ref == t.Selector {
					return e
				}
			}
		case t.X != nil && t.Y != nil:
			return p.Elements[p.point[[2]float64{*t.X, *t.Y}]]
		}
		return nil
	}
	switch s.Call {
	case "target":
		e := find()
		if e == nil && args.Focused {
			return answer(map[string]any{"ok": 1, "element": map[string]any{"ref": "e0", "role": "document", "name": p.Title, "tag": "body", "origin": origin(p.URL)}})
		}
		if e == nil {
			return fail("there is no such element; take a new snapshot")
		}
		if e.Frame != frame {
			return answer(map[string]any{"ok": 1, "frame": e.Frame, "x": args.Target.X, "y": args.Target.Y})
		}
		out := map[string]any{"ok": 1, "element": p.info(e)}
		if e.In != "" {
			out["activates"] = p.info(p.Elements[e.In])
		}
		if e.Enter != "" {
			out["enter"], out["form"], out["implicit"] = p.info(p.Elements[e.Enter]), e.Form, e.Implicit
		}
		return answer(out)
	case "locate":
		e := find()
		if e == nil {
			return fail("there is no such element")
		}
		if args.Target.Expect != "" && full(args.Target.Expect) != e.Ref {
			return fail("the element at that point is now " + e.Role + " “" + e.Name + "”, not the one that was checked")
		}
		x, y := p.pointOf(e.Ref)
		out := map[string]any{"ok": 1, "what": e.Role + " “" + e.Name + "”", "point": map[string]float64{"x": x, "y": y}}
		if args.Focus != nil { // located to type into: it takes the focus in the same call
			p.mu.Lock()
			p.Focus = e.Ref
			p.mu.Unlock()
			out["focused"], out["empty"] = true, true
		}
		return answer(out)
	case "focusForTyping":
		if e := find(); e != nil {
			p.mu.Lock()
			p.Focus = e.Ref
			p.mu.Unlock()
		}
		return answer(map[string]any{"ok": 1, "focused": true, "empty": true})
	case "focusIs":
		p.mu.Lock()
		same := p.Focus == full(args.Ref) || p.Focus == "" && args.Ref == "e0"
		p.mu.Unlock()
		return answer(map[string]any{"ok": 1, "same": same, "now": p.Focus})
	case "fieldValue":
		if e := find(); e != nil {
			return answer(map[string]any{"ok": 1, "value": e.Value})
		}
		return answer(map[string]any{"ok": 1})
	case "armClick":
		e := find()
		if e == nil {
			return fail("there is no such element")
		}
		p.mu.Lock()
		p.armed, p.last = e.Ref, ""
		p.mu.Unlock()
		return answer(map[string]any{"ok": 1, "token": "t"})
	case "clicked":
		p.mu.Lock()
		hit := p.armed != "" && p.armed == p.last
		p.mu.Unlock()
		if p.Leaves {
			return answer(map[string]any{"ok": 1, "hit": false, "on": "", "gone": 1})
		}
		return answer(map[string]any{"ok": 1, "hit": hit, "on": ""})
	case "scroll":
		return answer(map[string]any{"ok": 1, "y": 100, "moved": 100, "height": 1000, "viewport": 500})
	case "isChecked":
		return answer(map[string]any{"ok": 1, "checked": false})
	case "settle", "hello":
		return answer(map[string]any{"ok": 1})
	case "frameBox":
		return answer(map[string]any{"ok": 1, "x": 0, "y": 0})
	case "selectOption":
		return answer(map[string]any{"ok": 1, "what": "combobox", "selected": []string{"x"}})
	}
	return fail("the fake page does not know " + s.Call)
}

// info is an element as skiff.js's target describes it (its ref local to its frame).
func (p *Page) info(e *Element) map[string]any {
	o := e.Origin
	if o == "" {
		o = origin(p.URL)
	}
	local := e.Ref
	if e.Frame != 0 {
		local = strings.TrimPrefix(e.Ref, fmt.Sprintf("f%d", e.Frame))
	}
	return map[string]any{"ref": local, "role": e.Role, "name": e.Name, "tag": e.Tag,
		"type": e.Type, "field": e.Field, "origin": o, "frameUrl": o + "/", "link": e.Link}
}

// pointOf is where the fake page shows an element (a click there is a click on it).
func (p *Page) pointOf(ref string) (float64, float64) {
	h := 0
	for _, c := range ref {
		h = h*31 + int(c)
	}
	return float64(h%1000) + 0.5, 7
}

func origin(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return u[:i+3+j]
		}
	}
	return u
}

// tool.Debugger

func (p *Page) Debug(_ context.Context, _ int, method string, params any) (json.RawMessage, error) {
	b, _ := json.Marshal(params)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch method {
	case "Input.dispatchMouseEvent":
		if m["type"] == "mousePressed" {
			x, _ := m["x"].(float64)
			what := "click"
			p.last = ""
			for ref := range p.Elements {
				if px, _ := p.pointOf(ref); px == x {
					what, p.last = "click "+ref, ref
				}
			}
			p.inputs = append(p.inputs, what)
		}
	case "Input.dispatchKeyEvent":
		if m["type"] == "keyDown" || m["type"] == "rawKeyDown" {
			key, _ := m["key"].(string)
			p.inputs = append(p.inputs, "key "+key+" "+p.Focus)
			if key == "Tab" && len(p.TabOrder) > 0 {
				next := p.TabOrder[0]
				for i, r := range p.TabOrder {
					if r == p.Focus && i+1 < len(p.TabOrder) {
						next = p.TabOrder[i+1]
					}
				}
				p.Focus = next
			}
		}
	case "Input.insertText":
		p.inputs = append(p.inputs, fmt.Sprintf("type %s %v", p.Focus, m["text"]))
	}
	return json.RawMessage(`{}`), nil
}

func (p *Page) Dialog(int) (tool.Dialog, bool)                        { return tool.Dialog{}, false }
func (p *Page) AnswerDialog(context.Context, int, bool, string) error { return ErrUnsupported }
func (p *Page) FileChooser(int, time.Time) (tool.Chooser, bool)       { return tool.Chooser{}, false }
func (p *Page) RequestsSince(int, time.Time) int                      { return 0 }
func (p *Page) NetLog(int) ([]tool.NetRequest, time.Time)             { return nil, time.Time{} }
func (p *Page) Console(int, time.Time) []tool.ConsoleEvent            { return nil }
func (p *Page) Release(context.Context, int)                          {}
