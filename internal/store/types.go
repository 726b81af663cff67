package store

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/safety"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Message statuses. A message with no status is complete.
const (
	StatusStreaming   = "streaming"   // being written by a live stream
	StatusStopped     = "stopped"     // the user pressed Stop; Content is the partial reply
	StatusError       = "error"       // the provider failed; Content is what arrived before
	StatusInterrupted = "interrupted" // the worker died mid-stream; Content is the last saved text

	// A tool message's statuses (it also ends as "", error, stopped or interrupted).
	StatusPending = "pending" // waiting for its turn
	StatusAsking  = "asking"  // waiting for the user to allow or deny it
	StatusRunning = "running" // running
	StatusDenied  = "denied"  // the user (or the gate) did not allow it
)

// Live reports whether a status means something was still going on: after a worker restart
// such a message was cut off.
func Live(status string) bool {
	switch status {
	case StatusStreaming, StatusPending, StatusAsking, StatusRunning:
		return true
	}
	return false
}

// Message is one message of a session: the user's, the model's (with the tool calls it
// made), or a tool's result ("tool").
type Message struct {
	ID        string          `json:"id"`
	Role      string          `json:"role"` // "user", "assistant" or "tool"
	Content   string          `json:"content"`
	Reasoning string          `json:"reasoning,omitempty"`
	CreatedAt int64           `json:"createdAt"` // unix ms
	Status    string          `json:"status,omitempty"`
	Error     *ErrorInfo      `json:"error,omitempty"`
	Provider  string          `json:"provider,omitempty"`
	Model     string          `json:"model,omitempty"`
	Usage     *provider.Usage `json:"usage,omitempty"`
	// FirstMs and DoneMs are a reply's timing, in ms from CreatedAt (its request): when its
	// first text (or thought, or call) came, and when it ended. Zero: not known.
	FirstMs int64 `json:"firstMs,omitempty"`
	DoneMs  int64 `json:"doneMs,omitempty"`
	// AgentUse is, on a hosted agent's turn's last reply, the context window and the cost so
	// far that the agent last told of in the turn.
	AgentUse  *link.Usage         `json:"agentUse,omitempty"`
	Finish    string              `json:"finish,omitempty"`
	ToolCalls []provider.ToolCall `json:"toolCalls,omitempty"`
	// Page is the page context the user attached to this message: sent to the model as data.
	Page *Page `json:"page,omitempty"`
	// Images are the ids of the images the user attached to this message (SaveImage).
	Images []string `json:"images,omitempty"`
	// Notice is something the user should know about the message (a page that could not
	// be attached, a run stopped at the step limit).
	Notice string `json:"notice,omitempty"`
	// NoticeText is Notice as a catalog key and its arguments, which the panel renders in the
	// user's language (Notice is its English, for an export or an older panel).
	NoticeText *i18n.Text `json:"noticeText,omitempty"`
	// ContentText is Content as the panel shows it in the user's language, for a message Skiff
	// wrote itself (a workflow's replay says how it went); Content stays its English, which a
	// model and an export read.
	ContentText *i18n.Text `json:"contentText,omitempty"`

	// Versions are a reply's other versions, oldest first, and Version is where this one stands
	// among them all (0: the first): Regenerate keeps the reply it replaces, and the user may go
	// back to one (each is a whole reply, its own Versions empty).
	Versions []Message `json:"versions,omitempty"`
	Version  int       `json:"version,omitempty"`

	// Tool is set on a tool message: the call it answers and what came of it.
	Tool *ToolRun `json:"tool,omitempty"`
	// Plan is a hosted agent's plan (the latest: each update replaces it).
	Plan []link.PlanItem `json:"plan,omitempty"`
}

