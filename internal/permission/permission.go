// Package permission decides whether a tool call may run: from the user's policies
// ({tool pattern, origin pattern, decision, updatedAt}) when one matches, else from the
// defaults of the call's risk class (Evaluate, which is pure). Gate is the one gate every call
// passes: it evaluates, asks the user when the answer is Ask, turns "always" and "never" into
// policies and records every decision, through small interfaces (policy store, asker,
// notifier, clock, audit log) that internal/core wires to the browser and tests to fakes.
//
// Precedence: the most specific matching policy wins; the origin counts first (an exact origin
// beats a domain, which beats a scheme, which beats "*"), then the tool (a tool's name or
// class:action beats class:*, which beats "*"); a tie goes to the policy updated last.
package permission

import (
	"errors"
	"strings"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// Decision is what the user answers, and what a policy says.
type Decision string

const (
	AllowOnce   Decision = "allow_once"
	DenyOnce    Decision = "deny_once"
	AllowAlways Decision = "allow_always"
	DenyAlways  Decision = "deny_always"
)

// Valid reports whether d is one of the four decisions.
func (d Decision) Valid() bool {
	switch d {
	case AllowOnce, DenyOnce, AllowAlways, DenyAlways:
		return true
	}
	return false
}

// Allows reports whether d lets the call run.
func (d Decision) Allows() bool { return d == AllowOnce || d == AllowAlways }

// Policy is a standing decision of the user's.
type Policy struct {
	Tool      string   `json:"tool"`   // pattern: "click", "act:click", "act:*", "*"
	Origin    string   `json:"origin"` // pattern: "https://a.com", "*.a.com", "https://*.a.com", "https://*", "*"
	Decision  Decision `json:"decision"`
	UpdatedAt int64    `json:"updatedAt"` // unix ms
	// Private: the user decided it in a chat of an incognito window; it is kept in memory, and
	// only until the last incognito window closes (as Chrome keeps what is set there).
	Private bool `json:"private,omitempty"`
}

// PrivatePrefix begins the id of a chat started in an incognito window (store.Private).
const PrivatePrefix = "private-"

// Visible is the policies that hold for a caller: all of them in a private chat (or an
// incognito window's panel), and the kept ones only anywhere else. What the user decides in
// an incognito window stays there, as Chrome's own site settings do: an Always answered in a
// private chat does not let a kept chat's agent or an outside agent do the same, and is not
// shown outside incognito windows.
func Visible(ps []Policy, private bool) []Policy {
	if private {
		return ps
	}
	out := make([]Policy, 0, len(ps))
	for _, p := range ps {
		if !p.Private {
			out = append(out, p)
		}
	}
	return out
}

// Request is a tool call as the gate weighs it.
type Request struct {
	Tool       string // the tool's name: "click"
	Risk       string // its risk class: "read", "act", "navigate", "destructive", "script"
	Permission string // its permission name: "act:click"
	// Origin is where the call works ("https://shop.example:8443"), "" for calls that are not
	// about a page (tabs_list, the history tools).
	Origin string
	// Sensitive: the call types into a password or payment field. It always asks.
	Sensitive bool
	// Files names the files the call sends from this computer to the site (upload_file):
	// what leaves the computer is the user's to let go, so it always asks.
	Files string
	// App is the link to another app the call opens ("mailto:…", "tel:…", a custom scheme):
	// what it does happens outside the browser, so it always asks.
	App string
	// NewOrigin: the run has not worked on this origin yet. Moving a task to a new origin asks,
	// unless the user allowed this origin by name.
	NewOrigin bool
	// Consented: the user already let this run read this origin (reading a page needs a first
	// consent per origin).
	Consented bool
	// Outside names the outside client (an MCP session) whose call reaches a tab outside its
	// own tab group. It always asks: a client works in its own tabs.
	Outside string
	// Granted: the user already allowed this task to act on this same element (an act of the
	// same intent: the next key in a field they let it type in). It does not ask again.
	Granted bool
	// Passive: the act only moves the view (scroll, hover); on a site the user let the task
	// read, it does not ask.
	Passive bool
	// Planned: the plan the user approved for this run names this kind of action on this
	// site. It does not ask; what types a password, cannot be undone or runs code still does.
	Planned bool
	// OwnTabs: the call closes only tabs this task opened itself (tab_open, or a link it
	// clicked): closing them loses nothing of the user's, so it does not ask as closing their
	// tabs does.
	OwnTabs bool
	// TakenUp: one of the tabs it closes an earlier run of the chat opened, and the user has
	// gone to it since (or has it in front): it is theirs again, and the ask says why.
	TakenUp bool
}

// RiskPlan is the risk class of a plan the agent proposes: only the user approves it.
const RiskPlan = "plan"

// RiskKeep is the risk class of a change an outside caller makes to what Skiff keeps for the
// user (a memory, which every later chat is told; a workflow): no standing answer covers it,
// not even one for every call everywhere; the user allows each one.
const RiskKeep = "keep"

// OnlyOnce reports whether calls of risk are answered one at a time: an "always" or "never"
// answer to one is taken as once, and leaves no policy.
func OnlyOnce(risk string) bool { return risk == RiskPlan || risk == RiskKeep }

// Verdict is the gate's answer before anyone is asked.
type Verdict int

const (
	Allow Verdict = iota + 1
	Deny
	Ask
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	}
	return "ask"
}

