package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Page-side code: skiff.js for everything, plus Readability and Turndown for the readable text.
var (
	pageFiles     = []string{"page/skiff.js"}
	readableFiles = []string{"page/skiff.js", "page/vendor/readability.js", "page/vendor/turndown.js", "page/vendor/turndown-gfm.js", "page/extract.js"}
)

// DialogError says a page is stuck in a JavaScript dialog: nothing runs there until it is
// answered.
type DialogError struct{ Dialog Dialog }

func (e *DialogError) Error() string {
	d := e.Dialog
	msg := fmt.Sprintf("the page is showing %s %s dialog", an(d.Type), d.Type)
	if d.Message != "" {
		msg += fmt.Sprintf(" that says %q", clip(d.Message, 300))
	}
	if d.Answerable {
		return msg + "; nothing else works on this page until it is answered: use the dialog tool to accept or dismiss it"
	}
	return msg + "; it opened before Skiff took control of the tab, so only the user can answer it (or navigate or reload the tab, which closes it)"
}

// Article is the article for a word: "an alert", "a confirm".
func Article(word string) string { return an(word) }

func an(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// pageError is what page-side code reports: a failure in words, and whether trying again may
// help (the element may become visible, enabled, uncovered).
type pageError struct {
	Error string `json:"error"`
	Retry int    `json:"retry"`
	// Lasting: what stands in the way waits for an answer (a dialog, a cookie banner): it is
	// waited on only for CoverWait, not ActionWait.
	Lasting int `json:"lasting"`
	// Calm: how still the page is, for what a still page does not change by itself (skiff.js
	// calm).
	Calm *calm `json:"calm"`
	// Held: what covers it is a picker the focused field keeps open, which holds what was
	// typed (a date's calendar): Tab leaves the field and closes it.
	Held int `json:"held"`
	// MovedTo: the call was bound to the site it was approved for, and the tab's top document
	// is now on this one (ext/sw.js); nothing ran.
	MovedTo string `json:"movedTo"`
}

// maxPageError bounds what is read as a pageError: a failure is a short object, and probing a
// large answer (a snapshot of hundreds of KB) would scan it a second time for nothing.
const maxPageError = 4096

// movedOn is the failure of a call approved for one site whose tab is now on another, now.
func movedOn(now string) error {
	return failf("the tab has moved on to %s since this call was approved; nothing was read or done there. Call again for the page it shows now", now)
}

// dialogGrace is how long a page may keep answering after reporting a dialog: a report the
// page itself faked (it can) does not stop a tool that still gets answers.
const dialogGrace = 600 * time.Millisecond

// call runs skiffPage[name](args) in one frame of a tab and decodes its result into out. It
// gives up after the env's timeout, and early when the page is stuck in a dialog.
func (e *Env) call(ctx context.Context, tabID, frameID int, files []string, name string, args, out any) error {
	ctx, cancel := context.WithTimeout(ctx, e.timeout())
	defer cancel()
	for try := 1; ; try++ {
		err := e.callNoTimeout(ctx, tabID, frameID, files, name, args, out)
		// The tab's document was being replaced as it was asked (a navigation committing, a
		// PDF's viewer taking the tab on a busy machine): the new one answers a moment later.
		if frameID != 0 || !errors.Is(err, ErrNoFrame) || try == topReplacedTries {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(topReplacedWait):
		}
	}
}

// topReplacedTries and topReplacedWait bound the asks of a tab whose document was replaced.
const (
	topReplacedTries = 3
	topReplacedWait  = 250 * time.Millisecond
)

func (e *Env) callNoTimeout(ctx context.Context, tabID, frameID int, files []string, name string, args, out any) error {
	type answer struct {
		res []FrameResult
		err error
	}
	ch := make(chan answer, 1)
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		s := Script{TabID: tabID, Frames: []int{frameID}, Files: files, Call: name, Args: args}
		if p, ok := ctx.Value(pinKey{}).(pin); ok && p.tabID == tabID {
			s.Origin = p.origin
		}
		res, err := e.Browser.Script(sctx, s)
		ch <- answer{res, err}
	}()
	tick := time.NewTicker(150 * time.Millisecond)
	defer tick.Stop()
	var since time.Time
	for {
		select {
		case a := <-ch:
			if a.err != nil {
				return a.err
			}
			if len(a.res) == 0 {
				return failf("the frame is gone (the page navigated away)")
			}
			return decodePage(a.res[0].Result, out, frameID)
		case <-tick.C:
			if d, ok := e.Browser.Dialog(tabID); ok {
				if since.IsZero() {
					since = time.Now()
				} else if time.Since(since) > dialogGrace {
					return &DialogError{Dialog: d}
				}
			} else {
				since = time.Time{}
			}
		case <-ctx.Done():
			if d, ok := e.Browser.Dialog(tabID); ok {
				return &DialogError{Dialog: d}
			}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return failf("the page did not answer within %s (it may be busy, or stuck in a dialog Skiff cannot see)", e.timeout().Round(time.Second))
			}
			return ctx.Err()
		}
	}
}

