package tool

import (
	"context"
	"fmt"
	"strings"
)

// NetworkInput is network_requests's input.
type NetworkInput struct {
	All    bool   `json:"all,omitempty" jsonschema_description:"Also the page's pictures, scripts, styles and fonts (by default only what its scripts asked for, fetch and XHR, and what failed)."`
	Filter string `json:"filter,omitempty" jsonschema_description:"Only addresses that contain this (any case)."`
	TabID  int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// request is what the page fetched, as its resource timing says (skiff.js requests).
type request struct {
	URL    string `json:"url"`
	Kind   string `json:"kind"`
	Status int    `json:"status"`
	Ms     int    `json:"ms"`
	Size   int64  `json:"size"`
	At     int    `json:"at"`
}

func networkTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*NetworkInput)
	return e.tabEffect(ctx, in.TabID, "network", whatNetwork.With())
}

// networkRequests lists what the page fetched since it loaded, from the browser's resource
// timing: no debugger, and the past is there. It does not hold a request's method or headers,
// nor one that never got an answer.
func networkRequests(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*NetworkInput)
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	var r struct {
		Total int `json:"total"`
		Page  *struct {
			URL    string `json:"url"`
			Status int    `json:"status"`
			Ms     int    `json:"ms"`
		} `json:"page"`
		Requests []request `json:"requests"`
	}
	if err := e.call(ctx, t.ID, 0, pageFiles, "requests", map[string]bool{"all": in.All}, &r); err != nil {
		return nil, err
	}
	filter := strings.ToLower(in.Filter)
	var b strings.Builder
	if p := r.Page; p != nil {
		fmt.Fprintf(&b, "The page %s: %s in %d ms. ", p.URL, statusSaid(p.Status), p.Ms)
	}
	var kept []request
	failed := 0
	for _, q := range r.Requests {
		if filter != "" && !strings.Contains(strings.ToLower(q.URL), filter) {
			continue
		}
		kept = append(kept, q)
		if q.Status >= 400 {
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
		fmt.Fprintf(&b, "- %s %s => %s, %d ms", q.Kind, clip(unsecret(q.URL), 300), statusSaid(q.Status), q.Ms)
		if q.Size > 0 {
			fmt.Fprintf(&b, ", %s", bytesSaid(q.Size))
		}
		b.WriteString("\n")
	}
	if r.Total >= 250 {
		b.WriteString("The browser keeps the first 250 of a page's requests unless the page asks for more: later ones may be missing.\n")
	}
	return (&Result{Text: b.String(), Untrusted: true, URL: t.URL}).Summed(sumRequests.With(len(kept))), nil
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
