package tool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// isRetry says whether a page failure may pass if tried again (a selector that matches nothing
// yet, a frame not heard from, a control that moved): the page says so. A ref whose element is
// gone or a selector that is not CSS will not come right by waiting.
func isRetry(err error) bool {
	var r *retryable
	return errors.As(err, &r) && r.again
}

func asErr(err error, target **Error) bool { return errors.As(err, target) }

// acting is the tab an action works in and the frame and page-side target of el, the element
// its target resolved (Call.Resolve): the action goes to that element, whatever route named it.
// The context it returns binds the page calls that aim and act to the site the action was
// judged on: if the tab moved to another site while the user was asked (a ref or a selector
// may well name an element there too), nothing is done. What the action causes afterwards is
// read unpinned (afterAction, the click's own check).
func (e *Env) acting(ctx context.Context, f *Effect, el *Element) (context.Context, Tab, int, pageTarget, error) {
	tab, err := e.onPage(ctx, f.TabID)
	if err != nil {
		return ctx, tab, 0, pageTarget{}, err
	}
	if el == nil || el.Ref == "" {
		return ctx, tab, 0, pageTarget{}, failf("say which element: give its ref from the snapshot (or a CSS selector)")
	}
	ctx, _ = pinned(ctx, f)
	frame, local, err := parseRef(el.Ref)
	return ctx, tab, frame, pageTarget{Ref: local}, err
}

func refNote(ref string) string {
	if ref != "" {
		return " [" + ref + "]"
	}
	return ""
}

func click(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*ClickInput)
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, err
	}
	if f.at != nil {
		// A point: clicked there, if what is there is still the element that was judged.
		x, y := f.at.X, f.at.Y
		pt = pageTarget{X: &x, Y: &y, Expect: pt.Ref}
	}
	count := 1
	if in.Double {
		count = 2
	}
	w := &watch{known: e.knownTabs(ctx), frame: frame, at: time.Now()}
	e.follow(ctx, tab.ID, w)
	chooser := e.interceptChoosers(ctx, tab.ID)
	var p pressed
	left, err := e.pastHeld(ctx, tab.ID, frame, f.Element, func() (err error) {
		p, err = e.mouse(ctx, tab.ID, frame, pt, in.Button, count)
		return err
	})
	if err != nil {
		e.unwatch(tab.ID, w)
		chooser()
		return nil, err
	}
	w.token = p.Listen
	what := p.What
	verb := "Clicked"
	if in.Double {
		verb = "Double-clicked"
	}
	window := 150 * time.Millisecond
	if f.Element.NewTab || (f.Activates != nil && f.Activates.NewTab) {
		window = 2 * time.Second // its tab is coming: wait for it (no longer than it takes)
	} else if tab.Status == "loading" && (f.Element.Submits != "" || f.Element.Link != "" && !(strings.Contains(f.Element.Link, "#") && sameDocument(f.Element.Link, tab.URL))) {
		// A link or a form on a page whose frames still load: the tab's status will not say
		// it set out, Chrome's word that it did will, which a busy machine may bring late.
		window = 600 * time.Millisecond
	}
	redrawn := ""
	if p.Redrawn {
		redrawn = " (the page drew it again as the mouse came over it; the new one was clicked)"
	}
	after := e.afterActionWithin(ctx, tab.ID, tab, w, window).said
	if p.Before.same(p.After) {
		// A page that changes the state a moment later (after a request, on the next
		// frame): read it again once the action was watched for.
		var now ctlState
		if e.call(unpinned(ctx), tab.ID, frame, pageFiles, "stateFor", map[string]any{"target": pt}, &now) == nil && !p.Before.same(&now) && (now.Checked != nil || now.Pressed != nil || now.Expanded != nil || now.Selected != nil) {
			p.After = &now
		}
	}
	text := fmt.Sprintf("%s %s%s%s%s.", verb, what, refNote(f.Element.Ref), redrawn, fallbackNote(p.Trusted)) + left + p.Before.said(p.After, f.Element.Role) + after + chooser()
	if count == 1 && (f.Element.Role == "combobox" || f.Element.Readonly || f.Element.Role == "textbox") && p.After != nil && p.After.Expanded != nil && *p.After.Expanded == 1 {
		// A field that opened a menu a level (a cascader): its items are each a click the
		// gate judges, and a run that clicks them keeps that one path; select_option
		// chooses the path as the field's value.
		var l drawnList
		if e.call(unpinned(ctx), tab.ID, frame, pageFiles, "optionsOf", map[string]any{"target": pt, "first": true}, &l) == nil && len(l.Levels) > 0 && len(l.Levels[0]) > 0 {
			if o := l.Levels[0][0].Name; pathOf(o) != nil {
				// (One that searches, holding words: its menu lists the paths they found.)
				text += fmt.Sprintf(" It lists whole paths, found by the words it holds (a cascader that searches): select_option on it chooses one, such as %q.", o)
			} else {
				text += fmt.Sprintf(" It opens a menu a level (a cascader): select_option on it chooses a path, one value a level, such as [%q, …].", o)
			}
		}
	}
	if f.Activates != nil && f.Activates.App != "" && count == 1 {
		text += " " + otherApp(f.Activates.App)
	}
	res := (&Result{Text: text, URL: tab.URL, Refused: w.refused}).on(f.Element, what)
	if count == 1 && in.Button != "right" && in.Button != "middle" {
		res.Checked = p.checked()
	}
	return res, nil
}

// otherApp says what a link to another app (mailto:, tel:, a custom scheme) asks of the
// browser: nothing shows in the page, and Chrome may ask the user first.
func otherApp(link string) string {
	scheme, rest, _ := strings.Cut(link, ":")
	scheme = strings.ToLower(scheme)
	app := "the app that handles " + scheme + ": links"
	switch scheme {
	case "mailto":
		app = "an email app"
	case "tel", "callto":
		app = "a phone app"
	case "sms":
		app = "a messaging app"
	}
	return fmt.Sprintf("The link asks the browser to open %s (%s); Chrome may ask the user first, and the page stays as it was.", app, clip(scheme+":"+rest, 120))
}