// decodePage reads what the page code in frame answered into out, or the failure it says. The
// refs a failure names ("behind dialog “Cookies” [e5]") are the frame's own: they are made
// global, so that one in a frame is not taken for the top page's element of that name.
func decodePage(raw json.RawMessage, out any, frame int) error {
	if len(raw) <= maxPageError {
		var pe pageError
		if json.Unmarshal(raw, &pe) == nil {
			if pe.MovedTo != "" {
				return movedOn(pe.MovedTo)
			}
			if pe.Error != "" {
				msg := pe.Error
				if frame != 0 {
					msg = globalRefs(msg, frame)
				}
				return &retryable{err: &Error{Msg: msg}, again: pe.Retry == 1, lasting: pe.Lasting == 1, calm: pe.Calm, held: pe.Held == 1}
			}
		}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("tool: page answer %.200s: %w", raw, err)
	}
	return nil
}

// globalRefs makes the refs the page code of frame wrote in a sentence ("[e5]") global.
// (Written out: core.wasm leaves regexp out.)
func globalRefs(msg string, frame int) string {
	var b strings.Builder
	for {
		i := strings.Index(msg, "[e")
		if i < 0 {
			break
		}
		j := i + 2
		for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
			j++
		}
		if j == i+2 || j >= len(msg) || msg[j] != ']' {
			b.WriteString(msg[:i+2])
			msg = msg[i+2:]
			continue
		}
		b.WriteString(msg[:i+1] + frameRef(frame, msg[i+1:j]) + "]")
		msg = msg[j+1:]
	}
	b.WriteString(msg)
	return b.String()
}

// retryable is a page failure that may pass if tried again (Playwright's actionability).
type retryable struct {
	err     *Error
	again   bool
	lasting bool
	calm    *calm
	held    bool // covered by a picker the focused field keeps open (pageError.Held)
}

// calm is what the page says of its stillness along with a failure that a still page will not
// change by itself (a disabled control, a box laid over one, an element hidden): N counts the changes to its
// document since it was first asked, Busy says it still loads, animates or shows it is at work.
type calm struct {
	N    int `json:"n"`
	Busy int `json:"busy"`
}

func (r *retryable) Error() string { return r.err.Msg }
func (r *retryable) Unwrap() error { return r.err }

// parseRef splits a snapshot ref into its frame and the ref inside that frame: "e12" is in the
// top frame, "f3e12" in frame 3.
func parseRef(ref string) (frame int, local string, err error) {
	ref = strings.TrimSpace(strings.Trim(ref, "[]"))
	ref = strings.TrimPrefix(ref, "ref=")
	if strings.HasPrefix(ref, "e") {
		if _, err := strconv.Atoi(ref[1:]); err == nil {
			return 0, ref, nil
		}
	}
	if strings.HasPrefix(ref, "f") {
		if i := strings.IndexByte(ref, 'e'); i > 1 {
			f, err1 := strconv.Atoi(ref[1:i])
			_, err2 := strconv.Atoi(ref[i+1:])
			if err1 == nil && err2 == nil {
				return f, ref[i:], nil
			}
		}
	}
	return 0, "", failf("%q is not a ref; refs look like e12 or f3e7 and come from the snapshot", ref)
}

// Target says which element an action is for.
type Target struct {
	Ref      string `json:"ref,omitempty" jsonschema_description:"The element's ref from the latest snapshot, such as e12 (or f3e7 inside a frame). Preferred over a selector."`
	Selector string `json:"selector,omitempty" jsonschema_description:"A CSS selector for the element, when there is no ref (the first match, shadow DOM included)."`
}

// pageTarget is a Target as the page-side code takes it.
type pageTarget struct {
	Ref      string   `json:"ref,omitempty"`
	Expect   string   `json:"expect,omitempty"` // for a point: the element that must be there
	Selector string   `json:"selector,omitempty"`
	X        *float64 `json:"x,omitempty"`
	Y        *float64 `json:"y,omitempty"`
}

