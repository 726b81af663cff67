//go:build !js

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/jpeg"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/daemon"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// skiffd is a real skiffd (the daemon package, as `skiffd serve` runs it) on a free loopback
// port, with its own configuration and tokens.
type skiffd struct {
	Cfg    *daemon.Config
	Hub    *daemon.Hub
	stop   context.CancelFunc
	served chan struct{}
}

func startSkiffd(t *testing.T, port int) *skiffd {
	t.Helper()
	cfg, err := daemon.Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Port = port // 0: serveSkiffd takes a free one
	return serveSkiffd(t, cfg)
}

func serveSkiffd(t *testing.T, cfg *daemon.Config) *skiffd {
	t.Helper()
	return serveSkiffdLAN(t, cfg, nil)
}

// serveSkiffdLAN is serveSkiffd with the web client on the LAN too (lan: nil for none). A
// config without a port gets a free one, held from the moment it is chosen: a port found free
// and let go is anyone's (the LAN's listener took it once, on a busy machine).
func serveSkiffdLAN(t *testing.T, cfg *daemon.Config, lan *daemon.LAN) *skiffd {
	t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // a restarted skiffd may wait for its port to be free
		if ln, err = daemon.Listen(cfg.Port); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg.Port = ln.Addr().(*net.TCPAddr).Port
	ctx, cancel := context.WithCancel(context.Background())
	d := &skiffd{Cfg: cfg, Hub: daemon.NewHub(cfg.PairToken), stop: cancel, served: make(chan struct{})}
	go func() {
		defer close(d.served)
		_ = daemon.Serve(ctx, ln, cfg, d.Hub, lan)
	}()
	t.Cleanup(d.Stop)
	return d
}

// Stop stops skiffd and waits until its port is closed.
func (d *skiffd) Stop() {
	d.stop()
	<-d.served
}

func (d *skiffd) URL() string { return "http://127.0.0.1:" + strconv.Itoa(d.Cfg.Port) + "/mcp" }

// connected waits until the extension is linked to d.
func (d *skiffd) connected(t *testing.T) {
	t.Helper()
	Eventually(t, 40*time.Second, func() bool { return d.Hub.Status().Connected }, "waiting for the extension to link to skiffd")
}

// linkedPanel is a skiffd on a free port and a fresh panel linked to it.
func linkedPanel(t *testing.T) (*skiffd, context.Context) {
	d := startSkiffd(t, 0)
	panel := browser.FreshPanel(t)
	linkPanel(t, panel, d)
	// The clients' tabs (each in its group, in a window that took the focus) are closed after
	// the test, clients gone: a window left in front takes the focus from the next tests'.
	t.Cleanup(func() {
		_, _ = chromedp.Run(panel, chromedp.Evaluate[any](`chrome.tabs.query({}).then((ts) => chrome.tabs.remove(ts.filter((x) => x.groupId >= 0).map((x) => x.id))).catch(() => 0)`, chromedp.EvalAwaitPromise))
	})
	return d, panel
}

// linkPanel links the extension to d the way a user does: Settings › Outside agents, the port,
// the pairing token, Save; then waits for the panel to say it is linked.
func linkPanel(t *testing.T, panel context.Context, d *skiffd) {
	t.Helper()
	Do(t, panel, chromedp.Click("#settings-toggle"))
	if !JS[bool](t, panel, `document.getElementById("daemonEnabled").checked`) {
		Do(t, panel, chromedp.Click("#daemonEnabled"))
	}
	TypeInto(t, panel, "#daemonPort", strconv.Itoa(d.Cfg.Port))
	Do(t, panel, chromedp.SendKeys("#daemonToken", d.Cfg.PairToken))
	Do(t, panel, chromedp.Click("#save"))
	WaitJS(t, panel, `document.getElementById("settings-status").textContent === "Saved."`)
	t.Cleanup(func() { unlink(panel) })
	Eventually(t, 20*time.Second, func() bool {
		s, err := chromedp.Run(panel, chromedp.Evaluate[string](`document.getElementById("link-status").dataset.state`))
		return err == nil && s == "connected"
	}, "waiting for the panel to show the link")
	d.connected(t)
	Do(t, panel, chromedp.Click("#settings-toggle"))
}

