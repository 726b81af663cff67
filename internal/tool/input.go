package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Skiff acts with trusted input: mouse and keyboard events sent through the debugger
// (Input.dispatchMouseEvent, insertText, dispatchKeyEvent) are what a person's input is to the
// page (isTrusted, focus, hover and default actions included), which sites built on frameworks
// or with bot checks need. When the debugger is not available on a tab (DevTools is open on it,
// or the user stopped Skiff's control), the same actions fall back to DOM events, and the
// result says so: some sites ignore them.

// located is what locate says about an element that passed the checks.
type located struct {
	What     string `json:"what"`
	Point    point  `json:"point"`
	Viewport struct {
		W float64 `json:"w"`
		H float64 `json:"h"`
	} `json:"viewport"`
	// Asked to focus it for typing (locateFocus): whether it has the focus, held nothing, and
	// the native picker it is ("date", "color"…; "" for text), as focusForTyping says.
	Focused bool   `json:"focused"`
	Empty   bool   `json:"empty"`
	Special string `json:"special"`
	// Hidden is 1 when the page is not drawn (a background tab): Chrome answers a mouse move
	// there only when the page next draws a frame, which it does not.
	Hidden int `json:"hidden"`
	// MaxLength is how many characters the field takes (0: no limit), for locateFocus.
	MaxLength int `json:"maxLength"`
	// SelectAll is the chord that selects what a code editor holds (its field's own selection
	// is not the editor's), pressed before typing that replaces it.
	SelectAll string `json:"selectAll"`
	// Editor is 1 for a code editor (typed into through a field it keeps out of sight).
	Editor int `json:"editor"`
	// Scroll is where the page was scrolled to, for a drop (the drag follows the page if it
	// scrolls under the mouse).
	Scroll *point `json:"scroll"`
}

type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// ActionWait is how long the actionability checks are tried again before an action fails:
// long enough for a control enabled late or an animation ending, short enough that a model
// facing a real obstacle (a banner over the button) hears about it at once.
var ActionWait = 3 * time.Second

// CoverWait is how long an element is waited on under a cover that waits for an answer (a
// dialog, a cookie banner with its buttons): one still there after this is said at once,
// not after ActionWait, since nothing but an answer takes it away.
var CoverWait = 700 * time.Millisecond

// StillWait is how long a disabled control, a box over an element or an element hidden (or of
// no size) is waited on while the page stands still: no change to its document, nothing loading, animating or shown at work,
// no request out. A page enables a control, or takes a box away, as something happens (an
// answer comes, a script runs, a transition ends); on a page where nothing does, waiting the
// rest of ActionWait only delays the sentence.
var StillWait = time.Second

// StillAfterAction is how long after the env's last action a page is not judged still: it may
// be answering that action out of Skiff's sight (a field checked with the site a moment after
// the typing stops).
var StillAfterAction = 2 * time.Second

// stillRequests is how far back a request the page has not heard back from keeps it from
// standing still (one older is a long poll, or one whose end Skiff did not see).
const stillRequests = 10 * time.Second

// locate runs the actionability checks in the element's frame until they pass or ActionWait
// passes; a check that may pass later (not visible yet, covered, moving, disabled) is tried
// again.
func (e *Env) locate(ctx context.Context, tabID, frame int, t pageTarget, action string) (*located, error) {
	return e.locateWith(ctx, tabID, frame, map[string]any{"target": t, "action": action})
}

// locateFocus locates a field to type into and, found, gives it the focus for typing (its
// text selected when clear), in the same call.
func (e *Env) locateFocus(ctx context.Context, tabID, frame int, t pageTarget, clear bool) (*located, error) {
	return e.locateWith(ctx, tabID, frame, map[string]any{"target": t, "action": "type", "focus": map[string]bool{"clear": clear}})
}

func (e *Env) locateWith(ctx context.Context, tabID, frame int, args map[string]any) (*located, error) {
	deadline := time.Now().Add(min(ActionWait, e.timeout()))
	wait := 50 * time.Millisecond
	var standing string // the failure of a cover that waits for an answer, since stood
	var stood time.Time
	var stillMsg string // the failure on a still page, since still, with stillN changes to it
	var stillN int
	var still time.Time
	for {
		var l located
		err := e.call(ctx, tabID, frame, pageFiles, "locate", args, &l)
		if err == nil {
			return &l, nil
		}
		var r *retryable
		again := errors.As(err, &r) && r.again
		if again && r.lasting {
			if r.err.Msg != standing {
				standing, stood = r.err.Msg, time.Now()
			}
		} else {
			standing = ""
		}
		if again && r.held {
			// A picker the focused field keeps open does not go by waiting (and the call
			// that meets it may leave the field: fill_form).
			return nil, &retryable{err: r.err, held: true}
		}
		held := standing != "" && time.Since(stood) >= CoverWait
		// What a still page will not change by itself (it does not enable a control, take a
		// box away or show what it hides with nothing happening) is said once the page has been seen to stand
		// still for StillWait (no change to it, nothing loading, moving or shown at work, no
		// request it sent out) and the env's last action is StillAfterAction past.
		if again && !r.lasting && r.calm != nil && r.calm.Busy == 0 && e.Browser.RequestsSince(tabID, time.Now().Add(-stillRequests)) == 0 {
			if r.calm.N != stillN || r.err.Msg != stillMsg {
				stillN, stillMsg, still = r.calm.N, r.err.Msg, time.Now()
			} else if time.Since(still) >= StillWait && time.Since(e.actedAt()) >= StillAfterAction {
				held = true
			}
		} else {
			stillMsg = ""
		}
		if !again || held || time.Now().Add(wait).After(deadline) {
			if r != nil {
				return nil, r.err
			}
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 500*time.Millisecond)
	}
}

// topPoint turns a point in a frame's viewport into the top page's viewport, adding the
// position of each iframe on the way up.
func (e *Env) topPoint(ctx context.Context, tabID, frame int, p point) (point, error) {
	if frame == 0 {
		return p, nil
	}
	frames, err := e.Browser.Frames(ctx, tabID)
	if err != nil {
		return p, err
	}
	parent := map[int]int{}
	for _, f := range frames {
		parent[f.ID] = f.ParentID
	}
	for f := frame; f != 0; {
		par, ok := parent[f]
		if !ok {
			return p, failf("the frame of this element is gone (the page changed); take a new snapshot")
		}
		var box point
		err := e.call(ctx, tabID, par, pageFiles, "frameBox", map[string]int{"frameId": f}, &box)
		if err != nil {
			// The parent has not heard from this frame yet: introduce it and ask again.
			_ = e.call(ctx, tabID, f, pageFiles, "hello", map[string]int{"frameId": f}, nil)
			time.Sleep(50 * time.Millisecond)
			if err = e.call(ctx, tabID, par, pageFiles, "frameBox", map[string]int{"frameId": f}, &box); err != nil {
				return p, err
			}
		}
		p.X += box.X
		p.Y += box.Y
		f = par
	}
	return p, nil
}