// on is r with its summary: the element acted on, in the user's language when it is the
// element the call was judged on (what the page called it otherwise).
func (r *Result) on(el *Element, what string) *Result {
	r.Summary = what
	if el != nil && (el.Role != "" || el.Tag != "") {
		cp := *el
		cp.Ref = ""
		r.Summed(cp.Says())
	}
	return r
}

func hover(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, err
	}
	at := time.Now()
	var p pressed
	left, err := e.pastHeld(ctx, tab.ID, frame, f.Element, func() (err error) {
		p, err = e.mouse(ctx, tab.ID, frame, pt, "", 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	// What the mouse brings up (a menu, a panel, a tooltip) is said, as a click's outcome is.
	after := e.afterAction(ctx, tab.ID, tab, &watch{frame: frame, token: p.Listen, at: at})
	what, trusted := p.What, p.Trusted
	return (&Result{Text: fmt.Sprintf("The mouse is over %s%s%s.", what, refNote(f.Element.Ref), fallbackNote(trusted)) + left + after, URL: tab.URL}).on(f.Element, what), nil
}

func dragTool(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, err
	}
	_, local, err := parseRef(f.Activates.Ref)
	if err != nil {
		return nil, err
	}
	// (What is dragged, and where it goes, are looked at first: under a list a focused field
	// keeps open, that field is left before the mouse goes down.)
	var under *Element // (the one the list was first found over)
	l, err := e.pastFocused(ctx, tab.ID, frame, func() error {
		for _, at := range []struct {
			el     *Element
			pt     pageTarget
			action string
		}{{f.Element, pt, "drag"}, {f.Activates, pageTarget{Ref: local}, "drop"}} {
			if err := e.heldOver(ctx, tab.ID, frame, at.pt, at.action); err != nil {
				if under == nil {
					under = at.el
				}
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	left := l.over(under)
	w := &watch{known: e.knownTabs(ctx), frame: frame, at: time.Now()}
	e.follow(ctx, tab.ID, w)
	d, err := e.drag(ctx, tab.ID, frame, pt, pageTarget{Ref: local})
	if err != nil {
		e.unwatch(tab.ID, w)
		return nil, err
	}
	w.token = d.Listen
	after := e.afterAction(ctx, tab.ID, tab, w)
	text := fmt.Sprintf("Dragged %s%s onto %s%s%s.", d.What, refNote(f.Element.Ref), d.Onto, refNote(f.Activates.Ref), fallbackNote(d.Trusted)) + left
	if d.Token != "" {
		var got dropped
		if err := e.call(unpinned(ctx), tab.ID, frame, pageFiles, "dragged", map[string]string{"token": d.Token}, &got); err == nil {
			if got.Pressed == 0 && got.Gone == 0 {
				on := got.On
				if on == "" {
					on = "nothing Skiff could see"
				}
				return nil, failf("the press did not reach %s: it went to %s (the page changed under the mouse); look at the page before trying again", d.What, on)
			}
			says := got.says(d.Onto)
			if says == notDragged && after != "" {
				// The page answered (below) without moving the element: it took the drop its
				// own way.
				says = " The element itself stayed where it was."
			}
			text += says
		}
	}
	return (&Result{Text: text + after, URL: tab.URL, Refused: w.refused}).on(f.Element, d.What), nil
}

// dropped is where a drag left what it dragged (skiff.js dragged).
type dropped struct {
	Pressed int    `json:"pressed"`
	On      string `json:"on"`
	Started int    `json:"started"` // the browser started a drag of its own (dragstart)
	Dropped int    `json:"dropped"`
	OnDest  int    `json:"onDest"`
	DropOn  string `json:"dropOn"`
	Gone    int    `json:"gone"`
	// Unit is what moved when that is not the element but what holds it (the row of a grip).
	Unit     string `json:"unit"`
	Moved    int    `json:"moved"`
	Into     string `json:"into"`
	Reorder  int    `json:"reordered"`
	Index    int    `json:"index"`
	Count    int    `json:"count"`
	WasIndex int    `json:"wasIndex"`
	After    string `json:"after"`
	Before   string `json:"before"`
	// Shifted: it moved on the page, not in it (a box placed where it was let go); Over: it
	// now lies over where it was dropped.
	Shifted int `json:"shifted"`
	Over    int `json:"over"`
}

// says is where the element is now, in a sentence, or that nothing moved.
func (d dropped) says(onto string) string {
	next := ""
	switch {
	case d.After != "":
		next = ", after " + d.After
	case d.Before != "":
		next = ", before " + d.Before
	}
	it := "It is"
	if d.Unit != "" {
		it = "It moved with " + d.Unit + ", which is"
	}
	switch {
	case d.Gone == 1 && d.Dropped == 1:
		return " The page took the drop, and the element is no longer on it."
	case d.Gone == 1:
		return " The element is no longer on the page."
	case d.Moved == 1 && d.Into != "":
		return fmt.Sprintf(" %s now in %s, item %d of %d%s.", it, d.Into, d.Index, d.Count, next)
	case d.Moved == 1:
		return fmt.Sprintf(" %s now in another part of the page, item %d of %d%s.", it, d.Index, d.Count, next)
	case d.Reorder == 1:
		return fmt.Sprintf(" %s now item %d of %d (it was item %d)%s.", it, d.Index, d.Count, d.WasIndex, next)
	case d.Shifted == 1 && d.Over == 1:
		return " It stays where it was let go, over " + onto + "."
	case d.Shifted == 1:
		return " It moved on the page, but not over " + onto + "."
	case d.OnDest == 1:
		return " The page took the drop; the element itself stayed where it was."
	case d.Dropped == 1 && d.DropOn != "":
		return " The page took the drop on " + d.DropOn + ", not on " + onto + "; the element stayed where it was."
	case d.Started == 1:
		return " Nothing moved: " + onto + " did not take the drop (the page does not accept drops there)."
	}
	return notDragged
}

// notDragged is what a drag says when nothing shows the page took it.
const notDragged = " Nothing moved: the page did not drag it (some pages drag only by a handle inside the element, a grip; look for one in the snapshot)."

func typeTool(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*TypeInput)
	if el := f.Element; el != nil && !in.Submit && strings.TrimSpace(in.Text) != "" &&
		(el.Tag == "select" || (el.Role == "combobox" || el.Role == "listbox") && el.Tag != "input" && el.Tag != "textarea") {
		// Typing into a drop-down (a <select>, or a list a page draws that takes no typing)
		// chooses the option it names, as keys do in a focused one: the model that typed a
		// country into one gets it chosen, or the options it has.
		r, err := selectTool(ctx, e, &SelectInput{Target: in.Target, Values: []string{in.Text}, TabID: in.TabID}, f)
		if err != nil {
			return nil, err
		}
		r.Text = "It is a list to choose from: the text chose its option. " + r.Text
		return r, nil
	}
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, err
	}
	if drawnSlider(f.Element) && !in.Submit {
		// A slider the page draws takes no text: it is set as a person sets it, with keys.
		at, err := e.slide(ctx, tab.ID, frame, pt, in.Text)
		if err != nil {
			return nil, err
		}
		return (&Result{Text: capital(at) + ".", URL: tab.URL}).on(f.Element, f.Element.Words()), nil
	}
	clear := in.Clear == nil || *in.Clear
	// A field that suggests may ask its server for what was typed: what it sends is followed,
	// so that its suggestions are read once they came.
	var suggesting *watch
	if f.Element.SaysItSuggests() && !in.Submit {
		suggesting = e.watchSuggestions(ctx, tab.ID, frame, pt)
	}
	ty, err := e.typeText(ctx, tab.ID, frame, pt, in.Text, clear)
	if err != nil {
		if suggesting != nil {
			e.unwatch(tab.ID, suggesting)
		}
		return nil, err
	}
	what := ty.What
	text := fmt.Sprintf("Typed %s into %s%s%s.", plural(len([]rune(in.Text)), "character"), what, refNote(f.Element.Ref), fallbackNote(ty.Trusted))
	if ty.Across != "" {
		text += ty.Across
	} else {
		text += e.valueCheck(ctx, tab.ID, frame, pt, in.Text, clear)
	}
	if suggesting != nil {
		if s := e.suggestionsAfter(ctx, tab.ID, frame, pt, suggesting, in.Text); s != "" {
			text = strings.TrimSuffix(text, ".") + s + "."
		}
	}
	refused := ""
	if in.Submit {
		w := e.watching(ctx, tab.ID, frame, true, nil)
		if err := e.key(ctx, tab.ID, frame, "Enter"); err != nil {
			e.unwatch(tab.ID, w)
			if e.closedUnder(ctx, tab.ID, err) {
				// The form sent, its page closed its window (a sign-in window does).
				return (&Result{Text: text + " Pressed Enter. " + e.tabClosed(ctx, tab.ID), URL: tab.URL}).on(f.Element, what), nil
			}
			return nil, err
		}
		after := e.afterAction(ctx, tab.ID, tab, w)
		if f.Element.Field != "" || f.Secret {
			after = hideSecrets(after, in.Text)
		}
		text += " Pressed Enter." + after
		refused = w.refused
	}
	return (&Result{Text: text, URL: tab.URL, Refused: refused}).on(f.Element, what), nil
}

// hideSecrets masks, in what a page said back, the secrets the call typed (a password, a card
// number): a page that repeats one ("Wrong password: …") must not hand it to the model.
func hideSecrets(said string, secrets ...string) string {
	for _, v := range secrets {
		if len(strings.TrimSpace(v)) >= 3 {
			said = strings.ReplaceAll(said, v, "••••••")
		}
	}
	return said
}

// valueCheck reads a field back after typing: a page that rewrote or refused the text (an
// input mask, a length limit) is reported. A password or payment field is compared in the page
// and never read back.
func (e *Env) valueCheck(ctx context.Context, tabID, frame int, pt pageTarget, typed string, clear bool) string {
	var v struct {
		Value    *string `json:"value"`
		Password int     `json:"password"`
		Length   int     `json:"length"`
		Matches  *bool   `json:"matches"`
		Picker   string  `json:"picker"`
		Invalid  string  `json:"invalid"`
		Marked   string  `json:"marked"` // the page marks it not valid (aria-invalid), with what it says, or " "
		Editor   int     `json:"editor"` // an editable element, read as its text
		Code     int     `json:"code"`   // a code editor: its lines' indentation counts
	}
	args := map[string]any{"target": pt}
	if clear {
		args["expect"] = typed
	}
	if e.call(ctx, tabID, frame, pageFiles, "fieldValue", args, &v) != nil {
		return ""
	}
	// What the field says of its value (a number above its maximum, an address without an @,
	// the page's own message): the form would refuse it.
	invalid := ""
	switch {
	case v.Invalid != "":
		invalid = fmt.Sprintf(" The field says its value is not valid: %q.", clip(v.Invalid, 200))
	case strings.TrimSpace(v.Marked) != "":
		invalid = fmt.Sprintf(" The page marks the field as not valid: %q.", clip(v.Marked, 200))
	case v.Marked != "":
		invalid = " The page marks the field as not valid."
	}
	switch {
	case v.Value != nil && v.Code == 1 && clear && !sameLines(*v.Value, typed) && strings.Join(strings.Fields(*v.Value), " ") == strings.Join(strings.Fields(typed), " "):
		return fmt.Sprintf(" The editor laid it out its own way (its indentation differs): it holds %q.", clip(*v.Value, 300))
	case v.Password == 1:
		if v.Matches != nil && !*v.Matches {
			return fmt.Sprintf(" The field does not hold what was typed: it holds %s, %d were typed (the page may limit or rewrite it).", plural(v.Length, "character"), len([]rune(typed))) + invalid
		}
	case v.Value != nil && v.Editor == 1 && strings.Join(strings.Fields(*v.Value), " ") == strings.Join(strings.Fields(typed), " "):
		// An editor keeps each line typed in a paragraph of its own, read with a blank line
		// between: the same words, as a person sees them.
		return invalid
	case v.Value != nil && v.Picker != "":
		return fmt.Sprintf(" The %s field holds %s.", v.Picker, *v.Value) + invalid // as the page stores it
	case v.Value != nil && clear && strings.TrimSpace(*v.Value) != strings.TrimSpace(typed):
		if sameCharacters(*v.Value, typed) {
			return fmt.Sprintf(" The page formatted it: the field holds %q.", clip(*v.Value, 200)) + invalid
		}
		return fmt.Sprintf(" The field does not hold what was typed: it holds %q.", clip(*v.Value, 200)) + invalid
	}
	return invalid
}

// sameLines says whether a and b hold the same lines, what ends each aside.
func sameLines(a, b string) bool {
	la, lb := strings.Split(strings.TrimRight(a, "\n "), "\n"), strings.Split(strings.TrimRight(b, "\n "), "\n")
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if strings.TrimRight(la[i], " \t\r") != strings.TrimRight(lb[i], " \t\r") {
			return false
		}
	}
	return true
}

// sameCharacters says whether a and b hold the same letters and digits in the same order,
// case aside: a page that only formatted what was typed ("(555) 123-4567" for 5551234567,
// "1234" for "1,234").
func sameCharacters(a, b string) bool {
	keep := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	k := keep(a)
	return k != "" && k == keep(b)
}

// orNothing joins quoted values, or says there are none.
func orNothing(q []string) string {
	if len(q) == 0 {
		return "nothing chosen"
	}
	return strings.Join(q, ", ")
}

// opensWhenClicked clicks a text field, as a person does to see what it offers, and says
// whether it opened something: a field that says it expands only once open (Element Plus's
// cascader that searches, whose aria-expanded comes as its menu does).
func (e *Env) opensWhenClicked(ctx context.Context, tabID, frame int, pt pageTarget) bool {
	var now ctlState
	if _, err := e.mouse(ctx, tabID, frame, pt, "", 1); err != nil {
		return false
	}
	return e.call(ctx, tabID, frame, pageFiles, "stateFor", map[string]any{"target": pt}, &now) == nil && now.Expanded != nil && *now.Expanded == 1
}

func selectTool(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*SelectInput)
	if len(in.Values) == 0 {
		return nil, failf("say which option to choose: values")
	}
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, err
	}
	// (Under a list another field keeps open while it has the focus, as Tom Select's opens
	// again a moment after a choice, over the next field: that field is left first. A list
	// the page draws is looked at once for that, as choosing from it is its own way to it.)
	left, err := e.pastHeld(ctx, tab.ID, frame, f.Element, func() error {
		if f.Element.Tag == "select" {
			_, err := e.locate(ctx, tab.ID, frame, pt, "select")
			return err
		}
		return e.heldOver(ctx, tab.ID, frame, pt, "click")
	})
	if err != nil {
		return nil, err
	}
	if f.Element.Tag != "select" {
		// A list the page draws: chosen from as a person does. Only a list (or what says it
		// opens one, as a country picker's button) is opened this way: anything else is
		// clicked with click, and judged as a click.
		// (A field that takes no typing opens what fills it when clicked: Element Plus's and
		// Quasar's pickers draw their value in one.)
		picker := f.Element.Readonly && (f.Element.Role == "textbox" || f.Element.Role == "searchbox")
		if f.Element.Role != "combobox" && f.Element.Role != "listbox" && f.Element.Popup == "" && !picker {
			if f.Element.Role != "textbox" && f.Element.Role != "searchbox" {
				return nil, failf("%s is not a drop-down or a list to choose from; click it instead", f.Element.Words())
			}
			if !e.opensWhenClicked(ctx, tab.ID, frame, pt) {
				// A field that suggests without saying so (jQuery UI's autocomplete): typed into.
				return nil, failf("%s is a text field, not a list to choose from; type the value into it (if it then shows suggestions, a snapshot gives them to click)", f.Element.Words())
			}
		}
		w := e.watching(ctx, tab.ID, frame, false, &pt)
		var path bool
		text, err := e.choose(ctx, tab.ID, frame, pt, in.Values, w, &path)
		if err != nil {
			e.unwatch(tab.ID, w)
			return nil, err
		}
		text += left + e.afterAction(ctx, tab.ID, tab, w)
		return &Result{Text: text, Summary: strings.Join(in.Values, ", "), URL: tab.URL, Refused: w.refused, Path: path}, nil
	}
	var r struct {
		What     string   `json:"what"`
		Selected []string `json:"selected"`
		Now      []string `json:"now"`
		Already  int      `json:"already"`
	}
	w := e.watching(ctx, tab.ID, frame, false, &pt)
	if err := e.call(ctx, tab.ID, frame, pageFiles, "selectOption", map[string]any{"target": pt, "values": in.Values}, &r); err != nil {
		e.unwatch(tab.ID, w)
		return nil, err
	}
	if r.Already == 1 {
		e.unwatch(tab.ID, w)
		return &Result{Text: fmt.Sprintf("%s was already chosen in %s%s; nothing changed.", capital(strings.Join(quoteAll(r.Selected), ", ")), r.What, refNote(f.Element.Ref)), Summary: strings.Join(r.Selected, ", "), URL: tab.URL}, nil
	}
	kept := ""
	if r.Now != nil {
		kept = fmt.Sprintf(" The page did not keep it: the list holds %s.", orNothing(quoteAll(r.Now)))
	}
	text := fmt.Sprintf("Chose %s in %s%s.", strings.Join(quoteAll(r.Selected), ", "), r.What, refNote(f.Element.Ref)) + kept + left + e.afterAction(ctx, tab.ID, tab, w)
	return &Result{Text: text, Summary: strings.Join(r.Selected, ", "), URL: tab.URL, Refused: w.refused}, nil
}