// unlink turns the link off, so the next tests' worker does not keep dialing a stopped skiffd.
func unlink(panel context.Context) {
	_, _ = chromedp.Run(panel, chromedp.Evaluate[any](`(async () => {
		const st = await skiffTest.call("core.hello");
		const s = st.settings; s.daemon = { enabled: false };
		await skiffTest.call("settings.save", { settings: s, keys: {}, daemonToken: "" });
	})()`, chromedp.EvalAwaitPromise))
}

// mcpClient connects an MCP client named name to d over Streamable HTTP with the bearer token.
func mcpClient(t *testing.T, d *skiffd, name string) *mcp.ClientSession {
	t.Helper()
	return mcpClientWith(t, d, name, nil)
}

// clientOn is a linked panel and an outside client, "e2e-agent", that went to url, the user
// answering the ask with decision.
func clientOn(t *testing.T, url, decision string) (context.Context, *mcp.ClientSession) {
	t.Helper()
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	if r := callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": url}, decision); r.IsError {
		t.Fatalf("navigate: %s", text(r))
	}
	return panel, cs
}

// mcpClientWith is mcpClient with the client's options (a progress handler).
func mcpClientWith(t *testing.T, d *skiffd, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: d.URL(), HTTPClient: daemon.BearerClient(d.Cfg.MCPToken)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// callTool calls a tool and answers its ask in the panel with decision ("" when the call is
// not expected to ask). It returns the result.
func callTool(t *testing.T, panel context.Context, cs *mcp.ClientSession, who, name string, args map[string]any, decision string) *mcp.CallToolResult {
	t.Helper()
	return callToolSeeing(t, panel, cs, who, name, args, decision, nil)
}

// callToolSeeing is callTool that, when the call asks, gives look the ask's element (a JS
// expression) before it is answered.
func callToolSeeing(t *testing.T, panel context.Context, cs *mcp.ClientSession, who, name string, args map[string]any, decision string, look func(ask string)) *mcp.CallToolResult {
	t.Helper()
	type out struct {
		r   *mcp.CallToolResult
		err error
	}
	ch := make(chan out, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		ch <- out{r, err}
	}()
	if decision != "" {
		ask := fmt.Sprintf(`#outside-asks .outside-ask[data-who=%q][data-tool=%q]`, who, name)
		sel := ask + fmt.Sprintf(` button[data-decision=%q]`, decision)
		WaitJS(t, panel, `document.querySelector(`+jsString(sel)+`)`)
		if look != nil {
			look(`document.querySelector(` + jsString(ask) + `)`)
		}
		Click(t, panel, `document.querySelector(`+jsString(sel)+`)`)
	}
	select {
	case o := <-ch:
		if o.err != nil {
			t.Fatalf("%s: %v", name, o.err)
		}
		return o.r
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no result", name)
	}
	return nil
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// An MCP client drives the real browser through skiffd: it lists the tools, navigates (the
// gate asks in the panel, naming the client), reads a snapshot, clicks by ref, takes a
// screenshot that comes back as an image, and a call the user denies comes back as a tool
// error. Its tabs are in a group named after it.
func TestMCPClientDrivesTheBrowserThroughSkiffd(t *testing.T) {
	if browser.ExtID != daemon.ExtensionID {
		t.Fatalf("the extension's id is %s, skiffd allows %s: the manifest's key changed", browser.ExtID, daemon.ExtensionID)
	}
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var names []string
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tl.Name)
	}
	for _, want := range []string{"navigate", "snapshot", "click", "screenshot", "run_script", "tabs_list"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}

	page := site.Page("counter.html")
	r := callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_once")
	if r.IsError {
		t.Fatalf("navigate: %s", text(r))
	}
	// The client's tab is in its own group, named after it.
	group := JS[string](t, panel, `(async () => {
		const tabs = await chrome.tabs.query({url: `+jsString(page)+`});
		if (tabs.length !== 1 || tabs[0].groupId < 0) return "tabs: " + JSON.stringify(tabs.map(t => t.groupId));
		return (await chrome.tabGroups.get(tabs[0].groupId)).title;
	})()`)
	if group != "e2e-agent" {
		t.Errorf("the client's tab group: %q", group)
	}
	r = callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "allow_always")
	snap := text(r)
	if r.IsError || !strings.Contains(snap, `button "Like"`) || !strings.Contains(snap, "<untrusted-") {
		t.Fatalf("snapshot: %s", snap)
	}
	ref := refOf(t, snap, `button "Like"`)
	r = callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"ref": ref}, "allow_once")
	if r.IsError {
		t.Fatalf("click: %s", text(r))
	}
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)
	if got := inTab[string](t, panel, tab, `document.getElementById("count-like").textContent`); got != "1" {
		t.Errorf("the Like counter after the click: %s", got)
	}
	// A screenshot: a read of a site the user let it read, so it does not ask.
	r = callTool(t, panel, cs, "e2e-agent", "screenshot", map[string]any{}, "")
	var img *mcp.ImageContent
	for _, c := range r.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			img = ic
		}
	}
	if r.IsError || img == nil || !strings.HasPrefix(img.MIMEType, "image/") || len(img.Data) < 1000 {
		t.Fatalf("screenshot: error %v, %s, image %v", r.IsError, text(r), img != nil)
	}
	// A call the user denies is a tool error, and does not run.
	r = callTool(t, panel, cs, "e2e-agent", "run_script", map[string]any{"code": `document.getElementById("count-star").textContent = "99"`}, "deny_once")
	if !r.IsError || !strings.Contains(text(r), "denied") {
		t.Errorf("a denied call: error %v, %q", r.IsError, text(r))
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("count-star").textContent`); got != "0" {
		t.Errorf("the denied script ran: %s", got)
	}
	// The audit log names the client.
	audit := JS[string](t, panel, `skiffTest.call("audit.export").then(f => f.text)`)
	if !strings.Contains(audit, "e2e-agent") {
		t.Errorf("the audit log does not name the client: %.300s", audit)
	}
}

// An MCP client that writes its arguments as Claude Code does is understood: a list of fields
// sent as its JSON in a string (claude-code#22394), a tab's id as a string, one option where a
// list goes, a checkbox's value as false. Each call asks as any other, and does what it says.
func TestArgumentsAsClaudeCodeWritesThemAreUnderstood(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "claude-code")
	page := site.Page("form.html")
	if r := callTool(t, panel, cs, "claude-code", "navigate", map[string]any{"url": page}, "allow_once"); r.IsError {
		t.Fatalf("navigate: %s", text(r))
	}
	snap := text(callTool(t, panel, cs, "claude-code", "snapshot", map[string]any{}, "allow_always"))
	first, news, country := refOf(t, snap, `textbox "First name"`), refOf(t, snap, `checkbox "Newsletter"`), refOf(t, snap, `combobox "Country"`)
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)

	fields := fmt.Sprintf(`[{"ref": %q, "value": "Ada"}, {"ref": %q, "value": false}]`, first, news)
	r := callTool(t, panel, cs, "claude-code", "fill_form", map[string]any{"fields": fields, "tabId": strconv.Itoa(tab)}, "allow_once")
	if r.IsError {
		t.Fatalf("fill_form with its fields as a string: %s", text(r))
	}
	r = callTool(t, panel, cs, "claude-code", "select_option", map[string]any{"ref": country, "values": "Portugal", "selector": nil}, "allow_once")
	if r.IsError {
		t.Fatalf("select_option with one value: %s", text(r))
	}
	got := inTab[string](t, panel, tab, `[document.getElementById("first").value, document.querySelector("[name=news]").checked, document.querySelector("[name=country]").value].join(" ")`)
	if got != "Ada false pt" {
		t.Errorf("the form after the calls: %q (want first name Ada, no newsletter, Portugal)", got)
	}
	// What cannot be read as meant is still refused, before anything asks.
	r = callTool(t, panel, cs, "claude-code", "scroll", map[string]any{"amount": "a lot"}, "")
	if !r.IsError || !strings.Contains(text(r), `"amount" should be a number`) {
		t.Errorf("scroll by %q: error %v, %q", "a lot", r.IsError, text(r))
	}
}

// A call that waits for the user's answer tells a client that asked for progress what it
// waits on, and says it again while the user takes their time (clients on the TypeScript SDK
// give up after 60 s unless progress comes); once allowed, it says it runs.
func TestACallWaitingForTheUserSaysSoAsProgress(t *testing.T) {
	defer func(d time.Duration) { daemon.ProgressEvery = d }(daemon.ProgressEvery)
	daemon.ProgressEvery = 100 * time.Millisecond
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	var mu sync.Mutex
	var heard []*mcp.ProgressNotificationParams
	cs := mcpClientWith(t, d, "patient-agent", &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			heard = append(heard, r.Params)
			mu.Unlock()
		}})
	page := site.Page("counter.html")
	callTool(t, panel, cs, "patient-agent", "navigate", map[string]any{"url": page}, "allow_once")
	ref := refOf(t, text(callTool(t, panel, cs, "patient-agent", "snapshot", map[string]any{}, "allow_always")), `button "Like"`)
	said := func() (msgs []string, rising bool) {
		mu.Lock()
		defer mu.Unlock()
		rising = true
		for i, p := range heard {
			msgs = append(msgs, p.Message)
			if p.ProgressToken != "like-1" || (i > 0 && p.Progress <= heard[i-1].Progress) {
				rising = false
			}
		}
		return msgs, rising
	}
	ch := make(chan *mcp.CallToolResult, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "click", Arguments: map[string]any{"ref": ref}}
		p.SetProgressToken("like-1")
		r, err := cs.CallTool(context.Background(), p)
		if err != nil {
			r = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		ch <- r
	}()
	ask := `document.querySelector('#outside-asks .outside-ask[data-who="patient-agent"][data-tool="click"] button[data-decision="allow_once"]')`
	WaitJS(t, panel, ask)
	// The user takes their time: the client hears what the call waits on, again and again.
	// No word of the page's own goes in it: the tool and the site.
	waiting := func(m string) bool {
		return m == "Waiting for the user to allow or deny this call (click on "+site.URL+") in the browser."
	}
	Eventually(t, 30*time.Second, func() bool {
		msgs, _ := said()
		n := 0
		for _, m := range msgs {
			if waiting(m) {
				n++
			}
		}
		return n >= 3
	}, "the client did not hear three times that the call waits for the user's answer")
	Click(t, panel, ask)
	r := <-ch
	if r.IsError {
		t.Fatalf("click: %s", text(r))
	}
	// A client hears notifications apart from results (the Go SDK queues them to a handler):
	// the last word may come just after the result.
	Eventually(t, 10*time.Second, func() bool {
		msgs, _ := said()
		return len(msgs) > 0 && msgs[len(msgs)-1] == "The user allowed it; it runs now."
	}, "the client did not hear that the allowed call runs")
	if _, rising := said(); !rising {
		mu.Lock()
		t.Errorf("progress must rise, with the call's token: %+v", heard)
		mu.Unlock()
	}
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)
	if got := inTab[string](t, panel, tab, `document.getElementById("count-like").textContent`); got != "1" {
		t.Errorf("the Like counter after the allowed click: %s", got)
	}
}

// A call whose client stopped waiting (it timed out while the user was away) is taken back:
// its question leaves the panel, so a late "Allow" cannot make it run for no one, and it does
// not run.
func TestAnOutsideCallItsClientGaveUpOnIsTakenBack(t *testing.T) {
	panel, cs, page, ref := unresolvableLink(t)
	// The link goes to another site: the gate asks. The client gives up once it is asked.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "click", Arguments: map[string]any{"ref": ref}})
		done <- err
	}()
	WaitJS(t, panel, `document.querySelector('#outside-asks .outside-ask[data-tool="click"]')`)
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the cancelled call returned no error")
	}
	WaitJS(t, panel, `!document.querySelector('#outside-asks .outside-ask')`)
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)
	if got := JS[string](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.url)`, tab)); got != page {
		t.Errorf("the call ran after its client gave up: the tab is at %s", got)
	}
}

