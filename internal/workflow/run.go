package workflow

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Why a replay stopped.
const (
	StopValues  = "values"  // a parameter had no value
	StopMissing = "missing" // a step's element is not on the page
	StopMoved   = "moved"   // the page is not the one the step was recorded on
	StopFailed  = "failed"  // the step ran and failed
	StopDenied  = "denied"  // the gate (or the user) did not allow it
	StopStopped = "stopped" // the user stopped the run
)

// Stop is where and why a replay stopped: at step Step (0-based), for Reason, in words (the
// model's, which a repair reads), and Says, the same for the user in their language.
type Stop struct {
	Step   int
	Kind   string
	Reason string
	Says   i18n.Text
}

// stopped is a stop for reason, said to the user as says.
func stopped(k int, kind string, says i18n.Text) *Stop {
	return &Stop{Step: k, Kind: kind, Reason: says.English(), Says: says}
}

// saysErr is err for the user: its sentence when it has one, else its words.
func saysErr(err error) i18n.Text {
	var ie *i18n.Error
	if errors.As(err, &ie) {
		return ie.Text
	}
	var m *Miss
	if errors.As(err, &m) && !m.Says.IsZero() {
		return m.Says
	}
	return i18n.Verbatim(err.Error())
}

func (s *Stop) Error() string { return fmt.Sprintf("Step %d: %s", s.Step+1, s.Reason) }

// Outcome is what came of one call on the guarded path.
type Outcome struct {
	OK   bool
	Kind string // when not OK: StopFailed, StopDenied or StopStopped
	Text string // why, in words
	// Says is Text for the user, in their language (zero: Text as it is).
	Says i18n.Text
	// Tab is the tab the call worked in, and Opened the tabs it opened (a link to a new tab,
	// tab_open): the steps after it find the run's tabs by them.
	Tab    int
	Opened []int
}

// Runner replays a workflow. It has no way of its own to act on a page: Call is the one guarded
// path (the gate, the cards, the asks, the audit), and Read reads the page the run works in,
// as resolving any call does, to find the step's elements.
type Runner struct {
	Workflow *Workflow
	Values   map[string]string
	// Read reads the page in tab tabID (0: the tab the run works in now), every frame.
	Read func(ctx context.Context, tabID int) (*tool.Snap, error)
	// Call makes step k's call with args; shown is args as a person may see and Skiff may store
	// them (secret values masked).
	Call func(ctx context.Context, k int, args, shown json.RawMessage) Outcome
	// Wait bounds how long a step waits for its page and its elements (FindWait when zero).
	Wait time.Duration
	// Skipped is told of an optional step the replay went on without, and why (its element
	// was not there); nil: it is not told.
	Skipped func(k int, why i18n.Text)
	// Aside makes a call of tool the replay makes on its own on the way to step k (a click
	// that turns a calendar to the month of the run's day), on the guarded path as Call, which
	// does not do the step; nil: the replay makes none, and stops where it would.
	Aside func(ctx context.Context, k int, tool string, args json.RawMessage) Outcome
	// Links reads the links of the page in tab tabID (0: the tab the run works in now) that
	// hold filter, as the links tool does; nil: a replay finds no result's address for
	// another value, and stops there.
	Links func(ctx context.Context, tabID int, filter string) ([]tool.Link, error)
}

// FindWait is how long a step waits for its element to appear (a page still loading after the
// step before, a list that fills in) before the replay stops.
var FindWait = 5 * time.Second

// OptionalWait is how long an optional step (Step.Optional: a cookie banner's button) waits for
// its element before the replay goes on without it: a banner shows as its page loads, and a
// page that remembers the answer shows none.
var OptionalWait = 2 * time.Second

// Masked is how a secret value is shown and stored.
const Masked = "••••••"

// Missing lists the parameters that have no value in values.
func (w *Workflow) Missing(values map[string]string) []string {
	var out []string
	for _, p := range w.Params {
		if _, ok := values[p.Name]; !ok {
			out = append(out, p.Name)
		}
	}
	return out
}