func fillForm(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*FillFormInput)
	if len(f.Fields) == 0 {
		return nil, failf("say which fields to fill: fields, each with a ref (or selector) and a value")
	}
	tab, err := e.onPage(ctx, f.TabID)
	if err != nil {
		return nil, err
	}
	ctx, _ = pinned(ctx, f) // every field on the site the form was judged on
	var lines []string
	lastText := -1
	var lastFrame int
	var lastPt pageTarget
	var secrets []string
	// A field typed into may keep a picker open over the next (a date's calendar, while it
	// has the focus), which a click on that one then meets: a person leaves the field with
	// Tab, which keeps what was typed and closes the picker. So does fill_form, as pastHeld
	// does. (The field may also be one typed into before this call: left so too, and said
	// first, with what leaving changed in it.)
	lead := ""
	pastHeld := func(i, at int, act func() error) error {
		l, err := e.pastFocused(ctx, tab.ID, at, act)
		if !l.left {
			return err
		}
		if lastText < 0 || lastText != i-1 || len(lines) == 0 {
			changed := ""
			if l.changed != "" {
				changed = " Leaving it, the page " + l.changed + "."
			}
			lead += fmt.Sprintf("First left %s with Tab, as a person does: it kept a list or a picker open over field %d.%s\n", l.field, i+1, changed)
			return err
		}
		lines[len(lines)-1] += " (left with Tab, as a person does: it kept a picker open over the next field)"
		if l.changed != "" {
			lines[len(lines)-1] += "; leaving it, the page " + l.changed
		}
		return err
	}
	for i, fv := range f.Fields {
		el := fv.Element
		if el.Field != "" || f.Secret {
			secrets = append(secrets, fv.Value)
		}
		_, _, frame, pt, err := e.acting(ctx, f, &el)
		if err != nil {
			return nil, failf("field %d: %v", i+1, err)
		}
		what := el.Words()
		switch {
		case el.Role == "checkbox" || el.Role == "radio" || el.Role == "switch":
			want := strings.EqualFold(strings.TrimSpace(fv.Value), "true") || fv.Value == "1" || strings.EqualFold(fv.Value, "yes") || strings.EqualFold(fv.Value, "on")
			var s struct {
				Checked bool `json:"checked"`
			}
			if err := e.call(ctx, tab.ID, frame, pageFiles, "isChecked", map[string]any{"target": pt}, &s); err != nil {
				return nil, failf("field %d: %v", i+1, err)
			}
			state := map[bool]string{true: "checked", false: "unchecked"}
			if s.Checked != want {
				if err := pastHeld(i, frame, func() error { _, err := e.mouse(ctx, tab.ID, frame, pt, "", 1); return err }); err != nil {
					return nil, failf("field %d (%s): %v (the fields before it are filled)", i+1, what, err)
				}
				// The page may refuse the change (or need something else first): read it back.
				if err := e.call(ctx, tab.ID, frame, pageFiles, "isChecked", map[string]any{"target": pt}, &s); err == nil && s.Checked != want {
					lines = append(lines, fmt.Sprintf("%s: still %s (the click did not change it)", what, state[s.Checked]))
					continue
				}
			}
			lines = append(lines, fmt.Sprintf("%s: %s", what, state[want]))
		case drawnSlider(&el):
			at, err := e.slide(ctx, tab.ID, frame, pt, fv.Value)
			if err != nil {
				return nil, failf("field %d (%s): %v (the fields before it are filled)", i+1, what, err)
			}
			lines = append(lines, at)
		case el.DrawnList():
			// A list the page draws, that takes no typing: opened and chosen from. (A field
			// that suggests is typed into, as any field: choosing a suggestion may search
			// or go somewhere, which select_option does when asked.)
			var text string
			err := pastHeld(i, frame, func() (err error) {
				text, err = e.choose(ctx, tab.ID, frame, pt, []string{fv.Value}, nil, nil)
				return err
			})
			if err != nil {
				return nil, failf("field %d (%s): %v (the fields before it are filled)", i+1, what, err)
			}
			lines = append(lines, strings.TrimSuffix(text, "."))
		case el.Tag == "select":
			var r struct {
				Selected []string `json:"selected"`
				Now      []string `json:"now"`
			}
			if err := e.call(ctx, tab.ID, frame, pageFiles, "selectOption", map[string]any{"target": pt, "values": []string{fv.Value}}, &r); err != nil {
				return nil, failf("field %d (%s): %v (the fields before it are filled)", i+1, what, err)
			}
			if r.Now != nil {
				lines = append(lines, fmt.Sprintf("%s: chose %s, but the page did not keep it: the list holds %s", what, strings.Join(quoteAll(r.Selected), ", "), orNothing(quoteAll(r.Now))))
				continue
			}
			lines = append(lines, fmt.Sprintf("%s: %s", what, strings.Join(r.Selected, ", ")))
		default:
			// A field that suggests may ask its server, as with type: its suggestions are
			// read once they came.
			var suggesting *watch
			if el.SaysItSuggests() {
				suggesting = e.watchSuggestions(ctx, tab.ID, frame, pt)
			}
			ty, err := e.typeText(ctx, tab.ID, frame, pt, fv.Value, true)
			if err != nil {
				if suggesting != nil {
					e.unwatch(tab.ID, suggesting)
				}
				return nil, failf("field %d (%s): %v (the fields before it are filled)", i+1, what, err)
			}
			check := ty.Across
			if check == "" {
				check = e.valueCheck(ctx, tab.ID, frame, pt, fv.Value, true)
			}
			if suggesting != nil {
				check += e.suggestionsAfter(ctx, tab.ID, frame, pt, suggesting, fv.Value)
			}
			if el.Field != "" {
				kind := "payment details"
				if el.Field == "password" {
					kind = "password"
				}
				lines = append(lines, fmt.Sprintf("%s: typed the %s", what, kind)+check)
			} else {
				lines = append(lines, fmt.Sprintf("%s: typed %s", what, plural(len([]rune(fv.Value)), "character"))+check)
			}
			lastText, lastFrame, lastPt = i, frame, pt
		}
	}
	text := lead + "Filled " + plural(len(f.Fields), "field") + ":\n- " + strings.Join(lines, "\n- ")
	refused := ""
	if in.Submit {
		if lastText < 0 {
			return nil, failf("the fields are filled, but there is no text field to press Enter in; click the form's submit button")
		}
		if _, err := e.locate(ctx, tab.ID, lastFrame, lastPt, "type"); err == nil {
			_ = e.call(ctx, tab.ID, lastFrame, pageFiles, "focusForTyping", map[string]any{"target": lastPt, "clear": false}, nil)
		}
		w := e.watching(ctx, tab.ID, lastFrame, true, nil)
		if err := e.key(ctx, tab.ID, lastFrame, "Enter"); err != nil {
			e.unwatch(tab.ID, w)
			return nil, err
		}
		text += "\nPressed Enter to submit." + hideSecrets(e.afterAction(ctx, tab.ID, tab, w), secrets...)
		refused = w.refused
	}
	return (&Result{Text: text, URL: tab.URL, Refused: refused}).Summed(sumFields.With(len(f.Fields))), nil
}

