package tool

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Browser is what the tools need from the browser, in parts: tabs, navigation, tab groups,
// page-side code, capture, the debugger and history. internal/chrome implements all of it over
// the chrome.* APIs; a test fake implements the parts it needs and Compose fills in the rest.
// Every method that can wait takes a context, and implementations give up when it is done.
type Browser interface {
	Tabs
	Navigator
	Grouper
	Pages
	Capturer
	Debugger
	History
	Downloads
}

// Downloads follows what the browser downloads, so that an action that sets one off can say
// what came of it (chrome.downloads; no tab is named, so it is matched by time and referrer).
type Downloads interface {
	// DownloadsSince lists the downloads the browser began since t, as they began.
	DownloadsSince(t time.Time) []Download
	// Download is a download as it is now.
	Download(ctx context.Context, id int) (Download, error)
	// CommittedSince says whether the tab's page changed since t (its main frame committed a
	// navigation): a tab opened at a file's address never does, the browser downloads it.
	CommittedSince(tabID int, t time.Time) bool
	// NavigatedSince says whether the tab's main frame set out for another page (a new
	// document, at another address or the same) since t, whether or not it has come.
	NavigatedSince(tabID int, t time.Time) bool
}

// Arriver knows whether a tab's main frame set out for a page that has not come yet: Chrome
// said it set out, and has said neither that it committed nor that it failed since.
type Arriver interface {
	Arriving(tabID int) bool
}

// Download is a file the browser downloads: where from, the page that led to it (Referrer),
// where it is saved (Filename, a full path; empty while the browser asks the user where), and
// how far it is.
type Download struct {
	ID       int
	URL      string
	Referrer string
	Filename string
	// State is "in_progress", "interrupted" or "complete"; Error says why it was interrupted
	// (chrome.downloads' InterruptReason: "NETWORK_FAILED", "SERVER_BAD_CONTENT"…).
	State, Error string
	// Danger is what Chrome holds it for until the user keeps it ("" or "safe" when nothing).
	Danger          string
	Received, Total int64
	At              time.Time
}

// Tabs lists, opens, closes and focuses tabs.
type Tabs interface {
	// Tabs lists tabs; windowID 0 means every window.
	Tabs(ctx context.Context, windowID int) ([]Tab, error)
	// Tab returns one tab.
	Tab(ctx context.Context, id int) (Tab, error)
	// ActiveTab is the tab the user is looking at in window windowID (0: the last focused
	// window), never one of Skiff's own pages.
	ActiveTab(ctx context.Context, windowID int) (Tab, error)
	// OpenTab opens url in a new tab of window windowID (0: the last focused window;
	// NewWindow: a new window that does not take the focus).
	OpenTab(ctx context.Context, url string, active bool, windowID int) (Tab, error)
	CloseTabs(ctx context.Context, ids []int) error
	// ActivateTab makes a tab the active one of its window and focuses the window.
	ActivateTab(ctx context.Context, id int) error
}

// Navigator loads pages in a tab. Navigate loads url; Back, Forward and Reload move in its
// history. They return once the navigation is started, not loaded.
type Navigator interface {
	Navigate(ctx context.Context, id int, url string) error
	Back(ctx context.Context, id int) error
	Forward(ctx context.Context, id int) error
	Reload(ctx context.Context, id int) error
}

// Grouper puts tabs in a group (a new one when groupID < 0) with a title and a colour and
// returns its id; Ungroup takes tabs out of their groups.
type Grouper interface {
	Group(ctx context.Context, ids []int, groupID int, title, color string) (int, error)
	Ungroup(ctx context.Context, ids []int) error
}

// Pages runs Skiff's page-side code in a tab's frames.
type Pages interface {
	// Frames lists a tab's frames (frame 0 is the top document). A child frame whose page did
	// not load (Chrome shows its error page there: nothing of the site to read or act on) is
	// left out.
	Frames(ctx context.Context, tabID int) ([]Frame, error)
	// Script runs page-side code (ext/page) in frames of a tab and returns each frame's
	// result as JSON.
	Script(ctx context.Context, s Script) ([]FrameResult, error)
}

// Capturer takes a screenshot of what the tab shows, as image bytes of the given format
// ("jpeg" or "png").
type Capturer interface {
	Capture(ctx context.Context, tabID int, format string, quality int) ([]byte, error)
}