// Outcome is a verdict with why: the policy that decided, or the default that did.
type Outcome struct {
	Verdict Verdict
	Policy  *Policy // the matching policy, nil for a default
	Reason  string  // in words (English), for the audit log
	Why     i18n.Text
}

// decided is o with its reason in English.
func decided(o Outcome) Outcome {
	o.Reason = o.Why.English()
	return o
}

// Why the gate allows, denies or asks, for the card and the audit log (their French is in
// ui/_locales).
var (
	sayAllowedBy   = i18n.Sentence{Key: "decAllowed", English: "allowed: $1"}
	sayAsks        = i18n.Sentence{Key: "notifyAsks", English: "$1 asks: $2"}
	sayDeniedBy    = i18n.Sentence{Key: "decDenied", English: "denied: $1"}
	sayNoPolicies  = i18n.Sentence{Key: "decNoPolicies", English: "denied: the policies could not be read"}
	sayDecStopped  = i18n.Sentence{Key: "decStopped", English: "stopped"}
	sayNoAnswerMin = i18n.Sentence{Key: "decNoAnswerMin", One: "denied: no answer within $1 minute", English: "denied: no answer within $1 minutes"}
	sayNoAnswerSec = i18n.Sentence{Key: "decNoAnswerSec", One: "denied: no answer within $1 second", English: "denied: no answer within $1 seconds"}
	sayYouOnce     = i18n.Sentence{Key: "decYouOnce", English: "you allowed it once"}
	sayYouAlways   = i18n.Sentence{Key: "decYouAlways", English: "you allowed it always"}
	sayYouAlwaysOn = i18n.Sentence{Key: "decYouAlwaysOn", English: "you allowed it always ($1 on $2)"}
	sayYouDenied   = i18n.Sentence{Key: "decYouDenied", English: "you denied it"}
	sayYouNever    = i18n.Sentence{Key: "decYouNever", English: "you chose never"}
	sayYouNeverOn  = i18n.Sentence{Key: "decYouNeverOn", English: "you chose never ($1 on $2)"}
	sayReading     = i18n.Sentence{Key: "whyReading", English: "reading"}
	sayNoOneToAsk  = i18n.Sentence{Key: "decNoOneToAsk", English: "denied: no one can be asked"}

	sayPlan          = i18n.Sentence{Key: "whyPlan", English: "a plan is for you to approve before the agent acts"}
	sayKeep          = i18n.Sentence{Key: "whyKeep", English: "an outside agent changes what Skiff keeps for you, which you allow each time"}
	sayChoseNever    = i18n.Sentence{Key: "whyChoseNever", English: "you chose never for $1 on $2"}
	sayChoseAlways   = i18n.Sentence{Key: "whyChoseAlways", English: "you chose always for $1 on $2"}
	saySensitive     = i18n.Sentence{Key: "whySensitive", English: "it types into a password or payment field, which always asks"}
	sayFiles         = i18n.Sentence{Key: "whyFiles", English: "it sends $1 from this computer to the site, which always asks"}
	sayApp           = i18n.Sentence{Key: "whyApp", English: "it opens $1 outside the browser, which always asks"}
	sayOutside       = i18n.Sentence{Key: "whyOutside", English: "it reaches a tab outside the tab group of $1, which always asks"}
	sayMoves         = i18n.Sentence{Key: "whyMoves", English: "the task moves to $1, a site it has not worked on"}
	sayReadBrowserOK = i18n.Sentence{Key: "whyReadBrowserOK", English: "reading your browser, which you let Skiff do in this task"}
	sayReadSiteOK    = i18n.Sentence{Key: "whyReadSiteOK", English: "reading a site you let Skiff read"}
	sayReadBrowser   = i18n.Sentence{Key: "whyReadBrowser", English: "reading your browser (tabs or history) asks first"}
	sayReadSite      = i18n.Sentence{Key: "whyReadSite", English: "reading $1 asks the first time"}
	sayDestructive   = i18n.Sentence{Key: "whyDestructive", English: "it cannot be undone, so it asks every time"}
	sayOwnTabs       = i18n.Sentence{Key: "whyOwnTabs", English: "it closes only tabs this task opened"}
	sayTakenUp       = i18n.Sentence{Key: "whyTakenUp", English: "this chat opened the tab, but you have been in it since, so it is yours now, and closing it cannot be undone"}
	sayScript        = i18n.Sentence{Key: "whyScript", English: "running code in a page asks every time"}
	sayPlanned       = i18n.Sentence{Key: "whyPlanned", English: "the plan you approved names this kind of action on $1"}
	sayGranted       = i18n.Sentence{Key: "whyGranted", English: "you allowed acting on this element in this task"}
	sayPassive       = i18n.Sentence{Key: "whyPassive", English: "it only moves the view of a site you let Skiff read"}
	sayAct           = i18n.Sentence{Key: "whyAct", English: "acting in your browser asks first"}
)