// where resolves a Target to a frame and the page-side target.
func where(t Target) (int, pageTarget, error) {
	if t.Ref != "" {
		f, local, err := parseRef(t.Ref)
		return f, pageTarget{Ref: local}, err
	}
	if strings.TrimSpace(t.Selector) != "" {
		return 0, pageTarget{Selector: t.Selector}, nil
	}
	return 0, pageTarget{}, failf("say which element: give its ref from the snapshot (or a CSS selector)")
}

// settle waits for a tab to finish loading the page it went to at since or later (the tab's
// status complete, or that page's own load) and then for its page to stop changing for a
// moment. It returns the tab as it is then, and whether it is still loading.
func (e *Env) settle(ctx context.Context, tabID int, since time.Time, max time.Duration) (Tab, bool, error) {
	deadline := time.Now().Add(max)
	var t Tab
	var err error
	var asked time.Time
	for {
		if t, err = e.Browser.Tab(ctx, tabID); err != nil {
			return t, false, err
		}
		if d, ok := e.Browser.Dialog(tabID); ok {
			return t, false, &DialogError{Dialog: d}
		}
		if t.Status == "complete" {
			break
		}
		// Chrome's tab status counts every frame: an ad or a map frame the page adds as it
		// loads keeps the tab "loading" for as long as its server takes, while the page is
		// there to use. Once the page the tab went to has come (its main frame committed since),
		// the page itself says whether it has loaded, now and then.
		if t.Pending == "" && Scriptable(t.URL) && time.Since(asked) >= 250*time.Millisecond && e.Browser.CommittedSince(tabID, since) {
			asked = time.Now()
			if e.ownLoad(ctx, tabID, t.URL) {
				break
			}
		}
		if time.Now().After(deadline) {
			return t, true, nil
		}
		select {
		case <-ctx.Done():
			return t, false, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	if !Scriptable(t.URL) {
		return t, false, nil
	}
	left := time.Until(deadline)
	if left > 1500*time.Millisecond {
		left = 1500 * time.Millisecond
	}
	var page struct {
		ReadyState string `json:"readyState"`
	}
	if left > 200*time.Millisecond {
		sctx, cancel := context.WithTimeout(ctx, left+time.Second)
		defer cancel()
		err := e.callNoTimeout(sctx, tabID, 0, pageFiles, "settle", map[string]int{"quiet": 100, "max": int(left / time.Millisecond)}, &page)
		var de *DialogError
		if errors.As(err, &de) {
			return t, false, err
		}
		if errors.Is(err, ErrErrorPage) {
			return t, false, failf("Chrome could not load %s and shows its error page %s", t.URL, e.whyNotLoaded(ctx, tabID, t.URL))
		}
	}
	t2, err := e.Browser.Tab(ctx, tabID)
	if err != nil {
		return t, false, err
	}
	// A frame added after the page's own load (a PDF viewer, a map, an ad) puts the tab back to
	// "loading": the page is loaded when its own document said so and the tab is going
	// nowhere else.
	own := page.ReadyState == "complete" && t2.URL == t.URL && t2.Pending == ""
	return t2, t2.Status != "complete" && !own, nil
}

// Arrived waits, up to max, for the page tab tabID is loading to be there to read, and returns
// the tab as it is then: its status complete, or, with no navigation of its main frame on its
// way, the page's own load (frames it added, an ad's or a map's, may load on for as long as their
// servers take), or a dialog the page opened, which holds its load until it is answered.
func (e *Env) Arrived(ctx context.Context, tabID int, max time.Duration) (Tab, error) {
	deadline := time.Now().Add(max)
	a, _ := e.Browser.(Arriver)
	// The first look at the page's own load comes 100 ms in (Chrome's word that a link clicked
	// a moment ago set out may still be on its way to the core), then every 250 ms.
	look := time.Now().Add(100 * time.Millisecond)
	for {
		t, err := e.Browser.Tab(ctx, tabID)
		if err != nil || t.Status != "loading" && t.Pending == "" || !time.Now().Before(deadline) {
			return t, err
		}
		if _, open := e.Browser.Dialog(tabID); open && t.Pending == "" {
			return t, nil // its load goes no further until someone answers the page's dialog
		}
		if t.Pending == "" && (a == nil || !a.Arriving(tabID)) && Scriptable(t.URL) && !time.Now().Before(look) {
			look = time.Now().Add(250 * time.Millisecond)
			if e.ownLoad(ctx, tabID, t.URL) {
				return t, nil
			}
		}
		select {
		case <-ctx.Done():
			return t, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ownLoad says whether the page in tab tabID, at url, has loaded: its document's load event
// has come (frames it added since may still load).
func (e *Env) ownLoad(ctx context.Context, tabID int, url string) bool {
	var r struct {
		URL        string `json:"url"`
		ReadyState string `json:"readyState"`
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return e.callNoTimeout(ctx, tabID, 0, pageFiles, "info", nil, &r) == nil && r.ReadyState == "complete" && r.URL == url
}

// stillLoading says where a tab that has not finished loading after waited is: a page that
// has not answered yet leaves the tab on the page it was on.
func stillLoading(t Tab, waited time.Duration) string {
	if t.Pending != "" {
		return fmt.Sprintf("it is going to %s, which has not answered after %s; the tab still shows %s until it does", t.Pending, waited, t.URL)
	}
	return fmt.Sprintf("the page is still loading %s after %s", t.URL, waited)
}

// couldNotLoad is why a tab shows Chrome's error page, and what the model can do, when Chrome's
// own reason is not known.
const couldNotLoad = "(the site may be down or out of reach, or the address wrong); try it again later, go back, or go elsewhere"

// NetErrorer tells why a tab's page did not load, as Chrome said it: "net::ERR_NAME_NOT_RESOLVED",
// or "" when it does not know.
type NetErrorer interface {
	NetError(tabID int, url string) string
}

// NetErrorOf is why tab tabID's page at url did not load, as Chrome said it
// ("net::ERR_NAME_NOT_RESOLVED"), or "" when b does not know. Chrome says why as the load
// fails, before it shows its error page; on a busy machine what it said may reach Skiff a
// moment after the page is seen: it is waited for, up to 400 ms.
func NetErrorOf(ctx context.Context, b Browser, tabID int, url string) string {
	n, ok := b.(NetErrorer)
	if !ok {
		return ""
	}
	code := n.NetError(tabID, url)
	for wait := 0; code == "" && wait < 8 && ctx.Err() == nil; wait++ {
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
		code = n.NetError(tabID, url)
	}
	return code
}

// whyNotLoaded says why the tab's page at url shows Chrome's error page, in words a model acts
// on, with Chrome's reason ("(net::ERR_NAME_NOT_RESOLVED)") when the browser saw it.
func (e *Env) whyNotLoaded(ctx context.Context, tabID int, url string) string {
	code := NetErrorOf(ctx, e.Browser, tabID, url)
	if code == "" {
		return couldNotLoad
	}
	why := ""
	switch c := strings.TrimPrefix(code, "net::"); {
	case c == "ERR_NAME_NOT_RESOLVED":
		why = "its host name does not exist: check the address for a mistake, or search for the site"
	case c == "ERR_CONNECTION_REFUSED", c == "ERR_ADDRESS_UNREACHABLE", c == "ERR_CONNECTION_RESET", c == "ERR_EMPTY_RESPONSE", c == "ERR_CONNECTION_CLOSED":
		why = "nothing answered at that address, or it hung up: the site is down or not served there; try it again later, or go elsewhere"
	case c == "ERR_CONNECTION_TIMED_OUT", c == "ERR_TIMED_OUT":
		why = "the site did not answer in time; try it again later, or go elsewhere"
	case c == "ERR_INTERNET_DISCONNECTED", c == "ERR_NETWORK_CHANGED", c == "ERR_PROXY_CONNECTION_FAILED":
		why = "this computer is not connected to the internet (or its connection changed); tell the user"
	case strings.HasPrefix(c, "ERR_CERT_"), strings.HasPrefix(c, "ERR_SSL_"):
		why = "a secure connection to the site could not be made (its certificate or encryption is not valid); do not try to get around it: tell the user"
	case c == "ERR_TOO_MANY_REDIRECTS":
		why = "the site sends the browser round in circles; clearing its cookies may help: tell the user"
	case strings.HasPrefix(c, "ERR_BLOCKED_BY_"):
		why = "something on this computer blocked it (an extension, the user's administrator, or the site's own rules)"
	case c == "ERR_INVALID_AUTH_CREDENTIALS", c == "ERR_UNEXPECTED_PROXY_AUTH":
		why = "the site asks for a name and password in the browser's own dialog, which only the user can answer"
	case c == "ERR_UNSAFE_PORT":
		why = "Chrome does not open pages on that port (it belongs to another kind of service)"
	case c == "ERR_FILE_NOT_FOUND":
		why = "there is no such file"
	default:
		why = "the site may be down or out of reach, or the address wrong; try it again later, go back, or go elsewhere"
	}
	return "(" + code + "): " + why
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