func pressKey(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*PressKeyInput)
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, err
	}
	where1 := ""
	if in.Ref != "" || in.Selector != "" {
		l, err := e.locate(ctx, tab.ID, frame, pt, "focus")
		if err != nil {
			return nil, err
		}
		if err := e.call(ctx, tab.ID, frame, pageFiles, "focusForTyping", map[string]any{"target": pt, "clear": false}, nil); err != nil {
			return nil, err
		}
		where1 = " in " + l.What
	} else {
		// The key goes to the focused element that was judged: if the focus moved since, the
		// key is not pressed.
		var fi struct {
			Same bool   `json:"same"`
			Now  string `json:"now"`
		}
		if err := e.call(ctx, tab.ID, frame, pageFiles, "focusIs", map[string]string{"ref": pt.Ref}, &fi); err != nil {
			return nil, err
		}
		if !fi.Same {
			return nil, failf("the focus moved to %s before %s was pressed, so it was not pressed; look at the page again", fi.Now, in.Key)
		}
		if f.Element.Role != "document" {
			where1 = " in " + f.Element.Words()
		}
	}
	if d, ok := e.Browser.Dialog(tab.ID); ok {
		return nil, &DialogError{Dialog: d}
	}
	// Enter or Space in a file field opens the system's file chooser, as a click does.
	if el := f.Element; el != nil && el.Tag == "input" && el.Type == "file" {
		if k, _, err := parseChord(in.Key); err == nil && (k.Key == "Enter" || k.Key == " ") {
			return nil, failf("%s opens a file chooser: to choose files for it, use upload_file on it", el.Words())
		}
	}
	// A key that types nothing may still change what a field holds: Escape in a date picker's
	// field undoes the day typed into it (Ant Design's). The result says so.
	var held *string
	if keptByKey(f.Element, in.Key) {
		held = e.fieldText(ctx, tab.ID, frame, pt)
	}
	w := e.watching(ctx, tab.ID, frame, true, nil)
	chooser := e.interceptChoosers(ctx, tab.ID)
	dom, err := e.keyHow(ctx, tab.ID, frame, in.Key)
	if err != nil {
		e.unwatch(tab.ID, w)
		chooser()
		return nil, err
	}
	moved := ""
	if drawnSlider(f.Element) {
		// A key on a slider the page draws moves it: say where to.
		var s sliderState
		if e.call(ctx, tab.ID, frame, pageFiles, "sliderOf", map[string]any{"target": pt}, &s) == nil {
			moved = " It is at " + s.Text + "."
		}
	}
	after := e.afterActionWithin(ctx, tab.ID, tab, w, 150*time.Millisecond)
	focus := ""
	if !after.left {
		focus = e.focusMoved(ctx, tab.ID, frame, pt.Ref)
		if held != nil {
			if now := e.fieldText(ctx, tab.ID, frame, pt); now != nil && *now != *held {
				focus += changedByKey(f.Element.Words(), in.Key, *held, *now)
			}
		}
	}
	text := fmt.Sprintf("Pressed %s%s%s.", in.Key, where1, dom) + moved + focus + after.said + chooser()
	return &Result{Text: text, Summary: in.Key, URL: tab.URL, Refused: w.refused}, nil
}