// ToolRun is a tool call and its result, as a tool message holds it. Content (of the message)
// is the result text the model reads.
type ToolRun struct {
	CallID   string          `json:"callId"`
	Name     string          `json:"name"`
	Args     json.RawMessage `json:"args"`
	Risk     string          `json:"risk"`
	What     string          `json:"what,omitempty"` // the call in words, for the card and the ask (English)
	WhatText *i18n.Text      `json:"whatText,omitempty"`
	Summary  string          `json:"summary,omitempty"` // the result in a few words
	// SummaryText is Summary as a sentence the card shows in the user's language.
	SummaryText *i18n.Text `json:"summaryText,omitempty"`
	IsError     bool       `json:"isError,omitempty"`
	Untrusted   bool       `json:"untrusted,omitempty"` // the result holds what a page says
	URL         string     `json:"url,omitempty"`
	Origin      string     `json:"origin,omitempty"`
	Image       string     `json:"image,omitempty"` // id of a stored image (Store.Image)
	StartedAt   int64      `json:"startedAt,omitempty"`
	DurationMs  int64      `json:"durationMs,omitempty"`
	Decision    string     `json:"decision,omitempty"` // how the gate decided
	// DecisionText is Decision as a sentence the card shows in the user's language.
	DecisionText *i18n.Text `json:"decisionText,omitempty"`
	// TabID is the tab the call works in; Sensitive: it types into a password or payment
	// field; AskedAt: when the user was asked (a call still asking after a worker restart
	// waits for its answer until the ask times out).
	TabID     int        `json:"tabId,omitempty"`
	Sensitive bool       `json:"sensitive,omitempty"`
	AskedAt   int64      `json:"askedAt,omitempty"`
	Asks      string     `json:"asks,omitempty"` // why the gate asks the user, in words (English)
	AsksText  *i18n.Text `json:"asksText,omitempty"`
	// Checked is the state a click left a checkbox, radio or switch in (tool.Result.Checked).
	Checked *bool `json:"checked,omitempty"`
	// Path: select_option's values were one path down a list's levels (tool.Result.Path).
	Path bool `json:"path,omitempty"`
	// Refused: the page did not take what the call sent (tool.Result.Refused), in words.
	Refused string `json:"refused,omitempty"`
	// Irreversible: what the element says that makes this call count as destructive.
	Irreversible string `json:"irreversible,omitempty"`
	// LeadsTo: where the call sends the browser when that is another site (a link's address,
	// a form's action); the gate treats it as moving there.
	LeadsTo string `json:"leadsTo,omitempty"`
	// Flags: what in the result reads like instructions to the model (internal/safety).
	Flags []safety.Finding `json:"flags,omitempty"`
	// Quoted: the result may quote what a page says (an error naming an element, a dialog's
	// message), so the model reads it fenced as data even if nothing ran.
	Quoted bool `json:"quoted,omitempty"`
	// Step is the step of a batch (seed 001's tab_action) the call is at: a run resumed after
	// a worker restart goes on from it, and runs no step twice.
	Step int `json:"step,omitempty"`
	// Locations and Diffs: the files a hosted agent's call touches, and its changes as
	// unified diffs.
	Locations []string    `json:"locations,omitempty"`
	Diffs     []link.Diff `json:"diffs,omitempty"`
	// Who asks, when it is not the chat's model (a hosted agent: "Gemini CLI").
	Who string `json:"who,omitempty"`
	// At is the page the call acted on, as it was when the call was described (URL may later
	// say where the call led).
	At string `json:"at,omitempty"`
	// Elements are what the call's refs stood for, as the page described them before the gate
	// ruled: a workflow saved from the chat finds them again by these (internal/workflow).
	Elements []tool.Element `json:"elements,omitempty"`
	// In is the tab the call worked in (its tabId, else the current tab), and Opened the tabs
	// it opened (a link to a new tab, tab_open): a workflow saved from the chat replays each
	// step in the tab of the run it belongs to.
	In     int   `json:"in,omitempty"`
	Opened []int `json:"opened,omitempty"`
}

