package tool

import (
	"fmt"
	"strings"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// What a call will do, in the words a person reads on its card and its ask (their French is in
// ui/_locales). The element's own words (its name, a typed text, an address) go in as they
// are; the model reads none of this.
var (
	elPage     = i18n.Sentence{Key: "elPage", English: "the page"}
	elWords    = i18n.Sentence{Key: "elWords", English: "$1$2"}
	elPassword = i18n.Sentence{Key: "elPassword", English: "password field $1"}
	elPayment  = i18n.Sentence{Key: "elPayment", English: "payment field $1"}

	whatClick       = i18n.Sentence{Key: "whatClick", English: "click $1$2"}
	whatDoubleClick = i18n.Sentence{Key: "whatDoubleClick", English: "double-click $1$2"}
	whatRightClick  = i18n.Sentence{Key: "whatRightClick", English: "right-click $1$2"}
	whatClickAt     = i18n.Sentence{Key: "whatClickAt", English: "click at ($1, $2)$3"}
	whatClickAtOn   = i18n.Sentence{Key: "whatClickAtOn", English: "click at ($1, $2) on $3$4"}
	whatDoubleAt    = i18n.Sentence{Key: "whatDoubleClickAt", English: "double-click at ($1, $2)$3"}
	whatDoubleAtOn  = i18n.Sentence{Key: "whatDoubleClickAtOn", English: "double-click at ($1, $2) on $3$4"}
	whatRightAt     = i18n.Sentence{Key: "whatRightClickAt", English: "right-click at ($1, $2)$3"}
	whatRightAtOn   = i18n.Sentence{Key: "whatRightClickAtOn", English: "right-click at ($1, $2) on $3$4"}
	whatHover       = i18n.Sentence{Key: "whatHover", English: "hover over $1"}
	whatDrag        = i18n.Sentence{Key: "whatDrag", English: "drag $1 onto $2"}
	whatUpload      = i18n.Sentence{Key: "whatUpload", English: "send $1 from this computer to $2"}
	whatType        = i18n.Sentence{Key: "whatType", English: "type $1 into $2$3"}
	whatTypeSecret  = i18n.Sentence{Key: "whatTypeSecret", English: "type $1 characters into $2$3"}
	whatThenEnter   = i18n.Sentence{Key: "whatThenEnter", English: ", then press Enter$1"}
	whatChoose      = i18n.Sentence{Key: "whatChoose", English: "choose $1 in $2"}
	whatChooseN     = i18n.Sentence{Key: "whatChooseSecret", English: "choose $1 options in $2"}
	whatFill        = i18n.Sentence{Key: "whatFill", English: "fill $1$2"}
	whatFillField   = i18n.Sentence{Key: "whatFillField", English: "$1 = $2"}
	whatFillSecret  = i18n.Sentence{Key: "whatFillSecret", English: "$1 = $2 characters"}
	whatPress       = i18n.Sentence{Key: "whatPress", English: "press $1$2"}
	whatPressIn     = i18n.Sentence{Key: "whatPressIn", English: "press $1 in $2$3"}
	whatScrollTo    = i18n.Sentence{Key: "whatScrollTo", English: "scroll to $1"}
	whatScroll      = i18n.Sentence{Key: "whatScroll", English: "scroll $1"}
	whatAccept      = i18n.Sentence{Key: "whatAccept", English: "accept the page's dialog$1"}
	whatDismiss     = i18n.Sentence{Key: "whatDismiss", English: "dismiss the page's dialog"}
	whatOpen        = i18n.Sentence{Key: "whatOpen", English: "open $1"}
	whatClose       = i18n.Sentence{Key: "whatClose", English: "close $1"}
	whatScript      = i18n.Sentence{Key: "whatScript", English: "run a script: $1"}
	whatFind        = i18n.Sentence{Key: "whatFind", English: "find $1"}
	whatWaitFor     = i18n.Sentence{Key: "whatWaitFor", English: "wait for $1"}
	whatWait        = i18n.Sentence{Key: "whatWait", English: "wait"}

	whatLook          = i18n.Sentence{Key: "whatLook", English: "look at the page"}
	whatLookAt        = i18n.Sentence{Key: "whatLookAt", English: "look at [$1]"}
	whatReadText      = i18n.Sentence{Key: "whatReadText", English: "read the page's text"}
	whatReadSel       = i18n.Sentence{Key: "whatReadSel", English: "read $1"}
	whatLinks         = i18n.Sentence{Key: "whatLinks", English: "list the links"}
	whatShot          = i18n.Sentence{Key: "whatShot", English: "take a picture of the tab"}
	whatShotOf        = i18n.Sentence{Key: "whatShotOf", English: "take a picture of $1"}
	whatShotPage      = i18n.Sentence{Key: "whatShotPage", English: "take a picture of the whole page"}
	whatConsole       = i18n.Sentence{Key: "whatConsole", English: "read the page's console"}
	whatNetwork       = i18n.Sentence{Key: "whatNetwork", English: "list the page's requests"}
	whatTabs          = i18n.Sentence{Key: "whatTabs", English: "list the tabs"}
	whatSwitchTab     = i18n.Sentence{Key: "whatSwitchTab", English: "switch to tab $1"}
	whatBack          = i18n.Sentence{Key: "whatBack", English: "go back"}
	whatForward       = i18n.Sentence{Key: "whatForward", English: "go forward"}
	whatReload        = i18n.Sentence{Key: "whatReload", English: "reload the page"}
	whatGroup         = i18n.Sentence{Key: "whatGroup", One: "put $1 tab in a group $2", English: "put $1 tabs in a group $2"}
	whatUngroup       = i18n.Sentence{Key: "whatUngroup", One: "take $1 tab out of its group", English: "take $1 tabs out of their groups"}
	whatHistorySearch = i18n.Sentence{Key: "whatHistorySearch", English: "search the history for $1"}
	whatHistoryRecent = i18n.Sentence{Key: "whatHistoryRecent", English: "list the pages visited lately"}
	whatVisits        = i18n.Sentence{Key: "whatVisits", English: "look up the visits of $1"}
	whatDeleteURL     = i18n.Sentence{Key: "whatDeleteURL", English: "delete $1 from the history"}
	whatDeleteRange   = i18n.Sentence{Key: "whatDeleteRange", English: "delete the browsing history from $1 to $2"}
	whatSays          = i18n.Sentence{Key: "whatSays", English: " that says “$1”"}
	whatPresses       = i18n.Sentence{Key: "whatPresses", English: " (it presses $1)"}
	whatActivates     = i18n.Sentence{Key: "whatActivates", English: " (it activates $1)"}
	whatStep          = i18n.Sentence{Key: "whatStep", English: "step $1 of $2: $3"}

	// The roles a card names most, as a person says them; any other goes in as ARIA names it.
	roleButton   = i18n.Sentence{Key: "roleButton", English: "button"}
	roleLink     = i18n.Sentence{Key: "roleLink", English: "link"}
	roleTextbox  = i18n.Sentence{Key: "roleTextbox", English: "textbox"}
	roleSearch   = i18n.Sentence{Key: "roleSearchbox", English: "searchbox"}
	roleCheckbox = i18n.Sentence{Key: "roleCheckbox", English: "checkbox"}
	roleRadio    = i18n.Sentence{Key: "roleRadio", English: "radio"}
	roleCombobox = i18n.Sentence{Key: "roleCombobox", English: "combobox"}
	roleListbox  = i18n.Sentence{Key: "roleListbox", English: "listbox"}
	roleOption   = i18n.Sentence{Key: "roleOption", English: "option"}
	roleMenuitem = i18n.Sentence{Key: "roleMenuitem", English: "menuitem"}
	roleTab      = i18n.Sentence{Key: "roleTab", English: "tab"}
	roleSwitch   = i18n.Sentence{Key: "roleSwitch", English: "switch"}
	roleSlider   = i18n.Sentence{Key: "roleSlider", English: "slider"}
	roleSpin     = i18n.Sentence{Key: "roleSpinbutton", English: "spinbutton"}
	roleHeading  = i18n.Sentence{Key: "roleHeading", English: "heading"}
	roleImg      = i18n.Sentence{Key: "roleImg", English: "img"}
	roleDialog   = i18n.Sentence{Key: "roleDialog", English: "dialog"}
	roleForm     = i18n.Sentence{Key: "roleForm", English: "form"}
)

// role is what an element is, as a person says it.
func role(kind string) any {
	switch kind {
	case "button":
		return roleButton.With()
	case "link":
		return roleLink.With()
	case "textbox":
		return roleTextbox.With()
	case "searchbox":
		return roleSearch.With()
	case "checkbox":
		return roleCheckbox.With()
	case "radio":
		return roleRadio.With()
	case "combobox":
		return roleCombobox.With()
	case "listbox":
		return roleListbox.With()
	case "option":
		return roleOption.With()
	case "menuitem":
		return roleMenuitem.With()
	case "tab":
		return roleTab.With()
	case "switch":
		return roleSwitch.With()
	case "slider":
		return roleSlider.With()
	case "spinbutton":
		return roleSpin.With()
	case "heading":
		return roleHeading.With()
	case "img":
		return roleImg.With()
	case "dialog":
		return roleDialog.With()
	case "form":
		return roleForm.With()
	}
	return kind
}

// Says is the element as a person reads it: button “Delete account” [e5].
func (e *Element) Says() i18n.Text {
	if e == nil {
		return elPage.With()
	}
	kind := e.Role
	switch {
	case kind == "" && e.Tag == "a":
		kind = "link" // a link with no address its page made a control (jQuery UI's Prev and Next)
	case kind == "":
		kind = e.Tag
	}
	what := role(kind)
	switch e.Field {
	case "password":
		what = elPassword.With(what)
	case "payment":
		what = elPayment.With(what)
	}
	rest := ""
	if e.Name != "" {
		rest += " “" + clip(oneLine(e.Name), 80) + "”"
	} else if e.Hint != "" {
		rest += " (" + clip(oneLine(e.Hint), 40) + ")"
	} else if e.Tag != "" && e.Tag != kind {
		rest += " <" + e.Tag + ">"
	}
	if e.Ref != "" {
		rest += " [" + e.Ref + "]"
	}
	return elWords.With(what, rest)
}

// Says is the call as a person reads it before allowing it.
func (f *Effect) Says() i18n.Text {
	q := func(s string) string { return "“" + clip(oneLine(s), 120) + "”" }
	el := f.Element.Says()
	secret := f.Secret || f.Element != nil && f.Element.Field != ""
	enter := func() any {
		if f.Activates == nil {
			return ""
		}
		return whatThenEnter.With(f.activating())
	}
	switch f.Action {
	case "click", "double-click", "right-click":
		plain, at, atOn := whatClick, whatClickAt, whatClickAtOn
		switch f.Action {
		case "double-click":
			plain, at, atOn = whatDoubleClick, whatDoubleAt, whatDoubleAtOn
		case "right-click":
			plain, at, atOn = whatRightClick, whatRightAt, whatRightAtOn
		}
		if f.X != nil && f.Y != nil {
			x, y := fmt.Sprintf("%.0f", *f.X), fmt.Sprintf("%.0f", *f.Y)
			if f.Element != nil {
				return atOn.With(x, y, el, f.activating())
			}
			return at.With(x, y, f.activating())
		}
		return plain.With(el, f.activating())
	case "hover":
		return whatHover.With(el)
	case "drag":
		return whatDrag.With(el, f.Activates.Says())
	case "upload":
		return whatUpload.With(f.Uploads(), el)
	case "type":
		if secret {
			return whatTypeSecret.With(len([]rune(f.Text)), el, enter())
		}
		return whatType.With(q(f.Text), el, enter())
	case "select":
		if f.Secret {
			return whatChooseN.With(len(f.Values), el)
		}
		return whatChoose.With(strings.Join(f.Values, ", "), el)
	case "fill":
		var parts []any
		for _, fv := range f.Fields {
			if fv.Element.Field != "" || f.Secret {
				parts = append(parts, whatFillSecret.With(fv.Element.Says(), len([]rune(fv.Value))))
			} else {
				parts = append(parts, whatFillField.With(fv.Element.Says(), q(fv.Value)))
			}
		}
		return whatFill.With(i18n.List(parts), enter())
	case "press":
		if f.Element != nil {
			return whatPressIn.With(f.Key, el, f.activating())
		}
		return whatPress.With(f.Key, f.activating())
	case "scroll":
		if f.Element != nil {
			return whatScrollTo.With(el)
		}
		return whatScroll.With(f.Detail)
	case "dialog":
		if f.Accept {
			return whatAccept.With(f.activating())
		}
		return whatDismiss.With()
	case "navigate", "open":
		return whatOpen.With(f.LeadsTo)
	case "close":
		return whatClose.With(f.Detail)
	case "script":
		return whatScript.With(q(f.Text))
	case "find":
		return whatFind.With(q(f.Text))
	case "wait":
		if f.Text != "" {
			return whatWaitFor.With(f.Text)
		}
		return whatWait.With()
	}
	if !f.Said.IsZero() {
		return f.Said
	}
	if f.Detail != "" {
		return i18n.Verbatim(f.Detail)
	}
	return i18n.Verbatim(f.Action)
}

// StepSays is what the call at step k of a batch of n does, in words.
func StepSays(k, n int, what i18n.Text) i18n.Text { return whatStep.With(k, n, what) }

// activating says what the call sets off, when that is not the element itself ("" or a Text).
func (f *Effect) activating() any {
	a := f.Activates
	if a == nil || (f.Element != nil && a.Ref != "" && a.Ref == f.Element.Ref) {
		if a != nil && a.Role == "dialog" && a.Name != "" {
			return whatSays.With(clip(oneLine(a.Name), 120))
		}
		return ""
	}
	switch {
	case a.Role == "dialog":
		return whatSays.With(clip(oneLine(a.Name), 120))
	case f.Action == "type" || f.Action == "fill" || f.Action == "press":
		return whatPresses.With(a.Says())
	}
	return whatActivates.With(a.Says())
}

// A call's result in a few words, on its card and in the audit log (their French is in
// ui/_locales); a result that is data (an address, a key, an element's words) goes as it is.
var (
	sumSnapshot  = i18n.Sentence{Key: "sumSnapshot", One: "$1 interactive element, $2 characters", English: "$1 interactive elements, $2 characters"}
	sumChars     = i18n.Sentence{Key: "sumChars", One: "$1 character", English: "$1 characters"}
	sumLinks     = i18n.Sentence{Key: "sumLinks", One: "$1 link", English: "$1 links"}
	sumMatches   = i18n.Sentence{Key: "sumMatches", One: "$1 match", English: "$1 matches"}
	sumConsole   = i18n.Sentence{Key: "sumConsole", One: "$1 console message", English: "$1 console messages"}
	sumRequests  = i18n.Sentence{Key: "sumRequests", One: "$1 request", English: "$1 requests"}
	sumMet       = i18n.Sentence{Key: "sumMet", English: "met"}
	sumScript    = i18n.Sentence{Key: "sumScript", One: "$2, $1 character", English: "$2, $1 characters"}
	sumTabs      = i18n.Sentence{Key: "sumTabs", One: "$1 tab", English: "$1 tabs"}
	sumGroup     = i18n.Sentence{Key: "sumGroup", English: "group $1"}
	sumFields    = i18n.Sentence{Key: "sumFields", One: "$1 field", English: "$1 fields"}
	sumPages     = i18n.Sentence{Key: "sumPages", One: "$1 page", English: "$1 pages"}
	sumVisits    = i18n.Sentence{Key: "sumVisits", One: "$1 visit", English: "$1 visits"}
	sumAccepted  = i18n.Sentence{Key: "sumAccepted", English: "accepted"}
	sumDismissed = i18n.Sentence{Key: "sumDismissed", English: "dismissed"}
	sumTabClosed = i18n.Sentence{Key: "sumTabClosed", English: "then its tab closed"}
	sumImage     = i18n.Sentence{Key: "sumImage", English: "$2 image, $1 KB"}
	// SumSteps is a batch's result: how many of its steps ran.
	SumSteps = i18n.Sentence{Key: "sumSteps", One: "$1 step", English: "$1 steps"}
)
