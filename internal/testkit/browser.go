package testkit

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/skiff-ai/skiff/internal/tool"
)

// ErrUnsupported is what a part of a Browser that was not given answers.
var ErrUnsupported = errors.New("testkit: this part of the browser is not faked here")

// Browser makes a tool.Browser of the parts given: any values implementing tool.Tabs,
// tool.Navigator, tool.Grouper, tool.Pages, tool.Capturer, tool.Debugger or tool.History (the
// first that implements a part serves it). The parts not given fail with ErrUnsupported (the
// debugger with tool.ErrNoDebugger, and Dialog reports none), so a fake implements only what
// its test needs.
func Browser(parts ...any) tool.Browser {
	var c composed
	for _, p := range parts {
		if v, ok := p.(tool.Tabs); ok && c.tabs == nil {
			c.tabs = v
		}
		if v, ok := p.(tool.Navigator); ok && c.nav == nil {
			c.nav = v
		}
		if v, ok := p.(tool.Grouper); ok && c.groups == nil {
			c.groups = v
		}
		if v, ok := p.(tool.Pages); ok && c.pages == nil {
			c.pages = v
		}
		if v, ok := p.(tool.Capturer); ok && c.capture == nil {
			c.capture = v
		}
		if v, ok := p.(tool.Debugger); ok && c.debug == nil {
			c.debug = v
		}
		if v, ok := p.(tool.History); ok && c.history == nil {
			c.history = v
		}
		if v, ok := p.(tool.Downloads); ok && c.downloads == nil {
			c.downloads = v
		}
	}
	return &c
}

type composed struct {
	tabs    tool.Tabs
	nav     tool.Navigator
	groups  tool.Grouper
	pages   tool.Pages
	capture tool.Capturer
	debug   tool.Debugger
	history tool.History
	// downloads: none began, unless a part follows them.
	downloads tool.Downloads
}

func (c *composed) Tabs(ctx context.Context, w int) ([]tool.Tab, error) {
	if c.tabs == nil {
		return nil, ErrUnsupported
	}
	return c.tabs.Tabs(ctx, w)
}

func (c *composed) Tab(ctx context.Context, id int) (tool.Tab, error) {
	if c.tabs == nil {
		return tool.Tab{}, ErrUnsupported
	}
	return c.tabs.Tab(ctx, id)
}

func (c *composed) ActiveTab(ctx context.Context, w int) (tool.Tab, error) {
	if c.tabs == nil {
		return tool.Tab{}, ErrUnsupported
	}
	return c.tabs.ActiveTab(ctx, w)
}

func (c *composed) OpenTab(ctx context.Context, url string, active bool, w int) (tool.Tab, error) {
	if c.tabs == nil {
		return tool.Tab{}, ErrUnsupported
	}
	return c.tabs.OpenTab(ctx, url, active, w)
}

func (c *composed) CloseTabs(ctx context.Context, ids []int) error {
	if c.tabs == nil {
		return ErrUnsupported
	}
	return c.tabs.CloseTabs(ctx, ids)
}

func (c *composed) ActivateTab(ctx context.Context, id int) error {
	if c.tabs == nil {
		return ErrUnsupported
	}
	return c.tabs.ActivateTab(ctx, id)
}

func (c *composed) Navigate(ctx context.Context, id int, url string) error {
	if c.nav == nil {
		return ErrUnsupported
	}
	return c.nav.Navigate(ctx, id, url)
}

func (c *composed) Back(ctx context.Context, id int) error {
	if c.nav == nil {
		return ErrUnsupported
	}
	return c.nav.Back(ctx, id)
}

func (c *composed) Forward(ctx context.Context, id int) error {
	if c.nav == nil {
		return ErrUnsupported
	}
	return c.nav.Forward(ctx, id)
}

func (c *composed) Reload(ctx context.Context, id int) error {
	if c.nav == nil {
		return ErrUnsupported
	}
	return c.nav.Reload(ctx, id)
}

func (c *composed) Group(ctx context.Context, ids []int, g int, title, color string) (int, error) {
	if c.groups == nil {
		return 0, ErrUnsupported
	}
	return c.groups.Group(ctx, ids, g, title, color)
}