// Page is what the user was looking at when they sent a message: the tab's URL and title, the
// text they had selected, and the page's readable text as markdown (extracted in the page).
// All of it is untrusted: the model is told it is data, never instructions.
type Page struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Selection string `json:"selection,omitempty"`
	Text      string `json:"text,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	// Flags: what in the page reads like instructions to the model (internal/safety).
	Flags []safety.Finding `json:"flags,omitempty"`
}

// Limits on page context, in bytes: enough for a long article, small enough to leave the model
// room to answer (about 8k tokens of page text).
const (
	MaxPageText      = 32 << 10
	MaxPageSelection = 8 << 10
)

// Clip bounds the page context to MaxPageText and MaxPageSelection, cutting at a UTF-8
// boundary and marking what was cut.
func (p *Page) Clip() {
	var cut bool
	p.Text, cut = clip(p.Text, MaxPageText)
	p.Truncated = p.Truncated || cut
	p.Selection, cut = clip(p.Selection, MaxPageSelection)
	p.Truncated = p.Truncated || cut
	p.Title, _ = clip(p.Title, 500)
	p.URL, _ = clip(p.URL, 2048)
}

func clip(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// ErrorInfo is a failure as the panel shows it.
type ErrorInfo struct {
	Kind    string `json:"kind"`
	Message string `json:"message"` // in English
	// Text is Message as a catalog key and its arguments, for the panel to render in the
	// user's language.
	Text         *i18n.Text `json:"text,omitempty"`
	Status       int        `json:"status,omitempty"`
	RetryAfterMs int64      `json:"retryAfterMs,omitempty"`
}

// Header is what a session and its index entry share.
type Header struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
}

// Session is a conversation.
type Session struct {
	Header
	// Agent is the chat's mode: the model may use the browser tools.
	Agent    bool      `json:"agent,omitempty"`
	Messages []Message `json:"messages"`
	// Commands are the slash commands a hosted agent offers in this chat (the composer offers
	// them after a "/").
	Commands Commands `json:"commands,omitempty"`
	// AgentOptions are a hosted agent's config options for this chat (its model picker).
	AgentOptions []link.ConfigOption `json:"agentOptions,omitempty"`
	// AgentSession is a hosted agent's own id for this chat's session: skiffd resumes it
	// (session/resume or session/load) when the chat goes on after skiffd or the agent
	// restarted. The chat's history is Skiff's, here; the agent keeps its own.
	AgentSession string `json:"agentSession,omitempty"`
	// Workflow is the saved workflow this chat replays, and how far it got.
	Workflow *WorkflowRun `json:"workflow,omitempty"`
	// PlanFirst: each run of this agent chat reads and proposes a plan before it acts; Plan is
	// the current run's plan once the user approved it.
	PlanFirst bool  `json:"planFirst,omitempty"`
	Plan      *Plan `json:"plan,omitempty"`
	// BranchOf is the chat this one was branched from (Branch), as it was named then.
	BranchOf *BranchOf `json:"branchOf,omitempty"`
}

// BranchOf names the chat a branch came from: its id (which may be gone since) and its title.
type BranchOf struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Plan is a run's plan as the user approved it (and may have edited it): its steps, the sites
// it works on and the kinds of action it takes there ("navigate", "fill", "click"). Those
// actions on those sites do not ask during the run; anything else still does.
type Plan struct {
	Steps []string `json:"steps"`
	Sites []string `json:"sites"`
	Kinds []string `json:"kinds"`
}

// WorkflowRun is a chat's replay of a workflow: which one, the step it is at (each step is a
// tool message of the chat; Next counts the ones that ran), and where it stopped, if it did. A
// replay a worker restart cut off is stopped, never resumed: a step it had started may have run.
type WorkflowRun struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version int    `json:"version"`
	Next    int    `json:"next"`
	Stop    string `json:"stop,omitempty"` // why it stopped, in words; "" while it goes or when it is done
	Done    bool   `json:"done,omitempty"`
	// RepairMsg is the message that handed the rest to the model (the user allowed it), and
	// RepairFrom the step the model took over at: saving the chat makes the workflow's next
	// version of the steps before it and the model's calls after it.
	RepairMsg  string `json:"repairMsg,omitempty"`
	RepairFrom int    `json:"repairFrom,omitempty"`
	// StopKind is how it stopped (workflow.Stop's kinds) and Reason why, for the model that may
	// finish it later; Values are the run's values but its secrets, which live only in memory.
	StopKind string            `json:"stopKind,omitempty"`
	Reason   string            `json:"reason,omitempty"`
	Values   map[string]string `json:"values,omitempty"`
}

// Meta is a session's index entry.
type Meta struct {
	Header
	Count int `json:"count"`
	// Pinned: the user pinned the chat (its place in History is first). Not stored with the
	// chat: Sessions and Search set it from the pins.
	Pinned bool `json:"pinned,omitempty"`
}

// Meta returns the index entry for s.
func (s *Session) Meta() Meta { return Meta{Header: s.Header, Count: len(s.Messages)} }

// TitleFrom makes a session title from the first user message: its first line, at most 50
// characters, cut at a word when one ends near the limit.
func TitleFrom(text string) string {
	text = strings.TrimSpace(text)
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i]
	}
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= 50 {
		if text == "" {
			return "New chat"
		}
		return text
	}
	r := []rune(text)[:50]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > 30 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// Memory is a fact the user (or the model, with permission) asked Skiff to remember.
type Memory struct {
	ID        string `json:"id"`
	Content   string `json:"content"`
	Source    string `json:"source"` // "user", "auto" or "agent"
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt,omitempty"`
}

