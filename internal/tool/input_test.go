package tool

import (
	"slices"
	"testing"
	"time"
)

func TestClickSaysWhatItChanged(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, c := range []struct {
		before, after *ctlState
		want          string
	}{
		{&ctlState{Checked: n(0)}, &ctlState{Checked: n(1)}, " It is now checked."},
		{&ctlState{Checked: n(0)}, &ctlState{Checked: n(0)}, " It is still unchecked (the click did not change it)."},
		{&ctlState{Checked: n(1)}, &ctlState{Checked: n(2)}, " It is now partly checked."},
		{&ctlState{Expanded: n(0), Pressed: n(0)}, &ctlState{Expanded: n(1), Pressed: n(0)}, " It is now expanded."},
		{&ctlState{Pressed: n(1)}, &ctlState{Pressed: n(0)}, " It is now not pressed."},
		{&ctlState{Switch: 1, Checked: n(0)}, &ctlState{Switch: 1, Checked: n(1)}, " It is now on."},
		{nil, &ctlState{Checked: n(1)}, ""},                      // no state before: nothing to compare
		{&ctlState{Checked: n(0)}, nil, ""},                      // gone from the page (it navigated)
		{&ctlState{}, &ctlState{}, ""},                           // a plain button
		{&ctlState{Checked: n(0)}, &ctlState{Checked: n(7)}, ""}, // a value it cannot say
	} {
		if got := c.before.change(c.after); got != c.want {
			t.Errorf("%+v -> %+v: %q, want %q", c.before, c.after, got, c.want)
		}
	}
	// An option reads as selected while the mouse is on it: still selected says nothing of the
	// click; still not selected does.
	for _, c := range []struct {
		role          string
		before, after *ctlState
		want          string
	}{
		{"option", &ctlState{Selected: n(1)}, &ctlState{Selected: n(1)}, ""},
		{"option", &ctlState{Selected: n(0)}, &ctlState{Selected: n(0)}, " It is still not selected (the click did not change it)."},
		{"option", &ctlState{Selected: n(0)}, &ctlState{Selected: n(1)}, " It is now selected."},
		{"tab", &ctlState{Selected: n(1)}, &ctlState{Selected: n(1)}, " It is still selected (the click did not change it)."},
	} {
		if got := c.before.said(c.after, c.role); got != c.want {
			t.Errorf("%s %+v -> %+v: %q, want %q", c.role, c.before, c.after, got, c.want)
		}
	}
}

// A watch waits for what an action sent: while a request is out, then for a moment after the
// last answer (a request sent once the first came back starts the moment again); nothing sent,
// nothing waited for.
func TestRepliesWaitForTheLastAnswerAndAMoment(t *testing.T) {
	t0 := time.Unix(0, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var none replies
	if none.drawn(false, at(0)) || none.sent || none.out() {
		t.Errorf("nothing sent: %+v", none)
	}
	var r replies
	for _, c := range []struct {
		ms      int
		pending bool
		drawn   bool
		out     bool
	}{
		{0, true, false, true},
		{300, true, false, true},
		{350, false, false, false}, // answered: a moment for the page to draw it
		{400, true, false, true},   // a second request, sent on the first's answer
		{500, false, false, false},
		{560, false, false, false},
		{600, false, true, false},
	} {
		if got := r.drawn(c.pending, at(c.ms)); got != c.drawn || r.out() != c.out {
			t.Errorf("at %d ms (pending %v): drawn %v, out %v; want %v, %v", c.ms, c.pending, got, r.out(), c.drawn, c.out)
		}
	}
}

// Only a key that types nothing into a field and deletes nothing from it is checked for what it
// changed there: the change of a character, a deletion or a paste is what was asked for.
func TestAKeyIsCheckedForWhatItChangedWhenItShouldChangeNothing(t *testing.T) {
	if s := changedByKey("textbox “Message”", "Enter", "hi", ""); s != ` Textbox “Message” held "hi" and now holds nothing.` {
		t.Errorf("Enter that emptied a message box (it may have sent it): %q", s)
	}
	if s := changedByKey("textbox “Day”", "Tab", "15/12", ""); s != ` Textbox “Day” held "15/12" and now holds nothing: the page did not keep it (it may take the value written another way).` {
		t.Errorf("Tab that emptied a field: %q", s)
	}
	field := &Element{Role: "textbox", Tag: "input"}
	area := &Element{Role: "textbox", Tag: "textarea"}
	for _, c := range []struct {
		el   *Element
		key  string
		want bool
	}{
		{field, "Escape", true}, {field, "Tab", true}, {field, "Shift+Tab", true}, {field, "ArrowDown", true},
		{field, "Enter", true}, {area, "Enter", false},
		{field, "a", false}, {field, "Space", false}, {field, "Backspace", false}, {field, "Delete", false},
		{field, "Control+V", false}, {field, "Meta+Z", false},
		{&Element{Role: "textbox", Tag: "input", Field: "password"}, "Escape", false},
		{&Element{Role: "button", Tag: "button"}, "Escape", false}, {nil, "Escape", false},
	} {
		if got := keptByKey(c.el, c.key); got != c.want {
			t.Errorf("%s in %+v: %v, want %v", c.key, c.el, got, c.want)
		}
	}
}

// A path down a cascade's levels written as one value is read as its parts.
func TestAPathWrittenAsOneValue(t *testing.T) {
	for v, want := range map[string][]string{
		"Europe / France / Paris": {"Europe", "France", "Paris"}, "Europe > France": {"Europe", "France"},
		"Asia/Japan/Tokyo": {"Asia", "Japan", "Tokyo"}, "Paris": nil, "N/": nil, " / ": nil,
	} {
		if got := pathOf(v); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", v, got, want)
		}
	}
}