// Debugger sends trusted input and follows a tab's JavaScript dialogs.
type Debugger interface {
	// Debug sends a Chrome DevTools Protocol command to a tab, attaching the debugger first
	// if needed. It fails with ErrNoDebugger when the debugger cannot be used on the tab.
	Debug(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error)
	// Dialog reports the JavaScript dialog (alert, confirm, prompt, beforeunload) the tab is
	// showing, if Skiff has seen one open.
	Dialog(tabID int) (Dialog, bool)
	// FileChooser is the file chooser the tab's page asked for since t while choosers were
	// intercepted (Page.setInterceptFileChooserDialog): a button that calls input.click() on
	// a file field, which would otherwise put the system's file dialog in front of the user.
	FileChooser(tabID int, t time.Time) (Chooser, bool)
	// RequestsSince counts the fetch and XHR requests the tab's page began since t that have
	// not ended, while Skiff follows its requests (Network.enable): what an action sent that
	// the page has not heard back from.
	RequestsSince(tabID int, t time.Time) int
	// NetLog lists the requests of the tab the debugger saw while Skiff followed them (during
	// actions), oldest first, and when it last stopped following them: a request without its
	// end that began before then had its answer unseen.
	NetLog(tabID int) ([]NetRequest, time.Time)
	// Console lists the console events the debugger sent for the tab since t
	// (Runtime.consoleAPICalled, Runtime.exceptionThrown, Log.entryAdded), as they came.
	Console(tabID int, t time.Time) []ConsoleEvent
	// AnswerDialog accepts or dismisses the tab's dialog (promptText answers a prompt).
	AnswerDialog(ctx context.Context, tabID int, accept bool, promptText string) error
	// Release gives a tab back: the debugger detaches from it if Skiff attached it.
	Release(ctx context.Context, tabID int)
}

// NetRequest is a request the debugger saw a tab's page send (Network.requestWillBeSent), and
// what came of it: its status, its failure (Chrome's net error, "canceled", or why it was
// blocked), whether it ended.
type NetRequest struct {
	ID, URL, Method, Type string
	Status                int
	Failed                string
	Done                  bool
	At                    time.Time
}

// ConsoleEvent is an event of a tab's console as the debugger sent it: its method and its
// params as they are (console_messages reads them).
type ConsoleEvent struct {
	Method string
	Params json.RawMessage
	At     time.Time
}

// Chooser is a file chooser a page asked for (Page.fileChooserOpened): the file field that
// asked, which need not be in the document (a script's own input), and whether it takes several.
type Chooser struct {
	At            time.Time
	BackendNodeID int
	Multiple      bool
}

// History reads and deletes the browser's history.
type History interface {
	SearchHistory(ctx context.Context, q HistoryQuery) ([]HistoryItem, error)
	Visits(ctx context.Context, url string) ([]Visit, error)
	DeleteURL(ctx context.Context, url string) error
	DeleteRange(ctx context.Context, startMs, endMs int64) error
}

// NewWindow asks OpenTab for a new window of its own.
const NewWindow = -1

