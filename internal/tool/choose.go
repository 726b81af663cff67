package tool

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/safety"
)

// Lists a page draws itself (a combobox of divs, a button that opens a list, an address field
// that suggests as you type) are not <select>s: a value cannot be set on them, only chosen as a
// person chooses it, by opening the list and clicking the option.

// listOption is an option of a list a page draws (skiff.js optionsOf).
type listOption struct {
	Ref      string `json:"ref"`
	Name     string `json:"name"`
	Selected int    `json:"selected"`
	Disabled int    `json:"disabled"`
}

// drawnList is a control that offers a list a page draws, and the options showing for it.
type drawnList struct {
	What     string       `json:"what"`
	Editable int          `json:"editable"`
	Datalist int          `json:"datalist"`
	Shows    string       `json:"shows"`
	Options  []listOption `json:"options"`
	// Collapsed says the control says its list is closed (aria-expanded="false"): the options
	// showing are only the chosen one (a select that Choices.js draws).
	Collapsed int `json:"collapsed"`
	// Search is the ref of a search field that has the focus and is not the control: the one a
	// list opened with (Select2), where a person types to find an option.
	Search       string `json:"search"`
	SearchInside int    `json:"searchInside"` // the search field is inside the control
	// Drawing is how many options are still drawn in, see-through (a menu that shows its items
	// one after the other as it opens).
	Drawing int `json:"drawing"`
	// Levels are the menus of a field that opens one a level (a cascader: a region, then a
	// country, then a city), each with its items; Options are then the first level's.
	Levels [][]listOption `json:"levels"`
	// Open: the field says it is expanded.
	Open int `json:"open"`
}

// level is l with the options of its level i (a cascade's), or none when it shows fewer.
func (l drawnList) level(i int) drawnList {
	l.Options = nil
	if i < len(l.Levels) {
		l.Options = l.Levels[i]
	}
	return l
}

// pathOf reads a cascade's path written as one value ("Europe / France / Paris", "Europe >
// France > Paris"): its parts, or nil when it is one name.
func pathOf(v string) []string {
	for _, sep := range []string{" > ", " / ", ">", "/", " → "} {
		if !strings.Contains(v, sep) {
			continue
		}
		var parts []string
		for _, p := range strings.Split(v, sep) {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) > 1 {
			return parts
		}
	}
	return nil
}

// tick waits the moment between two reads of a page that is drawing what was asked of it,
// or until ctx ends.
func tick(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(50 * time.Millisecond):
		return nil
	}
}

// HeldStill is how long a list a field shows as it is typed into, holding none of the words
// typed, is waited on to hold still before it is taken as what the field found: a field that
// searches a moment after the keys (commonly 150–300 ms) draws its answer in that time.
var HeldStill = 400 * time.Millisecond

// offersWords says some option of l holds v's words (any case).
func offersWords(l drawnList, v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	for _, o := range l.Options {
		if strings.Contains(strings.ToLower(o.Name), v) {
			return true
		}
	}
	return false
}

// OptionsWait is how long a list that was opened (or typed into) is waited for to show its
// options: a list that fetches its suggestions shows them after a request.
var OptionsWait = 3 * time.Second