// A tab that shows Chrome's error page has nothing to read or act on: a call on its page says
// so at once, naming the address and why it did not load, and the user is not asked about a
// site that is not there (the client waited on an ask for up to 2 minutes). Once the tab loads
// a page again, calls read it.
func TestACallOnChromesErrorPageSaysSoWithoutAsking(t *testing.T) {
	panel, cs, page, ref := unresolvableLink(t)
	r := callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"ref": ref}, "allow_once")
	if !strings.Contains(text(r), "error page") {
		t.Fatalf("the click did not say where it led: %s", text(r))
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"snapshot", nil}, {"read_text", nil}, {"links", nil}, {"screenshot", nil}, {"scroll", map[string]any{"direction": "down"}}, {"find_text", map[string]any{"text": "Example"}}} {
		r := callTool(t, panel, cs, "e2e-agent", c.tool, c.args, "")
		if got := text(r); !r.IsError || !strings.Contains(got, "The tab shows Chrome's error page: http://unreachable.invalid/ could not be loaded (net::ERR_NAME_NOT_RESOLVED)") {
			t.Errorf("%s on the error page: %s", c.tool, got)
		}
	}
	tab := JS[int](t, panel, `chrome.tabs.query({url: "http://unreachable.invalid/"}).then(t => t[0].id)`)
	JS[any](t, panel, fmt.Sprintf(`chrome.tabs.update(%d, {url: %s}).then(() => true)`, tab, jsString(page)))
	WaitJS(t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.status === "complete" && t.url === %s)`, tab, jsString(page)))
	if r := callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, ""); r.IsError || !strings.Contains(text(r), "a site whose name does not resolve") {
		t.Errorf("snapshot once the tab loaded a page again: %s", text(r))
	}
}

// A link that opens a new tab puts that tab in front of the client's own, in the client's own
// window: a screenshot of the client's tab brings it back to the front (Chrome draws only the
// tab in front) and shows it, not the new tab, and not an error asking for tab_switch.
func TestAScreenshotOfAClientsTabLeftBehindShowsIt(t *testing.T) {
	site := testkit.NewSite(t)
	page := site.Page("checks.html")
	panel, cs, snap := clientReads(t, page)
	r := callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"ref": refOf(t, snap, `link "Read the full terms"`)}, "allow_once")
	if !strings.Contains(text(r), "new tab") {
		t.Fatalf("the click did not open a new tab: %s", text(r))
	}
	terms := site.Page("checks.html?full-terms")
	mine := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)
	WaitJS(t, panel, `chrome.tabs.query({url: `+jsString(terms)+`}).then(t => t.length === 1 && t[0].active && t[0].status === "complete")`)
	other := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(terms)+`}).then(t => t[0].id)`)
	// The new tab is painted red: a picture of it would show.
	inTab[any](t, panel, other, `document.documentElement.style.background = document.body.style.background = "rgb(255, 0, 0)"`)
	r = callTool(t, panel, cs, "e2e-agent", "screenshot", map[string]any{}, "")
	var img *mcp.ImageContent
	for _, c := range r.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			img = ic
		}
	}
	if r.IsError || img == nil {
		t.Fatalf("screenshot of the client's tab behind the new one: %s", text(r))
	}
	pic, _, err := image.Decode(bytes.NewReader(img.Data))
	if err != nil {
		t.Fatal(err)
	}
	b := pic.Bounds()
	if r, g, _, _ := pic.At(b.Dx()/2, b.Dy()-10).RGBA(); r>>8 > 200 && g>>8 < 60 {
		t.Errorf("the screenshot shows the new tab (red), not the client's")
	}
	if !JS[bool](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.active)`, mine)) {
		t.Errorf("the client's tab is not in front after its screenshot")
	}
}