// Memory sources.
const (
	SourceUser  = "user"
	SourceAuto  = "auto"
	SourceAgent = "agent"
)

// MaxMemory is the longest memory, in bytes.
const MaxMemory = 2000

// Settings are the user's choices. API keys live here, in extension storage: they are sent
// only to their own provider and never to the panel or a page.
type Settings struct {
	Provider     string            `json:"provider"`
	Models       map[string]string `json:"models"`   // chosen model per provider
	APIKeys      map[string]string `json:"apiKeys"`  // per provider
	BaseURLs     map[string]string `json:"baseURLs"` // per provider; overrides the default
	SystemPrompt string            `json:"systemPrompt"`
	Temperature  float64           `json:"temperature"`
	MaxTokens    int               `json:"maxTokens"`
	Streaming    bool              `json:"streaming"`
	PageContext  bool              `json:"pageContext"`
	Memories     bool              `json:"memories"`
	MemoryCount  int               `json:"memoryCount"`
	// MaxSteps bounds an agent run: how many model turns it may take.
	MaxSteps int `json:"maxSteps"`
	// AskSeconds is how long a tool call waits for the user's answer; no answer is a no.
	// 0 (settings saved before it existed) is DefaultAskSeconds.
	AskSeconds int `json:"askSeconds"`
	// Daemon is the link to skiffd, which lends the browser's tools to outside agents.
	Daemon DaemonSettings `json:"daemon"`
	// Bridge is seed 000's MCP bridge: Skiff connects to an agent's {URL}/ext-mcp and answers
	// its tool calls, each through the gate.
	Bridge BridgeSettings `json:"bridge,omitzero"`
	// Language is the panel's: "en", "fr", or "auto" ("" too) for the browser's. What the
	// model reads stays English.
	Language string `json:"language,omitempty"`
	// Prompts are the user's saved prompts, offered after a "/" in the message box. nil (never
	// saved) gives the panel's own, in the user's language; an empty list is none.
	Prompts []Prompt `json:"prompts,omitzero"`
	// Speech is how Read aloud reads a reply.
	Speech Speech `json:"speech,omitzero"`
}

// Speech is how Read aloud reads: Voice is a voice's voiceURI as the browser names it ("": the
// browser's voice for the reply's language), Rate its speed (0: the voice's own, else 0.5–2).
// Auto reads the replies to what the user sends aloud as they come.
type Speech struct {
	Voice string  `json:"voice,omitempty"`
	Rate  float64 `json:"rate,omitempty"`
	Auto  bool    `json:"auto,omitempty"`
}

// MaxVoice bounds Speech.Voice (a voiceURI is a name, not a document).
const MaxVoice = 200

// Prompt is a saved prompt: typing "/" and its name in the message box puts its text there.
type Prompt struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Limits of the saved prompts.
const (
	MaxPrompts    = 50
	MaxPromptName = 32
	MaxPromptText = 8000
)

// Languages are the user's languages Skiff speaks (ui/_locales).
var Languages = i18n.Languages

// DaemonSettings is the link to skiffd: off until the user turns it on with the pairing token
// skiffd printed. Native links through Chrome native messaging instead of the port.
type DaemonSettings struct {
	Enabled bool   `json:"enabled"`
	Port    int    `json:"port"` // 0: link.DefaultPort
	Token   string `json:"token,omitempty"`
	Native  bool   `json:"native,omitempty"`
}

