// Package tool is Skiff's one registry of browser tools: each is a Go input struct (its JSON
// Schema is generated from the struct at build time and embedded, see schemas.json), a handler,
// a risk class and a permission name. The in-panel agent, the three providers' tool encoders
// and skiffd's MCP server all read this registry.
//
// Handlers work through Browser, which internal/chrome implements. Page-side code lives in
// ext/page/skiff.js; what the model reads is formatted here, in Go.
package tool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
)

// Risk is what a tool can do, from harmless to dangerous. The permission gate decides by it.
type Risk string

const (
	Read        Risk = "read"        // looks at pages, tabs or history; changes nothing
	Act         Risk = "act"         // clicks, types, scrolls in a page
	Navigate    Risk = "navigate"    // loads pages, opens tabs
	Destructive Risk = "destructive" // closes tabs, deletes history
	Scripting   Risk = "script"      // runs the model's own code in a page
)

// Tool is one tool of the registry.
type Tool struct {
	Name        string
	Description string
	Risk        Risk
	// Permission names the tool for permission policies: "<risk>:<action>", e.g. "act:click".
	Permission string
	// Input is a nil pointer to the input struct; only the schema generator reflects on it.
	Input any
	// Schema is the input's JSON Schema (from schemas.json).
	Schema json.RawMessage
	// Hidden tools are accepted when called (seed 001's tab_read and tab_action) but not
	// offered to models.
	Hidden bool
	// Files tools give a page files (upload_file): they are offered to outside clients, whose
	// skiffd reads them on their computer, and to the panel's model only when its chat holds
	// pictures the user attached.
	Files bool

	schema *schema
	// target resolves what a call will act on (nil: the tool says what it does from its input).
	target func(ctx context.Context, e *Env, in any) (*Effect, error)
	run    func(ctx context.Context, e *Env, in any, f *Effect) (*Result, error)
	// expand turns a call of an alias (seed 001's tools) into the calls of this registry
	// that do the same; nil for the others.
	expand func(in any) ([]Step, time.Duration, error)
}

// def makes a tool. input is a nil pointer to its input struct: a call's arguments are checked
// against the schema made from it and decoded into a new one once; then target (which may be
// nil) resolves what the call acts on, and run runs it, both getting that *input. (Plain
// functions over any: a generic registration cost core.wasm 69 KB of wrappers.)
func def(name string, risk Risk, perm string, input any, target func(context.Context, *Env, any) (*Effect, error),
	run func(context.Context, *Env, any, *Effect) (*Result, error), description string) Tool {
	return Tool{Name: name, Risk: risk, Permission: perm, Description: description, Input: input, target: target, run: run}
}

// alias makes a hidden tool that runs as other tools of the registry (expand says which).
func alias(name string, risk Risk, perm string, input any, expand func(any) ([]Step, time.Duration, error), description string) Tool {
	return Tool{Name: name, Risk: risk, Permission: perm, Description: description, Input: input, Hidden: true, expand: expand}
}

// Result is what a tool gives back: text for the model, an optional image, and a one-line
// summary for the tool card.
type Result struct {
	Text    string `json:"text"`
	Image   *Image `json:"image,omitempty"`
	Summary string `json:"summary,omitempty"`
	// SummaryText is Summary as a sentence the user reads in their language (nil: Summary is
	// data as it is: an address, a key, an element's words).
	SummaryText *i18n.Text `json:"summaryText,omitempty"`
	// Untrusted is set when Text holds what a page says (the agent fences it as data).
	Untrusted bool `json:"untrusted,omitempty"`
	// URL is the page the tool worked on, when there is one.
	URL string `json:"url,omitempty"`
	// Checked is the state a click left a checkbox, radio or switch in, as read back (nil for
	// other elements, or when it could not be read): a workflow replays such a click as that
	// state, not as a toggle.
	Checked *bool `json:"checked,omitempty"`
	// Path: the values select_option chose were one path down a list's levels (a cascader's:
	// a region, a country, a city), not several choices; a workflow keeps them as one value.
	Path bool `json:"path,omitempty"`
	// Refused says, in words, that the page did not take what the action sent: the browser
	// stopped its form, or the page marked a field as not valid. The call itself worked (the
	// model reads why in Text); a workflow replay stops there, and a recording leaves it out.
	Refused string `json:"refused,omitempty"`
}