// keptByKey says whether pressing chord in el should leave what el holds as it was: el is a
// field that takes text, and the key types nothing into it and deletes nothing from it (Escape,
// Tab, an arrow; not a character, Backspace or Delete, nor Enter in a text area, which starts a
// line).
func keptByKey(el *Element, chord string) bool {
	if el == nil || el.Field != "" {
		return false
	}
	switch el.Role {
	case "textbox", "searchbox", "combobox", "spinbutton":
	default:
		return false
	}
	k, mods, err := parseChord(chord)
	if err != nil || mods&(modCtrl|modAlt|modMeta) != 0 {
		return false // a chord may paste, cut or undo: its change is the point
	}
	switch {
	case k.Key == "Enter":
		return el.Tag == "input"
	case k.Key == "Backspace", k.Key == "Delete", k.Text != "":
		return false
	}
	return true
}

// pastHeld runs act, an action of the mouse on a target in frame (or the finding of it), and
// when a list or a picker the focused field keeps open while it has the focus covers that
// target (a date's calendar, Tom Select's list), leaves the field with Tab, as a person does,
// which keeps what it holds and closes what it opened, and runs act once more. left says so,
// for the result, naming the target the cover was over ("button “Save”"); "" when nothing
// was left. A field whose search of the keys comes a moment after them may open its list again
// as it comes, and take the focus back (Tom Select's does): it is left once more.
func (e *Env) pastHeld(ctx context.Context, tabID, frame int, target *Element, act func() error) (left string, err error) {
	l, err := e.pastFocused(ctx, tabID, frame, act)
	return l.over(target), err
}

