package tool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/weburl"
)

func tabsList(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*TabsListInput)
	w := 0
	if in.CurrentWindow {
		if t, err := e.tab(ctx, 0); err == nil {
			w = t.WindowID
		}
	}
	all, err := e.Browser.Tabs(ctx, w)
	if err != nil {
		return nil, err
	}
	ts := all[:0]
	for _, t := range all {
		if !t.Incognito || e.Incognito {
			ts = append(ts, t)
		}
	}
	cur := e.TabID()
	var b strings.Builder
	for _, t := range ts {
		mark := ""
		if t.ID == cur {
			mark = " (current)"
		}
		if t.Active {
			mark += " (active in its window)"
		}
		group := ""
		if t.GroupID >= 0 {
			group = fmt.Sprintf(" group=%d", t.GroupID)
		}
		fmt.Fprintf(&b, "- tab %d%s%s: %q %s\n", t.ID, mark, group, oneLine(t.Title), t.URL)
	}
	if b.Len() == 0 {
		b.WriteString("No tabs are open.\n")
	}
	return (&Result{Text: b.String(), Untrusted: true}).Summed(sumTabs.With(len(ts))), nil
}

// checkURL accepts the URLs a tool may load: http(s), and about:blank.
func checkURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "about:blank" {
		return raw, nil
	}
	if !strings.Contains(raw, "://") && !strings.ContainsAny(raw, " \t") {
		// An address written without its scheme, as people type it: a site over https, as
		// Chrome's address bar does; a server on this computer or the local network
		// (localhost:3000, 127.0.0.1:8080, a router's 192.168.1.1) over http, which is how
		// such servers answer.
		host, _, _ := strings.Cut(raw, "/")
		host = strings.ToLower(weburl.HostName(host))
		switch {
		case host == "localhost" || strings.HasSuffix(host, ".localhost") || weburl.IPHost(host):
			raw = "http://" + raw
		case strings.Contains(host, "."):
			raw = "https://" + raw
		}
	}
	if _, ok := weburl.Web(raw); !ok {
		return "", failf("%q is not a web address Skiff can open; give a full http:// or https:// URL", raw)
	}
	return raw, nil
}

func tabOpen(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*TabOpenInput)
	u, err := checkURL(in.URL)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	w := e.windowID
	e.mu.Unlock()
	began := time.Now()
	t, err := e.Browser.OpenTab(ctx, u, !in.Background, w)
	if err != nil {
		return nil, err
	}
	e.SetTab(t.ID)
	e.touch(t.ID)
	e.opens(t.ID)
	return loaded(ctx, e, t.ID, began, "Opened tab %d", t.ID)
}

// loaded waits for a tab's page to settle and says where it is.
// LoadingWait is how long a page that shows it is still loading its content (a spinner, a
// region marked busy) is waited on after its load.
var LoadingWait = 3 * time.Second