// Summed is r with its summary said as t (Summary is its English).
func (r *Result) Summed(t i18n.Text) *Result {
	r.Summary, r.SummaryText = t.English(), &t
	return r
}

// Image is a picture a tool took (a screenshot).
type Image struct {
	Mime string `json:"mime"`
	Data []byte `json:"data"`
}

// Error is a tool failure the model can read and recover from (it goes back as a tool result
// marked as an error, not as a failure of the run).
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func failf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// ErrBackgroundShot: a screenshot of a tab Chrome does not draw would wait for a frame that
// never comes.
var ErrBackgroundShot = &Error{Msg: "the tab is in the background, where Chrome does not draw it: switch to it (tab_switch) and take the screenshot again"}

// Fronter is a browser that may bring one of its caller's tabs to the front of its window
// where that takes no one's view (an outside client's own window): Chrome draws only the tab in
// front. Front says whether the tab is in front now.
type Fronter interface {
	Front(ctx context.Context, tabID int) bool
}

//go:embed schemas.json
var schemasJSON []byte

var (
	registryOnce sync.Once
	registry     []Tool
	byName       map[string]int
)

func load() {
	var schemas map[string]json.RawMessage
	if err := json.Unmarshal(schemasJSON, &schemas); err != nil {
		panic("tool: schemas.json: " + err.Error())
	}
	byName = map[string]int{}
	for i := range definitions {
		t := definitions[i]
		t.Schema = schemas[t.Name]
		if t.Schema == nil {
			t.Schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		t.schema = new(schema)
		if err := json.Unmarshal(t.Schema, t.schema); err != nil {
			panic("tool: schemas.json: " + t.Name + ": " + err.Error())
		}
		registry = append(registry, t)
		byName[t.Name] = len(registry) - 1
	}
}

// All returns every tool, hidden ones included. The slice is shared: do not change it.
func All() []Tool {
	registryOnce.Do(load)
	return registry
}

// Offered returns the tools offered to models (all but the hidden aliases).
func Offered() []Tool {
	var out []Tool
	for _, t := range All() {
		if !t.Hidden {
			out = append(out, t)
		}
	}
	return out
}

// Lookup returns the tool named name.
func Lookup(name string) (Tool, bool) {
	registryOnce.Do(load)
	i, ok := byName[name]
	if !ok {
		return Tool{}, false
	}
	return registry[i], true
}

// Meant is the tool a model most likely meant by a name Skiff has no tool of: the same name
// under a prefix a model brings from elsewhere (Gemini's "default_api.click", an MCP client's
// "mcp__skiff__click", Playwright MCP's "browser_click"), or Playwright MCP's name of the same
// tool ("browser_take_screenshot"). "" when none.
func Meant(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexAny(n, ".:"); i >= 0 {
		n = n[i+1:]
	}
	if i := strings.LastIndex(n, "__"); i >= 0 {
		n = n[i+2:]
	}
	n = strings.TrimPrefix(n, "browser_")
	if p, ok := playwrightNames[n]; ok {
		n = p
	}
	if _, ok := Lookup(n); ok && n != name {
		return n
	}
	return ""
}

// playwrightNames are Playwright MCP's names (without "browser_") of tools Skiff names otherwise.
var playwrightNames = map[string]string{
	"take_screenshot": "screenshot", "navigate_back": "back", "file_upload": "upload_file",
	"handle_dialog": "dialog", "evaluate": "run_script", "tabs": "tabs_list", "close": "tab_close",
}

// Call is a call of a tool, checked against the tool's schema and resolved: Effect says what
// it will act on, and Run acts on exactly that.
type Call struct {
	Tool   Tool
	Args   json.RawMessage
	Effect *Effect
	in     any
}

// Check reads a call's arguments: they must be a JSON object that the tool's schema accepts
// (types, required fields, enums, bounds). It is the first thing done with a call, before
// anything asks or runs; the error is a sentence the model can act on. Empty arguments are {}.
// The Call's Args are the arguments as the tool reads them (see schema.check): what the gate
// judges and the log keeps is what runs.
func Check(t Tool, args json.RawMessage) (*Call, error) {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if t.schema != nil {
		var err error
		if args, err = t.schema.check(args); err != nil {
			return nil, err
		}
	}
	in := reflect.New(reflect.TypeOf(t.Input).Elem()).Interface()
	if err := decode(args, in); err != nil {
		return nil, err
	}
	return &Call{Tool: t, Args: args, in: in}, nil
}

// Resolve finds what the call will act on, in the page (a short read, bounded by the env's
// page timeout): the element a ref, a selector, a point or the focus names, what it activates,
// the frame it is in, where it leads. A tool with no target says what it does from its input.
// A target that is not there (a ref from an old page, a selector that matches nothing) is an
// *Error: nothing is asked for a call that cannot run.
func (c *Call) Resolve(ctx context.Context, e *Env) error {
	if c.Tool.target == nil {
		c.Effect = &Effect{Action: c.Tool.Name, Detail: c.Tool.Name}
		return nil
	}
	f, err := c.Tool.target(ctx, e, c.in)
	if err != nil {
		if errors.Is(err, ErrErrorPage) {
			if t, terr := e.tab(ctx, askedTab(c.in)); terr == nil {
				return e.errorPage(ctx, t)
			}
		}
		return explain(ctx, err)
	}
	c.Effect = f
	return nil
}

// Run runs the call, on what Resolve found. A failure the model can act on is an *Error;
// anything else is a failure of Skiff itself.
func (c *Call) Run(ctx context.Context, e *Env) (*Result, error) {
	if c.Tool.run == nil {
		return nil, failf("%s runs as other tools; it cannot run by itself", c.Tool.Name)
	}
	if c.Effect == nil {
		if err := c.Resolve(ctx, e); err != nil {
			return nil, err
		}
	}
	res, err := c.Tool.run(ctx, e, c.in, c.Effect)
	if note := e.takeNotes(); note != "" && res != nil && err == nil {
		res.Text = note + "\n" + res.Text
	}
	if err != nil {
		if r := c.closedItsTab(ctx, e, err); r != nil {
			return r, nil
		}
		if f := c.Effect; errors.Is(err, ErrErrorPage) && f != nil && f.TabID > 0 {
			if t, terr := e.Browser.Tab(ctx, f.TabID); terr == nil {
				return nil, e.errorPage(ctx, t)
			}
		}
		return nil, explain(ctx, err)
	}
	if s, ok := c.in.(ownsSize); !ok || !s.ownSize() {
		res.Text = cutLines(res.Text, MaxResultChars)
	}
	return res, nil
}

// note keeps a sentence for the result of the call that runs now.
func (e *Env) note(s string) {
	e.mu.Lock()
	e.notes = append(e.notes, s)
	e.mu.Unlock()
}

// takeNotes is what was noted for the call that ran, on lines of their own.
func (e *Env) takeNotes() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := strings.Join(e.notes, "\n")
	e.notes = nil
	return n
}