// BridgeSettings is the connection to an agent that speaks seed 000's bridge protocol: off
// until the user turns it on with the agent's address (http, https, ws or wss; /ext-mcp is
// added) and the token the agent gave them.
type BridgeSettings struct {
	Enabled bool   `json:"enabled"`
	URL     string `json:"url,omitempty"`
	Token   string `json:"token,omitempty"`
}

// BridgeURL is the bridge's WebSocket address for an agent address, and the agent's host, or
// an error in words. (weburl, not net/url: core.wasm stays small.)
func BridgeURL(agent string) (addr, host string, err error) {
	p, ok := weburl.Split(strings.TrimSpace(agent))
	if !ok {
		return "", "", errors.New("not an address")
	}
	scheme := ""
	switch p.Scheme {
	case "http", "ws":
		scheme = "ws"
	case "https", "wss":
		scheme = "wss"
	default:
		return "", "", errors.New("not an http, https, ws or wss address")
	}
	path := p.Rest
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	return scheme + "://" + p.Host + strings.TrimSuffix(path, "/") + "/ext-mcp", p.Host, nil
}

// DefaultAskSeconds is how long a call waits for the user's answer on a fresh install.
const DefaultAskSeconds = 120

// AskTimeout is how long a tool call waits for the user's answer.
func (s Settings) AskTimeout() time.Duration {
	if s.AskSeconds <= 0 {
		return DefaultAskSeconds * time.Second
	}
	return time.Duration(s.AskSeconds) * time.Second
}

// DefaultMaxSteps is the step limit of an agent run on a fresh install.
const DefaultMaxSteps = 25

// DefaultSettings are the settings of a fresh install.
func DefaultSettings() Settings {
	s := Settings{
		Provider:     "openai",
		SystemPrompt: "You are Skiff, a helpful assistant in the user's browser. Answer concisely and use Markdown.",
		Temperature:  0.7,
		MaxTokens:    4096,
		Streaming:    true,
		PageContext:  true,
		Memories:     true,
		MemoryCount:  10,
		MaxSteps:     DefaultMaxSteps,
		AskSeconds:   DefaultAskSeconds,
	}
	s.fill()
	return s
}

func (s *Settings) fill() {
	if s.Models == nil {
		s.Models = map[string]string{}
	}
	if s.APIKeys == nil {
		s.APIKeys = map[string]string{}
	}
	if s.BaseURLs == nil {
		s.BaseURLs = map[string]string{}
	}
}

// FieldError is a validation failure of one settings field, for showing next to that field.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"` // in English
	// Text is Message for the panel to render in the user's language (nil: Message only).
	Text *i18n.Text `json:"text,omitempty"`
}

// fieldError is field's error, sentence s with its arguments.
func fieldError(field string, s i18n.Sentence, args ...any) *FieldError {
	return FieldSays(field, s.With(args...))
}

// FieldErr is field's error err, said as its sentence when it is one.
func FieldErr(field string, err error) *FieldError {
	var ie *i18n.Error
	if errors.As(err, &ie) {
		return FieldSays(field, ie.Text)
	}
	return &FieldError{Field: field, Message: err.Error()}
}

// FieldSays is field's error said as t.
func FieldSays(field string, t i18n.Text) *FieldError {
	return &FieldError{Field: field, Message: t.English(), Text: &t}
}