// showsLoading waits, up to max, while the page in the tab shows that it is still loading
// what it will show (skiff.js loadingNow), and says so when it still does then ("" when it
// does not, or cannot be asked).
func (e *Env) showsLoading(ctx context.Context, tabID int, max time.Duration) string {
	start := time.Now()
	for {
		var b struct {
			Busy string `json:"busy"`
		}
		if e.call(ctx, tabID, 0, pageFiles, "loadingNow", nil, &b) != nil || b.Busy == "" {
			return ""
		}
		if time.Since(start) >= max {
			return fmt.Sprintf(" It was still loading after %s (%s); take a snapshot to see what it shows so far, or wait_for what you expect.", max.Round(100*time.Millisecond), b.Busy)
		}
		select {
		case <-ctx.Done():
			return ""
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// contentLoaded is for a page that has loaded (t, in tab tabID): it waits while the page shows
// it is still loading its content (showsLoading), then reads the tab again, since a title may
// come with the content. It returns the tab as last read, and the sentence that says the page
// was still loading ("" when it was not, or the page cannot be asked).
func (e *Env) contentLoaded(ctx context.Context, tabID int, t Tab) (Tab, string) {
	if !Scriptable(t.URL) {
		return t, ""
	}
	still := e.showsLoading(ctx, tabID, LoadingWait)
	if still == "" {
		if now, err := e.Browser.Tab(ctx, tabID); err == nil {
			t = now
		}
	}
	return t, still
}

func loaded(ctx context.Context, e *Env, tabID int, since time.Time, format string, args ...any) (*Result, error) {
	t, loading, err := e.settle(ctx, tabID, since, 15*time.Second)
	if err != nil {
		return nil, err
	}
	msg := fmt.Sprintf(format, args...)
	still := ""
	if !loading {
		t, still = e.contentLoaded(ctx, tabID, t)
	}
	text := fmt.Sprintf("%s: %q at %s.", msg, oneLine(t.Title), t.URL) + still
	if loading {
		text = fmt.Sprintf("%s: %s; take a snapshot to see what is there, or wait_for.", msg, stillLoading(t, 15*time.Second))
	}
	if !Scriptable(t.URL) && t.URL != "about:blank" && t.URL != "" {
		text += " Chrome does not let extensions read or act on this page."
	}
	return &Result{Text: text, Summary: t.URL, URL: t.URL, Untrusted: true}, nil
}

func tabSwitch(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*TabInput)
	if in.TabID <= 0 {
		return nil, failf("say which tab: its id from tabs_list")
	}
	if err := e.mine(ctx, in.TabID); err != nil {
		return nil, err
	}
	if err := e.Browser.ActivateTab(ctx, in.TabID); err != nil {
		return nil, err
	}
	e.fronted(in.TabID)
	e.SetTab(in.TabID)
	e.touch(in.TabID)
	t, err := e.Browser.Tab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	return &Result{Text: fmt.Sprintf("Tab %d is now the current tab: %q at %s.", t.ID, oneLine(t.Title), t.URL), Summary: t.URL, URL: t.URL, Untrusted: true}, nil
}

func tabClose(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*TabCloseInput)
	ids := in.TabIDs
	if len(ids) == 0 {
		t, err := e.tab(ctx, 0)
		if err != nil {
			return nil, err
		}
		ids = []int{t.ID}
	}
	if err := e.mine(ctx, ids...); err != nil {
		return nil, err
	}
	for _, id := range ids {
		e.Browser.Release(ctx, id)
	}
	if err := e.Browser.CloseTabs(ctx, ids); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if id == e.TabID() {
			e.SetTab(0) // the next tool works in the active tab
		}
	}
	return &Result{Text: fmt.Sprintf("Closed %s.", plural(len(ids), "tab")), Summary: fmt.Sprint(ids)}, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "ch") || strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func tabGroup(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*TabGroupInput)
	if len(in.TabIDs) == 0 {
		return nil, failf("say which tabs to group: tabIds from tabs_list")
	}
	if err := e.mine(ctx, in.TabIDs...); err != nil {
		return nil, err
	}
	gid := -1
	if in.GroupID != nil {
		gid = *in.GroupID
	}
	id, err := e.Browser.Group(ctx, in.TabIDs, gid, in.Title, in.Color)
	if err != nil {
		return nil, err
	}
	return (&Result{Text: fmt.Sprintf("Tabs %v are in group %d%s.", in.TabIDs, id, titled(in.Title))}).Summed(sumGroup.With(id)), nil
}

func titled(t string) string {
	if t == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", t)
}

func tabUngroup(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*TabIDsInput)
	if len(in.TabIDs) == 0 {
		return nil, failf("say which tabs to ungroup: tabIds from tabs_list")
	}
	if err := e.mine(ctx, in.TabIDs...); err != nil {
		return nil, err
	}
	if err := e.Browser.Ungroup(ctx, in.TabIDs); err != nil {
		return nil, err
	}
	return &Result{Text: fmt.Sprintf("Tabs %v are in no group now.", in.TabIDs)}, nil
}

func navigate(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*NavigateInput)
	u, err := checkURL(in.URL)
	if err != nil {
		return nil, err
	}
	t, err := e.tab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	e.leaving(ctx, t.ID)
	began := time.Now()
	if err := e.Browser.Navigate(ctx, t.ID, u); err != nil {
		return nil, err
	}
	e.started(ctx, t, began)
	if u != t.URL && e.downloading(ctx, t, began) {
		// The address is a file the browser downloads: the tab stays where it was.
		if d := e.downloaded(ctx, Tab{URL: u}, began, began); d != "" {
			return &Result{Text: fmt.Sprintf("%s is a file, not a page:%s The tab stays at %s.", u, d, t.URL), Summary: u, URL: t.URL, Untrusted: true}, nil
		}
	}
	for n := 1; ; n++ {
		r, err := loaded(ctx, e, t.ID, began, "Loaded")
		var de *DialogError
		if !errors.As(err, &de) || de.Dialog.Type == "beforeunload" || n == maxDialogsLeaving || e.Browser.CommittedSince(t.ID, began) {
			return r, err
		}
		// The page being left alerts again as the navigation closes its alert (one still
		// loading whose scripts alert one after another, its first alert one Skiff could not
		// answer before setting out), and that alert holds the navigation. Navigating again
		// closes it, as a person pressing Enter in the address bar again does; answering it
		// while the navigation is under way can bring Chrome down.
		if err := e.Browser.Navigate(ctx, t.ID, u); err != nil {
			return nil, err
		}
		e.started(ctx, t, began)
	}
}