// Run replays the steps from step from (the ones before ran already) and returns nil when every
// step ran, or where and why it stopped.
func (r *Runner) Run(ctx context.Context, from int) *Stop {
	w := r.Workflow
	if miss := w.Missing(r.Values); len(miss) > 0 {
		return stopped(from, StopValues, sayNoValueFor.With(miss[0]))
	}
	shownValues := map[string]string{}
	for _, p := range w.Params {
		shownValues[p.Name] = r.Values[p.Name]
		if p.Secret {
			shownValues[p.Name] = Masked
		}
	}
	// The run's tabs by place (Step.Tab; 0: its id is not known yet), and the place of the
	// one a call that names no tab works in: a step in another tab names it, as the recorded
	// call did (or it switches there, as the recorded run did).
	tabs, cur := []int{0}, 0
	for k := from; k < len(w.Steps); k++ {
		if ctx.Err() != nil {
			return stopped(k, StopStopped, sayStoppedBefore.With())
		}
		s := w.Steps[k]
		args, err := Fill(s.Args, r.Values)
		if err != nil {
			return stopped(k, StopValues, saysErr(err))
		}
		shown, _ := Fill(s.Args, shownValues)
		tab := 0
		switch {
		case s.Tool == "tab_close" && len(s.Closes) > 0:
			// It names the tabs it closes (of this run: a place not known stops it).
			var ids []int
			for _, p := range s.Closes {
				if p >= len(tabs) || tabs[p] == 0 {
					return stopped(k, StopMoved, sayNoTab.With(p+1))
				}
				ids = append(ids, tabs[p])
			}
			args, shown = withArg(args, "tabIds", ids), withArg(shown, "tabIds", ids)
		case s.Tab != cur && s.Tool != "tab_open" && s.Tool != "tab_close":
			if s.Tab >= len(tabs) || tabs[s.Tab] == 0 {
				return stopped(k, StopMoved, sayNoTab.With(s.Tab+1))
			}
			tab = tabs[s.Tab]
			args, shown = withArg(args, "tabId", tab), withArg(shown, "tabId", tab)
		}
		if s.For != "" {
			// An address the recorded run found for its value (a result's own): for another,
			// the page's link of the same shape made for it, or none known.
			if was, now := w.recorded(s.For), r.Values[s.For]; !strings.EqualFold(strings.TrimSpace(was), strings.TrimSpace(now)) {
				u, ok := r.resultFor(ctx, args, was, now, tab)
				if !ok {
					return stopped(k, StopMoved, sayMadeFor.With(was, now))
				}
				args, shown = withArg(args, "url", u), withArg(shown, "url", u)
			}
		}
		if len(s.Targets) > 0 {
			refs, stop := r.place(ctx, k, s, tab)
			if stop != nil && s.Optional && stop.Kind == StopMissing {
				if r.Skipped != nil {
					r.Skipped(k, stop.Says)
				}
				continue
			}
			if stop != nil {
				return stop
			}
			args, shown = withRefs(args, refs), withRefs(shown, refs)
		}
		o := r.Call(ctx, k, args, shown)
		if o.OK {
			if s.Tab == 0 && tabs[0] == 0 {
				tabs[0] = o.Tab
			}
			for _, id := range o.Opened {
				if !slices.Contains(tabs, id) {
					tabs = append(tabs, id)
				}
			}
			switch {
			case s.Tool == "tab_open" || s.Tool == "tab_switch":
				cur = s.Tab
			case s.Tool == "tab_close" && slices.Contains(s.Closes, cur):
				cur = -1 // Chrome shows another: each step names its tab until one is chosen
			}
		}
		if !o.OK {
			kind := o.Kind
			if kind == "" {
				kind = StopFailed
			}
			says := o.Says
			if says.IsZero() {
				says = i18n.Verbatim(o.Text)
			}
			return &Stop{Step: k, Kind: kind, Reason: o.Text, Says: says}
		}
	}
	return nil
}

// resultFor is where a step that went to a result's own address (args' url, made for the
// recorded value was) goes for the run's value now: the first link of the page in tab tab that
// leads to an address of the same shape made for now, waiting for the page as a step waits for
// its element (the results of the search before may still be coming).
func (r *Runner) resultFor(ctx context.Context, args json.RawMessage, was, now string, tab int) (string, bool) {
	var in struct {
		URL string `json:"url"`
	}
	if r.Links == nil || json.Unmarshal(args, &in) != nil {
		return "", false
	}
	// The links of its kind: the address holds the value's words, or (an id) the link's name.
	prefix, named := resultShape(in.URL, was)
	if !named {
		prefix = now
	}
	deadline := time.Now().Add(cmp.Or(r.Wait, FindWait))
	for {
		links, _ := r.Links(ctx, tab, prefix) // a page not read yet: read again, as below
		for _, l := range links {
			if u, ok := sameResult(in.URL, was, l.Href, now); ok && named {
				return u, true
			}
			if !named && holdsWords(l.Text, now) && onePartAway(in.URL, l.Href) {
				return l.Href, true
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return "", false
		}
		select {
		case <-ctx.Done():
		case <-time.After(150 * time.Millisecond):
		}
	}
}

// resultShape is the start of addresses like raw, a result's own made for was, up to the part
// made for it (which holds was's words): every address of its kind begins so. false when no
// part of raw holds them.
func resultShape(raw, was string) (string, bool) {
	u, ok := weburl.Split(raw)
	if !ok {
		return "", false
	}
	path, query := pathQuery(u)
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if v, ok := weburl.Unescape(seg, false); ok && holdsWords(v, was) {
			return u.Scheme + "://" + u.Host + strings.Join(segs[:i], "/") + "/", true
		}
	}
	for _, part := range strings.Split(query, "&") {
		_, val, _ := strings.Cut(part, "=")
		if v, ok := weburl.Unescape(val, true); ok && holdsWords(v, was) {
			return u.Scheme + "://" + u.Host + path + "?", true
		}
	}
	return "", false
}