// The checks' words for the user (their French is in ui/_locales).
var (
	sayAgentName   = i18n.Sentence{Key: "fieldAgentName", English: "name the agent skiffd hosts: acp:NAME"}
	sayNoProvider  = i18n.Sentence{Key: "fieldNoProvider", English: "unknown provider “$1”"}
	sayTemperature = i18n.Sentence{Key: "fieldTemperature", English: "must be between 0 and 2"}
	sayMaxTokens   = i18n.Sentence{Key: "fieldMaxTokens", English: "must be between 1 and 200000"}
	sayMemoryCount = i18n.Sentence{Key: "fieldMemoryCount", English: "must be between 0 and 100"}
	sayMaxSteps    = i18n.Sentence{Key: "fieldMaxSteps", English: "must be between 1 and 200"}
	sayAskSeconds  = i18n.Sentence{Key: "fieldAskSeconds", English: "must be between 5 and 3600 seconds"}
	sayLanguage    = i18n.Sentence{Key: "fieldLanguage", English: "Skiff does not speak “$1”; choose English or French"}
	sayPort        = i18n.Sentence{Key: "fieldPort", English: "must be a port between 1024 and 65535"}
	saySpeechRate  = i18n.Sentence{Key: "fieldSpeechRate", English: "the reading speed is between 0.5 and 2 times the voice's own"}
	saySpeechVoice = i18n.Sentence{Key: "fieldSpeechVoice", English: "a voice's name is at most $1 characters"}
	sayTitleEmpty  = i18n.Sentence{Key: "fieldTitleEmpty", English: "a title cannot be empty"}
	sayTitleLong   = i18n.Sentence{Key: "fieldTitleLong", English: "a title is at most 500 characters"}
	sayMemoryEmpty = i18n.Sentence{Key: "fieldMemoryEmpty", English: "a memory cannot be empty"}
	sayMemoryLong  = i18n.Sentence{Key: "fieldMemoryLong", English: "a memory is at most 2000 characters"}
	sayScheduleBad = i18n.Sentence{Key: "fieldScheduleBad", English: "This schedule cannot be saved: $1."}
	sayScheduleMax = i18n.Sentence{Key: "fieldScheduleMax", English: "Skiff keeps at most $1 schedules: delete one first."}
	sayWorkflowBad = i18n.Sentence{Key: "fieldWorkflowBad", English: "This workflow cannot be saved: $1."}
	sayBridgeURL   = i18n.Sentence{Key: "fieldBridgeURL", English: "the agent's address, as http://host:port"}
	sayWorkflowMax = i18n.Sentence{Key: "fieldWorkflowMax", English: "Skiff keeps at most $1 workflows: delete one first."}
	sayPromptMax   = i18n.Sentence{Key: "fieldPromptMax", English: "Skiff keeps at most $1 prompts: delete one first"}
	sayPromptNone  = i18n.Sentence{Key: "fieldPromptNone", English: "a prompt has no name: give it one word, typed after a “/”"}
	sayPromptName  = i18n.Sentence{Key: "fieldPromptName", English: "a prompt's name is one word of letters, digits, - or _, at most $1 characters: “$2” is not"}
	sayPromptTwice = i18n.Sentence{Key: "fieldPromptTwice", English: "two prompts are named “$1”"}
	sayPromptEmpty = i18n.Sentence{Key: "fieldPromptEmpty", English: "the prompt “$1” has no text"}
	sayPromptLong  = i18n.Sentence{Key: "fieldPromptLong", English: "the prompt “$1” is longer than $2 characters"}
)

// SetNotice sets the message's notice: its text, and its English.
func (m *Message) SetNotice(t i18n.Text) {
	m.Notice, m.NoticeText = t.English(), &t
}

// SetAsks sets why the gate asks: its text, and its English.
func (t *ToolRun) SetAsks(why i18n.Text) {
	t.Asks, t.AsksText = why.English(), &why
}

