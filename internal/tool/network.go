package tool

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// NetworkInput is network_requests's input.
type NetworkInput struct {
	All    bool   `json:"all,omitempty" jsonschema_description:"Also the page's pictures, scripts, styles and fonts (by default only what its scripts asked for, fetch and XHR, and what failed)."`
	Filter string `json:"filter,omitempty" jsonschema_description:"Only addresses that contain this (any case)."`
	TabID  int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// request is what the page fetched, as its resource timing says (skiff.js requests), with its
// method when the debugger saw it go (Browser.NetLog), or what the debugger alone saw of it.
type request struct {
	URL    string `json:"url"`
	Kind   string `json:"kind"`
	Status int    `json:"status"`
	Ms     int    `json:"ms"`
	Size   int64  `json:"size"`
	At     int    `json:"at"`
	method string
	// failed, or unanswered, come from the debugger: a request resource timing does not keep.
	failed     string
	unanswered string
}

func networkTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*NetworkInput)
	return e.tabEffect(ctx, in.TabID, "network", whatNetwork.With())
}

// networkRequests lists what the page fetched since it loaded, from the browser's resource
// timing: no debugger, and the past is there. Resource timing holds no method and no request
// that got no answer; what the debugger saw of the page's requests while Skiff followed them
// (the actions' own) adds those.
func networkRequests(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*NetworkInput)
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	var r struct {
		Total  int   `json:"total"`
		Origin int64 `json:"origin"`
		Page   *struct {
			URL    string `json:"url"`
			Status int    `json:"status"`
			Ms     int    `json:"ms"`
		} `json:"page"`
		Requests []request `json:"requests"`
	}
	if err := e.call(ctx, t.ID, 0, pageFiles, "requests", map[string]bool{"all": in.All}, &r); err != nil {
		return nil, err
	}
	pageMethod := ""
	if r.Origin > 0 {
		var seen []NetRequest
		log, off := e.Browser.NetLog(t.ID)
		for _, q := range log {
			if !q.At.Before(time.UnixMilli(r.Origin - 20)) { // this document's, not the one before
				seen = append(seen, q)
			}
		}
		r.Requests, pageMethod = withSeen(r.Requests, seen, time.UnixMilli(r.Origin), off, r.Page != nil && len(seen) > 0 && seen[0].Type == "Document" && seen[0].URL == r.Page.URL, in.All)
	}
	filter := strings.ToLower(in.Filter)
	var b strings.Builder
	if p := r.Page; p != nil {
		fmt.Fprintf(&b, "The page %s%s: %s in %d ms. ", p.URL, pageMethod, statusSaid(p.Status), p.Ms)
	}
	var kept []request
	failed := 0
	for _, q := range r.Requests {
		if filter != "" && !strings.Contains(strings.ToLower(q.URL), filter) {
			continue
		}
		kept = append(kept, q)
		if q.Status >= 400 || q.failed != "" {
			failed++
		}
	}
	b.WriteString("Requests since it loaded")
	if !in.All {
		b.WriteString(" (what its scripts asked for, and what failed)")
	}
	if filter != "" {
		fmt.Fprintf(&b, " with %q in the address", in.Filter)
	}
	fmt.Fprintf(&b, ": %d", len(kept))
	if failed > 0 {
		fmt.Fprintf(&b, ", of which %d failed", failed)
	}
	if len(kept) == 0 {
		b.WriteString(".\n")
	} else {
		b.WriteString(":\n")
	}
	for _, q := range kept {
		fmt.Fprintf(&b, "- %s %s%s => ", q.Kind, q.method, clip(unsecret(q.URL), 300))
		switch {
		case q.failed != "":
			fmt.Fprintf(&b, "failed: %s", q.failed)
		case q.unanswered != "":
			b.WriteString(q.unanswered)
		default:
			fmt.Fprintf(&b, "%s, %d ms", statusSaid(q.Status), q.Ms)
			if q.Size > 0 {
				fmt.Fprintf(&b, ", %s", bytesSaid(q.Size))
			}
		}
		b.WriteString("\n")
	}
	if r.Total >= 250 {
		b.WriteString("The browser keeps the first 250 of a page's requests unless the page asks for more: later ones may be missing.\n")
	}
	return (&Result{Text: b.String(), Untrusted: true, URL: t.URL}).Summed(sumRequests.With(len(kept))), nil
}

// withSeen adds to the requests resource timing listed what the debugger saw of them: each
// one's method, and the requests it alone knows (one that failed, one still out, one whose
// answer came after Skiff stopped following at off), in the order they went (origin is when
// the page began). doc says the
// first seen is the page's own (its method, " (POST)", is said beside the page's line).
func withSeen(timed []request, seen []NetRequest, origin, off time.Time, doc bool, all bool) ([]request, string) {
	page := ""
	if doc {
		if seen[0].Method != "" && seen[0].Method != "GET" {
			page = " (" + seen[0].Method + ")"
		}
		seen = seen[1:]
	}
	taken := make([]bool, len(timed))
	var extra []request
	for _, q := range seen {
		// The same address asked for again is told apart by when it went.
		at := int(q.At.Sub(origin).Milliseconds())
		i := -1
		for k, t := range timed {
			if !taken[k] && t.URL == q.URL && (i < 0 || abs(t.At-at) < abs(timed[i].At-at)) {
				i = k
			}
		}
		if i >= 0 {
			taken[i] = true
			timed[i].method = q.Method + " "
			if q.Failed != "" && timed[i].Status == 0 {
				timed[i].failed = q.Failed
			}
			continue
		}
		scripted := q.Type == "XHR" || q.Type == "Fetch" || q.Type == "EventSource" || q.Type == "Ping" || q.Type == "Other"
		x := request{URL: q.URL, Kind: strings.ToLower(q.Type), Status: q.Status, method: q.Method + " ", failed: q.Failed}
		switch {
		case q.Failed != "":
		case !q.Done && (off.IsZero() || off.Before(q.At)):
			x.unanswered = fmt.Sprintf("no answer yet (sent %s ago)", time.Since(q.At).Round(100*time.Millisecond))
		case !q.Done:
			x.unanswered = "no answer while Skiff followed the page's requests (its outcome is not known)"
		case !all && !scripted && q.Status < 400:
			continue
		default:
			x.unanswered = statusSaid(q.Status) // answered: resource timing did not keep it
		}
		x.At = at
		extra = append(extra, x)
	}
	out := append(timed, extra...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out, page
}

// unsecret is u with the values of its query's credential parameters left out (a token, a
// key, a signature, a session): the model needs the address, not them. (By hand: regexp
// would add half a megabyte to core.wasm.)
func unsecret(u string) string {
	head, frag, hasFrag := strings.Cut(u, "#")
	base, query, ok := strings.Cut(head, "?")
	if !ok {
		return u
	}
	params := strings.Split(query, "&")
	for i, p := range params {
		if name, _, ok := strings.Cut(p, "="); ok && secretParam(name) {
			params[i] = name + "=…"
		}
	}
	out := base + "?" + strings.Join(params, "&")
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// secretParam says whether a query parameter's name is one a credential goes in.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "key", "sig", "auth", "sid", "session", "sessionid", "pwd", "code":
		return true
	}
	for _, w := range []string{"token", "secret", "passw", "signature", "credential", "apikey", "api_key", "api-key"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// statusSaid is an HTTP status as a result says it ("0": the browser does not tell it).
func statusSaid(n int) string {
	if n == 0 {
		return "status not told (another site's answer, or none)"
	}
	return fmt.Sprintf("[%d]", n)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