// choose picks values in a list a page draws itself, as a person does: it opens the list (a
// click; a field that suggests as you type gets the value typed), waits for its options, and
// clicks the one asked for, then reads back what the control shows. A field that offers no
// list keeps what was typed (an input with a datalist). It returns what it says of it.
// When the values were chosen as a path down a cascade's levels, path (if not nil) says so.
func (e *Env) choose(ctx context.Context, tabID, frame int, pt pageTarget, values []string, w *watch, path *bool) (string, error) {
	read := func() (l drawnList, err error) {
		err = e.call(ctx, tabID, frame, pageFiles, "optionsOf", map[string]any{"target": pt}, &l)
		return l, err
	}
	names := func(l drawnList) string {
		var b strings.Builder
		for _, o := range l.Options {
			b.WriteString(o.Name + "\n")
		}
		return b.String()
	}
	// usable says a list shows an option that can be chosen: one showing only disabled ones
	// ("Searching…", "Loading…") is still coming, and so is one whose options show no words yet
	// (Material's menu, drawn in as it opens).
	usable := func(l drawnList) bool {
		if l.Drawing > 0 {
			return false
		}
		for _, o := range l.Options {
			if o.Disabled == 0 && strings.TrimSpace(o.Name) != "" {
				return true
			}
		}
		return false
	}
	// settle waits up to wait for the options showing after the list was opened or typed
	// into. A list that shows: done. A field's suggestions come after a request, and the ones
	// showing may be those of what it held before: they are waited on until one is exactly the
	// value, or until they changed and hold still. A list that opened with an empty search
	// field (Select2 asking for a letter first, or fetching) is not waited on long: the value
	// is typed there.
	settle := func(l drawnList, value string, wait time.Duration, typed bool) (drawnList, error) {
		before, last := names(l), ""
		start := time.Now()
		still := start // since when the reads agree
		for deadline := start.Add(wait); ; {
			n, err := read()
			if err != nil || !time.Now().Before(deadline) {
				return n, err
			}
			now := names(n)
			agree := now == last
			if !agree {
				still = time.Now()
			}
			if usable(n) && !typed {
				// Opened: once two reads agree (a list drawn in as it opens shows its options
				// one by one).
				if agree {
					return n, nil
				}
			} else if usable(n) {
				// What the field found for the keys: an option that is exactly the value, or,
				// once the list changed and holds still, one that holds its words. A list
				// holding none of them may be the one the field opens with, before it
				// searches a moment after the keys (Element Plus's cascader shows its menus
				// first): it is taken once it held still HeldStill.
				if _, inexact := pick(n, value, true); inexact == nil || now != before && (agree && offersWords(n, value) || time.Since(still) >= HeldStill) {
					return n, nil
				}
			} else if !typed && n.Search != "" && time.Since(start) > 300*time.Millisecond {
				return n, nil
			}
			last = now
			if err := tick(ctx); err != nil {
				return n, err
			}
		}
	}
	// search types value into the search field of a list that is open, and waits for what it
	// finds.
	search := func(l drawnList, value string) (drawnList, string, error) {
		const how = "searched"
		if _, err := e.typeText(ctx, tabID, frame, pageTarget{Ref: l.Search}, value, true); err != nil {
			return l, how, err
		}
		n, err := settle(l, value, OptionsWait, true)
		return n, how, err
	}
	// open shows the list: typed into (with the value) when it is a field, else clicked; a
	// list that opened with a search field and does not show the value gets it typed there.
	open := func(l drawnList, value string) (drawnList, string, error) {
		if l.Editable == 1 {
			if _, err := e.typeText(ctx, tabID, frame, pt, value, true); err != nil {
				return l, "typed into", err
			}
			wait := OptionsWait / 2 // a field that suggests nothing keeps what was typed: not waited on long
			if l.Datalist == 1 {
				wait = 0
			}
			n, err := settle(l, value, wait, true)
			return n, "typed into", err
		}
		if _, err := e.mouse(ctx, tabID, frame, pt, "", 1); err != nil {
			return l, "clicked", err
		}
		n, err := settle(l, value, OptionsWait, false)
		if err != nil || n.Search == "" {
			return n, "clicked", err
		}
		if _, err := pick(n, value, false); err == nil {
			return n, "clicked", nil
		}
		return search(n, value)
	}
	var l drawnList
	if err := e.call(ctx, tabID, frame, pageFiles, "optionsOf", map[string]any{"target": pt, "first": true}, &l); err != nil {
		return "", err
	}
	calledBefore := strings.ToLower(l.What)
	showedBefore := strings.ToLower(l.Shows)
	if l.SearchInside == 0 {
		l.Search = "" // before the list was opened, a field with the focus is another control
	}
	// A path (several values, or one written "Europe / France / Paris") given to a field that
	// searches as typed into (Ant Design's cascader with a search): it lists whole paths.
	want := values
	if len(values) == 1 {
		want = pathOf(values[0])
	}
	if l.Editable == 1 && len(want) > 1 && l.Open == 1 && len(l.Options) == 0 {
		// A field that searches, just opened by a click (Element Plus's cascader): its menus
		// are drawn in a moment, and chosen from as they show.
		var err error
		if l, err = settle(l, "", OptionsWait/2, false); err != nil {
			return "", err
		}
	}
	var chosen []string
	searched := false
	for i := 0; i < len(values); i++ {
		v := values[i]
		_, notShowing := pick(l, v, true) // a closed list shows only its choice
		_, notFound := pick(l, v, false)
		open := open
		if l.Search != "" && notFound != nil {
			open = search // a list with its search field (open, for a second value; or inside the control)
		}
		// (A field that searches, open on its cascade's menus, is chosen from as they show: typing
		// would draw its search's list in their place, in a moment a read may fall on either.)
		if l.Levels == nil && len(l.Options) == 0 || (l.Editable == 1 && i == 0 && (l.Levels == nil || len(want) < 2)) || (l.Collapsed == 1 && notShowing != nil) || (l.Search != "" && notFound != nil) {
			var how string
			var err error
			if l, how, err = open(l, v); err != nil {
				return "", err
			}
			if len(l.Options) == 0 {
				switch how {
				case "typed into":
					if len(values) == 1 {
						return fmt.Sprintf("Typed %q into %s; it offered no list to choose from, and holds %q.", v, l.What, l.Shows), nil
					}
				case "searched":
					return "", failf("%s found no option for %q typed into its search field; take a snapshot to see what it shows", l.What, v)
				}
				return "", failf("%s showed no options to choose from after it was %s; take a snapshot to see what it shows", l.What, how)
			}
		}
		if i == 0 && l.Editable == 1 && len(want) > 1 {
			o, err := e.searchPath(ctx, tabID, frame, pt, &l, v, want, len(values) == 1, settle)
			if err != nil {
				return "", err
			}
			if o != nil {
				chosen, searched = []string{o.Name}, true
				if path != nil {
					*path = true
				}
				break
			}
		}
		if l.Levels != nil {
			// A cascade, open: each value is the next level's, the first when the path was
			// given as one value whose first part is no item of the first level.
			if _, err := pick(l.level(0), v, false); len(values) == 1 && err != nil {
				if p := pathOf(v); p != nil {
					values = p
					v = values[0]
				}
			}
			lv := l.level(i)
			if len(lv.Options) == 0 {
				return "", failf("%s opens no level below %s, so %q cannot be chosen in it", l.What, strings.Join(quoteAll(chosen), " › "), v)
			}
			o, err := pick(lv, v, false)
			if err == nil {
				// A menu's item is an action by its role: one whose name says it cannot be
				// taken back is clicked as such, judged by the gate, not chosen as a value.
				if w := safety.Irreversible(o.Name); w != "" {
					return "", failf("%q in %s is a menu item that says %q: select_option does not click it; click it, which asks as such a click does", o.Name, l.What, w)
				}
			}
			if err != nil {
				if i == 0 {
					// (The example is an item that can be chosen: not "No data", a search's.)
					if k := slices.IndexFunc(lv.Options, func(o listOption) bool { return o.Disabled == 0 }); k >= 0 {
						return "", failf("%v; it opens one level at a time: give the path from the first level, one value a level (such as [%q, …])", err, lv.Options[k].Name)
					}
					return "", err
				}
				return "", failf("%v (below %s)", err, strings.Join(quoteAll(chosen), " › "))
			}
			if _, err := e.mouse(ctx, tabID, frame, pageTarget{Ref: o.Ref}, "", 1); err != nil {
				return "", fmt.Errorf("clicking %q: %w", o.Name, err)
			}
			chosen = append(chosen, o.Name)
			if i < len(values)-1 {
				// The next level is drawn in as the item is clicked.
				for deadline := time.Now().Add(OptionsWait); ; {
					if l, err = read(); err != nil {
						return "", err
					}
					if len(l.Levels) > i+1 || !time.Now().Before(deadline) {
						break
					}
					if err := tick(ctx); err != nil {
						return "", err
					}
				}
			}
			continue
		}
		o, err := pick(l, v, l.Editable == 1)
		if err != nil {
			if o, ok := endsPath(l, v); ok && l.Editable == 1 && len(values) == 1 {
				// A cascader that searches lists paths: the one path that ends at the
				// value is the value's ("Bastille": "Paris / Bastille").
				if _, err := e.mouse(ctx, tabID, frame, pageTarget{Ref: o.Ref}, "", 1); err != nil {
					return "", fmt.Errorf("clicking option %q: %w", o.Name, err)
				}
				chosen, searched = append(chosen, o.Name), true
				break
			}
			if l.Editable == 1 && len(values) == 1 {
				// A field that suggests: what was typed stands, and the suggestions are said.
				return fmt.Sprintf("Typed %q into %s, which suggests %s; none is exactly that, so none was chosen (give select_option the whole name of one to choose it).", v, l.What, optionNames(l.Options, 10)), nil
			}
			return "", err
		}
		if o.Selected == 1 && (l.Editable == 0 || strings.Contains(showedBefore, strings.ToLower(o.Name))) {
			chosen = append(chosen, o.Name) // already chosen: a click may take it back
			continue
		}
		// (In the list of a field typed into, "selected" is the suggestion the keys are on,
		// Tom Select's and Downshift's, not a choice made: it is clicked, unless the field
		// showed it before.)
		if _, err := e.mouse(ctx, tabID, frame, pageTarget{Ref: o.Ref}, "", 1); err != nil {
			return "", fmt.Errorf("clicking option %q: %w", o.Name, err)
		}
		chosen = append(chosen, o.Name)
		if i < len(values)-1 {
			if l, err = read(); err != nil {
				return "", err
			}
		}
	}
	after, err := read()
	if err != nil {
		return fmt.Sprintf("Chose %s in %s.", strings.Join(quoteAll(chosen), ", "), l.What), nil
	}
	text := fmt.Sprintf("Chose %s in %s.", strings.Join(quoteAll(chosen), ", "), after.What)
	if w != nil {
		w.shown = after.Shows
	}
	if l.Levels != nil && !searched {
		if path != nil {
			*path = len(chosen) > 1
		}
		text = fmt.Sprintf("Chose %s in %s.", strings.Join(quoteAll(chosen), " › "), after.What)
		if len(after.Levels) > len(chosen) {
			// What was chosen last opened a further level: nothing is chosen yet.
			return fmt.Sprintf("Opened %s in %s, which has a further level, offering %s. Nothing is chosen until the path ends at an item with no level below it: give select_option the whole path.", strings.Join(quoteAll(chosen), " › "), after.What, optionNames(after.Levels[len(chosen)], 20)), nil
		}
	}
	missing := []string{}
	for _, c := range chosen {
		// Taken when the control shows it, its list has it chosen, or its name now says it (a
		// country picker's button: "…, currently selected Portugal (+351)", showing "+351").
		named := strings.Contains(strings.ToLower(after.What), strings.ToLower(c)) && !strings.Contains(calledBefore, strings.ToLower(c))
		if !strings.Contains(strings.ToLower(after.Shows), strings.ToLower(c)) && !selectedIn(after, c) && !named {
			missing = append(missing, c)
		}
	}
	switch {
	case len(missing) > 0 && after.Shows != "":
		text += fmt.Sprintf(" It shows %q, not %s: the page may not have taken the choice.", after.Shows, strings.Join(quoteAll(missing), ", "))
	case len(missing) > 0:
		text += fmt.Sprintf(" It does not show %s as chosen: the page may not have taken the choice.", strings.Join(quoteAll(missing), ", "))
	case after.Shows != "":
		text += fmt.Sprintf(" It shows %q.", after.Shows)
	}
	return text, nil
}