// sameResult is the address href leads to when it is one like raw (a result's own made for
// was) made for now: the same site, and the same path and query but for the part made for the
// value, which holds now's words. A link to the result itself, where raw went on to a page of
// its own (raw …/r/luigis-trattoria/book, the link …/r/chez-ana-bistro?ref=list), goes on so
// too, with raw's query.
func sameResult(raw, was, href, now string) (string, bool) {
	a, b, ok := oneSite(raw, href)
	if !ok {
		return "", false
	}
	ap, aq := pathQuery(a)
	bp, bq := pathQuery(b)
	as, bs := strings.Split(ap, "/"), strings.Split(bp, "/")
	for i, seg := range as {
		if v, ok := weburl.Unescape(seg, false); !ok || !holdsWords(v, was) {
			continue
		}
		// The part made for the value: the link's holds the run's, and the rest is the same.
		if len(bs) <= i || !slices.Equal(as[:i], bs[:i]) {
			return "", false
		}
		if v, ok := weburl.Unescape(bs[i], false); !ok || !holdsWords(v, now) {
			return "", false
		}
		switch {
		case slices.Equal(as[i+1:], bs[i+1:]):
			return href, true
		case len(bs) == i+1:
			return b.Scheme + "://" + b.Host + strings.Join(append(bs, as[i+1:]...), "/") + queryOf(aq), true
		}
		return "", false
	}
	if ap != bp {
		return "", false
	}
	for _, part := range strings.Split(aq, "&") {
		k, val, _ := strings.Cut(part, "=")
		if v, ok := weburl.Unescape(val, true); !ok || !holdsWords(v, was) {
			continue
		}
		for _, other := range strings.Split(bq, "&") {
			if bk, bv, _ := strings.Cut(other, "="); bk == k {
				v, ok := weburl.Unescape(bv, true)
				return href, ok && holdsWords(v, now)
			}
		}
		return "", false
	}
	return "", false
}

// onePartAway says whether href is an address like raw but for one part: the same site, and the
// same path but for one segment (…/r/8812, …/r/9921), or the same path and query but for one
// value (…?id=8812, …?id=9921).
func onePartAway(raw, href string) bool {
	a, b, ok := oneSite(raw, href)
	if !ok {
		return false
	}
	ap, aq := pathQuery(a)
	bp, bq := pathQuery(b)
	differ := func(x, y []string) int {
		if len(x) != len(y) {
			return -1
		}
		n := 0
		for i := range x {
			if x[i] != y[i] {
				n++
			}
		}
		return n
	}
	if ap != bp {
		return differ(strings.Split(ap, "/"), strings.Split(bp, "/")) == 1
	}
	xs, ys := strings.Split(aq, "&"), strings.Split(bq, "&")
	sort.Strings(xs)
	sort.Strings(ys)
	if differ(xs, ys) != 1 {
		return false
	}
	keys := func(parts []string) []string {
		var out []string
		for _, p := range parts {
			k, _, _ := strings.Cut(p, "=")
			out = append(out, k)
		}
		return out
	}
	return slices.Equal(keys(xs), keys(ys)) // the same keys, one value other
}

// oneSite is raw and href cut into their parts, when both are addresses on one site.
func oneSite(raw, href string) (a, b weburl.Parts, ok bool) {
	a, ok = weburl.Split(raw)
	b, ok2 := weburl.Split(href)
	return a, b, ok && ok2 && a.Scheme == b.Scheme && strings.EqualFold(a.Host, b.Host)
}

// pathQuery is the path and the query of an address's rest (its fragment left out).
func pathQuery(p weburl.Parts) (path, query string) {
	rest, _, _ := strings.Cut(p.Rest, "#")
	path, query, _ = strings.Cut(rest, "?")
	return path, query
}

