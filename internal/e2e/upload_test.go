//go:build !js

package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// An outside agent chooses files from its computer for a page, through skiffd, in each of the
// ways pages take them: a file field by its label, an Attach button whose script clicks a
// hidden field elsewhere, a drop zone holding its own field, a zone that only takes drops,
// and a button whose script makes a field it never puts in the page. Each call asks the user,
// naming the files and their sizes, even after "always"; the page receives the bytes. What
// takes no files, a file that is not there and two files for a field of one are refused with
// a sentence, and nothing of the files' contents is stored.
func TestOutsideAgentUploadsFilesFromItsComputer(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cv := file("cv.txt", "Jane Q. Engineer\nCV-7d1f")
	photoA, photoB := file("a.png", "PNG one\n55ac"), file("b.png", "PNG two\n90be")
	letter := file("letter.pdf", "Dear hiring team,\nLETTER-3c2e")
	refs := file("refs.txt", "Ada, Grace\nREFS-b41d")
	contacts := file("people.vcf", "BEGIN:VCARD\nVCF-e09a")

	page := site.Page("upload.html")
	callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_always")
	snap := text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "allow_always"))
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)
	got := func(id string) string {
		t.Helper()
		var s string
		Eventually(t, 10e9, func() bool {
			s = inTab[string](t, panel, tab, `document.getElementById(`+jsString(id)+`).textContent`)
			return s != ""
		}, "waiting for the page to show what it received in #"+id)
		return s
	}

	// The ask names the files with their sizes, and why it asks.
	upload := func(what string, paths []string, decision string) *mcp.CallToolResult {
		t.Helper()
		return callTool(t, panel, cs, "e2e-agent", "upload_file", map[string]any{"ref": refOf(t, snap, what), "files": paths}, decision)
	}
	r := upload(`"Your CV"`, []string{cv}, "allow_always")
	if r.IsError || !strings.Contains(text(r), "Chose cv.txt (24 bytes) in ") {
		t.Fatalf("the CV: %s", text(r))
	}
	if s := got("cv-out"); s != "Received cv.txt (text/plain, 24 bytes): Jane Q. Engineer" {
		t.Errorf("the page received for the CV: %q", s)
	}
	if !strings.Contains(text(r), "Received cv.txt") {
		t.Errorf("the result does not say what the page shows: %s", text(r))
	}

	// "Always" did not cover the next one: it asks again, naming both photos.
	ask := `#outside-asks .outside-ask[data-tool="upload_file"]`
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "upload_file", Arguments: map[string]any{"ref": refOf(t, snap, `button "Attach photos"`), "files": []string{photoA, photoB}}})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()
	WaitJS(t, panel, `document.querySelector(`+jsString(ask)+`)`)
	card := JS[string](t, panel, `document.querySelector(`+jsString(ask)+`).textContent`)
	for _, want := range []string{photoA + " (12 bytes), " + photoB + " (12 bytes)", "from this computer", "which always asks"} {
		if !strings.Contains(card, want) {
			t.Errorf("the ask lacks %q: %s", want, card)
		}
	}
	Click(t, panel, `document.querySelector(`+jsString(ask+` button[data-decision="allow_once"]`)+`)`)
	r = <-done
	if r.IsError || !strings.Contains(text(r), "the page asked for a file chooser, and Skiff chose a.png (12 bytes), b.png (12 bytes) in it. The page took them from the field and emptied it.") {
		t.Fatalf("the photos: %s", text(r))
	}
	// What the page drew of them once it had read them is in the result.
	if !strings.Contains(text(r), "Received a.png") {
		t.Errorf("the result does not say what the page drew of the photos: %s", text(r))
	}
	if s := got("photos-out"); s != "Received a.png (image/png, 12 bytes): PNG one; b.png (image/png, 12 bytes): PNG two" {
		t.Errorf("the page received for the photos: %q", s)
	}

	// A zone holding its own field; a zone that only takes drops; a field made by a script.
	r = upload(`"Add a cover letter"`, []string{letter}, "allow_once")
	if r.IsError || !strings.Contains(text(r), "Chose letter.pdf (29 bytes) in the file field of button “Add a cover letter”") {
		t.Errorf("the cover letter: %s", text(r))
	}
	if s := got("zone-out"); s != "Received letter.pdf (application/pdf, 29 bytes): Dear hiring team," {
		t.Errorf("the page received for the letter: %q", s)
	}
	// A zone that only takes drops shows no sign of it (no role, no field): a model finds it
	// by its words.
	found := text(callTool(t, panel, cs, "e2e-agent", "find_text", map[string]any{"text": "Drop your references"}, ""))
	m := regexp.MustCompile(`no control holds it; its block has ref (e\d+)`).FindStringSubmatch(found)
	if m == nil {
		t.Fatalf("find_text gives no ref for the zone: %s", found)
	}
	r = callTool(t, panel, cs, "e2e-agent", "upload_file", map[string]any{"ref": m[1], "files": []string{refs}}, "allow_once")
	if r.IsError || !strings.Contains(text(r), "Dropped refs.txt (20 bytes) on ") {
		t.Errorf("the references: %s", text(r))
	}
	if s := got("drop-out"); s != "Received refs.txt (text/plain, 20 bytes): Ada, Grace" {
		t.Errorf("the page received for the references: %q", s)
	}
	r = upload(`button "Import contacts"`, []string{contacts}, "allow_once")
	if r.IsError || !strings.Contains(text(r), "the page asked for a file chooser, and Skiff chose people.vcf") {
		t.Errorf("the contacts: %s", text(r))
	}
	if s := got("import-out"); !strings.HasPrefix(s, "Received people.vcf (") || !strings.HasSuffix(s, ", 20 bytes): BEGIN:VCARD") {
		t.Errorf("the page received for the contacts: %q", s)
	}

	// Refused, each with a sentence: what takes no files (it was clicked, as a person would
	// try), a file that is not there (before anyone is asked), two files for a field of one.
	r = upload(`button "Help"`, []string{refs}, "allow_once")
	if !r.IsError || !strings.Contains(text(r), "takes no files") || !strings.Contains(text(r), "Help is on its way.") {
		t.Errorf("Help: %v %s", r.IsError, text(r))
	}
	r = upload(`"Your CV"`, []string{filepath.Join(dir, "nowhere.pdf")}, "")
	if !r.IsError || !strings.Contains(text(r), "There is no file "+filepath.Join(dir, "nowhere.pdf")+" on the computer skiffd runs on.") {
		t.Errorf("a missing file: %v %s", r.IsError, text(r))
	}
	r = upload(`"Your CV"`, []string{cv, refs}, "allow_once")
	if !r.IsError || !strings.Contains(text(r), "takes one file, not 2") {
		t.Errorf("two files for one: %v %s", r.IsError, text(r))
	}

	// Nothing of the files is kept.
	stored := storedText(t, panel)
	for _, secret := range []string{"CV-7d1f", "55ac", "90be", "LETTER-3c2e", "REFS-b41d", "VCF-e09a"} {
		if strings.Contains(stored, secret) {
			t.Errorf("storage holds %s", secret)
		}
	}
}