// layout is what Page.getLayoutMetrics says of a page (attaching the debugger before an action
// asks for it anyway), in CSS pixels: its viewport, where it is scrolled to, its content's
// size (and that size in the screen's pixels, which tells the device pixel ratio); zero when
// it could not be read.
type layout struct {
	View struct {
		W float64 `json:"clientWidth"`
		H float64 `json:"clientHeight"`
	} `json:"cssLayoutViewport"`
	Visual struct {
		X float64 `json:"pageX"`
		Y float64 `json:"pageY"`
	} `json:"cssVisualViewport"`
	Content struct {
		W float64 `json:"width"`
		H float64 `json:"height"`
	} `json:"cssContentSize"`
	Device struct {
		W float64 `json:"width"`
	} `json:"contentSize"`
}

// shows says whether p, a point in the page's viewport, is on screen: an element a frame sees
// in its own view may be off the page's (the frame only partly on screen). A viewport that
// could not be read shows every point.
func (s layout) shows(p point) bool {
	if s.View.W <= 0 || s.View.H <= 0 {
		return true
	}
	return p.X >= 0 && p.Y >= 0 && p.X < s.View.W && p.Y < s.View.H
}

// attach attaches the debugger to the tab (if this is its first input) and reads the page's
// layout; the error says the debugger is not available.
func (e *Env) attach(ctx context.Context, tabID int) (layout, error) {
	var m layout
	raw, err := e.Browser.Debug(ctx, tabID, "Page.getLayoutMetrics", nil)
	if err == nil {
		err = json.Unmarshal(raw, &m)
	}
	return m, err
}

// errDialogOpened says an input event opened a dialog: the event was delivered, and the page
// now waits for the dialog to be answered.
var errDialogOpened = errors.New("tool: the page opened a dialog")

// input sends an Input.* command. A page that opens a dialog from the event's handler keeps
// the command waiting until the dialog is answered: that is reported as errDialogOpened as
// soon as the dialog is seen, instead of waiting.
func (e *Env) input(ctx context.Context, tabID int, method string, params any) error {
	ctx, cancel := context.WithTimeout(ctx, e.timeout())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := e.Browser.Debug(ctx, tabID, method, params)
		done <- err
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			if _, ok := e.Browser.Dialog(tabID); ok {
				return errDialogOpened
			}
		case <-ctx.Done():
			if _, ok := e.Browser.Dialog(tabID); ok {
				return errDialogOpened
			}
			return ctx.Err()
		}
	}
}

// mouse clicks (count 1 or 2, button left, right or middle) or hovers (count 0) at target.
// It reports what was acted on and whether trusted input was used. A click is verified: the
// debugger is attached first (Chrome's "started debugging" bar takes room at the top and moves
// the page), the element must still be at the point just before the events go out, and the
// press must reach it; when the page moved in between, it aims again.
func (e *Env) mouse(ctx context.Context, tabID, frame int, t pageTarget, button string, count int) (pressed, error) {
	action, kind := "click", "click"
	if count == 0 {
		action, kind = "hover", "hover"
	}
	if button == "" {
		button = "left"
	}
	// Attaching the debugger (if this is the first input to the tab) before aiming.
	view, attachErr := e.attach(ctx, tabID)
	trusted := attachErr == nil
	var l *located
	var err error
	for try := 0; ; try++ {
		err = nil
		if l, err = e.locate(ctx, tabID, frame, t, action); err != nil {
			return pressed{What: "", Trusted: false}, err
		}
		if !trusted {
			break
		}
		top, err := e.topPoint(ctx, tabID, frame, l.Point)
		if err != nil {
			return pressed{What: l.What, Trusted: false}, err
		}
		if frame != 0 && t.X == nil && try < 3 && !view.shows(top) {
			// In the frame's view, not the page's: every document scrolls it into view.
			if err := e.call(ctx, tabID, frame, pageFiles, "reveal", map[string]any{"target": t}, nil); err != nil {
				return pressed{What: l.What, Trusted: true}, err
			}
			continue
		}
		send := func(typ string, clicks int) error {
			p := map[string]any{"type": typ, "x": top.X, "y": top.Y, "button": button, "clickCount": clicks}
			if typ == "mouseMoved" {
				p["button"] = "none"
				if l.Hidden != 0 {
					// In a background tab the move is dispatched at once but acknowledged
					// only after Chrome gives up waiting for a frame (5 s): the press that
					// follows does not wait for it.
					mctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
					defer cancel()
					if err := e.input(mctx, tabID, "Input.dispatchMouseEvent", p); err != nil && mctx.Err() == nil {
						return err
					}
					return nil
				}
			}
			return e.input(ctx, tabID, "Input.dispatchMouseEvent", p)
		}
		// The mouse goes there first (a page may react: a menu opens, a bar comes in), then
		// what is at the point is checked, and only then the button goes down: no press is
		// ever sent at a point the element has left.
		if err := send("mouseMoved", 0); err != nil {
			if errors.Is(err, ErrNoDebugger) {
				trusted = false
				break
			}
			if !errors.Is(err, errDialogOpened) {
				return pressed{What: l.What, Trusted: true}, err
			}
		}
		var arm struct {
			Token   string    `json:"token"`
			State   *ctlState `json:"state"`
			Listen  string    `json:"listen"`
			Redrawn int       `json:"redrawn"`
		}
		at := map[string]float64{"x": l.Point.X, "y": l.Point.Y}
		if t.X != nil {
			at = nil // a point the model chose: locate checked what is there
		}
		if err := e.call(ctx, tabID, frame, pageFiles, "armClick", map[string]any{"target": t, "point": at, "kind": kind, "was": l.What}, &arm); err != nil {
			if isRetry(err) && try < 3 {
				continue // the page moved since it was located: aim again
			}
			return pressed{What: l.What, Trusted: true}, unretry(err)
		}
		if count == 0 {
			// A hover: the move was the action; it reached the element if it is there now.
			err = send("mouseMoved", 0)
		}
		for i := 1; err == nil && i <= count; i++ {
			if err = send("mousePressed", i); err == nil {
				err = send("mouseReleased", i)
			}
		}
		if errors.Is(err, errDialogOpened) {
			return pressed{What: l.What, Trusted: true, Listen: arm.Listen}, nil // the press went through: the page opened a dialog from it
		}
		// The page went on as the button went down or up (a link or a control that navigates
		// on mousedown, a reload), maybe where the debugger cannot follow (a link to another
		// app, a page Chrome keeps to itself): the press went out, and what came of it is read
		// where the tab is now.
		wentOn := pressed{What: l.What, Trusted: true, Listen: arm.Listen}
		if errors.Is(err, ErrDetached) {
			return wentOn, nil
		}
		if errors.Is(err, ErrNoDebugger) {
			trusted = false
			break
		}
		if err != nil {
			return pressed{What: l.What, Trusted: true}, err
		}
		var got struct {
			Hit   bool      `json:"hit"`
			On    string    `json:"on"`
			State *ctlState `json:"state"`
			Gone  int       `json:"gone"` // 1: the document that armed the press is gone
		}
		// The press went out: whether it landed is read wherever the page is now.
		if err := e.call(unpinned(ctx), tabID, frame, pageFiles, "clicked", map[string]string{"token": arm.Token}, &got); err != nil {
			var de *DialogError
			if errors.As(err, &de) {
				return pressed{What: l.What, Trusted: true}, nil
			}
			return pressed{What: l.What, Trusted: true}, err
		}
		if got.Gone == 1 {
			return wentOn, nil
		}
		if got.Hit || count == 0 {
			return pressed{What: l.What, Trusted: true, Before: arm.State, After: got.State, Listen: arm.Listen, Redrawn: arm.Redrawn == 1}, nil
		}
		// The press went somewhere else, which may have done something: say so, never press
		// again.
		on := got.On
		if on == "" {
			on = "nothing Skiff could see (it may have gone to another frame)"
		}
		return pressed{What: l.What, Trusted: true}, failf("the %s at (%.0f, %.0f) did not reach %s: it went to %s (the page changed under the mouse); look at the page before trying again", action, top.X, top.Y, l.What, on)
	}
	// No debugger: DOM events, armed as a real press is, so that what the click changed on
	// the element (a box it ticked) is read the same way.
	name := "domClick"
	if count == 0 {
		name = "domHover"
	}
	var arm struct {
		Token  string    `json:"token"`
		State  *ctlState `json:"state"`
		Listen string    `json:"listen"`
	}
	if err := e.call(ctx, tabID, frame, pageFiles, "armClick", map[string]any{"target": t, "kind": kind, "was": l.What}, &arm); err != nil {
		return pressed{What: l.What}, unretry(err)
	}
	if err := e.call(ctx, tabID, frame, pageFiles, name, map[string]any{"target": t, "point": l.Point, "count": count}, nil); err != nil {
		return pressed{What: l.What}, err
	}
	var got struct {
		State *ctlState `json:"state"`
	}
	// A page that went on (a link followed) has no state to give: what it says is read there.
	_ = e.call(unpinned(ctx), tabID, frame, pageFiles, "clicked", map[string]string{"token": arm.Token}, &got)
	return pressed{What: l.What, Before: arm.State, After: got.State, Listen: arm.Listen}, nil
}