// clientReads has an outside client ("e2e-agent") of a linked panel open page and read it, its
// site allowed always: it returns the panel, the client's session and the page's snapshot.
func clientReads(t *testing.T, page string) (context.Context, *mcp.ClientSession, string) {
	t.Helper()
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_always")
	r := callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "allow_always")
	return panel, cs, text(r)
}

// unresolvableLink has an outside client read away.html (clientReads): it returns the linked
// panel, the client's session, the page, and the ref of its link to a site whose name does
// not resolve.
func unresolvableLink(t *testing.T) (context.Context, *mcp.ClientSession, string, string) {
	t.Helper()
	page := testkit.NewSite(t).Page("away.html")
	panel, cs, snap := clientReads(t, page)
	return panel, cs, page, refOf(t, snap, `link "a site whose name does not resolve"`)
}

// refOf finds the ref of the snapshot line that contains what (`button "Like" [e5]`).
func refOf(t *testing.T, snap, what string) string {
	t.Helper()
	for _, line := range strings.Split(snap, "\n") {
		if strings.Contains(line, what) {
			if i := strings.Index(line, "[e"); i >= 0 {
				rest := line[i+1:]
				return rest[:strings.IndexByte(rest, ']')]
			}
		}
	}
	t.Fatalf("no ref for %s in:\n%s", what, snap)
	return ""
}