// closedItsTab is what an action says when its tab was there as it began and is gone once it
// failed: a sign-in or payment window that closes itself once the form in it is sent, a
// "Close" button that calls window.close(). What the action did is done; the page closed the
// tab. nil for any other failure.
func (c *Call) closedItsTab(ctx context.Context, e *Env, err error) *Result {
	f := c.Effect
	if c.Tool.Risk != Act || f == nil || f.TabID <= 0 || !e.closedUnder(ctx, f.TabID, err) {
		return nil
	}
	return (&Result{Text: e.tabClosed(ctx, f.TabID), URL: f.URL}).Summed(sumTabClosed.With())
}

// closedUnder says whether err, met by a command in tab tabID, came of the tab closing. A
// command sent as the tab closes fails with "no such tab", or, when it was already on its way,
// with the debugger coming off; the latter is also what a tab going to a page Chrome keeps
// from extensions does, so the tab is looked for until it is gone or a second has passed.
func (e *Env) closedUnder(ctx context.Context, tabID int, err error) bool {
	detached := errors.Is(err, ErrDetached)
	if !detached && !errors.Is(err, ErrNoTab) {
		return false
	}
	deadline := time.Now().Add(time.Second)
	for {
		_, err := e.Browser.Tab(ctx, tabID)
		if errors.Is(err, ErrNoTab) {
			return true
		}
		if err != nil || !detached || time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// openerHears is how long, in ms, the page calls go to after a tab closed itself is given to
// hear from it (a message the closing window posted) before it is judged unchanged.
const openerHears = 500

// tabClosed says that the tab an action was in closed as it ran, and where calls without a
// tabId go now.
func (e *Env) tabClosed(ctx context.Context, tabID int) string {
	text := fmt.Sprintf("The tab it acted in (tabId %d) then closed: its page closed its own window once it was done (as sign-in and payment windows do), or someone closed it.", tabID)
	if t, err := e.tab(ctx, 0); err == nil {
		// The page that opened such a window hears from it as it closes (who signed in, that
		// the payment went through), a moment later: what it shows next is what it heard.
		if Scriptable(t.URL) {
			_ = e.call(ctx, t.ID, 0, pageFiles, "settle", map[string]int{"quiet": 100, "max": 1500, "least": openerHears}, &struct{}{})
		}
		text += fmt.Sprintf(" Calls without a tabId now go to tab %d: %q (%s).", t.ID, oneLine(t.Title), t.URL)
	}
	return text
}

// MaxResultChars bounds what one call says back, unless its input sets a size of its own (a
// snapshot's maxTokens, read_text's maxChars): a model reads it whole, and Claude Code refuses
// an MCP result past 25,000 tokens and warns past 10,000.
const MaxResultChars = 40000

// ownsSize is an input that sets how long its result may be.
type ownsSize interface{ ownSize() bool }

func (*SnapshotInput) ownSize() bool   { return true }
func (*ReadTextInput) ownSize() bool   { return true }
func (*GetContentInput) ownSize() bool { return true }

// cutLines is text cut to at most n bytes at a line's end, saying so; text as is when shorter.
func cutLines(text string, n int) string {
	if len(text) <= n {
		return text
	}
	keep := strings.LastIndexByte(text[:n], '\n') + 1
	if keep < n/2 {
		keep = n // one long line: cut inside it, on a character's start
		for keep > 0 && text[keep]&0xC0 == 0x80 {
			keep--
		}
	}
	rest := text[keep:]
	lines := strings.Count(strings.TrimRight(rest, "\n"), "\n") + 1
	what := fmt.Sprintf("%d more lines (%d characters) are", lines, len(rest))
	if lines == 1 {
		what = fmt.Sprintf("1 more line (%d characters) is", len(rest))
	}
	return text[:keep] + "\n[Cut here: " + what + " not shown, to keep the answer short. Narrow the call (a filter, fewer results) to see them.]\n"
}

// Step is one call an alias runs as: a tool of the registry and its arguments, and how long to
// wait after it.
type Step struct {
	Name   string // a tool of the registry
	Args   json.RawMessage
	WaitMs int
}

// Expand says which calls a call of t runs as: itself, or for an alias (seed 001's tab_read
// and tab_action), the tools of this registry that do the same, one per step, each to be
// checked, judged and run as if it had been sent alone. timeout bounds the whole series (0:
// none beyond each call's own).
func Expand(t Tool, args json.RawMessage) (steps []Step, timeout time.Duration, err error) {
	if t.expand == nil {
		return []Step{{Name: t.Name, Args: args}}, 0, nil
	}
	c, err := Check(t, args)
	if err != nil {
		return nil, 0, err
	}
	return t.expand(c.in)
}

// Run checks, resolves and runs the tool named name with args in env, with no gate: for tests
// and for reads the core does on its own.
func Run(ctx context.Context, env *Env, name string, args json.RawMessage) (*Result, error) {
	t, ok := Lookup(name)
	if !ok {
		return nil, failf("there is no tool %q; the tools are listed in your instructions", name)
	}
	c, err := Check(t, args)
	if err != nil {
		return nil, err
	}
	return c.Run(ctx, env)
}

// decode reads a tool's arguments, saying what is wrong in words the model can fix.
func decode(raw json.RawMessage, in any) error {
	if err := json.Unmarshal(raw, in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return failf("argument %q should be %s, not %s", te.Field, kind(te.Type.Kind().String()), te.Value)
		}
		return failf("the arguments are not a valid JSON object (%v)", err)
	}
	return nil
}

func kind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"):
		return "a whole number"
	case strings.HasPrefix(k, "float"):
		return "a number"
	case k == "bool":
		return "true or false"
	case k == "slice":
		return "a list"
	case k == "struct", k == "map":
		return "an object"
	}
	return "a " + k
}