// In the panel, the agent gives a page a picture the user attached to the chat, by the name
// it was attached under: the model is told the names, upload_file is offered only to a chat
// that holds pictures, and it asks as it does for an outside agent.
func TestPanelAgentUploadsAPictureTheUserAttached(t *testing.T) {
	p, panel, page, saw := uploadingAgent(t, `button "Attach photos"`, "square.png")
	png, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
	file := filepath.Join(t.TempDir(), "square.png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	NewChat(t, panel)
	agentOn(t, panel)
	WaitJS(t, panel, `(c => c.hidden || c.dataset.state === "attached" || c.dataset.state === "unavailable")(document.getElementById("page-chip"))`)
	Do(t, panel, chromedp.SetUploadFiles("#attach-file", []string{file}))
	WaitJS(t, panel, `document.querySelectorAll("#attachments .a-image").length === 1`)
	Do(t, panel, chromedp.SendKeys("#input", "add this photo\r"))
	asks := untilDone(t, panel, `document.getElementById("stop").hidden && !!document.querySelector('.msg[data-role="user"]')`)
	ups := p.results("upload_file")
	if len(ups) != 1 || ups[0].Error || !strings.Contains(ups[0].Text, "Skiff chose square.png (") {
		t.Fatalf("upload_file: %s", p.all())
	}
	if asks != 1 {
		t.Errorf("%d asks: a file leaving the computer asks even where acting is allowed", asks)
	}
	if got := inTab[string](t, panel, page, `document.getElementById("photos-out").textContent`); !strings.HasPrefix(got, fmt.Sprintf("Received square.png (image/png, %d bytes): ", len(png))) {
		t.Errorf("the page received %q", got)
	}
	tools, users := saw()
	if len(tools) == 0 || !slices.Contains(tools[0], "upload_file") {
		t.Errorf("upload_file is not offered to a chat with a picture: %v", tools)
	}
	if len(users) == 0 || !strings.Contains(users[0], "add this photo\n[Attached: “square.png”]") {
		t.Errorf("the model is not told the picture's name: %q", users)
	}
}

// uploadingAgent is the panel's agent on upload.html, allowed to read and act there, with a
// model that takes a snapshot and then gives the field the line field names (a snapshot line)
// the attachment called name: the plan, the panel, the page's tab, and what the model was
// sent (the tools it was offered, the user's messages), each turn.
func uploadingAgent(t *testing.T, field, name string) (*plan, context.Context, int, func() (tools [][]string, users []string)) {
	t.Helper()
	site := testkit.NewSite(t)
	var tools [][]string
	var users []string
	p := &plan{steps: []step{
		calls(call("snapshot", nil)),
		func(c *testkit.Conversation) []testkit.Call {
			return []testkit.Call{call("upload_file", obj{"ref": refIn(t, c, field), "files": []string{name}})}
		},
	}}
	var mu sync.Mutex
	m := testkit.NewModel(t, func(c *testkit.Conversation) testkit.Turn {
		mu.Lock()
		tools = append(tools, c.Tools)
		for _, msg := range c.Messages {
			if msg.Role == "user" {
				users = append(users, msg.Text)
			}
		}
		mu.Unlock()
		return p.script(c)
	})
	panel := agentPanel(t, "openai", m)
	page := openTab(t, panel, site.Page("upload.html"))
	for _, kind := range []string{"read:*", "act:*"} {
		JS[any](t, panel, `skiffTest.call("permission.set", {tool: "`+kind+`", origin: `+jsString(site.URL)+`, decision: "allow_always"})`)
	}
	return p, panel, page, func() ([][]string, []string) {
		mu.Lock()
		defer mu.Unlock()
		return append([][]string(nil), tools...), append([]string(nil), users...)
	}
}

// A file the user attached (a PDF: its text goes to the model) is kept as it is too, so the
// panel's agent can give it to a page ("send my CV with the application"): the page gets the
// PDF itself, byte for byte, under its name, and the model is told the name it goes by.
func TestPanelAgentUploadsAFileTheUserAttached(t *testing.T) {
	p, panel, page, saw := uploadingAgent(t, `button "Your CV"`, "report.pdf")
	pdf := filepath.Join(RepoRoot(), "testdata", "attach", "report.pdf")
	want, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	NewChat(t, panel)
	agentOn(t, panel)
	WaitJS(t, panel, `(c => c.hidden || c.dataset.state === "attached" || c.dataset.state === "unavailable")(document.getElementById("page-chip"))`)
	Do(t, panel, chromedp.SetUploadFiles("#attach-file", []string{pdf}))
	WaitJS(t, panel, `[...document.querySelectorAll("#attachments .a-file .file-chip")].some((c) => c.textContent.includes("report.pdf · 2 pages"))`)
	Do(t, panel, chromedp.SendKeys("#input", "send my report with the application\r"))
	untilDone(t, panel, `document.getElementById("stop").hidden && !!document.querySelector('.msg[data-role="user"]')`)
	if ups := p.results("upload_file"); len(ups) != 1 || ups[0].Error {
		t.Fatalf("upload_file: %s", p.all())
	}
	got := inTab[string](t, panel, page, `document.getElementById("cv-out").textContent`)
	if w := fmt.Sprintf("Received report.pdf (application/pdf, %d bytes): %s", len(want), strings.SplitN(string(want), "\n", 2)[0]); got != w {
		t.Errorf("the page received %q, want %q", got, w)
	}
	if _, users := saw(); len(users) == 0 || !strings.Contains(users[0], "send my report with the application\n[Attached: “report.pdf”]") || !strings.Contains(users[0], "PDF-33af") {
		t.Errorf("the model is not told the file's name, or not given its text: %q", users)
	}
}

// Without the debugger (DevTools open on the tab: here Skiff's own panel takes it), a file
// field and a zone holding one still take files; a button whose click would ask for a chooser
// cannot be answered, and the result says why and what to do, not that it takes no files.
func TestUploadWithoutTheDebugger(t *testing.T) {
	site := testkit.NewSite(t)
	d, panel := linkedPanel(t)
	cs := mcpClient(t, d, "e2e-agent")
	cv := filepath.Join(t.TempDir(), "cv.txt")
	if err := os.WriteFile(cv, []byte("Jane Q. Engineer\nCV-7d1f"), 0o600); err != nil {
		t.Fatal(err)
	}
	page := site.Page("upload.html")
	callTool(t, panel, cs, "e2e-agent", "navigate", map[string]any{"url": page}, "allow_always")
	tab := JS[int](t, panel, `chrome.tabs.query({url: `+jsString(page)+`}).then(t => t[0].id)`)
	takeDebugger(t, panel, tab)
	snap := text(callTool(t, panel, cs, "e2e-agent", "snapshot", map[string]any{}, "allow_always"))
	for what, want := range map[string]string{
		`"Your CV"`:              `Chose cv.txt (24 bytes) in button “Your CV”`,
		`"Add a cover letter"`:   `Chose cv.txt (24 bytes) in the file field of button “Add a cover letter”`,
		`button "Attach photos"`: "Skiff can answer that only through the debugger, which this tab does not let it attach (DevTools may be open on it): close DevTools on the tab, or give the file field itself.",
	} {
		r := callTool(t, panel, cs, "e2e-agent", "upload_file", map[string]any{"ref": refOf(t, snap, what), "files": []string{cv}}, "allow_once")
		if !strings.Contains(text(r), want) {
			t.Errorf("%s: want %q in %s", what, want, text(r))
		}
	}
	if s := inTab[string](t, panel, tab, `document.getElementById("cv-out").textContent`); s != "Received cv.txt (text/plain, 24 bytes): Jane Q. Engineer" {
		t.Errorf("the page received for the CV: %q", s)
	}
}