// over says, for an action's result, that the field was left, and that its list or picker was
// over target; "" when it was not left.
func (l leaving) over(target *Element) string {
	if !l.left {
		return ""
	}
	over := *target
	over.Ref = "" // (said with the result's own)
	said := fmt.Sprintf(" It first left %s with Tab, as a person does: it kept a list or a picker open over %s.", l.field, over.Words())
	if l.changed != "" {
		said += " Leaving it, the page " + l.changed + "."
	}
	return said
}

// leaving is what pastFocused did: whether it left the focused field, that field's words, and
// how leaving changed what it held (leaveFocused's changed).
type leaving struct {
	left           bool
	field, changed string
}

// pastFocused is pastHeld's way past the cover, for a caller that says it its own way
// (fill_form, field by field): act, and while a cover the focused field keeps open meets it,
// at most twice, Tab out of that field and act again.
func (e *Env) pastFocused(ctx context.Context, tabID, frame int, act func() error) (l leaving, err error) {
	err = act()
	for range 2 {
		if r := (*retryable)(nil); !errors.As(err, &r) || !r.held {
			break
		}
		field, changed, ok := e.leaveFocused(ctx, tabID, frame)
		if !ok {
			break
		}
		if !l.left {
			l.left, l.field = true, field
		}
		if l.changed == "" {
			l.changed = changed
		}
		err = act()
	}
	return l, err
}