// pressed is what mouse did: the element it acted on, whether with trusted input, and the
// element's state before and after a click (nil when it has none, or it could not be read).
type pressed struct {
	What          string
	Trusted       bool
	Before, After *ctlState
	// Listen is the page's token for what it says back to the click (skiff.js noteSaid).
	Listen string
	// Redrawn: the page drew the element again as the mouse came, and the new one was
	// pressed (the same role and name at the same point).
	Redrawn bool
}

// checked is the state a click left a checkbox, radio or switch in (nil: none, or partly).
func (p pressed) checked() *bool {
	if p.Before == nil || p.After == nil || p.After.Checked == nil || *p.After.Checked > 1 {
		return nil
	}
	on := *p.After.Checked == 1
	return &on
}

// ctlState is what a click may change on an element that a person sees (skiff.js stateOf):
// checked (2: partly), pressed, expanded, selected, the order a column is sorted in; nil when
// it has none of these.
type ctlState struct {
	Switch   int  `json:"switch"` // 1: checked reads as on or off
	Checked  *int `json:"checked"`
	Pressed  *int `json:"pressed"`
	Expanded *int `json:"expanded"`
	Selected *int `json:"selected"` // a tab, an option
	Sort     *int `json:"sort"`     // a column header: 0 none, 1 ascending, 2 descending, 3 other
}