// errorPage says that tab t shows Chrome's error page: which address did not load, and why
// when Chrome said.
func (e *Env) errorPage(ctx context.Context, t Tab) error {
	return failf("the tab shows Chrome's error page: %s could not be loaded %s", t.URL, e.whyNotLoaded(ctx, t.ID, t.URL))
}

// askedTab is the tab a tool's input names (its tabId), 0 when it names none.
func askedTab(in any) int {
	var t struct {
		TabID int `json:"tabId"`
	}
	if b, err := json.Marshal(in); err == nil {
		_ = json.Unmarshal(b, &t)
	}
	return t.TabID
}

// explain turns a browser failure into an error the model can act on.
func explain(ctx context.Context, err error) error {
	var te *Error
	var de *DialogError
	switch {
	case errors.As(err, &te), errors.As(err, &de):
		return err
	case errors.Is(err, ErrNoFileAccess):
		return failf("the user has not let Skiff read files on this computer (file:// pages): they can turn on “Allow access to file URLs” in Skiff's details at chrome://extensions, or attach the file to a message")
	case errors.Is(err, ErrRestricted):
		return failf("Chrome does not let extensions work on this page (browser pages such as chrome://, the Chrome Web Store and other extensions' pages are off limits). Open a web page instead")
	case errors.Is(err, ErrDetached):
		return failf("Skiff lost hold of the tab while acting (it went to a page Chrome keeps from extensions, or another debugger took it); look at the tab before going on")
	case errors.Is(err, ErrNoFrame):
		return failf("that frame is no longer on the page (it was removed, or it loaded another page); take a new snapshot")
	case errors.Is(err, ErrErrorPage):
		return failf("the tab shows Chrome's error page: its page could not be loaded %s", couldNotLoad)
	case errors.Is(err, ErrNoTab):
		return failf("that tab is closed; list the tabs with tabs_list")
	case errors.Is(err, ErrNoDebugger):
		return failf("Skiff cannot control this tab's input right now (DevTools or another debugger is attached to it, or the user stopped Skiff's control)")
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return failf("the page did not answer in time")
	}
	return err
}

