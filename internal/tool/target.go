package tool

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Each tool resolves its own target before the gate, beside its handler: what the call will act
// on, as data (Effect). The page answers what an element is (skiff.js, target); whatever the
// route to the element (a ref, a selector, a point, the focus, a batch of steps), the gate sees
// the same data and the tool then acts on exactly that element.

// answer is what skiff.js's target says: the element, what a click on it activates, and for an
// element in a form, what Enter in it presses and where the form goes. Frame, with X and Y for
// a point, says the element is in that child frame: ask there.
type answer struct {
	Frame     *int     `json:"frame"`
	X         *float64 `json:"x"`
	Y         *float64 `json:"y"`
	Element   *Element `json:"element"`
	Activates *Element `json:"activates"`
	Form      string   `json:"form"`
	Enter     *Element `json:"enter"`
	Implicit  bool     `json:"implicit"`
}

// clicked is what a click on the element sets off.
func (a *answer) clicked() *Element {
	if a.Activates != nil {
		return a.Activates
	}
	return a.Element
}

// find asks the page what t names (a ref or a selector), what is at point p (when t is empty
// and p is set), or, with focused, what has the focus, following child frames down. Refs in the
// answer carry their frame's prefix.
func (e *Env) find(ctx context.Context, tab Tab, t Target, p *point, focused bool) (*answer, int, error) {
	a, frame, _, err := e.findAt(ctx, tab, t, p, focused)
	return a, frame, err
}

// findAt is find that also says, for a point, where it is in the frame of the element.
func (e *Env) findAt(ctx context.Context, tab Tab, t Target, p *point, focused bool) (*answer, int, *point, error) {
	frame := 0
	at := p
	args := map[string]any{}
	switch {
	case focused:
		args["focused"] = true
	case t.Ref != "" || strings.TrimSpace(t.Selector) != "":
		f, pt, err := where(t)
		if err != nil {
			return nil, 0, nil, err
		}
		frame, args["target"] = f, pt
	case p != nil:
		x, y := p.X, p.Y
		args["target"] = pageTarget{X: &x, Y: &y}
	default:
		return nil, 0, nil, failf("say which element: give its ref from the snapshot (or a CSS selector)")
	}
	// What may pass later (a selector that matches nothing yet, a frame the page has not heard
	// from) is tried again for a moment, as the actionability checks are.
	deadline := time.Now().Add(min(ActionWait, e.timeout()))
	introduced := false
	for depth := 0; ; depth++ {
		var a answer
		err := e.call(ctx, tab.ID, frame, pageFiles, "target", args, &a)
		if err != nil && isRetry(err) && time.Now().Before(deadline) {
			if !introduced {
				// Every child frame says which it is, for a frame the parent does not know.
				introduced = true
				e.introduce(ctx, tab.ID)
			} else {
				select {
				case <-ctx.Done():
					return nil, frame, nil, ctx.Err()
				case <-time.After(100 * time.Millisecond):
				}
			}
			depth--
			continue
		}
		if err != nil {
			return nil, frame, nil, unretry(err)
		}
		if a.Frame == nil {
			if a.Element == nil {
				return nil, frame, nil, failf("the page did not say what that element is; take a new snapshot")
			}
			for _, el := range []*Element{a.Element, a.Activates, a.Enter} {
				if el != nil {
					el.Ref = frameRef(frame, el.Ref)
				}
			}
			return &a, frame, at, nil
		}
		if depth >= 8 {
			return nil, frame, nil, failf("frames are nested too deep to reach that element")
		}
		frame = *a.Frame
		if !focused {
			x, y := 0.0, 0.0
			if a.X != nil && a.Y != nil {
				x, y = *a.X, *a.Y
			}
			args = map[string]any{"target": pageTarget{X: &x, Y: &y}}
			at = &point{X: x, Y: y}
		}
	}
}

// introduce has every child frame of a tab tell its parent which frame it is.
func (e *Env) introduce(ctx context.Context, tabID int) {
	frames, err := e.Browser.Frames(ctx, tabID)
	if err != nil {
		return
	}
	e.introduceFrames(ctx, tabID, live(frames))
}

// helloWait bounds how long a parent frame is waited on to hear its children's hellos.
const helloWait = 500 * time.Millisecond