// same says whether a click left the state as it was.
func (before *ctlState) same(after *ctlState) bool {
	eq := func(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return before != nil && after != nil && eq(before.Checked, after.Checked) && eq(before.Pressed, after.Pressed) &&
		eq(before.Expanded, after.Expanded) && eq(before.Selected, after.Selected) && eq(before.Sort, after.Sort)
}

// change says what a click did to the element's state, from before and after it: " It is now
// checked." or, when the page did not change it, " It is still unchecked (the click did not
// change it)." It is "" when the element has no such state.
func (before *ctlState) change(after *ctlState) string {
	if before == nil || after == nil {
		return ""
	}
	var now, still []string
	add := func(b, a *int, words ...string) {
		if b == nil || a == nil || *a < 0 || *a >= len(words) {
			return
		}
		if *b != *a {
			now = append(now, words[*a])
		} else {
			still = append(still, words[*a])
		}
	}
	if after.Switch == 1 {
		add(before.Checked, after.Checked, "off", "on")
	} else {
		add(before.Checked, after.Checked, "unchecked", "checked", "partly checked")
	}
	add(before.Pressed, after.Pressed, "not pressed", "pressed", "partly pressed")
	add(before.Expanded, after.Expanded, "collapsed", "expanded")
	add(before.Selected, after.Selected, "not selected", "selected")
	add(before.Sort, after.Sort, "not sorted", "sorted ascending", "sorted descending", "sorted")
	switch {
	case len(now) > 0:
		return " It is now " + strings.Join(now, " and ") + "."
	case len(still) > 0:
		return " It is still " + strings.Join(still, " and ") + " (the click did not change it)."
	}
	return ""
}

// said is change as a click on an element of role says it: an option that still reads selected
// says nothing, for an option reads so while the keys or the mouse are on it (Tom Select's, a
// combobox's active one), whether the click chose it or not; one still not selected after the
// click is said to be so.
func (before *ctlState) said(after *ctlState, role string) string {
	if role == "option" && before != nil && after != nil && before.Selected != nil && after.Selected != nil && *before.Selected == 1 && *after.Selected == 1 {
		return ""
	}
	return before.change(after)
}

// typed is what typeText did: the field typed into, whether trusted input was used, and, when
// the page moved the focus from field to field as the text went in (a code in one box per
// digit), where each part went and what each field holds (Across): the read-back of the first
// field alone would not say it.
type typed struct {
	What    string
	Trusted bool
	Across  string
}

// typeText puts text in a field: focus it, select what it holds when clear, then insert the
// text as typing does.
func (e *Env) typeText(ctx context.Context, tabID, frame int, t pageTarget, text string, clear bool) (typed, error) {
	f, err := e.locateFocus(ctx, tabID, frame, t, clear)
	if err != nil {
		return typed{}, err
	}
	if f.Special != "" {
		// A date or a colour is not typed key by key into its segments: it is chosen, as a
		// person's pick in the picker does, from what a person would write.
		return typed{What: f.What, Trusted: true}, e.call(ctx, tabID, frame, pageFiles, "setValue", map[string]any{"target": t, "text": text}, nil)
	}
	out := typed{What: f.What, Trusted: true}
	if f.SelectAll != "" {
		if err := e.key(ctx, tabID, frame, f.SelectAll); err != nil {
			return typed{}, err
		}
	}
	if clear && text == "" && !f.Empty {
		err = e.key(ctx, tabID, frame, "Delete")
	} else if rs := []rune(text); f.MaxLength > 0 && len(rs) > f.MaxLength {
		out.Across, err = e.typeAcross(ctx, tabID, frame, rs, f.MaxLength, clear)
	} else if f.Editor == 1 && strings.Contains(text, "\n") {
		// Lines typed into a code editor are indented again by it at each new line: they go in
		// as a paste, which it takes as written (or typed, if it does not take a paste).
		var p struct {
			Taken int `json:"taken"`
		}
		if err = e.call(ctx, tabID, frame, pageFiles, "pasteText", map[string]string{"text": text}, &p); err == nil && p.Taken == 0 {
			err = e.input(ctx, tabID, "Input.insertText", map[string]string{"text": text})
		}
	} else if text != "" {
		err = e.input(ctx, tabID, "Input.insertText", map[string]string{"text": text})
	}
	if errors.Is(err, ErrNoDebugger) {
		out.Trusted, out.Across = false, ""
		err = e.call(ctx, tabID, frame, pageFiles, "domType", map[string]any{"target": t, "text": text, "clear": clear}, nil)
	}
	return out, err
}

// typeAcross types a text longer than its field takes as a person does: what the field takes,
// then, if the page moved the focus on to another field (a code split into one box per digit),
// the rest there, field after field. It says where the text went when it went to more than one
// field ("" when the field kept what it takes and the focus stayed: the read-back says it).
func (e *Env) typeAcross(ctx context.Context, tabID, frame int, rs []rune, max int, clear bool) (string, error) {
	var parts []string
	for len(rs) > 0 {
		n := min(max, len(rs))
		if err := e.input(ctx, tabID, "Input.insertText", map[string]string{"text": string(rs[:n])}); err != nil {
			return "", err
		}
		rs = rs[n:]
		var on struct {
			What   string  `json:"what"`
			Held   *string `json:"held"`
			Length int     `json:"length"`
			Next   *struct {
				MaxLength int `json:"maxLength"`
			} `json:"next"`
		}
		if err := e.call(ctx, tabID, frame, pageFiles, "typedOn", map[string]bool{"clear": clear}, &on); err != nil {
			return "", err
		}
		holds := plural(on.Length, "character") // a code or a password is not read back
		if on.Held != nil {
			holds = fmt.Sprintf("%q", clip(*on.Held, 100))
		}
		parts = append(parts, on.What+" holds "+holds)
		if len(rs) == 0 {
			break
		}
		if on.Next == nil {
			if len(parts) == 1 {
				return "", nil
			}
			return fmt.Sprintf(" The page moved the focus from field to field as the text went in: %s; the last %s went nowhere (the focus stayed).", strings.Join(parts, ", "), plural(len(rs), "character")), nil
		}
		if max = on.Next.MaxLength; max <= 0 {
			max = len(rs)
		}
	}
	if len(parts) == 1 {
		return "", nil
	}
	return " The page moved the focus from field to field as the text went in: " + strings.Join(parts, ", ") + ".", nil
}

// key presses a key or chord ("Enter", "Control+A") in the focused element of the tab.
func (e *Env) key(ctx context.Context, tabID, frame int, chord string) error {
	_, err := e.keyHow(ctx, tabID, frame, chord)
	return err
}

// keyHow is key, which also says, when the debugger could not press a real key, that it went
// as DOM events and what Skiff did for it that the browser does for a real one (skiff.js
// domKey); "" for a real key press.
func (e *Env) keyHow(ctx context.Context, tabID, frame int, chord string) (string, error) {
	k, mods, err := parseChord(chord)
	if err != nil {
		return "", err
	}
	down := map[string]any{"type": "keyDown", "key": k.Key, "code": k.Code, "windowsVirtualKeyCode": k.KeyCode, "modifiers": mods}
	if k.Text != "" {
		down["text"] = k.Text
	} else {
		down["type"] = "rawKeyDown"
	}
	err = e.input(ctx, tabID, "Input.dispatchKeyEvent", down)
	if err == nil {
		err = e.input(ctx, tabID, "Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": k.Key, "code": k.Code, "windowsVirtualKeyCode": k.KeyCode, "modifiers": mods})
	}
	if errors.Is(err, errDialogOpened) {
		return "", nil
	}
	if errors.Is(err, ErrNoDebugger) {
		var r struct {
			Did string `json:"did"`
		}
		if err := e.call(ctx, tabID, frame, pageFiles, "domKey", map[string]any{"key": k.Key, "code": k.Code, "modifiers": mods, "text": k.Text}, &r); err != nil {
			return "", err
		}
		switch r.Did {
		case "":
			return " (" + domInput + "; the page's own code heard the key, but the browser does nothing for such a key: look at the page before relying on it)", nil
		case "cancelled":
			return " (" + domInput + "; the page's own code took the key)", nil
		}
		return " (" + domInput + "; Skiff did what the browser does for it: " + r.Did + ")", nil
	}
	return "", err
}

// knownTabs is the set of tabs open now, for afterAction to tell a tab an action opens (nil
// when they cannot be listed).
func (e *Env) knownTabs(ctx context.Context) map[int]bool {
	all, err := e.Browser.Tabs(ctx, 0)
	if err != nil {
		return nil
	}
	known := make(map[int]bool, len(all))
	for _, t := range all {
		known[t.ID] = true
	}
	return known
}

// watch is what afterAction compares the tab with after an action: the tabs open before it
// (known, when the action may open one), and what the page in the action's frame was saying
// (token: skiff.js noteSaid).
type watch struct {
	known map[int]bool
	frame int
	token string
	// shown is what the result already says the control acted on shows (a list's choice):
	// what the page shows of it is not said again.
	shown string
	net   time.Time // when Skiff began following the page's requests for the action (zero: it does not)
	// refused is set by heard when the page did not take what the action sent (Result.Refused).
	refused string
	// suggested is what a field that suggests showed before it was typed into: a list left
	// from what was typed before is not the answer to what is typed now.
	suggested string
	// at is when the action began (for the downloads it set off; zero: just before it was
	// watched for).
	at time.Time
}

// since is when the action w watches began, or else when it was first watched after it
// (started): a page committed since then is the action's.
func (w *watch) since(started time.Time) time.Time {
	if w.at.IsZero() {
		return started
	}
	return w.at
}

// began is when the action w watches began: when it was watched from, else a moment before
// the watch that started at started.
func (w *watch) began(started time.Time) time.Time {
	if w.at.IsZero() {
		return started.Add(-time.Second)
	}
	return w.at
}

// RequestWait is how long, beyond the moment an action is watched for, its result waits for
// the requests the page sent for it (a save, a sign-in, a search) to be answered.
var RequestWait = 3 * time.Second

// MotionWait is how long, beyond the moment an action is watched for, its result waits while
// what the action set moving still moves: a dialog that fades in after its backdrop did
// (Bootstrap's), a panel that slides open. What it then shows is what the action did.
var MotionWait = time.Second

// follow has the page's requests followed while an action runs and is watched, so that its
// result can wait for what the action sent (a click on Save that posts and then shows "Saved"
// or an error, a sign-in that posts and then goes to another page) instead of reading the page
// before it heard back. Without the debugger, nothing is followed and nothing waits.
func (e *Env) follow(ctx context.Context, tabID int, w *watch) {
	since := time.Now()
	w.at = since
	if _, err := e.Browser.Debug(unpinned(ctx), tabID, "Network.enable", map[string]any{"maxPostDataSize": 0}); err == nil {
		w.net = since
	}
}

// replies follows whether what an action sent was answered, turn by turn of a watch.
type replies struct {
	sent     bool      // a request was seen out
	answered time.Time // when the last one came back (zero while one is out)
}