// Failure is an ErrorInfo of kind whose message is t.
func Failure(kind string, t i18n.Text) *ErrorInfo {
	e := &ErrorInfo{Kind: kind, Message: t.English()}
	if !t.IsZero() {
		e.Text = &t
	}
	return e
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Validate checks every field and returns the first problem as a *FieldError.
func (s Settings) Validate() error {
	if name, ok := strings.CutPrefix(s.Provider, "acp:"); ok {
		if name == "" {
			return fieldError("provider", sayAgentName)
		}
	} else if _, ok := provider.Lookup(s.Provider); !ok {
		return fieldError("provider", sayNoProvider, s.Provider)
	}
	if s.Temperature < 0 || s.Temperature > 2 {
		return fieldError("temperature", sayTemperature)
	}
	if s.MaxTokens < 1 || s.MaxTokens > 200000 {
		return fieldError("maxTokens", sayMaxTokens)
	}
	if s.MemoryCount < 0 || s.MemoryCount > 100 {
		return fieldError("memoryCount", sayMemoryCount)
	}
	if s.MaxSteps < 1 || s.MaxSteps > 200 {
		return fieldError("maxSteps", sayMaxSteps)
	}
	if s.AskSeconds != 0 && (s.AskSeconds < 5 || s.AskSeconds > 3600) {
		return fieldError("askSeconds", sayAskSeconds)
	}
	if s.Language != "" && s.Language != "auto" && !slices.Contains(Languages, s.Language) {
		return fieldError("language", sayLanguage, s.Language)
	}
	if err := checkPrompts(s.Prompts); err != nil {
		return err
	}
	if r := s.Speech.Rate; r != 0 && (r < 0.5 || r > 2) {
		return fieldError("speechRate", saySpeechRate)
	}
	if len(s.Speech.Voice) > MaxVoice {
		return fieldError("speechVoice", saySpeechVoice, MaxVoice)
	}
	if s.Daemon.Port != 0 && (s.Daemon.Port < 1024 || s.Daemon.Port > 65535) {
		return fieldError("daemonPort", sayPort)
	}
	if s.Bridge.Enabled || s.Bridge.URL != "" {
		if _, _, err := BridgeURL(s.Bridge.URL); err != nil {
			return fieldError("bridgeURL", sayBridgeURL)
		}
	}
	for id, u := range s.BaseURLs {
		if u == "" {
			continue
		}
		if err := provider.CheckBaseURL(u); err != nil {
			return FieldErr("baseURL."+id, err)
		}
	}
	return nil
}

// checkPrompts says what is wrong with the saved prompts, as the field "prompts": too many, a
// name that is not one word (it is typed after a "/"), two of one name (case aside), a prompt
// without text or too long.
func checkPrompts(ps []Prompt) error {
	if len(ps) > MaxPrompts {
		return fieldError("prompts", sayPromptMax, MaxPrompts)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if p.Name == "" {
			return fieldError("prompts", sayPromptNone)
		}
		if !promptName(p.Name) {
			return fieldError("prompts", sayPromptName, MaxPromptName, p.Name)
		}
		k := strings.ToLower(p.Name)
		if seen[k] {
			return fieldError("prompts", sayPromptTwice, p.Name)
		}
		seen[k] = true
		if strings.TrimSpace(p.Text) == "" {
			return fieldError("prompts", sayPromptEmpty, p.Name)
		}
		if utf8.RuneCountInString(p.Text) > MaxPromptText {
			return fieldError("prompts", sayPromptLong, p.Name, MaxPromptText)
		}
	}
	return nil
}

// promptName says whether name is a prompt's name: 1 to MaxPromptName letters (any script),
// digits, - or _.
func promptName(name string) bool {
	n := 0
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' {
			return false
		}
		n++
	}
	return n > 0 && n <= MaxPromptName
}

// Resolve returns the provider the settings point at, with its base URL override applied,
// and its key and model.
func (s Settings) Resolve() (p provider.Provider, key, model string, err error) {
	p, ok := provider.Lookup(s.Provider)
	if !ok {
		return p, "", "", fieldError("provider", sayNoProvider, s.Provider)
	}
	if p, err = p.WithBaseURL(s.BaseURLs[p.ID]); err != nil {
		return p, "", "", FieldErr("baseURL."+p.ID, err)
	}
	model = s.Models[p.ID]
	if model == "" && len(p.Models) > 0 {
		model = p.Models[0].ID
	}
	return p, s.APIKeys[p.ID], model, nil
}

// Commands are a hosted agent's slash commands. Chats stored before they kept descriptions
// hold bare names, which read as commands without one.
type Commands []link.Command

func (c *Commands) UnmarshalJSON(b []byte) error {
	var names []string
	if json.Unmarshal(b, &names) == nil {
		*c = nil
		for _, n := range names {
			*c = append(*c, link.Command{Name: n})
		}
		return nil
	}
	var full []link.Command
	if err := json.Unmarshal(b, &full); err != nil {
		return err
	}
	*c = full
	return nil
}