// Env is what a run of tools shares: the browser, the tab it works in and the window it
// belongs to. One Env serves one agent run or one MCP session; it is safe for concurrent use.
type Env struct {
	Browser Browser
	// Timeout bounds each page operation (PageTimeout when zero).
	Timeout time.Duration
	// Moved, when set, is told the env's new current tab each time it changes (an outside
	// client's workspace stores it, to carry on in the same tab after a worker restart).
	Moved func(tabID int)
	// Incognito: the env may use tabs in incognito windows (a private chat's run, which Skiff
	// keeps in memory only: store.Private). Without it such a tab is not there: a chat kept
	// on this computer, or an outside agent, never lists, reads or acts on one.
	Incognito bool

	mu       sync.Mutex
	tabID    int
	windowID int
	notes    []string          // what a call's result says first (a tab Skiff had to load again)
	used     map[int]bool      // tabs this env worked in (their debugger is released at the end)
	opened   map[int]bool      // tabs this env opened (tab_open, or a new tab one of its actions opened)
	onOpen   map[int]func(int) // told each of them (OnOpen), by the key that stops it
	listened int
	// kept: the tabs an earlier run opened (OwnSince), each with the time from which its becoming
	// the active tab is the user's doing, not the task's.
	kept  map[int]keptTab
	loads map[int]bool // the downloads its results said
	// lastWatch is when the last action's watch began (downloadsFrom).
	lastWatch time.Time
	// lastAction is when the watch of the last action ended (StillAfterAction).
	lastAction time.Time
}