// heldOver looks once at the target at pt, for action, and says only whether a list or a picker
// the focused field keeps open covers it (the held failure pastHeld leaves the field for): the
// action's own way to the target waits for the rest, once.
func (e *Env) heldOver(ctx context.Context, tabID, frame int, pt pageTarget, action string) error {
	var l located
	err := e.call(ctx, tabID, frame, pageFiles, "locate", map[string]any{"target": pt, "action": action}, &l)
	if r := (*retryable)(nil); errors.As(err, &r) && r.held {
		return r
	}
	return nil
}

// leaveFocused leaves the field that has the focus with Tab, as a person does, and says which
// it was and, when leaving changed what it held (a field that suggests may take the suggestion
// the keys were on, or drop what was typed), how: "emptied it (it held …)". ok: Tab was
// pressed.
func (e *Env) leaveFocused(ctx context.Context, tabID, frame int) (field, changed string, ok bool) {
	var fi struct {
		Now    string `json:"now"`
		NowRef string `json:"nowRef"`
	}
	var was *string
	if e.call(ctx, tabID, frame, pageFiles, "focusIs", map[string]string{"ref": ""}, &fi) == nil && fi.NowRef != "" {
		was = e.fieldText(ctx, tabID, frame, pageTarget{Ref: fi.NowRef})
	}
	if e.key(ctx, tabID, frame, "Tab") != nil {
		return "", "", false
	}
	if was == nil {
		return fi.Now, "", true
	}
	switch now := e.fieldText(ctx, tabID, frame, pageTarget{Ref: fi.NowRef}); {
	case now == nil || *now == *was:
	case *now == "":
		changed = fmt.Sprintf("emptied it (it held %q)", clip(*was, 200))
	default:
		changed = fmt.Sprintf("changed it from %q to %q", clip(*was, 200), clip(*now, 200))
	}
	return fi.Now, changed, true
}

// fieldText is what the field at pt holds, or nil when it cannot be read or is a secret.
func (e *Env) fieldText(ctx context.Context, tabID, frame int, pt pageTarget) *string {
	var v struct {
		Value *string `json:"value"`
	}
	if e.call(ctx, tabID, frame, pageFiles, "fieldValue", map[string]any{"target": pt}, &v) != nil {
		return nil
	}
	return v.Value
}

// changedByKey says what a key that types nothing did to what the field what held.
func changedByKey(what, chord, was, now string) string {
	holds := func(s string) string {
		if strings.TrimSpace(s) == "" {
			return "nothing"
		}
		return fmt.Sprintf("%q", clip(s, 200))
	}
	k, _, _ := parseChord(chord)
	if k.Key == "Escape" && strings.TrimSpace(was) != "" {
		return fmt.Sprintf(" The page undid what %s held on Escape: it held %s and now holds %s. To keep a typed value, type it again and leave the field with Tab.", what, holds(was), holds(now))
	}
	// (Enter may have sent it: a message box empties as its message goes.)
	if strings.TrimSpace(now) == "" && k.Key != "Enter" {
		return fmt.Sprintf(" %s held %s and now holds nothing: the page did not keep it (it may take the value written another way).", capital(what), holds(was))
	}
	return fmt.Sprintf(" %s held %s and now holds %s.", capital(what), holds(was), holds(now))
}

// focusMoved says where the focus went when a key moved it away from the element with ref (in
// frame) it was pressed in, on a page that stayed: Tab goes to the next field, an arrow to the
// next radio. It is "" when the focus stayed.
func (e *Env) focusMoved(ctx context.Context, tabID, frame int, ref string) string {
	if ref == "" {
		return ""
	}
	var fi struct {
		Same   bool   `json:"same"`
		Now    string `json:"now"`
		NowRef string `json:"nowRef"`
	}
	if e.call(ctx, tabID, frame, pageFiles, "focusIs", map[string]string{"ref": ref}, &fi) != nil || fi.Same || fi.NowRef == "" {
		return ""
	}
	if frame != 0 {
		fi.NowRef = fmt.Sprintf("f%d%s", frame, fi.NowRef)
	}
	return fmt.Sprintf(" The focus moved to %s [%s].", fi.Now, fi.NowRef)
}