// downloading says whether the navigation of tab t begun at since turned out to be a download:
// until the browser knows (its answer came), the tab shows its old page loading; it is
// watched (at most 2 s) until the new page commits or a download begins (or the old page is
// left standing half a second: nothing came).
func (e *Env) downloading(ctx context.Context, t Tab, since time.Time) bool {
	var stopped time.Time // when the tab stopped loading with its old page still there
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); {
		if len(e.Browser.DownloadsSince(since)) > 0 {
			return true
		}
		now, err := e.Browser.Tab(ctx, t.ID)
		if err != nil || now.URL != t.URL {
			return false
		}
		if now.Status != "loading" {
			// The browser may say the download began a moment after the tab stops loading.
			if stopped.IsZero() {
				stopped = time.Now()
			} else if time.Since(stopped) > 500*time.Millisecond {
				return false
			}
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(30 * time.Millisecond):
		}
	}
	return false
}

// leaving readies a tab to leave its page. A page stuck in a dialog takes no commands until
// it is answered, and leaving is what was asked for: an answerable dialog is dismissed (a
// "leave this page?" question is accepted), and one Skiff cannot answer is closed by the
// navigation itself. With no dialog, the debugger is turned on, briefly, so that a "leave
// this page?" question the navigation raises is seen and can be answered.
//
// A page still loading goes on with its scripts once its dialog is answered, and they may
// open another (old pages, and test pages, alert one after another): each is dismissed too,
// before the navigation sets out. Left open, it held the navigation 2 s and was the answer
// navigate gave; answered while the navigation is under way, it can bring Chrome down
// (Chromium 156 aborts on bad_variant_access).
func (e *Env) leaving(ctx context.Context, tabID int) {
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	d, open := e.Browser.Dialog(tabID)
	if !open {
		_, _ = e.Browser.Debug(dctx, tabID, "Page.enable", nil)
		return
	}
	for n := 0; open && d.Answerable && n < maxDialogsLeaving; n++ {
		if e.Browser.AnswerDialog(dctx, tabID, d.Type == "beforeunload", "") != nil {
			return
		}
		d, open = e.nextDialog(dctx, tabID)
	}
}

// maxDialogsLeaving bounds the dialogs leaving dismisses: a page that opens one each time the
// last is answered is left to the navigation.
const maxDialogsLeaving = 20

// nextDialog waits for the dialog a page that is still loading opens next: it returns once
// one is open, or the page's load is over (its scripts have run), or a second has passed (a
// page slow to load, with no dialog to come), or ctx ends.
func (e *Env) nextDialog(ctx context.Context, tabID int) (Dialog, bool) {
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		if d, open := e.Browser.Dialog(tabID); open {
			return d, true
		}
		if t, err := e.Browser.Tab(ctx, tabID); err != nil || t.Status != "loading" {
			return Dialog{}, false
		}
		select {
		case <-ctx.Done():
			return Dialog{}, false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return Dialog{}, false
}

// started waits (at most 2 s) for a navigation of tab t begun at since to show: its URL changes
// or it starts loading, and the old page's dialog, if it had one, is gone, or the browser
// began a download instead. Until then the tab still reports the old page as complete.
func (e *Env) started(ctx context.Context, t Tab, since time.Time) {
	deadline := time.Now().Add(2 * time.Second)
	old, hadDialog := e.Browser.Dialog(t.ID)
	for time.Now().Before(deadline) {
		now, err := e.Browser.Tab(ctx, t.ID)
		if err != nil {
			return
		}
		d, open := e.Browser.Dialog(t.ID)
		stale := open && hadDialog && d == old
		if (now.URL != t.URL || now.Status == "loading") && !stale {
			return
		}
		if open && !stale {
			return // the navigation raised a dialog ("leave this page?"): settle says so
		}
		if len(e.Browser.DownloadsSince(since)) > 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(30 * time.Millisecond):
		}
	}
}

func historyMove(name, done string, move func(Browser, context.Context, int) error) func(context.Context, *Env, any, *Effect) (*Result, error) {
	return func(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
		in := arg.(*TabInput)
		t, err := e.tab(ctx, in.TabID)
		if err != nil {
			return nil, err
		}
		e.leaving(ctx, t.ID)
		began := time.Now()
		if err := move(e.Browser, ctx, t.ID); err != nil {
			if strings.Contains(err.Error(), "Cannot find a next page") {
				return nil, failf("there is no page to go %s to in this tab", name)
			}
			return nil, err
		}
		e.started(ctx, t, began)
		return loaded(ctx, e, t.ID, began, "%s", done)
	}
}

var (
	back    = historyMove("back", "Went back", Browser.Back)
	forward = historyMove("forward", "Went forward", Browser.Forward)
	reload  = historyMove("reload", "Reloaded", Browser.Reload)
)