// Two clients at once: each gets its own tab group; one client's call on the other's tab asks
// the user (naming the client), and denied, it does not run; tabs_list shows each only its own.
func TestTwoClientsWorkInSeparateTabGroups(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	a, b := mcpClient(t, d, "agent-a"), mcpClient(t, d, "agent-b")
	pageA, pageB := site.Page("counter.html")+"?a", site.Page("counter.html")+"?b"
	type res struct {
		r   *mcp.CallToolResult
		err error
	}
	// Both navigate at once; each call asks (a new site), and the user allows both.
	cha, chb := make(chan res, 1), make(chan res, 1)
	askOf := func(who string) string {
		return `document.querySelector('#outside-asks .outside-ask[data-who="` + who + `"]')`
	}
	go func() {
		r, err := a.CallTool(context.Background(), &mcp.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": pageA}})
		cha <- res{r, err}
	}()
	// agent-a's ask is on screen, the user reaching for it, when agent-b's arrives: the
	// button under the pointer stays the same node.
	WaitJS(t, panel, askOf("agent-a"))
	JS[bool](t, panel, `(`+askOf("agent-a")+`.dataset.seen = "1", true)`)
	go func() {
		r, err := b.CallTool(context.Background(), &mcp.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": pageB}})
		chb <- res{r, err}
	}()
	WaitJS(t, panel, askOf("agent-b"))
	if !JS[bool](t, panel, `!!(`+askOf("agent-a")+` && `+askOf("agent-a")+`.dataset.seen === "1")`) {
		t.Errorf("agent-b's ask replaced agent-a's on screen")
	}
	for _, who := range []string{"agent-a", "agent-b"} {
		Click(t, panel, askOf(who)+`.querySelector('button[data-decision="allow_once"]')`)
	}
	for _, ch := range []chan res{cha, chb} {
		select {
		case x := <-ch:
			if x.err != nil || x.r.IsError {
				t.Fatalf("navigate: %v %s", x.err, text(x.r))
			}
		case <-time.After(30 * time.Second):
			t.Fatal("navigate: no result")
		}
	}
	groups := JS[string](t, panel, `(async () => {
		const out = [];
		for (const u of [`+jsString(pageA)+`, `+jsString(pageB)+`]) {
			const [tab] = await chrome.tabs.query({url: u});
			out.push(tab && tab.groupId >= 0 ? (await chrome.tabGroups.get(tab.groupId)).title : "none");
		}
		return out.join(",");
	})()`)
	if groups != "agent-a,agent-b" {
		t.Errorf("the clients' tab groups: %s", groups)
	}
	// tabs_list (a read of the browser: it asks once) shows each client its own tabs only.
	r := callTool(t, panel, a, "agent-a", "tabs_list", map[string]any{}, "allow_once")
	if !strings.Contains(text(r), "?a") || strings.Contains(text(r), "?b") {
		t.Errorf("agent-a's tabs_list: %s", text(r))
	}
	// agent-a reaches for agent-b's tab: the user is asked, says no, nothing runs. The tab's id
	// comes as a string, as clients send numbers: it is read as the id it names, for the ask too.
	tabB := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(pageB)+`}).then(t => t[0].id)`)
	ask := `document.querySelector('#outside-asks .outside-ask[data-who="agent-a"][data-tool="run_script"]')`
	ch := make(chan res, 1)
	go func() {
		r, err := a.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_script", Arguments: map[string]any{"tabId": strconv.Itoa(tabB), "code": `document.getElementById("count-like").textContent = "99"`}})
		ch <- res{r, err}
	}()
	WaitJS(t, panel, ask)
	if why := JS[string](t, panel, ask+`.textContent`); !strings.Contains(why, "outside the tab group of agent-a") {
		t.Errorf("the ask does not say the tab is outside agent-a's group: %s", why)
	}
	Click(t, panel, ask+`.querySelector('button[data-decision="deny_once"]')`)
	if x := <-ch; x.err != nil || !x.r.IsError {
		t.Errorf("agent-a ran a script in agent-b's tab: %v", x.err)
	}
	if got := inTab[string](t, panel, tabB, `document.getElementById("count-like").textContent`); got != "0" {
		t.Errorf("agent-b's page was changed: %s", got)
	}
}

// When Chrome stops the service worker and starts it again, an MCP client keeps its workspace
// (the same tab group, the same current tab), a call that arrives while the link comes back
// waits for it instead of failing, and a call that was waiting for the user's answer asks
// again after the restart and, allowed, runs once.
func TestOutsideClientSurvivesWorkerRestarts(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "survivor")
	page := site.Page("counter.html")
	if r := callTool(t, panel, cs, "survivor", "navigate", map[string]any{"url": page}, "allow_once"); r.IsError {
		t.Fatalf("navigate: %s", text(r))
	}
	if r := callTool(t, panel, cs, "survivor", "snapshot", map[string]any{}, "allow_always"); r.IsError {
		t.Fatalf("snapshot: %s", text(r))
	}
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)
	group := JS[int](t, panel, fmt.Sprintf(`chrome.tabs.get(%d).then(t => t.groupId)`, tab))

	// The worker restarts; the next call goes out at once, while the link comes back.
	browser.RestartWorker(t, panel)
	r := callTool(t, panel, cs, "survivor", "snapshot", map[string]any{}, "")
	if r.IsError || !strings.Contains(text(r), `button "Like"`) {
		t.Fatalf("after the restart the client lost its tab: %s", text(r))
	}
	groups := JS[string](t, panel, `chrome.tabGroups.query({title: "survivor"}).then(async gs => JSON.stringify(await Promise.all(gs.map(async g => [g.id, (await chrome.tabs.query({groupId: g.id})).map(t => t.id)]))))`)
	if groups != fmt.Sprintf("[[%d,[%d]]]", group, tab) {
		t.Errorf("the client's groups after the restart: %s (before: tab %d in group %d)", groups, tab, group)
	}

	// A call waits for the user's answer; the worker restarts before the answer.
	ref := refOf(t, text(r), `button "Like"`)
	type out struct {
		r   *mcp.CallToolResult
		err error
	}
	ch := make(chan out, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "click", Arguments: map[string]any{"ref": ref}})
		ch <- out{r, err}
	}()
	ask := `document.querySelector('#outside-asks .outside-ask[data-who="survivor"][data-tool="click"] button[data-decision="allow_once"]')`
	WaitJS(t, panel, ask)
	browser.RestartWorker(t, panel)
	WaitJS(t, panel, ask) // asked again, by the new worker
	Click(t, panel, ask)
	select {
	case o := <-ch:
		if o.err != nil || o.r.IsError {
			t.Fatalf("the call that asked across the restart: %v %s", o.err, text(o.r))
		}
	case <-time.After(90 * time.Second):
		t.Fatal("the call that asked across the restart got no result")
	}
	if got := inTab[string](t, panel, tab, `document.getElementById("count-like").textContent`); got != "1" {
		t.Errorf("the click ran %s times", got)
	}

	// A tab it opened stays its own across a restart: closing it does not ask (the call would
	// wait on the ask).
	r = callTool(t, panel, cs, "survivor", "tab_open", map[string]any{"url": site.Page("long.html")}, "allow_once")
	said := regexp.MustCompile(`Opened tab (\d+)`).FindStringSubmatch(text(r))
	if r.IsError || said == nil {
		t.Fatalf("tab_open: %s", text(r))
	}
	opened, _ := strconv.Atoi(said[1])
	browser.RestartWorker(t, panel)
	if r := callTool(t, panel, cs, "survivor", "tab_close", map[string]any{"tabIds": []int{opened}}, ""); r.IsError {
		t.Errorf("closing the tab it opened: %s", text(r))
	}
}