// Evaluate decides a request from the policies and the defaults.
func Evaluate(policies []Policy, r Request) Outcome {
	switch r.Risk {
	case RiskPlan:
		return decided(Outcome{Verdict: Ask, Why: sayPlan.With()}) // no policy answers for the user
	case RiskKeep:
		return decided(Outcome{Verdict: Ask, Why: sayKeep.With()})
	}
	best := -1
	var bestScore [2]int
	for i, p := range policies {
		ts, ok1 := toolScore(p.Tool, r)
		os, ok2 := originScore(p.Origin, r.Origin)
		if !ok1 || !ok2 || !p.Decision.Valid() {
			continue
		}
		score := [2]int{os, ts}
		if best < 0 || score[0] > bestScore[0] || score[0] == bestScore[0] && (score[1] > bestScore[1] ||
			score[1] == bestScore[1] && p.UpdatedAt > policies[best].UpdatedAt) {
			best, bestScore = i, score
		}
	}
	if best >= 0 {
		p := policies[best]
		if !p.Decision.Allows() {
			return decided(Outcome{Verdict: Deny, Policy: &p, Why: sayChoseNever.With(p.Tool, describeOrigin(p.Origin))})
		}
		switch {
		case r.Sensitive:
			return decided(Outcome{Verdict: Ask, Policy: &p, Why: saySensitive.With()})
		case r.Files != "":
			return decided(Outcome{Verdict: Ask, Policy: &p, Why: sayFiles.With(r.Files)})
		case r.App != "":
			return decided(Outcome{Verdict: Ask, Policy: &p, Why: sayApp.With(r.App)})
		case r.Outside != "":
			return decided(Outcome{Verdict: Ask, Policy: &p, Why: sayOutside.With(r.Outside)})
		case r.NewOrigin && bestScore[0] < scoreDomain:
			return decided(Outcome{Verdict: Ask, Policy: &p, Why: sayMoves.With(r.Origin)})
		}
		return decided(Outcome{Verdict: Allow, Policy: &p, Why: sayChoseAlways.With(p.Tool, describeOrigin(p.Origin))})
	}
	return Default(r)
}