// drawn takes whether requests are out now, and says whether all that was sent has been
// answered and the page had a moment to draw what came.
func (r *replies) drawn(pending bool, now time.Time) bool {
	switch {
	case pending:
		r.sent, r.answered = true, time.Time{}
	case !r.sent:
	case r.answered.IsZero():
		r.answered = now
	default:
		return now.Sub(r.answered) >= 100*time.Millisecond
	}
	return false
}

// out says whether a request was still out at the last turn.
func (r *replies) out() bool { return r.sent && r.answered.IsZero() }

// unwatch stops following the page's requests for w's action (an action that failed before
// it was watched for calls it itself).
func (e *Env) unwatch(tabID int, w *watch) {
	if !w.net.IsZero() {
		e.undo(tabID, "Network.disable", nil)
		w.net = time.Time{}
	}
}

// undo sends a command that turns off what an action turned on, on a context of its own: a
// call stopped now must still turn it off. A page waiting on its dialog answers commands only
// once the dialog is answered, so then the command is sent without waiting for its answer
// (commands keep their order, so the next action's comes after it).
func (e *Env) undo(tabID int, method string, params any) {
	off := func(d time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		_, _ = e.Browser.Debug(ctx, tabID, method, params)
	}
	if _, open := e.Browser.Dialog(tabID); open {
		go off(time.Minute)
		return
	}
	off(2 * time.Second)
}

// watching notes, just before an action in frame, what afterAction will compare with: the
// open tabs when tabs is set, and what the page says. on is the element acted on (nil: the
// one with the focus), whose own value the action is not said to have filled.
func (e *Env) watching(ctx context.Context, tabID, frame int, tabs bool, on *pageTarget) *watch {
	w := &watch{frame: frame, at: time.Now()}
	if tabs {
		w.known = e.knownTabs(ctx)
	}
	e.follow(ctx, tabID, w)
	var l struct {
		Token string `json:"token"`
	}
	args := map[string]any{}
	if on != nil {
		args["target"] = *on
	}
	if e.call(ctx, tabID, frame, pageFiles, "noteSaid", args, &l) == nil {
		w.token = l.Token
	}
	return w
}

// afterAction waits briefly for what an action started: a navigation (then its load), a
// dialog, a tab the page opened (a link to a new tab, window.open), and, when the page stayed,
// what it says back (heard). It describes the outcome for the model. w is nil when the
// action was watched for none of these (an answered dialog).
func (e *Env) afterAction(ctx context.Context, tabID int, before Tab, w *watch) string {
	return e.afterActionWithin(ctx, tabID, before, w, 150*time.Millisecond).said
}

// outcome is what an action led to, as afterActionWithin saw it: the words that say so, and
// whether the tab left the page the action was on (it went, or set out, to another page, or the
// action opened a new tab).
type outcome struct {
	said string
	left bool
}

// wentOn says whether the tab, which was before as the action began (at since) and is t now,
// went or set out for another page since: its address changed to another document's, it has
// a navigation pending, Chrome said its main frame set out, or it began loading when it had
// loaded. A tab that was loading already (an ad or a map frame whose server is slow keeps it
// "loading" for as long as it takes) does not go anywhere by loading still.
func (e *Env) wentOn(tabID int, before, t Tab, since time.Time) bool {
	return t.URL != before.URL && !sameDocument(t.URL, before.URL) || t.Pending != "" ||
		t.Status == "loading" && before.Status == "complete" || e.Browser.NavigatedSince(tabID, since)
}

// afterActionWithin is afterAction watching for up to window (a link to a new tab: the tab
// is expected, and a busy machine may take longer than a moment to open it).
func (e *Env) afterActionWithin(ctx context.Context, tabID int, before Tab, w *watch, window time.Duration) outcome {
	ctx = unpinned(ctx) // what the action caused may be on another site
	started := time.Now()
	defer e.acted()
	if w == nil {
		w = &watch{}
	}
	// What an action starts shows within a moment: watch for it (a dialog, a load, a new
	// address, a new tab) for up to window, and go on as soon as it shows. With tabs to
	// compare, one query of every tab also gives this tab.
	defer e.unwatch(tabID, w)
	var t Tab
	// Once the moment has passed, the watch goes on while requests the action sent are
	// unanswered (up to RequestWait more), and for a moment after the last answer, for the
	// page to show what it heard.
	var rep replies
	var busy string // how the page showed it was still working, at the last look
	var moving bool // whether what the action set moving still moved, at the last look
	var busyAt time.Time
	for deadline := time.Now().Add(window); ; {
		if d, ok := e.Browser.Dialog(tabID); ok {
			return outcome{said: " " + capital((&DialogError{Dialog: d}).Error()) + "."}
		}
		found := false
		if w.known != nil {
			if all, err := e.Browser.Tabs(ctx, 0); err == nil {
				for _, n := range all {
					if n.ID == tabID {
						t, found = n, true
					}
				}
				for _, n := range all {
					if !w.known[n.ID] && n.Opener == tabID {
						where := n.URL
						if n.Pending != "" {
							where = n.Pending
						}
						if !found {
							t, _ = e.Browser.Tab(ctx, tabID)
						}
						if d := e.tabDownload(ctx, before, n.ID, w.began(started)); d != "" {
							return outcome{said: d} // the browser closes the tab it opened for a file
						}
						e.opens(n.ID)
						return outcome{said: fmt.Sprintf(" It opened a new tab (tabId %d) at %s; this tab stays at %s.", n.ID, where, t.URL), left: true}
					}
				}
			}
		}
		if !found {
			var err error
			if t, err = e.Browser.Tab(ctx, tabID); errors.Is(err, ErrNoTab) {
				return outcome{said: " " + e.tabClosed(ctx, tabID), left: true}
			} else if err != nil {
				return outcome{}
			}
		}
		if e.wentOn(tabID, before, t, w.since(started)) {
			break
		}
		if now := time.Now(); !now.Before(deadline) {
			if w.net.IsZero() && w.token == "" || now.After(deadline.Add(RequestWait)) {
				break
			}
			pending := !w.net.IsZero() && e.Browser.RequestsSince(tabID, w.net) > 0
			if !pending && w.token != "" {
				// What the page shows may say it is still working, where what it sent is out
				// of sight (a cross-site frame's request, a socket): looked at every 100 ms,
				// every 50 while something the action started moves.
				if now.Sub(busyAt) >= 100*time.Millisecond || moving && now.Sub(busyAt) >= 50*time.Millisecond {
					busy, moving = e.busy(ctx, tabID, w)
					busyAt = now
				}
				pending = busy != ""
			} else {
				busy = ""
			}
			if (rep.drawn(pending, now) || !rep.sent) && !(moving && now.Before(deadline.Add(MotionWait))) {
				break
			}
		}
		select {
		case <-ctx.Done():
			return outcome{}
		case <-time.After(25 * time.Millisecond):
		}
	}
	if e.wentOn(tabID, before, t, w.since(started)) {
		// It went to another page: what it sent is not waited on, and that page's every
		// request need not be followed while it loads.
		e.unwatch(tabID, w)
		t2, loading, err := e.settle(ctx, tabID, w.since(started), 8*time.Second)
		var de *DialogError
		var te *Error
		if errors.As(err, &de) {
			return outcome{said: " " + capital(de.Error()) + ".", left: true}
		}
		if errors.As(err, &te) {
			// It went nowhere: Chrome shows its error page.
			return outcome{said: " " + capital(te.Error()) + ".", left: true}
		}
		if loading {
			return outcome{said: " " + capital(stillLoading(t2, 8*time.Second)) + ".", left: true}
		}
		if t2.URL != before.URL {
			t2, still := e.contentLoaded(ctx, tabID, t2)
			return outcome{said: fmt.Sprintf(" The page changed to %q (%s).", oneLine(t2.Title), t2.URL) + still, left: true}
		}
		if e.Browser.CommittedSince(tabID, w.since(started)) {
			// A form sent to the page's own address, a link to it, a Refresh: a new page,
			// whose refs are new.
			t2, still := e.contentLoaded(ctx, tabID, t2)
			return outcome{said: fmt.Sprintf(" The page loaded again: %q (%s).", oneLine(t2.Title), t2.URL) + still, left: true}
		}
	}
	said := e.heard(ctx, tabID, w)
	began := w.began(started)
	said += e.downloaded(ctx, before, e.downloadsFrom(began), began)
	if _, frag, _ := strings.Cut(t.URL, "#"); t.URL != before.URL && frag != "" {
		// A link to a part of the same page (a section, a footnote, a view a script draws
		// for the address): the page did not change.
		said = fmt.Sprintf(" It went to #%s on the same page.", frag) + said
	}
	switch {
	case rep.out() && busy != "":
		said += fmt.Sprintf(" The page was still working on it after %s (%s); look again before relying on this.", time.Since(started).Round(100*time.Millisecond), busy)
	case rep.out():
		said += fmt.Sprintf(" The page had still not heard back from a request it sent after %s; look again before relying on this.", time.Since(w.net).Round(100*time.Millisecond))
	}
	return outcome{said: said}
}