// queryOf is query as an address ends with it: "?" and it, or nothing.
func queryOf(query string) string {
	if query == "" {
		return ""
	}
	return "?" + query
}

// recorded is parameter name's recorded value ("" for a secret, or none).
func (w *Workflow) recorded(name string) string {
	for _, p := range w.Params {
		if p.Name == name {
			return p.Default
		}
	}
	return ""
}

// withArg is args with k set to v (the tab a step works in, the tabs it closes).
func withArg(args json.RawMessage, k string, v any) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil || m == nil {
		return args
	}
	m[k] = v
	out, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return out
}

// place finds step k's elements on the page in tab tabID (0: the run's current tab), waiting
// a moment for a page that is still coming.
func (r *Runner) place(ctx context.Context, k int, s Step, tabID int) ([]string, *Stop) {
	wait := r.Wait
	if wait <= 0 {
		wait = FindWait
		if s.Optional {
			wait = OptionalWait
		}
	}
	deadline := time.Now().Add(wait)
	turned := 0
	for {
		refs, why, kind, turn := r.try(ctx, s, tabID)
		if why == nil {
			return refs, nil
		}
		if ctx.Err() != nil {
			return nil, stopped(k, StopStopped, sayStoppedBefore.With())
		}
		if turn.ref != "" && r.Aside != nil && turned < MaxTurns {
			// A calendar that shows another month than the run's day's: turn it (or choose the
			// month in its list), look again.
			turned++
			in := map[string]any{"ref": turn.ref}
			if turn.tool == "select_option" {
				in["values"] = turn.values
			}
			args, _ := json.Marshal(in)
			if tabID != 0 {
				args = withArg(args, "tabId", tabID)
			}
			if o := r.Aside(ctx, k, turn.tool, args); !o.OK {
				says := o.Says
				if says.IsZero() {
					says = i18n.Verbatim(o.Text)
				}
				return nil, &Stop{Step: k, Kind: cmp.Or(o.Kind, StopFailed), Reason: o.Text, Says: says}
			}
			deadline = time.Now().Add(wait)
			continue
		}
		if time.Now().After(deadline) {
			if refs != nil {
				// Still disabled: the step's call says why (the fields its form still
				// wants, the words the page gives).
				return refs, nil
			}
			return nil, &Stop{Step: k, Kind: kind, Reason: why.Error(), Says: saysErr(why)}
		}
		select {
		case <-ctx.Done():
		case <-time.After(150 * time.Millisecond):
		}
	}
}

// try reads the page once and finds the step's elements on it, or says why it cannot.
// turn, when it cannot, is the control to click first (Miss.turn). Elements found that the
// page keeps disabled are refs with a why: found, not ready.
func (r *Runner) try(ctx context.Context, s Step, tabID int) (refs []string, why error, kind string, turn aside) {
	rctx, cancel := context.WithTimeout(ctx, tool.PageTimeout)
	snap, err := r.Read(rctx, tabID)
	cancel()
	if err != nil {
		return nil, sayUnreadable.Error(err), StopMoved, aside{}
	}
	now := site(snap.URL)
	if s.Origin != "" && now != s.Origin {
		return nil, r.signIn(snap, sayElsewhere.With(s.Origin, now)), StopMoved, aside{}
	}
	m := NewMatcher(snap, now)
	if r.Links != nil {
		m.Links = func(href string) map[string]string {
			lctx, cancel := context.WithTimeout(ctx, tool.PageTimeout)
			defer cancel()
			links, _ := r.Links(lctx, tabID, href) // unread: the namesakes are told apart as before
			out := map[string]string{}
			for _, l := range links {
				out[l.Ref] = l.Href
			}
			return out
		}
	}
	for _, t := range s.Targets {
		if t.Param != "" {
			t.value = r.Values[t.Param]
			if i := r.Workflow.find(t.Param); i >= 0 {
				t.chosen = norm(r.Workflow.Params[i].Default) == norm(t.Name)
			}
		}
		ref, err := m.Match(t)
		if err != nil {
			var miss *Miss
			if errors.As(err, &miss) {
				return nil, r.signIn(snap, miss.Says), StopMissing, miss.turn
			}
			return nil, err, StopMissing, aside{}
		}
		// A control the page has not enabled yet (a Send enabled once the form checks, a
		// Resend after a count) is waited for, as a person waits: the step's call would fail.
		if usesEnabled[s.Tool] && m.Disabled(ref) && why == nil {
			why, kind = sayStillDisabled.Error(t.Says()), StopMissing
		}
		refs = append(refs, ref)
	}
	return refs, why, kind, aside{}
}