// Default is the decision for a request no policy matches: reading asks once per origin (the
// first consent), everything else asks, and what types into a password or payment field, or
// moves the task to a new origin, asks too.
func Default(r Request) Outcome {
	switch {
	case r.Sensitive:
		return decided(Outcome{Verdict: Ask, Why: saySensitive.With()})
	case r.Files != "":
		return decided(Outcome{Verdict: Ask, Why: sayFiles.With(r.Files)})
	case r.App != "":
		return decided(Outcome{Verdict: Ask, Why: sayApp.With(r.App)})
	case r.Outside != "":
		return decided(Outcome{Verdict: Ask, Why: sayOutside.With(r.Outside)})
	case r.Risk == "read" && r.Consented && r.Origin == "":
		return decided(Outcome{Verdict: Allow, Why: sayReadBrowserOK.With()})
	case r.Risk == "read" && r.Consented:
		return decided(Outcome{Verdict: Allow, Why: sayReadSiteOK.With()})
	case r.Risk == "read" && r.Origin == "":
		return decided(Outcome{Verdict: Ask, Why: sayReadBrowser.With()})
	case r.Risk == "read":
		return decided(Outcome{Verdict: Ask, Why: sayReadSite.With(r.Origin)})
	case r.Risk == "destructive" && r.OwnTabs:
		return decided(Outcome{Verdict: Allow, Why: sayOwnTabs.With()})
	case r.Risk == "destructive" && r.TakenUp:
		return decided(Outcome{Verdict: Ask, Why: sayTakenUp.With()})
	case r.Risk == "destructive":
		return decided(Outcome{Verdict: Ask, Why: sayDestructive.With()})
	case r.Risk == "script":
		return decided(Outcome{Verdict: Ask, Why: sayScript.With()})
	case r.Planned && (r.Risk == "act" || r.Risk == "navigate"):
		return decided(Outcome{Verdict: Allow, Why: sayPlanned.With(r.Origin)})
	case r.NewOrigin:
		return decided(Outcome{Verdict: Ask, Why: sayMoves.With(r.Origin)})
	case r.Risk == "act" && r.Granted:
		return decided(Outcome{Verdict: Allow, Why: sayGranted.With()})
	case r.Risk == "act" && r.Passive && r.Consented:
		return decided(Outcome{Verdict: Allow, Why: sayPassive.With()})
	}
	return decided(Outcome{Verdict: Ask, Why: sayAct.With()})
}

// Scores of origin patterns, most specific last.
const (
	scoreAny    = 1 // "*"
	scoreScheme = 2 // "https://*"
	scoreDomain = 3 // "*.a.com"
	scoreScDom  = 4 // "https://*.a.com"
	scoreExact  = 5 // "https://a.com"
)

// originScore says whether pattern matches origin, and how specifically.
func originScore(pattern, origin string) (int, bool) {
	if pattern == "*" {
		return scoreAny, true
	}
	if origin == "" {
		return 0, false // a pattern that names a site does not match calls about no site
	}
	scheme, host := splitOrigin(origin)
	pscheme, phost, hasScheme := strings.Cut(pattern, "://")
	if !hasScheme {
		phost, pscheme = pattern, ""
	}
	if pscheme != "" && pscheme != scheme {
		return 0, false
	}
	switch {
	case phost == "*":
		if pscheme == "" {
			return scoreAny, true
		}
		return scoreScheme, true
	case strings.HasPrefix(phost, "*."):
		domain := phost[2:]
		h := hostOnly(host)
		if h != domain && !strings.HasSuffix(h, "."+domain) {
			return 0, false
		}
		if pscheme == "" {
			return scoreDomain, true
		}
		return scoreScDom, true
	}
	if pscheme == "" {
		return 0, false // an exact origin names its scheme
	}
	return scoreExact, pattern == origin
}

func splitOrigin(o string) (scheme, host string) {
	scheme, host, _ = strings.Cut(o, "://")
	return scheme, host
}

// hostOnly drops the port.
func hostOnly(h string) string {
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
		return h[:i]
	}
	return h
}

// Scores of tool patterns, most specific last.
const (
	toolAny   = 1 // "*"
	toolClass = 2 // "act:*"
	toolExact = 3 // "act:click" or "click"
)

func toolScore(pattern string, r Request) (int, bool) {
	switch {
	case pattern == "*":
		return toolAny, true
	case pattern == r.Tool || pattern == r.Permission:
		return toolExact, true
	case strings.HasSuffix(pattern, ":*") && strings.TrimSuffix(pattern, ":*") == r.Risk:
		return toolClass, true
	}
	return 0, false
}