// busy says how the page shows it is still working on w's action ("" when it does not, or
// cannot be asked), and whether something the action set moving still moves: skiff.js busyNow.
func (e *Env) busy(ctx context.Context, tabID int, w *watch) (string, bool) {
	var b struct {
		Busy   string `json:"busy"`
		Moving int    `json:"moving"`
	}
	if e.call(ctx, tabID, w.frame, pageFiles, "busyNow", map[string]string{"token": w.token}, &b) != nil {
		return "", false
	}
	return b.Busy, b.Moving == 1
}

// sameDocument says whether two addresses differ only after "#": the same page.
func sameDocument(a, b string) bool {
	a, _, _ = strings.Cut(a, "#")
	b, _, _ = strings.Cut(b, "#")
	return a == b
}

// heard says what the page said back to an action it stayed on (skiff.js saidSince): the fields
// the browser stopped a form on, a dialog it opened or closed, fields it marked invalid, the
// messages it showed. It is "" when nothing changed, or the page cannot be asked.
func (e *Env) heard(ctx context.Context, tabID int, w *watch) string {
	if w.token == "" {
		return ""
	}
	type why struct {
		What string `json:"what"`
		Why  string `json:"why"`
	}
	var h struct {
		Said   []string `json:"said"`
		Opened []struct {
			What string `json:"what"`
			Ref  string `json:"ref"`
		} `json:"opened"`
		Closed  []string `json:"closed"`
		Marked  []why    `json:"marked"`
		Refused []why    `json:"refused"`
		Shown   []string `json:"shown"`
		Was     []string `json:"was"` // beside each shown, what it read before when only a number moved
		More    int      `json:"more"`
		// Revealed are controls that were on the page, hidden, and show now (a menu's items).
		Revealed []struct {
			What string `json:"what"`
			Ref  string `json:"ref"`
		} `json:"revealed"`
		RevealedMore int `json:"revealedMore"`
		// Filled are fields other than the one acted on whose value the action changed.
		Filled []struct {
			What   string `json:"what"`
			Ref    string `json:"ref"`
			Value  string `json:"value"`
			Secret int    `json:"secret"`
		} `json:"filled"`
	}
	if err := e.call(ctx, tabID, w.frame, pageFiles, "saidSince", map[string]string{"token": w.token}, &h); err != nil {
		return ""
	}
	var b strings.Builder
	because := func(list []why) string {
		var s []string
		for _, f := range list {
			if f.Why != "" {
				s = append(s, fmt.Sprintf("%s (%s)", f.What, strconv.Quote(f.Why)))
			} else {
				s = append(s, f.What)
			}
		}
		return strings.Join(s, ", ")
	}
	if len(h.Refused) > 0 {
		fmt.Fprintf(&b, " The form was not sent: the browser stopped it at %s.", because(h.Refused))
		w.refused = fmt.Sprintf("the browser did not send the form: it stopped it at %s", because(h.Refused))
	}
	for _, d := range h.Opened {
		fmt.Fprintf(&b, " It opened %s%s.", d.What, refNote(frameRef(w.frame, d.Ref)))
	}
	for _, d := range h.Closed {
		fmt.Fprintf(&b, " It closed %s.", d)
	}
	if len(h.Marked) > 0 {
		fmt.Fprintf(&b, " The page marked %s as not valid.", because(h.Marked))
		if w.refused == "" {
			w.refused = fmt.Sprintf("the page marked %s as not valid", because(h.Marked))
		}
	}
	if len(h.Said) > 0 {
		b.WriteString(" The page says: " + strings.Join(quoteAll(h.Said), " "))
	}
	if w.shown != "" {
		var keep, was []string
		for i, x := range h.Shown {
			if !strings.Contains(w.shown, x) {
				keep = append(keep, x)
				if i < len(h.Was) {
					was = append(was, h.Was[i])
				}
			}
		}
		h.Shown, h.Was = keep, was
	}
	if len(h.Shown) > 0 {
		shown := quoteAll(h.Shown)
		for i := range shown {
			if i < len(h.Was) && h.Was[i] != "" {
				shown[i] += " (was " + strconv.Quote(h.Was[i]) + ")"
			}
		}
		b.WriteString(" It now shows: " + strings.Join(shown, " "))
	} else if h.More > 0 {
		fmt.Fprintf(&b, " The page now shows about %d characters of new text; look at it again to read them.", h.More)
	}
	var filled, emptied []string
	for _, f := range h.Filled {
		at := f.What + refNote(frameRef(w.frame, f.Ref))
		switch {
		case f.Secret == 1:
			filled = append(filled, at+" (a secret: its value is not shown)")
		case f.Value == "":
			emptied = append(emptied, at)
		default:
			filled = append(filled, fmt.Sprintf("%s with %q", at, f.Value))
		}
	}
	if len(filled) > 0 {
		fmt.Fprintf(&b, " It filled %s.", strings.Join(filled, ", "))
	}
	if len(emptied) > 0 {
		fmt.Fprintf(&b, " It emptied %s.", strings.Join(emptied, ", "))
	}
	if len(h.Revealed) > 0 {
		var list []string
		for _, r := range h.Revealed {
			list = append(list, r.What+refNote(frameRef(w.frame, r.Ref)))
		}
		more := ""
		if h.RevealedMore > 0 {
			more = fmt.Sprintf(" and %d more", h.RevealedMore)
		}
		fmt.Fprintf(&b, " It revealed %s%s.", strings.Join(list, ", "), more)
	}
	return b.String()
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func fallbackNote(trusted bool) string {
	if trusted {
		return ""
	}
	return " (" + domInput + ", and some sites ignore such events)"
}

// domInput is how an action says it went as DOM events, the debugger being unavailable.
const domInput = "with DOM events: Skiff cannot send real input to this tab"

// sliderState is where a slider a page draws itself stands (skiff.js sliderOf).
type sliderState struct {
	What string  `json:"what"`
	Now  float64 `json:"now"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Text string  `json:"text"`
}

// drawnSlider says whether el is a slider a page draws itself (role slider, not a range
// input, which takes a value typed into it).
func drawnSlider(el *Element) bool { return el != nil && el.Role == "slider" && el.Tag != "input" }

// slide sets a slider a page draws itself to value with the keys a person uses on one: Page
// Up or Down while they bring it nearer without passing the value, then the arrow keys one
// press at a time, until it reaches the value, passes it (the nearer of the two is kept) or
// stops moving. It says where the slider is left.
func (e *Env) slide(ctx context.Context, tabID, frame int, pt pageTarget, value string) (string, error) {
	want, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "%")), 64)
	if err != nil {
		return "", failf("a slider takes a number, and %q is not one", value)
	}
	if _, err := e.locate(ctx, tabID, frame, pt, "focus"); err != nil {
		return "", err
	}
	if err := e.call(ctx, tabID, frame, pageFiles, "focusForTyping", map[string]any{"target": pt, "clear": false}, nil); err != nil {
		return "", err
	}
	read := func() (s sliderState, err error) {
		err = e.call(ctx, tabID, frame, pageFiles, "sliderOf", map[string]any{"target": pt}, &s)
		return s, err
	}
	s, err := read()
	if err != nil {
		return "", err
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	if want < s.Min || want > s.Max {
		return "", failf("%s goes from %s to %s, and %s is outside that", s.What, num(s.Min), num(s.Max), num(want))
	}
	press := func(k string) (sliderState, error) {
		if err := e.key(ctx, tabID, frame, k); err != nil {
			return sliderState{}, err
		}
		return read()
	}
	passes := func(from, to float64) bool { return (from < want && to > want) || (from > want && to < want) }
	stuck := false
	page := true
	// toward is the key of a pair that moves the slider toward want, and the one back.
	toward := func(down, up string) (string, string) {
		if want > s.Now {
			return up, down
		}
		return down, up
	}
	for i := 0; i < 400 && s.Now != want; i++ {
		if page {
			k, back := toward("PageDown", "PageUp")
			n, err := press(k)
			if err != nil {
				return "", err
			}
			switch {
			case n.Now == s.Now:
				page = false
			case passes(s.Now, n.Now):
				page = false
				if n, err = press(back); err != nil {
					return "", err
				}
				s = n
			default:
				s = n
			}
			continue
		}
		k, back := toward("ArrowLeft", "ArrowRight")
		n, err := press(k)
		if err != nil {
			return "", err
		}
		if n.Now == s.Now {
			stuck = true
			break
		}
		if passes(s.Now, n.Now) {
			if math.Abs(s.Now-want) < math.Abs(n.Now-want) {
				if n, err = press(back); err != nil {
					return "", err
				}
			}
			s = n
			break
		}
		s = n
	}
	switch {
	case s.Now == want:
		return fmt.Sprintf("%s is at %s", s.What, s.Text), nil
	case stuck:
		return fmt.Sprintf("%s stopped at %s: the keys no longer move it toward %s", s.What, s.Text, num(want)), nil
	}
	return fmt.Sprintf("%s is at %s, the nearest it goes to %s", s.What, s.Text, num(want)), nil
}

// interceptChoosers keeps the system's file chooser from opening while an action runs and is
// watched: a page that asks for one (a button whose script calls click() on a hidden file
// field) would put a dialog in front of the user that no one in the run can answer. The
// returned func ends the interception and says, for the result, whether one was asked for.
// The user's own clicks are never intercepted outside an action.
func (e *Env) interceptChoosers(ctx context.Context, tabID int) func() string {
	since := time.Now()
	stop := e.intercept(ctx, tabID)
	return func() string {
		_, asked := e.Browser.FileChooser(tabID, since)
		stop() // until the debugger detaches, the user's own clicks would open no chooser
		if asked {
			return " The page asked for a file chooser, which Skiff kept closed: to choose files, use upload_file on the same element."
		}
		return ""
	}
}

// dragging is what drag did: what was dragged and where it was let go, whether with trusted
// input, and the page's tokens for what it says back (Listen) and for where the element went
// (Token, skiff.js dragged).
type dragging struct {
	What, Onto    string
	Trusted       bool
	Token, Listen string
}

// drag presses the mouse on t, moves it over to onto in steps (a frame apart, as a hand moves:
// pages that follow the mouse start a drag only past a few pixels, and place what is dragged
// at each frame), and lets go there. The browser starts its own drag for a draggable element
// from the same events. Once the button is down it always goes up, whatever fails.
func (e *Env) drag(ctx context.Context, tabID, frame int, t, onto pageTarget) (dragging, error) {
	view, attachErr := e.attach(ctx, tabID)
	var l *located
	var err error
	var arm struct {
		Token  string `json:"token"`
		Listen string `json:"listen"`
	}
	for try := 0; ; try++ {
		if l, err = e.locate(ctx, tabID, frame, t, "drag"); err != nil {
			return dragging{}, err
		}
		if attachErr != nil {
			break
		}
		if l.Hidden != 0 {
			return dragging{What: l.What}, failf("the tab is in the background, where the page draws nothing to drag over: bring it to the front first (tab_switch)")
		}
		err = e.call(ctx, tabID, frame, pageFiles, "armDrag", map[string]any{"target": t, "to": onto, "point": l.Point}, &arm)
		if err == nil {
			break
		}
		if !isRetry(err) || try >= 3 {
			return dragging{What: l.What}, unretry(err)
		}
	}
	if attachErr != nil {
		// No debugger on this tab: the drag is made of DOM events, armed as a real one is, so
		// that where the element went is checked the same way (a page that ignores such events
		// moves nothing, and the result says so).
		if err := e.call(ctx, tabID, frame, pageFiles, "armDrag", map[string]any{"target": t, "to": onto, "point": l.Point}, &arm); err != nil {
			return dragging{What: l.What}, unretry(err)
		}
		var ll located
		if err := e.call(ctx, tabID, frame, pageFiles, "locate", map[string]any{"target": onto, "action": "drop", "from": t}, &ll); err != nil {
			return dragging{What: l.What}, unretry(err)
		}
		if err := e.call(ctx, tabID, frame, pageFiles, "domDrag", map[string]any{"target": t, "to": onto, "point": l.Point}, nil); err != nil {
			return dragging{What: l.What}, err
		}
		return dragging{What: l.What, Onto: ll.What, Token: arm.Token, Listen: arm.Listen}, nil
	}
	at, err := e.topPoint(ctx, tabID, frame, l.Point)
	if err != nil {
		return dragging{What: l.What}, err
	}
	if frame != 0 && !view.shows(at) {
		// In the frame's view, not the page's: every document scrolls it into view, and it is
		// aimed at again.
		if err := e.call(ctx, tabID, frame, pageFiles, "reveal", map[string]any{"target": t}, nil); err != nil {
			return dragging{What: l.What}, err
		}
		if l, err = e.locate(ctx, tabID, frame, t, "drag"); err != nil {
			return dragging{}, err
		}
		if err = e.call(ctx, tabID, frame, pageFiles, "armDrag", map[string]any{"target": t, "to": onto, "point": l.Point}, &arm); err != nil {
			return dragging{What: l.What}, unretry(err)
		}
		if at, err = e.topPoint(ctx, tabID, frame, l.Point); err != nil {
			return dragging{What: l.What}, err
		}
	}
	// The frame's place in the page, to turn points in it into the page's.
	dx, dy := at.X-l.Point.X, at.Y-l.Point.Y
	down, last := false, at
	send := func(typ string, p point) error {
		last = p
		params := map[string]any{"type": typ, "x": p.X, "y": p.Y, "button": "left", "buttons": 1, "clickCount": 1}
		switch {
		case typ == "mouseMoved" && !down:
			params["button"], params["buttons"] = "none", 0
		case typ == "mouseReleased":
			params["buttons"] = 0
		}
		err := e.input(ctx, tabID, "Input.dispatchMouseEvent", params)
		if errors.Is(err, errDialogOpened) {
			return failf("the page opened a dialog during the drag; answer it first (dialog)")
		}
		return err
	}
	pause := func(d time.Duration) {
		select {
		case <-ctx.Done():
		case <-time.After(d):
		}
	}
	// settle waits, after a move, while the page moves things to make room (a sorted list's
	// items gliding aside), up to 400 ms, as a hand waits to see where the element would go:
	// such pages decide where it goes by the next moves, and pass over moves made meanwhile.
	// A page that keeps animating something else costs the drag 1.5 s at most in all.
	budget := 1500 * time.Millisecond
	settle := func() {
		pause(12 * time.Millisecond)
		start := time.Now()
		defer func() { budget -= time.Since(start) }()
		for end := start.Add(min(400*time.Millisecond, budget)); time.Now().Before(end); {
			var s struct {
				Moving int `json:"moving"`
			}
			if e.call(ctx, tabID, frame, pageFiles, "settling", nil, &s) != nil || s.Moving == 0 {
				return
			}
			pause(25 * time.Millisecond)
		}
	}
	defer func() {
		if down {
			// Never leave the button held: let go where the mouse is.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			defer cancel()
			_ = e.input(rctx, tabID, "Input.dispatchMouseEvent", map[string]any{"type": "mouseReleased", "x": last.X, "y": last.Y, "button": "left", "buttons": 0, "clickCount": 1})
		}
	}()
	if err := send("mouseMoved", at); err != nil {
		return dragging{What: l.What, Trusted: true}, err
	}
	if err := send("mousePressed", at); err != nil {
		return dragging{What: l.What, Trusted: true}, err
	}
	down = true
	// Where it goes is found with the button down (what is dragged may lift out of its list,
	// and the target be scrolled into view while it is held, as a person does).
	var ll *located
	var werr error
	ll, werr = e.locateWith(ctx, tabID, frame, map[string]any{"target": onto, "action": "drop", "from": t})
	if werr != nil {
		return dragging{What: l.What, Trusted: true}, werr
	}
	to := point{X: ll.Point.X + dx, Y: ll.Point.Y + dy}
	if frame != 0 && !view.shows(to) {
		// Where it goes is off the page's view: scrolled into it while held, and found again
		// (what is dragged moves with the page).
		if err := e.call(ctx, tabID, frame, pageFiles, "reveal", map[string]any{"target": onto}, nil); err != nil {
			return dragging{What: l.What, Trusted: true}, err
		}
		if ll, werr = e.locateWith(ctx, tabID, frame, map[string]any{"target": onto, "action": "drop", "from": t}); werr != nil {
			return dragging{What: l.What, Trusted: true}, werr
		}
		if to, werr = e.topPoint(ctx, tabID, frame, ll.Point); werr != nil {
			return dragging{What: l.What, Trusted: true}, werr
		}
	}
	// A few pixels first, a frame apart: past the distance pages wait for before a press
	// becomes a drag (3 to 10 pixels), in the direction of the target.
	dist := math.Hypot(to.X-at.X, to.Y-at.Y)
	ux, uy := 0.0, 1.0
	if dist > 0 {
		ux, uy = (to.X-at.X)/dist, (to.Y-at.Y)/dist
	}
	// glide moves the mouse from a to b in n even steps, waiting after each.
	glide := func(a, b point, n int, wait func()) error {
		for i := 1; i <= n; i++ {
			f := float64(i) / float64(n)
			if err := send("mouseMoved", point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}); err != nil {
				return err
			}
			wait()
		}
		return nil
	}
	frameApart := func() { pause(16 * time.Millisecond) }
	lift := at
	for _, d := range []float64{2, 6, 12} {
		if d >= dist {
			break
		}
		next := point{X: at.X + ux*d, Y: at.Y + uy*d}
		if err := glide(lift, next, 1, frameApart); err != nil {
			return dragging{What: l.What, Trusted: true}, err
		}
		lift = next
	}
	// Then on in steps of about 8 pixels (a sorted list's rows are 30 or so: pages that sort
	// as the mouse goes move the element past a row when the mouse is seen in its far half).
	if err := glide(lift, to, int(math.Max(4, math.Min(30, dist/8))), settle); err != nil {
		return dragging{What: l.What, Trusted: true}, err
	}
	// The page may have scrolled under the mouse on the way (a page grown shorter as the
	// element left its flow, scrolled back to its end): the point follows it, as a person's
	// hand follows what they see.
	var now point
	if ll.Scroll != nil && e.call(ctx, tabID, frame, pageFiles, "scrolled", nil, &now) == nil {
		next := point{X: to.X - (now.X - ll.Scroll.X), Y: to.Y - (now.Y - ll.Scroll.Y)}
		if gap := math.Hypot(next.X-to.X, next.Y-to.Y); gap >= 3 {
			if err := glide(to, next, int(math.Max(2, math.Min(15, gap/8))), frameApart); err != nil {
				return dragging{What: l.What, Trusted: true}, err
			}
			to = next
		}
	}
	// Held over the target a moment (a third of a second), moving on a pixel the way it went
	// and back, as a hand does: pages that sort a list as the mouse goes place the element at
	// the next move (some by the way it moves), and ignore moves while the items they move
	// make room (an animation of 150 ms or so).
	for _, p := range []point{{to.X + ux, to.Y + uy}, to, {to.X + ux, to.Y + uy}, to} {
		pause(80 * time.Millisecond)
		if err := send("mouseMoved", p); err != nil {
			return dragging{What: l.What, Trusted: true}, err
		}
	}
	pause(40 * time.Millisecond)
	if err := send("mouseReleased", to); err != nil {
		return dragging{What: l.What, Trusted: true}, err
	}
	down = false
	return dragging{What: l.What, Onto: ll.What, Trusted: true, Token: arm.Token, Listen: arm.Listen}, nil
}