// acted notes that an action's watch ended now.
func (e *Env) acted() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.lastAction = time.Now()
}

// actedAt is when the watch of the env's last action ended (zero before its first).
func (e *Env) actedAt() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lastAction
}

// PageTimeout is how long a page operation may take by default.
var PageTimeout = 10 * time.Second

// NewEnv returns an Env working in tabID (0: the active tab when first needed) of windowID
// (0: the last focused window).
func NewEnv(b Browser, tabID, windowID int) *Env {
	return &Env{Browser: b, tabID: tabID, windowID: windowID, used: map[int]bool{}}
}

// TabID is the tab the env works in now (0 before it has one).
func (e *Env) TabID() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.tabID
}

// SetTab makes tabID the current tab.
func (e *Env) SetTab(tabID int) {
	e.mu.Lock()
	changed := e.tabID != tabID
	e.tabID = tabID
	moved := e.Moved
	e.mu.Unlock()
	if changed && moved != nil {
		moved(tabID)
	}
}

func (e *Env) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return PageTimeout
}

// ErrIncognito: a tab in an incognito window, for an env that may not use one (Env.Incognito).
var ErrIncognito = &Error{Msg: "that tab is in an incognito window, which Skiff keeps out of the chats it keeps on this computer and away from outside agents: the user can ask about it in the Skiff panel of that window"}

// mine refuses the tabs among ids the env may not use.
func (e *Env) mine(ctx context.Context, ids ...int) error {
	if e.Incognito {
		return nil
	}
	for _, id := range ids {
		if t, err := e.Browser.Tab(ctx, id); err == nil && t.Incognito {
			return ErrIncognito
		}
	}
	return nil
}

// tab resolves the tab a call targets: the one asked for, else the current one, else the
// active tab of the env's window (which becomes current). A tab in an incognito window is
// refused unless the env may use one.
func (e *Env) tab(ctx context.Context, asked int) (Tab, error) {
	t, err := e.resolve(ctx, asked)
	if err == nil && t.Incognito && !e.Incognito {
		return Tab{}, ErrIncognito
	}
	return t, err
}

func (e *Env) resolve(ctx context.Context, asked int) (Tab, error) {
	if asked > 0 {
		t, err := e.Browser.Tab(ctx, asked)
		if err != nil {
			return t, err
		}
		e.touch(t.ID)
		return t, nil
	}
	if id := e.TabID(); id > 0 {
		t, err := e.Browser.Tab(ctx, id)
		if err == nil {
			e.touch(t.ID)
			return t, nil
		}
		if !errors.Is(err, ErrNoTab) {
			return t, err
		}
	}
	e.mu.Lock()
	w := e.windowID
	e.mu.Unlock()
	t, err := e.Browser.ActiveTab(ctx, w)
	if err != nil {
		return t, err
	}
	e.SetTab(t.ID)
	e.touch(t.ID)
	return t, nil
}

