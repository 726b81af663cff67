package tool

import "testing"

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
}