// searchPath chooses, in the list of a field typed into, the option whose name is the path
// want ("Europe / France / Paris"): a cascader that searches lists its items so, whole. Typing
// one part (typed, the first) shows the paths that hold it; when none is want, and the list
// showed paths (or the value typed was the whole path, which such a search finds nowhere),
// want's last part, the narrowest, is typed instead. It returns nil when the list is no such
// list, and the option it clicked.
func (e *Env) searchPath(ctx context.Context, tabID, frame int, pt pageTarget, l *drawnList, typed string, want []string, whole bool,
	settle func(drawnList, string, time.Duration, bool) (drawnList, error)) (*listOption, error) {
	find := func() (o *listOption, paths bool) {
		for _, x := range l.Options {
			p := pathOf(x.Name)
			paths = paths || p != nil
			if len(p) == len(want) && x.Disabled == 0 && o == nil && slices.EqualFunc(p, want, strings.EqualFold) {
				o = &x
			}
		}
		return o, paths
	}
	o, paths := find()
	if _, err := pick(*l, typed, true); o == nil && err != nil && (paths || whole) {
		last := want[len(want)-1]
		if _, err := e.typeText(ctx, tabID, frame, pt, last, true); err != nil {
			return nil, err
		}
		n, err := settle(*l, last, OptionsWait/2, true)
		if err != nil {
			return nil, err
		}
		*l = n
		if o, _ = find(); o == nil {
			offers := "offers nothing"
			if len(l.Options) > 0 {
				offers = "offers " + optionNames(l.Options, 20)
			}
			return nil, failf("%s, searched for %q, %s; none is the path %s", l.What, last, offers, strings.Join(quoteAll(want), " › "))
		}
	}
	if o == nil {
		return nil, nil
	}
	// (A menu's item named as what cannot be taken back is clicked as such: see choose.)
	if w := safety.Irreversible(o.Name); w != "" && l.Levels != nil {
		return nil, failf("%q in %s is a menu item that says %q: select_option does not click it; click it, which asks as such a click does", o.Name, l.What, w)
	}
	if _, err := e.mouse(ctx, tabID, frame, pageTarget{Ref: o.Ref}, "", 1); err != nil {
		return nil, fmt.Errorf("clicking option %q: %w", o.Name, err)
	}
	return o, nil
}