// introduceFrames has every child frame tell its parent which frame it is (a message the
// parent's script reads), then waits until each parent has heard its children, or helloWait
// has passed: on the event, not on a guess of time. Frames speak level by level, so a frame's
// own script is there to hear its children before they speak.
func (e *Env) introduceFrames(ctx context.Context, tabID int, frames []Frame) {
	byID := map[int]Frame{}
	for _, f := range frames {
		byID[f.ID] = f
	}
	depth := func(f Frame) int {
		d := 0
		for f.ParentID >= 0 && d < len(frames) {
			f, d = byID[f.ParentID], d+1
		}
		return d
	}
	levels := map[int][]Frame{}
	kids := map[int][]int{}
	deepest := 0
	can := scriptable(frames)
	for _, f := range frames {
		if f.ParentID < 0 || !can[f.ID] {
			continue
		}
		d := depth(f)
		levels[d] = append(levels[d], f)
		deepest = max(deepest, d)
		if _, ok := byID[f.ParentID]; ok && can[f.ParentID] {
			kids[f.ParentID] = append(kids[f.ParentID], f.ID)
		}
	}
	// Only a frame that said hello is waited for: one that cannot (it shows Chrome's error page,
	// or cannot be scripted) would hold every reading of the page for helloWait.
	var mu sync.Mutex
	spoke := map[int]bool{}
	for d := 1; d <= deepest; d++ {
		var wg sync.WaitGroup
		for _, f := range levels[d] {
			wg.Go(func() {
				if e.call(ctx, tabID, f.ID, pageFiles, "hello", map[string]int{"frameId": f.ID}, nil) == nil {
					mu.Lock()
					spoke[f.ID] = true
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
	for parent, ids := range kids {
		kids[parent] = slices.DeleteFunc(ids, func(id int) bool { return !spoke[id] })
		if len(kids[parent]) == 0 {
			delete(kids, parent)
		}
	}
	var wg sync.WaitGroup
	for parent, ids := range kids {
		wg.Go(func() {
			_ = e.call(ctx, tabID, parent, pageFiles, "knows", map[string]any{"frameIds": ids, "max": helloWait.Milliseconds()}, nil)
		})
	}
	wg.Wait()
}

// unretry turns a page failure that may pass later into a plain one.
func unretry(err error) error {
	if r, ok := err.(*retryable); ok {
		return r.err
	}
	return err
}

// onPage is the start of every target on a page: the tab, scriptable and not stuck in a dialog.
func (e *Env) onPage(ctx context.Context, tabID int) (Tab, error) {
	tab, err := e.pageTab(ctx, tabID)
	if err != nil {
		return tab, err
	}
	if d, ok := e.Browser.Dialog(tab.ID); ok {
		return tab, &DialogError{Dialog: d}
	}
	return tab, nil
}

// leads is where activating el sends the browser, as the page says in advance.
func leads(el *Element) string {
	if el == nil {
		return ""
	}
	if el.Link != "" {
		return el.Link
	}
	return el.Submits
}

func clickTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*ClickInput)
	tab, err := e.onPage(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	f := &Effect{Action: "click", TabID: tab.ID, URL: tab.URL}
	switch {
	case in.Button == "right":
		f.Action = "right-click"
	case in.Double:
		f.Action = "double-click"
	}
	var p *point
	if in.Ref == "" && strings.TrimSpace(in.Selector) == "" {
		if in.X == nil || in.Y == nil {
			return nil, failf("say what to click: a ref from the snapshot, a CSS selector, or x and y")
		}
		p = &point{X: *in.X, Y: *in.Y}
		f.X, f.Y = in.X, in.Y
	}
	a, _, at, err := e.findAt(ctx, tab, in.Target, p, false)
	if err != nil {
		return nil, err
	}
	f.Element, f.at = a.Element, at
	if in.Button != "right" && in.Button != "middle" {
		f.Activates = a.clicked()
	}
	if in.Button != "right" {
		f.LeadsTo = leads(a.clicked())
	}
	return f, nil
}

// element is the effect of action on the one element t names in tab tabID (the current tab
// when 0), as the page describes it.
func (e *Env) element(ctx context.Context, tabID int, t Target, action string) (*Effect, error) {
	tab, err := e.onPage(ctx, tabID)
	if err != nil {
		return nil, err
	}
	a, _, err := e.find(ctx, tab, t, nil, false)
	if err != nil {
		return nil, err
	}
	return &Effect{Action: action, TabID: tab.ID, URL: tab.URL, Element: a.Element}, nil
}

func hoverTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*HoverInput)
	return e.element(ctx, in.TabID, in.Target, "hover")
}

func typeTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*TypeInput)
	tab, err := e.onPage(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	a, _, err := e.find(ctx, tab, in.Target, nil, false)
	if err != nil {
		return nil, err
	}
	f := &Effect{Action: "type", TabID: tab.ID, URL: tab.URL, Element: a.Element, Text: in.Text}
	if in.Submit {
		f.Activates, f.LeadsTo = enter(a, false)
	}
	return f, nil
}

// enter is what pressing Enter (with a modifier when mod) in the element of a does: in a
// text field of a form, it presses the form's default button (and the form goes to its
// action); on a button or link, it activates it; in a text area, Enter alone adds a line, but
// Control+Enter or Meta+Enter is how many pages send what is written, so it counts as pressing
// the form's button.
func enter(a *answer, mod bool) (*Element, string) {
	el := a.Element
	switch {
	case a.Implicit && a.Enter != nil:
		return a.Enter, a.Form
	case el.Tag == "textarea" || el.Role == "textbox" || el.Role == "searchbox" || el.Role == "combobox":
		if mod && a.Enter != nil {
			return a.Enter, a.Form
		}
		return nil, ""
	case a.clicked().Performs():
		return a.clicked(), leads(a.clicked())
	}
	return nil, ""
}

func selectTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*SelectInput)
	tab, err := e.onPage(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	a, _, err := e.find(ctx, tab, in.Target, nil, false)
	if err != nil {
		return nil, err
	}
	return &Effect{Action: "select", TabID: tab.ID, URL: tab.URL, Element: a.Element, Values: in.Values}, nil
}

func fillTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*FillFormInput)
	tab, err := e.onPage(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	if len(in.Fields) == 0 {
		return nil, failf("give at least one field to fill")
	}
	f := &Effect{Action: "fill", TabID: tab.ID, URL: tab.URL}
	var last *answer
	for i, fld := range in.Fields {
		a, _, err := e.find(ctx, tab, fld.Target, nil, false)
		if err != nil {
			return nil, failf("field %d: %v", i+1, err)
		}
		if a.Element.Performs() {
			if !a.Element.DrawnBox() {
				return nil, failf("field %d is %s, which is not a field: use click for it", i+1, a.Element.Words())
			}
		}
		f.Fields = append(f.Fields, FieldValue{Element: *a.Element, Value: fld.Value})
		if a.Implicit || a.Element.Tag == "textarea" || a.Element.Role == "textbox" || a.Element.Role == "searchbox" {
			last = a
		}
	}
	if in.Submit && last != nil {
		f.Activates, f.LeadsTo = enter(last, false)
	}
	return f, nil
}

func pressTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*PressKeyInput)
	k, mods, err := parseChord(in.Key)
	if err != nil {
		return nil, err
	}
	tab, err := e.onPage(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	t := Target{Ref: in.Ref, Selector: in.Selector}
	focused := t.Ref == "" && strings.TrimSpace(t.Selector) == ""
	a, _, err := e.find(ctx, tab, t, nil, focused)
	if err != nil {
		return nil, err
	}
	f := &Effect{Action: "press", TabID: tab.ID, URL: tab.URL, Key: in.Key, Element: a.Element}
	// (The key as it is pressed, whatever it was called: Return is Enter, Spacebar Space.)
	switch k.Key {
	case "Enter":
		f.Activates, f.LeadsTo = enter(a, mods != 0)
	case " ":
		// Space presses a button and ticks a checkbox; it does not follow a link.
		if c := a.clicked(); c.Tag != "a" && c.Role != "link" && (c.Performs() || valueRoles[c.Role]) && c.Role != "textbox" {
			f.Activates = c
			f.LeadsTo = c.Submits
		}
	}
	return f, nil
}

// dragTarget: what is dragged is the element the call acts on, and where it is dropped is what
// the drag sets off (a bin called "Delete" makes it a call that cannot be undone, as a button
// called so does).
func dragTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*DragInput)
	tab, err := e.onPage(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	if in.To.Ref == "" && strings.TrimSpace(in.To.Selector) == "" {
		return nil, failf("say where to drop it: to, with the ref (or a CSS selector) of the element to let go over")
	}
	a, from, err := e.find(ctx, tab, in.Target, nil, false)
	if err != nil {
		return nil, err
	}
	d, onto, err := e.find(ctx, tab, in.To, nil, false)
	if err != nil {
		return nil, fmt.Errorf("where to drop it: %w", err)
	}
	if from != onto {
		return nil, failf("%s and %s are in different frames; a drag goes from one element to another in the same frame", a.Element.Words(), d.Element.Words())
	}
	if a.Element.Ref == d.Element.Ref {
		return nil, failf("%s would be dropped on itself: give another element to drop it on", a.Element.Words())
	}
	return &Effect{Action: "drag", TabID: tab.ID, URL: tab.URL, Element: a.Element, Activates: d.Element}, nil
}

func scrollTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*ScrollInput)
	tab, err := e.onPage(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	f := &Effect{Action: "scroll", TabID: tab.ID, URL: tab.URL, Detail: in.Direction}
	if f.Detail == "" {
		f.Detail = "down"
	}
	e.markErrorPage(ctx, f)
	if in.Ref != "" || strings.TrimSpace(in.Selector) != "" {
		a, _, err := e.find(ctx, tab, Target{Ref: in.Ref, Selector: in.Selector}, nil, false)
		if err != nil {
			return nil, err
		}
		f.Element = a.Element
	}
	return f, nil
}

func dialogTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*DialogInput)
	t, err := e.tab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	d, ok := e.Browser.Dialog(t.ID)
	if !ok {
		return nil, failf("the page is not showing a dialog")
	}
	f := &Effect{Action: "dialog", TabID: t.ID, URL: t.URL, Accept: in.Accept}
	if in.Accept {
		// Accepting "Delete everything?" is the click that deletes.
		f.Activates = &Element{Role: "dialog", Tag: "dialog", Name: d.Message, Origin: weburl.Origin(d.URL)}
	}
	return f, nil
}

func navigateTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*NavigateInput)
	u, err := checkURL(in.URL)
	if err != nil {
		return nil, err
	}
	f := &Effect{Action: "navigate", LeadsTo: u, URL: u}
	if t, err := e.tab(ctx, in.TabID); err == nil {
		f.TabID = t.ID
	}
	return f, nil
}

func openTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*TabOpenInput)
	u, err := checkURL(in.URL)
	if err != nil {
		return nil, err
	}
	return &Effect{Action: "open", LeadsTo: u, URL: u}, nil
}

// tabEffect is the effect of a call that works on a tab as a whole: where, and in words.
func (e *Env) tabEffect(ctx context.Context, tabID int, action string, said i18n.Text) (*Effect, error) {
	t, err := e.tab(ctx, tabID)
	if err != nil {
		return nil, err
	}
	return &Effect{Action: action, TabID: t.ID, URL: t.URL, Detail: said.English(), Said: said, Unloaded: t.Status == "unloaded"}, nil
}

// pageEffect is tabEffect for a call on the tab's page: when the tab shows Chrome's error page
// for the address it was sent to (Chrome said why that load failed, and the tab is not loading
// again), the effect carries the sentence that says so.
func (e *Env) pageEffect(ctx context.Context, tabID int, action string, said i18n.Text) (*Effect, error) {
	f, err := e.tabEffect(ctx, tabID, action, said)
	if err == nil {
		e.markErrorPage(ctx, f)
	}
	return f, err
}

// markErrorPage sets f.ErrorPage when f's tab shows Chrome's error page.
func (e *Env) markErrorPage(ctx context.Context, f *Effect) {
	n, ok := e.Browser.(NetErrorer)
	if !ok || f.TabID <= 0 || n.NetError(f.TabID, f.URL) == "" {
		return
	}
	if t, err := e.Browser.Tab(ctx, f.TabID); err == nil && t.Status == "complete" && t.URL == f.URL {
		f.ErrorPage = e.errorPage(ctx, t)
	}
}

// saying is an effect whose words are said.
func saying(action string, said i18n.Text) *Effect {
	return &Effect{Action: action, Detail: said.English(), Said: said}
}

func closeTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*TabCloseInput)
	ids := in.TabIDs
	if len(ids) == 0 {
		t, err := e.tab(ctx, 0)
		if err != nil {
			return nil, err
		}
		ids = []int{t.ID}
	}
	var names []string
	url := ""
	own, takenUp := true, false
	for _, id := range ids {
		own = own && e.Opened(id)
	}
	for i, id := range ids {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(ids)-5))
		}
		if i >= 5 && !own {
			break
		}
		t, err := e.Browser.Tab(ctx, id)
		if err == nil && !e.ownTab(t) { // each, however many: one the user went to is theirs
			takenUp = takenUp || e.Opened(id)
			own = false
		}
		if i >= 5 {
			continue
		}
		if err != nil {
			names = append(names, fmt.Sprintf("tab %d", id))
			continue
		}
		if url == "" {
			url = t.URL
		}
		where := weburl.Origin(t.URL)
		if where == "" {
			where = clip(t.URL, 60)
		}
		names = append(names, fmt.Sprintf("“%s” (%s)", clip(oneLine(t.Title), 60), where))
	}
	return &Effect{Action: "close", URL: url, Detail: strings.Join(names, ", "), OwnTabs: own, TakenUp: takenUp}, nil
}

func scriptTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*RunScriptInput)
	t, err := e.pageTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	return &Effect{Action: "script", TabID: t.ID, URL: t.URL, Text: in.Code}, nil
}

// The reading tools: where they read, and what, in words.

func snapshotTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*SnapshotInput)
	w := whatLook.With()
	if in.Ref != "" {
		w = whatLookAt.With(in.Ref)
	}
	return e.pageEffect(ctx, in.TabID, "read", w)
}

func readTextTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*ReadTextInput)
	return e.pageEffect(ctx, in.TabID, "read", whatReadText.With())
}

func contentTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*GetContentInput)
	w := whatReadText.With()
	if in.Selector != "" {
		w = whatReadSel.With(fmt.Sprintf("%q", in.Selector))
	}
	return e.pageEffect(ctx, in.TabID, "read", w)
}

func linksTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*LinksInput)
	return e.pageEffect(ctx, in.TabID, "read", whatLinks.With())
}

func findTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*FindTextInput)
	f, err := e.pageEffect(ctx, in.TabID, "find", i18n.Text{})
	if f != nil {
		f.Text = in.Text
	}
	return f, err
}

func screenshotTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*ScreenshotInput)
	switch {
	case in.Ref != "" || in.Selector != "":
		if in.FullPage {
			return nil, failf("give either an element or fullPage, not both")
		}
		f, err := e.element(ctx, in.TabID, in.Target, "read")
		if err != nil {
			return nil, err
		}
		f.Said = whatShotOf.With(f.Element.Says())
		f.Detail = f.Said.English()
		return f, nil
	case in.FullPage:
		return e.pageEffect(ctx, in.TabID, "read", whatShotPage.With())
	}
	return e.pageEffect(ctx, in.TabID, "read", whatShot.With())
}

func waitTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*WaitInput)
	w := ""
	switch {
	case in.Selector != "":
		w = fmt.Sprintf("%q", in.Selector)
	case in.Text != "":
		w = "“" + clip(oneLine(in.Text), 120) + "”"
	case in.TextGone != "":
		w = "“" + clip(oneLine(in.TextGone), 120) + "” to go"
	}
	f, err := e.pageEffect(ctx, in.TabID, "wait", i18n.Text{})
	if f != nil {
		f.Text = w
	}
	return f, err
}

func tabsTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	return saying("read", whatTabs.With()), nil
}

func switchTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*TabInput)
	return e.tabEffect(ctx, in.TabID, "switch", whatSwitchTab.With(in.TabID))
}

func moveTarget(words i18n.Sentence) func(context.Context, *Env, any) (*Effect, error) {
	return func(ctx context.Context, e *Env, arg any) (*Effect, error) {
		in := arg.(*TabInput)
		return e.tabEffect(ctx, in.TabID, "move", words.With())
	}
}

func groupTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*TabGroupInput)
	return saying("group", whatGroup.With(len(in.TabIDs), fmt.Sprintf("%q", in.Title))), nil
}

func ungroupTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*TabIDsInput)
	return saying("group", whatUngroup.With(len(in.TabIDs))), nil
}

func historySearchTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*HistorySearchInput)
	return saying("read", whatHistorySearch.With(fmt.Sprintf("%q", in.Text))), nil
}

func historyRecentTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	return saying("read", whatHistoryRecent.With()), nil
}

func visitsTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*URLInput)
	return saying("read", whatVisits.With(in.URL)), nil
}

func deleteURLTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*URLInput)
	return saying("delete", whatDeleteURL.With(in.URL)), nil
}

func deleteRangeTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*HistoryRangeInput)
	if in.EndTime < in.StartTime {
		return nil, failf("endTime is before startTime")
	}
	return saying("delete", whatDeleteRange.With(day(in.StartTime), day(in.EndTime))), nil
}