func describeOrigin(p string) string {
	switch {
	case p == "*":
		return "every site"
	case strings.HasSuffix(p, "://*"):
		return "every " + strings.TrimSuffix(p, "://*") + " site"
	case strings.Contains(p, "*."):
		return "all of " + p[strings.Index(p, "*.")+2:]
	}
	return p
}

// Seed 001's permission namespaces and what they are here.
var seedNames = map[string]string{
	"tab_read:*": "read:*", "tab_action:*": "act:*",
	"tab_read:info": "read:tabs", "tab_read:dom": "read:text", "tab_read:screenshot": "read:screenshot", "tab_read:elements": "read:snapshot",
	"tab_action:click": "act:click", "tab_action:input": "act:type", "tab_action:type": "act:type", "tab_action:scroll": "act:scroll", "tab_action:wait": "read:wait",
}

var classes = []string{"read", "act", "navigate", "destructive", "script"}

func isClass(c string) bool {
	for _, x := range classes {
		if x == c {
			return true
		}
	}
	return false
}

// ErrPattern is returned by Normalize for a pattern it cannot read.
var ErrPattern = errors.New("permission: not a pattern")

// patternError is a pattern Normalize cannot read, said for the user; it is ErrPattern.
type patternError struct{ said *i18n.Error }

func badPattern(s i18n.Sentence, args ...any) error {
	return &patternError{said: &i18n.Error{Text: s.With(args...)}}
}

func (e *patternError) Error() string        { return e.said.Error() }
func (e *patternError) Is(target error) bool { return target == ErrPattern }
func (e *patternError) Unwrap() error        { return e.said }

// Why a policy's pattern cannot be read (their French is in ui/_locales).
var (
	sayEmptyTool      = i18n.Sentence{Key: "polEmptyTool", English: "the tool pattern is empty"}
	sayToolPattern    = i18n.Sentence{Key: "polToolPattern", English: "“$1” is not a tool pattern (use a tool's name, class:action or class:*, with class one of $2)"}
	sayEmptyOrigin    = i18n.Sentence{Key: "polEmptyOrigin", English: "the site pattern is empty"}
	sayOriginPattern  = i18n.Sentence{Key: "polOriginPattern", English: "“$1” is not a site pattern (use *, https://*, *.example.com, https://*.example.com or an origin)"}
	sayOriginScheme   = i18n.Sentence{Key: "polOriginScheme", English: "“$1” does not name its scheme (an exact origin does: https://$2)"}
	sayPolicyDecision = i18n.Sentence{Key: "polDecision", English: "a policy is allow_always or deny_always, not “$1”"}
)

// Normalize checks a policy's patterns and writes them the one way: seed 001's namespaces as
// classes and actions, origins lowercased without a trailing slash.
func Normalize(p Policy) (Policy, error) {
	t := strings.TrimSpace(p.Tool)
	if s, ok := seedNames[t]; ok {
		t = s
	}
	if t == "" {
		return p, badPattern(sayEmptyTool)
	}
	if class, action, ok := strings.Cut(t, ":"); ok && (!isClass(class) || action == "") {
		return p, badPattern(sayToolPattern, t, strings.Join(classes, ", "))
	}
	o := strings.ToLower(strings.TrimRight(strings.TrimSpace(p.Origin), "/"))
	if o == "" {
		return p, badPattern(sayEmptyOrigin)
	}
	if o != "*" {
		_, host, hasScheme := strings.Cut(o, "://")
		if !hasScheme {
			host = o
		}
		if host == "" || strings.ContainsAny(host, "/?# ") || strings.Count(host, "*") > 1 || strings.Contains(host, "*") && host != "*" && !strings.HasPrefix(host, "*.") {
			return p, badPattern(sayOriginPattern, p.Origin)
		}
		if !hasScheme && host != "*" && !strings.HasPrefix(host, "*.") {
			return p, badPattern(sayOriginScheme, p.Origin, host)
		}
	}
	if !p.Decision.Valid() || p.Decision == AllowOnce || p.Decision == DenyOnce {
		return p, badPattern(sayPolicyDecision, string(p.Decision))
	}
	p.Tool, p.Origin = t, o
	return p, nil
}

// Scope is the tool pattern an "always" answer covers: all reading for a read (consent to
// read a site covers every read tool there), the tool's own permission otherwise.
func Scope(r Request) string {
	if r.Risk == "read" {
		return "read:*"
	}
	return r.Permission
}