func scrollTool(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*ScrollInput)
	tab, err := e.onPage(ctx, f.TabID)
	if err != nil {
		return nil, err
	}
	ctx, _ = pinned(ctx, f)
	frame, pt := 0, pageTarget{}
	if f.Element != nil {
		if ctx, _, frame, pt, err = e.acting(ctx, f, f.Element); err != nil {
			return nil, err
		}
	}
	var r struct {
		What     string `json:"what"`
		Across   int    `json:"across"`
		X        int    `json:"x"`
		Width    int    `json:"width"`
		Y        int    `json:"y"`
		Moved    int    `json:"moved"`
		Height   int    `json:"height"`
		Viewport int    `json:"viewport"`
		AtEnd    bool   `json:"atEnd"`
		Box      string `json:"box"`
		BoxRef   string `json:"boxRef"`
	}
	// Scrolling loads what a page shows as it comes into view (more messages at a list's end,
	// the next results, pictures): the result waits for what the page fetched for it.
	w := e.watching(ctx, tab.ID, frame, false, nil)
	if err := e.call(ctx, tab.ID, frame, pageFiles, "scroll", map[string]any{"target": pt, "direction": in.Direction, "amount": in.Amount}, &r); err != nil {
		e.unwatch(tab.ID, w)
		return nil, err
	}
	said := e.afterAction(ctx, tab.ID, tab, w)
	if r.What != "" {
		return &Result{Text: fmt.Sprintf("Scrolled %s into view.", r.What) + said, Summary: r.What, URL: tab.URL}, nil
	}
	where, end := "", " This is the bottom of the page."
	if r.Box != "" {
		where, end = fmt.Sprintf(" in %s [%s]", r.Box, frameRef(frame, r.BoxRef)), " This is its end."
	}
	// What came in as it scrolled: the box (or page) grew.
	var grew struct {
		Size int `json:"size"`
	}
	across := r.Across == 1
	if e.call(ctx, tab.ID, frame, pageFiles, "extent", map[string]any{"ref": r.BoxRef, "across": across}, &grew) == nil {
		if was := map[bool]int{false: r.Height, true: r.Width}[across]; grew.Size > was+2 {
			said = fmt.Sprintf(" More came in: it is now %d px long (it was %d).", grew.Size, was) + said
			end = ""
		}
	}
	if across {
		text := fmt.Sprintf("Scrolled %d px sideways%s; now at %d of %d px across.", r.Moved, where, r.X, r.Width)
		if r.Moved == 0 {
			text = fmt.Sprintf("It did not move sideways%s (at %d of %d px across).", where, r.X, r.Width)
		}
		return &Result{Text: text + said, Summary: fmt.Sprintf("x=%d", r.X), URL: tab.URL}, nil
	}
	text := fmt.Sprintf("Scrolled %d px%s; now at %d of %d px.", r.Moved, where, r.Y, r.Height)
	if r.Moved == 0 {
		text = fmt.Sprintf("The page did not move (at %d of %d px).", r.Y, r.Height)
		if r.Box != "" {
			text = fmt.Sprintf("It did not move%s (at %d of %d px).", where, r.Y, r.Height)
		}
	}
	if r.AtEnd {
		text += end
	}
	return &Result{Text: text + said, Summary: fmt.Sprintf("y=%d", r.Y), URL: tab.URL}, nil
}

// dialogCloses says whether the tab's dialog closes within d.
func (e *Env) dialogCloses(ctx context.Context, tabID int, d time.Duration) bool {
	for end := time.Now().Add(d); ; {
		if _, open := e.Browser.Dialog(tabID); !open {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(25 * time.Millisecond):
		}
	}
}

func dialogTool(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*DialogInput)
	t, err := e.tab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	d, ok := e.Browser.Dialog(t.ID)
	if !ok {
		return nil, failf("the page is not showing a dialog")
	}
	// A tab leaving its page (a navigation set out while the dialog was open) closes the page's
	// alert, confirm or prompt itself, and answering one Chrome is closing can bring the whole
	// browser down (Chromium 156 aborted so): it is given a moment to close first. (The
	// beforeunload dialog is the navigation's own question: it is answered.)
	a, _ := e.Browser.(Arriver)
	if d.Type != "beforeunload" && (t.Pending != "" || a != nil && a.Arriving(t.ID)) && e.dialogCloses(ctx, t.ID, time.Second) {
		text := fmt.Sprintf("The %s dialog %q closed as the tab left the page; nothing was answered.", d.Type, clip(d.Message, 200))
		return (&Result{Text: text + e.afterAction(ctx, t.ID, t, nil), URL: t.URL}).Summed(sumDismissed.With()), nil
	}
	if err := e.Browser.AnswerDialog(ctx, t.ID, in.Accept, in.PromptText); err != nil {
		if errors.Is(err, ErrDialogNotAnswerable) {
			return nil, &DialogError{Dialog: d}
		}
		return nil, err
	}
	how := "Dismissed"
	if in.Accept {
		how = "Accepted"
	}
	text := fmt.Sprintf("%s the %s dialog %q.", how, d.Type, clip(d.Message, 200))
	if d.Type == "prompt" && in.Accept {
		text += fmt.Sprintf(" Answered %q.", in.PromptText)
	}
	sum := sumDismissed
	if in.Accept {
		sum = sumAccepted
	}
	return (&Result{Text: text + e.afterAction(ctx, t.ID, t, nil), URL: t.URL}).Summed(sum.With()), nil
}
