package tool

import (
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/safety"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Element is an element of a page as the page describes it (ext/page/skiff.js, target): what a
// person calls it, what it is, and where acting on it leads. It is data: the gate and the risk
// raise read it, and the words on a tool card are made from it.
type Element struct {
	Ref  string `json:"ref,omitempty"`  // its ref, with the frame prefix for a child frame ("f3e7")
	Role string `json:"role,omitempty"` // ARIA role: "button", "link", "textbox", "checkbox"…
	Name string `json:"name,omitempty"` // accessible name
	// Hint is what the page's code calls a control without a name (an icon's: "trash").
	Hint string `json:"hint,omitempty"`
	Tag  string `json:"tag,omitempty"`  // element name: "button", "input", "div"…
	Type string `json:"type,omitempty"` // an input's type
	// Field is "password" or "payment" for a field whose value is a secret.
	Field string `json:"field,omitempty"`
	// Origin is the origin of the document the element is in (a frame's own, not the tab's).
	Origin   string `json:"origin,omitempty"`
	FrameURL string `json:"frameUrl,omitempty"`
	Link     string `json:"link,omitempty"`    // where a link goes
	App      string `json:"app,omitempty"`     // where a link to another app goes (mailto:, tel:…)
	Submits  string `json:"submits,omitempty"` // the form action a click on it sends
	// NewTab: it is a link that opens in a new tab or window (target="_blank", a named one).
	NewTab bool `json:"newTab,omitempty"`
	// Popup is what it says it opens, when that is a list to choose from or a dialog that holds
	// one (aria-haspopup "listbox", "tree", "grid" or "dialog": a country picker's button), and
	// "listbox" for a text field that says it expands (aria-expanded): it opens its suggestions.
	Popup string `json:"popup,omitempty"`
	// Readonly: it is a field that takes no typing, filled by what it opens (a picker's).
	Readonly bool `json:"readonly,omitempty"`
	// Over: it is in a box over the page, a dialog or a box fixed on the screen (a cookie
	// banner, a sign-up prompt): a workflow may find it gone another time.
	Over bool `json:"over,omitempty"`
	// Consent: that box speaks of cookies (a consent banner, whatever its buttons say).
	Consent bool `json:"consent,omitempty"`
	// Lang is the language the page says its words are in there (its lang attribute's first
	// part: "sv" of "sv-SE"), if it says one.
	Lang string `json:"lang,omitempty"`
	// Place is where it stood among the elements its page showed with its role and name, read
	// as the call began when the last snapshot its caller read did not show it (it came from
	// find_text, from past a snapshot's cut, or from a page read before): a workflow finds it
	// there again (workflow.Placed).
	Place *Place `json:"place,omitempty"`
}

// Place is where an element stood on its page: which of those with its role and name it was
// (0: the first, in the page's order), the heading above it, and, for one without a name, what
// the snapshot said its page's code calls it.
type Place struct {
	Nth  int    `json:"nth,omitempty"`
	Near string `json:"near,omitempty"`
	Hint string `json:"hint,omitempty"`
}

// valueRoles set a value rather than perform an action: what their label says ("Send me
// offers") is not what acting on them does.
var valueRoles = map[string]bool{"checkbox": true, "radio": true, "switch": true, "textbox": true, "searchbox": true,
	"combobox": true, "listbox": true, "slider": true, "spinbutton": true, "option": true, "menuitemcheckbox": true, "menuitemradio": true}

// Performs reports whether activating the element performs an action (a button, a link, a
// submit input, a menu item, or anything unknown that reacts to clicks) rather than sets a value
// (a checkbox, a radio, a field, a drop-down). Native buttons and links perform whatever role
// the page gives them.
func (e *Element) Performs() bool {
	if e == nil {
		return false
	}
	switch e.Tag {
	case "button", "a", "area", "summary":
		return true
	case "input":
		switch e.Type {
		case "submit", "image", "button", "reset":
			return true
		}
		return false
	case "select", "textarea", "option":
		return false
	}
	return !valueRoles[e.Role]
}

// DrawnBox reports whether the element is a button drawn as a checkbox, a switch or a radio
// (Ant Design's Switch, Radix's and Headless UI's checkboxes and switches) that sends no form:
// one set as a box is, its state read from aria-checked. It still performs what a click on it
// does, so the gate judges it by its name as it judges a click on it (Effect.Irreversible).
func (e *Element) DrawnBox() bool {
	return e != nil && e.Tag == "button" && (e.Role == "checkbox" || e.Role == "switch" || e.Role == "radio") && e.Submits == ""
}

// Words is the element as a person reads it: button “Delete account” [e5].
func (e *Element) Words() string { return e.Says().English() }

// DrawnList says e is a list the page draws that takes no typing (a div with the combobox
// role, a button that opens a list): fill_form opens it and clicks the item its value names.
func (e *Element) DrawnList() bool {
	return (e.Role == "combobox" || e.Role == "listbox" || e.Popup != "") && e.Tag != "select" && e.Tag != "input" && e.Tag != "textarea"
}

// SaysItSuggests says e is a field that says it offers what it finds for what is typed: a
// combobox, or a text field that says it expands (Element Plus's cascader that searches).
func (e *Element) SaysItSuggests() bool {
	return e.Role == "combobox" || e.Popup == "listbox" && (e.Tag == "input" || e.Tag == "textarea")
}

// Field is a field of fill_form and the value it gets.
type FieldValue struct {
	Element Element `json:"element"`
	Value   string  `json:"value"`
}

// Effect is what a call will do, resolved before the gate asks anything: the element it acts
// on and the control it activates, what it types, where it leads. The gate judges the call by
// it, the risk rises by it, the tool acts on exactly the element it names, and the sentence a
// person reads before allowing it (Words) is made from it.
type Effect struct {
	Action string `json:"action"` // "click", "type", "press", "navigate"… (one per tool)
	TabID  int    `json:"tabId,omitempty"`
	URL    string `json:"url,omitempty"` // the page it works on
	// Unloaded: Chrome had unloaded the tab's page when the call was judged (a tab put to
	// sleep, a crashed page); the call loads it again as it runs (Env.awake).
	Unloaded bool `json:"-"`
	// ErrorPage: the tab showed Chrome's error page when the call was judged (its page did not
	// load), so a call on its page has nothing there to read or act on; this says so, and the
	// call is answered with it rather than asked about (Env.pageEffect).
	ErrorPage error `json:"-"`
	// Element is what the call acts on: the clicked element, the field typed into, the
	// focused element a key goes to.
	Element *Element `json:"element,omitempty"`
	// Activates is the control the call sets off, when it sets one off: what a click
	// activates (the button around the clicked text, a label's checkbox), the button Enter
	// presses in a form, the dialog it accepts.
	Activates *Element     `json:"activates,omitempty"`
	Fields    []FieldValue `json:"fields,omitempty"` // fill_form
	Text      string       `json:"text,omitempty"`   // what it types, looks for, runs
	Key       string       `json:"key,omitempty"`
	Values    []string     `json:"values,omitempty"`
	X, Y      *float64     `json:"-"`
	// LeadsTo is where the call sends the browser, when the page says so in advance (a link,
	// a form's action) or the call names it (navigate).
	LeadsTo string `json:"leadsTo,omitempty"`
	Detail  string `json:"detail,omitempty"` // the rest, in words ("down", a time range, tabs)
	// Said is Detail as a sentence, for the calls whose words are all in it (reading a page,
	// switching tabs, the history): what the card and the ask show in the user's language.
	Said i18n.Text `json:"-"`
	// Accept: a dialog is accepted (not dismissed).
	Accept bool `json:"accept,omitempty"`
	// Secret: what the call types holds a value its run keeps secret (a workflow's password
	// parameter), whatever field it goes to: it is described as a count of characters and asks
	// as a password field does.
	Secret bool `json:"-"`
	// OwnTabs: the tabs a close closes are all ones this env opened itself. TakenUp: one of them
	// an earlier run opened, and the user has been in it since.
	OwnTabs bool `json:"-"`
	TakenUp bool `json:"-"`

	at *point // a click at a point: the point in the frame of Element
}

// Origin is where the call acts as the gate sees it: the origin of the frame that holds the
// element (an iframe's own, not the page's), else the page's.
func (f *Effect) Origin() string {
	for _, e := range []*Element{f.Activates, f.Element} {
		if e != nil && e.Origin != "" {
			return e.Origin
		}
	}
	for _, fv := range f.Fields {
		if fv.Element.Origin != "" {
			return fv.Element.Origin
		}
	}
	return weburl.Origin(f.URL)
}

// Named is what the call's refs name: the element it acts on, the fields it fills, and where a
// drag lets go (its to); not what it sets off that the page found around them (the button
// around the clicked text). A workflow finds each again.
func (f *Effect) Named() []*Element {
	out := []*Element{f.Element}
	if f.Action == "drag" {
		out = append(out, f.Activates)
	}
	for i := range f.Fields {
		out = append(out, &f.Fields[i].Element)
	}
	return out
}

// OpensApp is the link to another app ("mailto:…") the call sets off, or "": a click on it,
// or Enter on it, has the browser open an app outside it.
func (f *Effect) OpensApp() string {
	if f.Action != "click" && f.Action != "press" {
		return ""
	}
	for _, e := range []*Element{f.Activates, f.Element} {
		if e != nil && e.App != "" {
			return e.App
		}
	}
	return ""
}

// Sensitive reports whether the call types into a password or payment field.
func (f *Effect) Sensitive() bool {
	if f.Secret && (f.types() || f.Action == "select") {
		return true
	}
	if f.Element != nil && f.Element.Field != "" && f.types() {
		return true
	}
	for _, fv := range f.Fields {
		if fv.Element.Field != "" {
			return true
		}
	}
	return false
}

func (f *Effect) types() bool { return f.Action == "type" || f.Action == "press" || f.Action == "fill" }

// Uploads names the files the call sends from this computer ("" for a call that sends none).
func (f *Effect) Uploads() string {
	if f.Action != "upload" {
		return ""
	}
	return strings.Join(f.Values, ", ")
}

// Irreversible names what makes the call look like one that cannot be undone ("delete",
// "pay"…), or "": the words of the control it sets off, when that control performs an action
// (a checkbox labelled "Send me offers" sends nothing), or of the dialog it accepts.
func (f *Effect) Irreversible() string {
	if a := f.Activates; a != nil && (a.Performs() || a.Role == "dialog" || a.Role == "form") {
		if w := safety.Irreversible(a.Name); w != "" {
			return w
		}
	}
	// A button drawn as a box that fill_form sets is clicked as a click on it would be: its
	// name counts as that click's (a "Delete my data" switch). (A choice in a list is a value:
	// "Bank transfer", "Pay monthly". The menu items of a cascade are refused by name as they
	// are chosen, see choose.)
	for _, fv := range f.Fields {
		if fv.Element.DrawnBox() {
			if w := safety.Irreversible(fv.Element.Name); w != "" {
				return w
			}
		}
	}
	return ""
}

// Words is the call as a person reads it before allowing it.
func (f *Effect) Words() string { return f.Says().English() }

func day(ms int64) string { return time.UnixMilli(ms).UTC().Format("2 Jan 2006 15:04 UTC") }