func (c *composed) Ungroup(ctx context.Context, ids []int) error {
	if c.groups == nil {
		return ErrUnsupported
	}
	return c.groups.Ungroup(ctx, ids)
}

func (c *composed) Frames(ctx context.Context, tabID int) ([]tool.Frame, error) {
	if c.pages == nil {
		return nil, ErrUnsupported
	}
	return c.pages.Frames(ctx, tabID)
}

func (c *composed) Script(ctx context.Context, s tool.Script) ([]tool.FrameResult, error) {
	if c.pages == nil {
		return nil, ErrUnsupported
	}
	return c.pages.Script(ctx, s)
}

func (c *composed) Capture(ctx context.Context, tabID int, format string, quality int) ([]byte, error) {
	if c.capture == nil {
		return nil, ErrUnsupported
	}
	return c.capture.Capture(ctx, tabID, format, quality)
}

func (c *composed) Debug(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error) {
	if c.debug == nil {
		return nil, tool.ErrNoDebugger
	}
	return c.debug.Debug(ctx, tabID, method, params)
}

func (c *composed) Dialog(tabID int) (tool.Dialog, bool) {
	if c.debug == nil {
		return tool.Dialog{}, false
	}
	return c.debug.Dialog(tabID)
}

func (c *composed) FileChooser(tabID int, t time.Time) (tool.Chooser, bool) {
	if c.debug == nil {
		return tool.Chooser{}, false
	}
	return c.debug.FileChooser(tabID, t)
}

func (c *composed) Console(tabID int, t time.Time) []tool.ConsoleEvent {
	if c.debug == nil {
		return nil
	}
	return c.debug.Console(tabID, t)
}

func (c *composed) NetLog(tabID int) ([]tool.NetRequest, time.Time) {
	if c.debug == nil {
		return nil, time.Time{}
	}
	return c.debug.NetLog(tabID)
}

func (c *composed) RequestsSince(tabID int, t time.Time) int {
	if c.debug == nil {
		return 0
	}
	return c.debug.RequestsSince(tabID, t)
}

func (c *composed) AnswerDialog(ctx context.Context, tabID int, accept bool, promptText string) error {
	if c.debug == nil {
		return ErrUnsupported
	}
	return c.debug.AnswerDialog(ctx, tabID, accept, promptText)
}

func (c *composed) DownloadsSince(t time.Time) []tool.Download {
	if c.downloads == nil {
		return nil
	}
	return c.downloads.DownloadsSince(t)
}

func (c *composed) CommittedSince(tabID int, t time.Time) bool {
	return c.downloads != nil && c.downloads.CommittedSince(tabID, t)
}

func (c *composed) NavigatedSince(tabID int, t time.Time) bool {
	return c.downloads != nil && c.downloads.NavigatedSince(tabID, t)
}

func (c *composed) Download(ctx context.Context, id int) (tool.Download, error) {
	if c.downloads == nil {
		return tool.Download{}, ErrUnsupported
	}
	return c.downloads.Download(ctx, id)
}

func (c *composed) Release(ctx context.Context, tabID int) {
	if c.debug != nil {
		c.debug.Release(ctx, tabID)
	}
}

func (c *composed) SearchHistory(ctx context.Context, q tool.HistoryQuery) ([]tool.HistoryItem, error) {
	if c.history == nil {
		return nil, ErrUnsupported
	}
	return c.history.SearchHistory(ctx, q)
}

func (c *composed) Visits(ctx context.Context, url string) ([]tool.Visit, error) {
	if c.history == nil {
		return nil, ErrUnsupported
	}
	return c.history.Visits(ctx, url)
}

func (c *composed) DeleteURL(ctx context.Context, url string) error {
	if c.history == nil {
		return ErrUnsupported
	}
	return c.history.DeleteURL(ctx, url)
}

func (c *composed) DeleteRange(ctx context.Context, startMs, endMs int64) error {
	if c.history == nil {
		return ErrUnsupported
	}
	return c.history.DeleteRange(ctx, startMs, endMs)
}