// Tab is a browser tab. URL and Title are empty for pages Skiff may not see.
type Tab struct {
	ID       int    `json:"id"`
	WindowID int    `json:"windowId"`
	GroupID  int    `json:"groupId"` // -1: in no group
	Index    int    `json:"index"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Active   bool   `json:"active"`
	Status   string `json:"status"` // "loading" or "complete"
	// Opener is the tab whose page opened this one (a link to a new tab, window.open), or 0.
	Opener int `json:"openerTabId,omitempty"`
	// Pending is where a navigation that has started but not committed yet goes ("" when
	// none): the tab still shows, and reports, the page it is leaving.
	Pending string `json:"pending,omitempty"`
	// Incognito: the tab is in an incognito window (Skiff keeps nothing of a chat about it).
	Incognito bool `json:"incognito,omitempty"`
	// LastAccessed is when the tab last became the active one of its window (unix ms; 0 when
	// Chrome does not say).
	LastAccessed int64 `json:"lastAccessed,omitempty"`
}

// Frame is a document in a tab.
type Frame struct {
	ID       int    `json:"frameId"`
	ParentID int    `json:"parentFrameId"` // -1 for the top document
	URL      string `json:"url"`
	// Failed says the frame's page did not load (Chrome shows its error page there, which no
	// extension may script): it is not read, and its iframe says so.
	Failed bool `json:"failed,omitempty"`
}

// scriptable is the set of frames Skiff can script: those that show a web page, and those a
// page wrote itself (about:blank, about:srcdoc: the body of a rich text editor, as TinyMCE's),
// which belong to the page of their parent.
func scriptable(frames []Frame) map[int]bool {
	byID := make(map[int]Frame, len(frames))
	for _, f := range frames {
		byID[f.ID] = f
	}
	out := map[int]bool{}
	for _, f := range frames {
		for g, d := f, 0; d <= len(frames); d++ {
			if Scriptable(g.URL) {
				out[f.ID] = true
				break
			}
			p, ok := byID[g.ParentID]
			if g.URL != "about:blank" && g.URL != "about:srcdoc" || g.ParentID < 0 || !ok {
				break
			}
			g = p
		}
	}
	return out
}

// live is frames without those whose page did not load.
func live(frames []Frame) []Frame {
	out := frames[:0:0]
	for _, f := range frames {
		if !f.Failed {
			out = append(out, f)
		}
	}
	return out
}

// World is where page-side code runs: Skiff's own isolated world (the page cannot see or
// change it) or the page's main world (run_script only).
type World string

const (
	Isolated World = "ISOLATED"
	Main     World = "MAIN"
)

// Script is page-side code to run: Files (paths under ext/) are injected into each frame
// that does not have them yet, then Call is called with Args, in every frame of Frames
// (empty: the top frame only; AllFrames: all of them).
type Script struct {
	TabID     int
	Frames    []int
	AllFrames bool
	World     World
	Files     []string
	// Call names a function of the page-side API (globalThis.skiffPage in ext/page/skiff.js)
	// or, in the main world, is the source of a script to evaluate.
	Call string
	Args any
	// Origin, when set, is the site the call was approved for: a frame whose top document is
	// on another site refuses the call (ext/sw.js), so a tab that moved on is not read.
	Origin string
}

// FrameResult is what a script gave back in one frame.
type FrameResult struct {
	FrameID int             `json:"frameId"`
	Result  json.RawMessage `json:"result"`
}

// Dialog is a JavaScript dialog a page is showing.
type Dialog struct {
	Type          string `json:"type"` // "alert", "confirm", "prompt" or "beforeunload"
	Message       string `json:"message"`
	DefaultPrompt string `json:"defaultPrompt,omitempty"`
	URL           string `json:"url,omitempty"`
	// Answerable is false when the dialog opened before Skiff took control of the tab: only
	// the user (or a navigation) can close it.
	Answerable bool `json:"answerable"`
}

// HistoryQuery selects history items: Text matches URLs and titles ("" is everything).
type HistoryQuery struct {
	Text       string
	StartMs    int64
	EndMs      int64
	MaxResults int
}

// HistoryItem is a page in the browser's history.
type HistoryItem struct {
	URL           string  `json:"url"`
	Title         string  `json:"title"`
	LastVisitTime float64 `json:"lastVisitTime"` // unix ms
	VisitCount    int     `json:"visitCount"`
	TypedCount    int     `json:"typedCount"`
}

// Visit is one visit of a URL.
type Visit struct {
	VisitTime  float64 `json:"visitTime"` // unix ms
	Transition string  `json:"transition"`
}

// restricted is an error that is also ErrRestricted (errors.Is), with its own words.
type restricted string

func (e restricted) Error() string { return string(e) }
func (restricted) Unwrap() error   { return ErrRestricted }

// Errors a Browser returns that tools turn into advice for the model.
var (
	// ErrNoDebugger: the debugger cannot be attached (DevTools is open on the tab, another
	// extension debugs it, or the user cancelled Skiff's debugging).
	ErrNoDebugger = errors.New("browser: the debugger is not available on this tab")
	// ErrNoTab: the tab was closed.
	ErrNoTab = errors.New("browser: no such tab")
	// ErrRestricted: Chrome does not let extensions script this page (chrome://, the Web
	// Store, other extensions, file:// without the user's opt-in).
	ErrRestricted = errors.New("browser: Chrome does not let extensions work on this page")
	// ErrNoFileAccess: a page on this computer (file://) the user has not let Skiff read (its
	// "Allow access to file URLs" in chrome://extensions). It is an ErrRestricted.
	// (Not fmt.Errorf: a package variable's value is computed as every worker starts, and
	// fmt's first use there cost 3-8 ms of each wake.)
	ErrNoFileAccess error = restricted("browser: Chrome does not let extensions work on this page: files on this computer need the user's leave")
	// ErrErrorPage: the tab shows Chrome's error page (the site could not be reached, the
	// address does not resolve): Chrome lets no extension script it.
	ErrErrorPage = errors.New("browser: the tab shows Chrome's error page")
	// ErrDetached: the debugger came off the tab while a command ran (the tab went where
	// Chrome lets no extension follow): the command may or may not have taken effect.
	ErrDetached = errors.New("browser: the debugger came off the tab while a command ran")
	// ErrNoFrame: the frame a call was for is gone (removed from its page, or replaced by
	// another document).
	ErrNoFrame = errors.New("browser: no such frame")
	// ErrDialogNotAnswerable: the dialog opened before Skiff controlled the tab.
	ErrDialogNotAnswerable = errors.New("browser: this dialog opened before Skiff took control of the tab")
)
