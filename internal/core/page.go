// Page context: what the chip shows (page.peek) and what goes with a message. Pages are read
// through the same Browser and page-side code as the tools, in the core, with a timeout, so it
// works with the panel closed and a page stuck in a dialog costs the page, never the message.

package core

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// PeekParams is page.peek: the panel's window.
type PeekParams struct {
	WindowID int  `json:"windowId"`
	Fresh    bool `json:"fresh"` // read again even if this page was read before
}

// Peek is what the chip shows about the page that would go with the next message.
type Peek struct {
	TabID     int    `json:"tabId"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Words     int    `json:"words"`
	Selection bool   `json:"selection"`
	// Error says why the page cannot be attached, as a sentence (English; ErrorText for the
	// panel to render in the user's language).
	Error     string     `json:"error,omitempty"`
	ErrorText *i18n.Text `json:"errorText,omitempty"`
}

// The chip's and a notice's words about a page Skiff cannot read (their French is in
// ui/_locales).
var (
	sayNoPage        = i18n.Sentence{Key: "pageNone", English: "There is no page to attach."}
	sayRestricted    = i18n.Sentence{Key: "pageRestricted", English: "Skiff can't read this page (browser pages are off limits)"}
	sayNoFileAccess  = i18n.Sentence{Key: "pageNoFileAccess", English: "Skiff may not read files on this computer: turn on “Allow access to file URLs” in Skiff's details (chrome://extensions), or attach the file to a message"}
	sayChip          = i18n.Sentence{Key: "pageChipProblem", English: "$1."}
	sayDialog        = i18n.Sentence{Key: "pageDialog", English: "the page is showing $1 dialog (“$2”); answer it in the tab, then try again"}
	sayDialogAlert   = i18n.Sentence{Key: "dialogAlert", English: "an alert"}
	sayDialogConfirm = i18n.Sentence{Key: "dialogConfirm", English: "a confirm"}
	sayDialogPrompt  = i18n.Sentence{Key: "dialogPrompt", English: "a prompt"}
	sayDialogLeave   = i18n.Sentence{Key: "dialogBeforeunload", English: "a beforeunload"}
	sayTabClosed     = i18n.Sentence{Key: "pageTabClosed", English: "the tab was closed"}
	sayPageSlow      = i18n.Sentence{Key: "pageSlow", English: "the page did not answer in time"}
	sayErrorPage     = i18n.Sentence{Key: "pageErrorPage", English: "Chrome could not load this page and shows its error page instead"}
	sayErrorNoName   = i18n.Sentence{Key: "pageErrorNoName", English: "Chrome could not load this page: no site has that name (check the address for a mistake)"}
	sayErrorNoAnswer = i18n.Sentence{Key: "pageErrorNoAnswer", English: "Chrome could not load this page: nothing answered at that address, or it hung up (the site may be down)"}
	sayErrorSlow     = i18n.Sentence{Key: "pageErrorSlow", English: "Chrome could not load this page: the site did not answer in time"}
	sayErrorOffline  = i18n.Sentence{Key: "pageErrorOffline", English: "Chrome could not load this page: this computer is not connected to the internet"}
	sayErrorInsecure = i18n.Sentence{Key: "pageErrorInsecure", English: "Chrome could not load this page: a secure connection to the site could not be made"}
	sayPageLeft      = i18n.Sentence{Key: "pageLeftAfterSend", English: "the tab went on to another site ($1) after you sent, so that is not the page you asked about"}
	sayPageFailed    = i18n.Sentence{Key: "pageFailed", English: "Skiff could not read the page ($1)"}
)

// problem sets why the page cannot be attached.
func (p *Peek) problem(t i18n.Text) { p.Error, p.ErrorText = t.English(), &t }

// AttachParams says what goes with a message: the page in front of the user at Send (the
// active tab of the panel's window, whatever the chip showed a moment before), unless Removed
// says the user left out the page the chip showed (TabID, URL) and that page is still the one in
// front; or a page the panel holds (a selection from the context menu).
type AttachParams struct {
	TabID   int         `json:"tabId"`
	URL     string      `json:"url"`
	Removed bool        `json:"removed,omitempty"`
	Page    *store.Page `json:"page,omitempty"`
}

// pages caches what was read of each tab, per URL: the chip and the message that follows share
// one read. A navigation of the tab drops its entry. It also keeps when each tab's top frame
// last committed a new document.
type pages struct {
	mu        sync.Mutex
	read      map[int]*tool.Readable
	committed map[int]time.Time
}

// navigated notes that a tab's top frame committed a new document now, and forgets what was
// read of the old one.
func (p *pages) navigated(tabID int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.read, tabID)
	if p.committed == nil {
		p.committed = map[int]time.Time{}
	}
	p.committed[tabID] = time.Now()
}

// navigatedSince reports whether a tab's top frame committed a new document after t.
func (p *pages) navigatedSince(tabID int, t time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.committed[tabID]
	return ok && s.After(t)
}

func (p *pages) get(tabID int, url string) *tool.Readable {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.read[tabID]; r != nil && r.URL == url {
		return r
	}
	return nil
}

func (p *pages) put(tabID int, r *tool.Readable) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.read == nil {
		p.read = map[int]*tool.Readable{}
	}
	p.read[tabID] = r
}

func (p *pages) forget(tabID int) {
	p.mu.Lock()
	delete(p.read, tabID)
	p.mu.Unlock()
}

// closed forgets all about a tab that was closed.
func (p *pages) closed(tabID int) {
	p.forget(tabID)
	p.mu.Lock()
	delete(p.committed, tabID)
	p.mu.Unlock()
}

// PeekTimeout bounds reading a page for the chip.
var PeekTimeout = 8 * time.Second

func (c *Core) peek(ctx context.Context, p PeekParams) (*Peek, error) {
	if c.Browser == nil {
		return &Peek{Error: "Skiff can't read pages here."}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, PeekTimeout)
	defer cancel()
	var t tool.Tab
	var err error
	if tab := placedIn(ctx, &p.WindowID); tab > 0 {
		t, err = c.Browser.Tab(ctx, tab)
	} else {
		t, err = c.Browser.ActiveTab(ctx, p.WindowID)
	}
	if err != nil {
		return &Peek{Error: "There is no page to attach."}, nil
	}
	out := &Peek{TabID: t.ID, URL: t.URL, Title: t.Title}
	if !tool.Scriptable(t.URL) {
		out.problem(sayChip.With(sayRestricted.With()))
		if t.URL == "" || t.URL == "about:blank" || strings.HasPrefix(t.URL, "chrome://newtab") {
			out.problem(sayNoPage.With())
		}
		return out, nil
	}
	if p.Fresh {
		c.pages.forget(t.ID)
	}
	r, err := c.readable(ctx, t.ID, t.URL)
	if err != nil {
		out.problem(sayChip.With(c.pageProblemIn(ctx, t, err)))
		return out, nil
	}
	out.Title, out.URL = r.Title, r.URL
	out.Words = wordCount(r.Text)
	out.Selection = r.Selection != ""
	return out, nil
}

// wordCount is how many words text holds as its readers count them: what stands between spaces
// with a letter or a digit in it (not a lone "|" or "—"), and in Chinese and Japanese, written
// without spaces, each character (a page in Chinese was "12 words" long).
func wordCount(text string) int {
	n := 0
	in := false // within a word of letters or digits
	for _, r := range text {
		switch {
		case ideograph(r):
			n++
			in = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !in {
				n++
			}
			in = true
		case unicode.IsSpace(r):
			in = false
		}
	}
	return n
}

// ideograph says whether r is a Chinese character, or Japanese kana, written without spaces
// between words (Unicode's main blocks for them: the unicode package's script tables would add
// 14 KB to core.wasm).
func ideograph(r rune) bool {
	return r >= 0x3040 && r <= 0x30ff || // hiragana, katakana
		r >= 0x3400 && r <= 0x4dbf || r >= 0x4e00 && r <= 0x9fff || r >= 0xf900 && r <= 0xfaff || // CJK ideographs
		r >= 0x20000 && r <= 0x3134f
}

// readable reads a tab's readable text, or takes it from the cache.
func (c *Core) readable(ctx context.Context, tabID int, url string) (*tool.Readable, error) {
	if r := c.pages.get(tabID, url); r != nil {
		return r, nil
	}
	r, err := tool.NewEnv(c.Browser, tabID, 0).Read(ctx, tabID)
	if err != nil {
		return nil, err
	}
	c.pages.put(tabID, r)
	return r, nil
}

// current reads the document tab t shows now: what the cache holds only if it was read from
// that very document (a reload, or a navigation the cache has not heard of yet, makes a new
// one), else a fresh read.
func (c *Core) current(ctx context.Context, t tool.Tab) (*tool.Readable, error) {
	env := tool.NewEnv(c.Browser, t.ID, 0)
	if r := c.pages.get(t.ID, t.URL); r != nil && r.Doc != "" {
		if doc, _, err := env.Doc(ctx, t.ID); err == nil && doc == r.Doc {
			return r, nil
		}
	}
	r, err := env.Read(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	c.pages.put(t.ID, r)
	return r, nil
}

// tabAt is tab tabID, or (0) the active tab of window windowID (0: of the last focused one).
func (c *Core) tabAt(ctx context.Context, windowID, tabID int) (tool.Tab, error) {
	if tabID > 0 {
		return c.Browser.Tab(ctx, tabID)
	}
	return c.Browser.ActiveTab(ctx, windowID)
}

// SettleAtSend bounds the wait for a tab that is loading when the user sends: the message goes
// with the page it is loading, once there.
var SettleAtSend = 3 * time.Second

// inFront is the tab in front of the user now, in the panel's window (0: the last focused
// one), or tabID for the overlay's chat, once the page it may be loading is there (its own
// load, not the ad frames it adds; or SettleAtSend passed).
func (c *Core) inFront(ctx context.Context, windowID, tabID int) (tool.Tab, error) {
	t, err := c.tabAt(ctx, windowID, tabID)
	if err != nil || t.Status != "loading" && t.Pending == "" {
		return t, err
	}
	return tool.NewEnv(c.Browser, t.ID, 0).Arrived(ctx, t.ID, SettleAtSend)
}

// attachFor turns what the panel said about the page into the engine's Attach. The page is
// found when the message is sent (after it is stored): the tab in front of the user then, in
// windowID (0: the last focused window), or tab tabID for the overlay, its current document,
// read again unless what was read of it is that very document. sent is when the message
// arrived.
func (c *Core) attachFor(a *AttachParams, windowID, tabID int, sent time.Time) *agent.Attach {
	if a == nil {
		return nil
	}
	if tabID > 0 {
		b := *a
		b.TabID = tabID // the overlay's chat is about its own tab only
		a = &b
	}
	if a.Page != nil {
		page := *a.Page
		if a.TabID > 0 && c.Browser != nil {
			// The selection came from the context menu; the rest of the page is read if the
			// tab still shows it.
			return &agent.Attach{Read: func(ctx context.Context) (*store.Page, error) {
				if r := c.pages.get(a.TabID, page.URL); r != nil {
					page.Text = r.Text
				}
				return &page, nil
			}}
		}
		return &agent.Attach{Page: &page}
	}
	if c.Browser == nil {
		return nil
	}
	return &agent.Attach{Read: func(ctx context.Context) (*store.Page, error) {
		t, err := c.inFront(ctx, windowID, tabID)
		if err != nil {
			return nil, &i18n.Error{Text: pageProblem(err)}
		}
		if a.Removed && t.ID == a.TabID && t.URL == a.URL {
			return nil, nil // the user left this page out
		}
		// The tab showed another site's document only after the user sent (a timed redirect, a
		// script; a link clicked just before Send whose page had not come yet): that is not the
		// page they asked about, and they had not seen it. (Within the site, the page it loads
		// goes: a navigation in the middle of happening at Send is followed.)
		if a.TabID > 0 && t.ID == a.TabID && a.URL != "" && weburl.Origin(t.URL) != weburl.Origin(a.URL) && c.pages.navigatedSince(t.ID, sent) {
			return nil, &i18n.Error{Text: sayPageLeft.With(hostOf(t.URL))}
		}
		if !tool.Scriptable(t.URL) {
			if t.URL == "" || t.URL == "about:blank" || strings.HasPrefix(t.URL, "chrome://newtab") {
				return nil, nil // nothing to attach
			}
			return nil, sayRestricted.Error()
		}
		r, err := c.current(ctx, t)
		if err != nil {
			return nil, &i18n.Error{Text: c.pageProblemIn(ctx, t, err)}
		}
		page := &store.Page{URL: r.URL, Title: r.Title, Text: r.Text}
		// The selection changes without events: read it now (one line of script).
		if sel, err := tool.NewEnv(c.Browser, t.ID, 0).Selection(ctx, t.ID); err == nil {
			page.Selection = sel
		}
		return page, nil
	}}
}

// pageProblemIn is pageProblem for tab t: an error page says why it did not load when Chrome
// said so (the address has no site, nothing answered, the computer is offline…).
func (c *Core) pageProblemIn(ctx context.Context, t tool.Tab, err error) i18n.Text {
	if !errors.Is(err, tool.ErrErrorPage) {
		return pageProblem(err)
	}
	switch code := strings.TrimPrefix(tool.NetErrorOf(ctx, c.Browser, t.ID, t.URL), "net::"); {
	case code == "ERR_NAME_NOT_RESOLVED":
		return sayErrorNoName.With()
	case code == "ERR_CONNECTION_REFUSED", code == "ERR_ADDRESS_UNREACHABLE", code == "ERR_CONNECTION_RESET", code == "ERR_EMPTY_RESPONSE", code == "ERR_CONNECTION_CLOSED":
		return sayErrorNoAnswer.With()
	case code == "ERR_CONNECTION_TIMED_OUT", code == "ERR_TIMED_OUT":
		return sayErrorSlow.With()
	case code == "ERR_INTERNET_DISCONNECTED", code == "ERR_NETWORK_CHANGED", code == "ERR_PROXY_CONNECTION_FAILED":
		return sayErrorOffline.With()
	case strings.HasPrefix(code, "ERR_CERT_"), strings.HasPrefix(code, "ERR_SSL_"):
		return sayErrorInsecure.With()
	}
	return sayErrorPage.With()
}

// pageProblem says why a page could not be read, for the chip and the message's notice.
func pageProblem(err error) i18n.Text {
	var de *tool.DialogError
	var te *tool.Error
	switch {
	case errors.As(err, &de):
		d := de.Dialog
		what := any(tool.Article(d.Type) + " " + d.Type)
		switch d.Type {
		case "alert":
			what = sayDialogAlert.With()
		case "confirm":
			what = sayDialogConfirm.With()
		case "prompt":
			what = sayDialogPrompt.With()
		case "beforeunload":
			what = sayDialogLeave.With()
		}
		return sayDialog.With(what, clipWords(d.Message, 80))
	case errors.Is(err, tool.ErrNoFileAccess):
		return sayNoFileAccess.With()
	case errors.Is(err, tool.ErrRestricted):
		return sayRestricted.With()
	case errors.Is(err, tool.ErrNoTab):
		return sayTabClosed.With()
	case errors.Is(err, tool.ErrErrorPage):
		return sayErrorPage.With()
	case errors.Is(err, context.DeadlineExceeded):
		return sayPageSlow.With()
	case errors.As(err, &te):
		return i18n.Verbatim(te.Msg)
	}
	if ie := (*i18n.Error)(nil); errors.As(err, &ie) {
		return ie.Text // already a sentence about the page (a PDF Skiff cannot read)
	}
	return sayPageFailed.With(err)
}

func clipWords(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return strings.TrimSpace(s[:n]) + "…"
}

// Event is a browser event the worker forwards (see wasm/): a tab that navigated or closed
// drops what was read of it.
func (c *Core) Event(kind string, tabID, frameID int) {
	switch kind {
	case "tab.committed":
		if frameID == 0 {
			c.pages.navigated(tabID)
		}
	case "tab.removed":
		c.pages.closed(tabID)
	}
}

// hostOf is the host a URL names, or the URL when it names none.
func hostOf(u string) string {
	if p, ok := weburl.Split(u); ok && p.Host != "" {
		return p.Host
	}
	return u
}