// A popup window a client's page opens (a "Sign in with…" window) cannot join the client's tab
// group, and is the client's all the same: the click says it opened it, tabs_list lists it, and
// reading it does not ask as if it were another's tab (the test would wait on that ask).
func TestAClientUsesTheSignInWindowItsPageOpens(t *testing.T) {
	site := testkit.NewSite(t)
	panel, cs := clientOn(t, site.Page("popup.html"), "allow_always")
	r := callTool(t, panel, cs, "e2e-agent", "click", map[string]any{"selector": "#signin"}, "allow_always")
	m := regexp.MustCompile(`It opened a new tab \(tabId (\d+)\)`).FindStringSubmatch(text(r))
	if r.IsError || m == nil {
		t.Fatalf("the click does not say which tab it opened: %s", text(r))
	}
	popup, _ := strconv.Atoi(m[1])
	if l := text(callTool(t, panel, cs, "e2e-agent", "tabs_list", map[string]any{}, "allow_always")); !strings.Contains(l, fmt.Sprintf("tab %d ", popup)) {
		t.Errorf("tabs_list leaves out the window the client's page opened:\n%s", l)
	}
	if s := callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{"tabId": popup}, ""); s.IsError || !strings.Contains(text(s), `textbox "Email"`) {
		t.Fatalf("snapshot of the sign-in window: %s", text(s))
	}
	ty := callTool(t, panel, cs, "e2e-agent", "type", map[string]any{"tabId": popup, "selector": "#email", "text": "ada@example.com", "submit": true}, "allow_once")
	if ty.IsError || !strings.Contains(text(ty), "then closed") {
		t.Errorf("the form sent in the sign-in window: %s", text(ty))
	}
	// The page hears from its window by a message, which may come after the window closed and
	// the call returned (a background window's page): the client waits for it, as a model does.
	if w := callTool(t, panel, cs, "e2e-agent", "wait_for", map[string]any{"text": "Signed in as ada@example.com"}, ""); w.IsError {
		t.Errorf("the client's page after signing in: %s\n%s", text(w), text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "")))
	}
}