// Current is the tab the env works in, resolved as a call with no tabId would resolve it.
func (e *Env) Current(ctx context.Context) (Tab, error) { return e.tab(ctx, 0) }

func (e *Env) touch(id int) {
	e.mu.Lock()
	e.used[id] = true
	e.mu.Unlock()
}

// opens notes that this env opened tab id.
func (e *Env) opens(id int) {
	e.Own(id)
	e.mu.Lock()
	tell := make([]func(int), 0, len(e.onOpen))
	for _, f := range e.onOpen {
		tell = append(tell, f)
	}
	e.mu.Unlock()
	for _, f := range tell {
		f(id)
	}
}

// OnOpen has f told each tab the env opens itself from now on (a chat, an outside client keep
// them, so that a worker restart, or the chat's next run, still knows them for its own), as
// well as whoever else listens; stop stops telling f (in any order: two runs of one outside
// client's task may end either way round).
func (e *Env) OnOpen(f func(tabID int)) (stop func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.onOpen == nil {
		e.onOpen = map[int]func(int){}
	}
	e.listened++
	key := e.listened
	e.onOpen[key] = f
	return func() {
		e.mu.Lock()
		delete(e.onOpen, key)
		e.mu.Unlock()
	}
}

// Own counts tab id as one this env opened itself (one the run a worker restart cut opened).
func (e *Env) Own(id int) {
	e.mu.Lock()
	if e.opened == nil {
		e.opened = map[int]bool{}
	}
	e.opened[id] = true
	e.mu.Unlock()
}

// OwnSince counts tab id, which an earlier run opened, as one this env opened, unless the user
// has gone to it after since (the end of that run): a tab the user took up is theirs again.
func (e *Env) OwnSince(id int, since time.Time) {
	e.Own(id)
	e.mu.Lock()
	if e.kept == nil {
		e.kept = map[int]keptTab{}
	}
	e.kept[id] = keptTab{since: since}
	e.mu.Unlock()
}

// keptTab is a tab an earlier run opened: since is the end of that run; fronted, that this env
// brought it to the front itself since.
type keptTab struct {
	since   time.Time
	fronted bool
}

// fronted notes that the env itself made tab id the active one (its becoming active then is
// not the user's doing).
func (e *Env) fronted(id int) {
	e.mu.Lock()
	if _, ok := e.kept[id]; ok {
		e.kept[id] = keptTab{since: time.Now().Add(time.Second), fronted: true} // Chrome's time for it may come a moment later
	}
	e.mu.Unlock()
}

// ownTab says whether tab t is one this env opened itself and, when an earlier run opened it,
// the user has not gone to it since, and is not in it now (one left in front, where the user
// may have taken it up), unless this env brought it there.
func (e *Env) ownTab(t Tab) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	k, kept := e.kept[t.ID]
	return e.opened[t.ID] && (!kept || t.LastAccessed <= k.since.UnixMilli() && (!t.Active || k.fronted))
}

// Opened reports whether this env opened tab id itself.
func (e *Env) Opened(id int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opened[id]
}

// Used lists the tabs this env worked in.
func (e *Env) Used() []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ids []int
	for id := range e.used {
		ids = append(ids, id)
	}
	return ids
}

// Scriptable reports whether Chrome lets an extension script a URL (a blob: document a web
// page made is that page's origin's).
func Scriptable(url string) bool {
	if rest, ok := strings.CutPrefix(url, "blob:"); ok {
		return (strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://")) && Scriptable(rest)
	}
	switch {
	case strings.HasPrefix(url, "http://"), strings.HasPrefix(url, "https://"), strings.HasPrefix(url, "file://"):
		return !strings.HasPrefix(url, "https://chrome.google.com/webstore") && !strings.HasPrefix(url, "https://chromewebstore.google.com")
	}
	return false
}