// usesEnabled are the tools whose elements must be enabled to take the call.
var usesEnabled = map[string]bool{"click": true, "type": true, "fill_form": true, "select_option": true, "drag": true}

// signIn is why as the replay's stop says it: with what to do when the page asks to sign in
// (a session that ended sends a page to its sign-in form) and the workflow signs in nowhere
// itself (it types no password).
func (r *Runner) signIn(snap *tool.Snap, why i18n.Text) error {
	for _, p := range r.Workflow.Params {
		if p.Secret {
			return &i18n.Error{Text: why}
		}
	}
	if asksSignIn(snap.Tree) {
		why = sayAsksSignIn.With(why)
	}
	return &i18n.Error{Text: why}
}

// signInWords are what a sign-in form's heading or button says, in the languages sites most
// often use, each between |.
const signInWords = "|sign in|log in|login|sign in to continue|se connecter|connexion|anmelden|einloggen|" +
	"iniciar sesión|accedi|"

func saysSignIn(name string) bool {
	return name != "" && !strings.Contains(name, "|") && strings.Contains(signInWords, "|"+name+"|")
}

// asksSignIn says whether a page asks to sign in: it shows a password field, or a heading or a
// button that says so.
func asksSignIn(items []tool.Item) bool {
	for _, it := range items {
		n := it.Node
		if n == nil {
			continue
		}
		if n.Password == 1 || (n.Role == "heading" || n.Role == "button") && saysSignIn(norm(n.Name)) {
			return true
		}
		if asksSignIn(n.Kids) {
			return true
		}
	}
	return false
}

// Why a replay stopped, for the user (their French is in ui/_locales).
var (
	sayNoValueFor    = i18n.Sentence{Key: "wfStopNoValue", English: "no value was given for $1"}
	sayStoppedBefore = i18n.Sentence{Key: "wfStopStopped", English: "the run was stopped before this step"}
	sayUnreadable    = i18n.Sentence{Key: "wfStopUnreadable", English: "the page could not be read: $1"}
	sayElsewhere     = i18n.Sentence{Key: "wfStopElsewhere", English: "it was recorded on $1, and the tab shows $2"}
	sayMadeFor       = i18n.Sentence{Key: "wfStopMadeFor", English: "the recorded run went to an address it found for “$1”; the page links to none like it for “$2”"}
	sayNoTab         = i18n.Sentence{Key: "wfStopNoTab", English: "it was recorded in the run's tab $1, which no step opened this time"}
	sayAsksSignIn    = i18n.Sentence{Key: "wfStopSignIn", English: "$1; the page asks to sign in: sign in in this browser, then run the workflow again"}
	sayNoTarget      = i18n.Sentence{Key: "wfStopNoTarget", English: "the page has no $1"}
	sayStillDisabled = i18n.Sentence{Key: "wfStopDisabled", English: "$1 is still disabled on the page"}
	sayNoTargetFrame = i18n.Sentence{Key: "wfStopNoTargetFrame", English: "the page has no $1 in its frame from $2"}
	sayItHas         = i18n.Sentence{Key: "wfStopItHas", English: "$1; it has $2"}
)

// withRefs puts the refs found on the page where the recorder left their places ("@1" is the
// first target's).
func withRefs(args json.RawMessage, list []string) json.RawMessage {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return args
	}
	v = refs(v, func(at string) (string, bool) {
		if n, err := strconv.Atoi(strings.TrimPrefix(at, "@")); err == nil && n >= 1 && n <= len(list) {
			return list[n-1], true
		}
		return at, true
	})
	out, err := json.Marshal(v)
	if err != nil {
		return args
	}
	return out
}

// WithDefaults is values with the recorded default of each parameter that was not given (a
// secret has none), or an error naming a value given for no parameter.
func (w *Workflow) WithDefaults(values map[string]string) (map[string]string, error) {
	out := map[string]string{}
	known := map[string]bool{}
	for _, p := range w.Params {
		known[p.Name] = true
		if v, ok := values[p.Name]; ok {
			out[p.Name] = v
		} else if !p.Secret && p.Counted() != "" {
			out[p.Name] = p.Counted()
		}
	}
	for k := range values {
		if !known[k] {
			names := make([]string, 0, len(w.Params))
			for _, p := range w.Params {
				names = append(names, p.Name)
			}
			if len(names) == 0 {
				return nil, sayTakesNoValues.Error(w.Name, k)
			}
			return nil, sayNoSuchParam.Error(w.Name, k, strings.Join(names, ", "))
		}
	}
	return out, nil
}