// endsPath finds the only option of l, a list of paths ("Paris / Bastille"), whose last part
// is v.
func endsPath(l drawnList, v string) (listOption, bool) {
	var found []listOption
	for _, o := range l.Options {
		if p := pathOf(o.Name); len(p) > 1 && o.Disabled == 0 && strings.EqualFold(p[len(p)-1], strings.TrimSpace(v)) {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		return listOption{}, false
	}
	return found[0], true
}

func selectedIn(l drawnList, name string) bool {
	for _, o := range l.Options {
		if o.Selected == 1 && strings.EqualFold(o.Name, name) {
			return true
		}
	}
	return false
}

// pick finds the option v names: by its whole name (any case), else, unless exact, the only
// one whose name holds v.
func pick(l drawnList, v string, exact bool) (listOption, error) {
	want := strings.ToLower(strings.TrimSpace(v))
	var holds []listOption
	for _, o := range l.Options {
		name := strings.ToLower(strings.TrimSpace(o.Name))
		if name == want {
			holds = []listOption{o}
			break
		}
		if !exact && want != "" && strings.Contains(name, want) {
			holds = append(holds, o)
		}
	}
	switch {
	case len(holds) == 0:
		return listOption{}, failf("%s has no option %q; it offers %s", l.What, v, optionNames(l.Options, 20))
	case len(holds) > 1:
		return listOption{}, failf("%q matches several options of %s: %s; give the whole name", v, l.What, optionNames(holds, 20))
	case holds[0].Disabled == 1:
		return listOption{}, failf("option %q of %s is disabled", holds[0].Name, l.What)
	}
	return holds[0], nil
}

// suggestions says what a field that suggests as you type is suggesting now, after typing
// (nothing is waited for, and nothing chosen): the model may choose one with select_option.
func (e *Env) suggestions(ctx context.Context, tabID, frame int, pt pageTarget) string {
	s, _ := e.suggesting(ctx, tabID, frame, pt, "")
	return s
}

// suggesting is suggestions, and whether one holds the words typed.
func (e *Env) suggesting(ctx context.Context, tabID, frame int, pt pageTarget, typed string) (string, bool) {
	var l drawnList
	if e.call(ctx, tabID, frame, pageFiles, "optionsOf", map[string]any{"target": pt}, &l) != nil || len(l.Options) == 0 {
		return "", false
	}
	return "; it suggests " + optionNames(l.Options, 10) + " (select_option chooses one)", offersWords(l, typed)
}

// SuggestWait is how long typing into a field that suggests, which showed nothing yet and sent
// nothing, waits for it to ask its server (many wait for the typing to pause first).
var SuggestWait = 400 * time.Millisecond

// watchSuggestions readies typing into a field that suggests: what it shows before is noted,
// and what it sends as it is typed into is followed.
func (e *Env) watchSuggestions(ctx context.Context, tabID, frame int, pt pageTarget) *watch {
	w := &watch{frame: frame, suggested: e.suggestions(ctx, tabID, frame, pt), at: time.Now()}
	e.follow(ctx, tabID, w)
	return w
}

// suggestionsAfter is suggestions once a field typed into had its chance to suggest: at once
// when it shows new ones already (a list filtered as one types), else once what the field sent for
// what was typed was answered (w follows the requests from before the typing; up to
// RequestWait), or after SuggestWait when it sent nothing. New ones holding none of the words
// typed (text) may be those the field opens with before it searches: they are taken once
// they held still HeldStill, or at SuggestWait.
func (e *Env) suggestionsAfter(ctx context.Context, tabID, frame int, pt pageTarget, w *watch, text string) string {
	defer e.unwatch(tabID, w)
	typed := time.Now()
	still, last := typed, ""
	var rep replies
	for {
		pending := !w.net.IsZero() && e.Browser.RequestsSince(tabID, w.net) > 0
		now := time.Now()
		if rep.drawn(pending, now) || now.Sub(typed) > SuggestWait+RequestWait {
			return e.suggestions(ctx, tabID, frame, pt) // the answer had a moment to be drawn
		}
		// While nothing was sent, the page is read each turn: a list filtered as one types
		// shows at once. While a request is out, it is not read: it cannot have the answer.
		if !rep.sent {
			s, words := e.suggesting(ctx, tabID, frame, pt, text)
			if s != last {
				still, last = now, s
			}
			if s != "" && s != w.suggested && (words || now.Sub(still) >= HeldStill) || now.Sub(typed) >= SuggestWait {
				return s
			}
		}
		if tick(ctx) != nil {
			return ""
		}
	}
}

// optionNames quotes the names of the first max options, and says how many more there are.
func optionNames(os []listOption, max int) string {
	var q []string
	for i, o := range os {
		if i == max {
			q = append(q, fmt.Sprintf("and %d more", len(os)-max))
			break
		}
		q = append(q, strconv.Quote(o.Name))
	}
	return strings.Join(q, ", ")
}
