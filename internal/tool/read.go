package tool

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// pageTab resolves the tab a reading or acting tool works in and checks Chrome lets Skiff
// script it.
func (e *Env) pageTab(ctx context.Context, asked int) (Tab, error) {
	t, err := e.tab(ctx, asked)
	if err != nil {
		return t, err
	}
	if t, err = e.awake(ctx, t); err != nil {
		return t, err
	}
	if !Scriptable(t.URL) {
		if t.URL == "" || t.URL == "about:blank" {
			return t, failf("the tab is empty; navigate to a page first")
		}
		return t, fmt.Errorf("%w: %s", ErrRestricted, t.URL)
	}
	return t, nil
}

// awake is t with its page loaded. Chrome unloads a tab's page and keeps only its address:
// Memory Saver puts a tab left in the background to sleep, a tab restored with the last
// session waits until it is shown, and a page that crashed shows "Aw, Snap!". Nothing can be
// read or done there until it loads again, as it does when a person clicks the tab or its
// Reload: awake loads it and says so in the call's result (what the page held before, a form
// half filled, is gone).
func (e *Env) awake(ctx context.Context, t Tab) (Tab, error) {
	if t.Status != "unloaded" || !Scriptable(t.URL) {
		return t, nil
	}
	since := time.Now()
	if err := e.Browser.Reload(ctx, t.ID); err != nil {
		return t, err
	}
	t2, loading, err := e.settle(ctx, t.ID, since, 10*time.Second)
	if err != nil {
		return t2, err
	}
	note := fmt.Sprintf("[Chrome had unloaded the page in this tab (to save memory, or it crashed); Skiff loaded %s again first, so anything typed into it before is gone.]", t.URL)
	if loading {
		note = fmt.Sprintf("[Chrome had unloaded the page in this tab (to save memory, or it crashed); Skiff loads %s again, and it is still loading.]", t.URL)
	}
	e.note(note)
	return t2, nil
}

type pinKey struct{}

// pin binds a call's page calls in one tab to the site it was approved for.
type pin struct {
	tabID  int
	origin string
}

// approvedTab is the tab a reading call reads: the one its Effect named when it was resolved
// (and judged), without looking it up again, with a context that binds its page calls to that
// site. If the tab has moved on to another site since (an ask can take a minute), the page
// refuses the call and nothing of the new site reaches the model. A call with no Effect looks
// the tab up as pageTab does.
func (e *Env) approvedTab(ctx context.Context, asked int, f *Effect) (context.Context, Tab, error) {
	if f != nil && f.TabID > 0 && (asked <= 0 || asked == f.TabID) && Scriptable(f.URL) && !f.Unloaded {
		if pctx, ok := pinned(ctx, f); ok {
			return pctx, Tab{ID: f.TabID, URL: f.URL}, nil
		}
	}
	t, err := e.pageTab(ctx, asked)
	if err == nil && f != nil && f.Unloaded && t.ID == f.TabID {
		if pctx, ok := pinned(ctx, f); ok {
			ctx = pctx // loaded again: still bound to the site it was judged on
		}
	}
	return ctx, t, err
}

// pinned binds ctx's page calls in f's tab to the site f was judged on, if f names a web site.
func pinned(ctx context.Context, f *Effect) (context.Context, bool) {
	if f == nil || f.TabID <= 0 {
		return ctx, false
	}
	o := weburl.Origin(f.URL)
	if !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
		return ctx, false // a file: page has no origin a page can compare with ("null")
	}
	want := pin{f.TabID, o}
	if have, ok := ctx.Value(pinKey{}).(pin); ok && have == want {
		return ctx, true // already bound (a form's fields, a scroll's element)
	}
	return context.WithValue(ctx, pinKey{}, want), true
}

// unpinned frees ctx's page calls from a pin: what an action caused (a click that opened
// another site) is read wherever the tab now is.
func unpinned(ctx context.Context) context.Context {
	if _, ok := ctx.Value(pinKey{}).(pin); !ok {
		return ctx
	}
	return context.WithValue(ctx, pinKey{}, pin{})
}

// Snapshot reads what is visible in a tab, frames included, as one tree.
func (e *Env) Snapshot(ctx context.Context, tabID int, root string, interactive bool) (*Snap, error) {
	if root != "" {
		frame, local, err := parseRef(root)
		if err != nil {
			return nil, err
		}
		var s Snap
		if err := e.call(ctx, tabID, frame, pageFiles, "snapshot", map[string]any{"root": local, "interactive": interactive}, &s); err != nil {
			return nil, err
		}
		prefixRefs(s.Tree, frame)
		return &s, nil
	}
	// Most pages are one frame: read the top frame while Chrome lists the frames, and keep that
	// reading unless there are others.
	type read struct {
		s   Snap
		err error
	}
	first := make(chan read, 1)
	go func() {
		var r read
		r.err = e.call(ctx, tabID, 0, pageFiles, "snapshot", map[string]any{"interactive": interactive}, &r.s)
		first <- r
	}()
	all, err := e.Browser.Frames(ctx, tabID)
	top := <-first
	frames := live(all)
	if err != nil || len(frames) <= 1 {
		if top.err != nil {
			return nil, top.err
		}
		markFailed(top.s.Tree, all)
		return &top.s, nil
	}
	parents := map[int]int{}
	for _, f := range frames {
		parents[f.ID] = f.ParentID
	}
	snaps := map[int]*Snap{}
	if top.err == nil && placesAll(top.s.Tree, frames) {
		// The top frame already knew each of its frames (from an earlier snapshot's hellos),
		// and none has frames of its own: its reading stands, and only the frames are read.
		snaps[0] = &top.s
	} else {
		// Each frame tells its parent which iframe it is, then every frame is read at once.
		e.introduceFrames(ctx, tabID, frames)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var topErr error
	var toRead []Frame
	can := scriptable(frames)
	for _, f := range frames {
		if can[f.ID] && snaps[f.ID] == nil {
			toRead = append(toRead, f)
		}
	}
	for _, f := range toRead {
		wg.Go(func() {
			var s Snap
			err := e.call(ctx, tabID, f.ID, pageFiles, "snapshot", map[string]any{"interactive": interactive}, &s)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				snaps[f.ID] = &s
			} else if f.ID == 0 {
				topErr = err
			}
		})
	}
	wg.Wait()
	if topErr != nil {
		return nil, topErr
	}
	s := stitch(snaps, parents)
	if s != nil {
		markFailed(s.Tree, all)
	}
	return s, nil
}

// markFailed marks the iframes of tree that show a frame whose page did not load (of frames),
// known by the address they were to load.
func markFailed(tree []Item, frames []Frame) {
	failed := map[string]bool{}
	for _, f := range frames {
		if f.Failed {
			failed[f.URL] = true
		}
	}
	if len(failed) == 0 {
		return
	}
	var walk func([]Item)
	walk = func(items []Item) {
		for _, it := range items {
			if n := it.Node; n != nil {
				if n.Role == "iframe" && len(n.Kids) == 0 && failed[n.Src] {
					n.Failed = true
				}
				walk(n.Kids)
			}
		}
	}
	walk(tree)
}

// Unchanged reports whether tab tabID still shows s as it was read: the same document, of one
// frame, with no element added, removed or changed since (a value typed into a field is not a
// change of its elements). Asking is one small call into the page where reading again walks it
// all; a page Skiff could not watch (frames, shadow roots, a snapshot cut short) is never
// unchanged.
func (e *Env) Unchanged(ctx context.Context, tabID int, s *Snap) bool {
	if s == nil || s.Watch == "" {
		return false
	}
	same := make(chan bool, 1)
	go func() {
		var r struct {
			Same bool `json:"same"`
		}
		err := e.call(ctx, tabID, 0, pageFiles, "unchanged", map[string]string{"watch": s.Watch}, &r)
		same <- err == nil && r.Same
	}()
	frames, err := e.Browser.Frames(ctx, tabID)
	return <-same && err == nil && len(live(frames)) <= 1
}

// placesAll reports whether a top frame's tree names the frame of each scriptable frame in
// frames, and no frame is nested in another: then the tree can be stitched as it is.
func placesAll(tree []Item, frames []Frame) bool {
	named := map[int]bool{}
	var walk func([]Item)
	walk = func(items []Item) {
		for _, it := range items {
			if n := it.Node; n != nil {
				if n.Frame != nil {
					named[*n.Frame] = true
				}
				walk(n.Kids)
			}
		}
	}
	walk(tree)
	can := scriptable(frames)
	for _, f := range frames {
		if f.ParentID > 0 || f.ParentID == 0 && can[f.ID] && !named[f.ID] {
			return false
		}
	}
	return true
}

func snapshotTool(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*SnapshotInput)
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	s, err := e.Snapshot(ctx, t.ID, in.Ref, in.Interactive)
	if err != nil {
		return nil, err
	}
	text := Format(s, SnapOptions{MaxTokens: in.MaxTokens, After: in.After, FullText: in.Ref != ""})
	return (&Result{Text: text, Untrusted: true, URL: s.URL}).Summed(sumSnapshot.With(countInteractive(s.Tree), len(text))), nil
}

// Readable is a page's readable text, as ext/page/extract.js gives it.
type Readable struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Selection string `json:"selection"`
	Text      string `json:"text"`
	Readable  bool   `json:"readable"`
	Byline    string `json:"byline"`
	SiteName  string `json:"siteName"`
	// Doc names the document it was read from (a navigation or a reload makes a new one).
	Doc string `json:"doc"`
	// PDF: the tab shows a PDF (Chrome's viewer: nothing for the page-side code to read); its
	// text is read from the document itself (PDFReader) and Pages says how many it has.
	PDF   bool `json:"pdf,omitempty"`
	Pages int  `json:"pages,omitempty"`
	// PDFs are the PDFs the page shows in a frame, an embed or an object (extract.js
	// shownPDFs): their text is added to the page's, read as a PDF tab's is.
	PDFs []string `json:"pdfs,omitempty"`
	// ContentType is the document's type (text/html, image/png...), and Frames how many
	// frames it holds: they say what a page without text is.
	ContentType string `json:"contentType,omitempty"`
	Frames      int    `json:"frames,omitempty"`
	// ShownFrames are the addresses of the frames a person sees on the page (extract.js).
	ShownFrames []string `json:"shownFrames,omitempty"`
}

// framedBelow: a page with less text of its own than this, and frames a person sees, is read
// with its frames' text (a frameset, a document shown in an iframe); maxFramesRead bounds them.
const (
	framedBelow   = 200
	maxFramesRead = 4
)

// maxFramesSearched bounds how many of a page's frames find_text and wait_for look in, and
// maxFrameDepth how deep (a card form in a payment provider's frame in a shop's checkout frame
// is two down).
const (
	maxFramesSearched = 8
	maxFrameDepth     = 3
)

// shownFrames are the frames of a tab's page whose frame element the document holding it shows
// (the page's, or a frame's the page shows, down to maxFrameDepth), that can be scripted: where
// find_text and wait_for look after the page itself, nearest first. A frame its document hides
// (a tracker's, a hidden one that speaks to the AI) is not searched, nor what is in it.
func (e *Env) shownFrames(ctx context.Context, tabID int) []Frame {
	all, err := e.Browser.Frames(ctx, tabID)
	if err != nil {
		return nil
	}
	frames := live(all)
	can := scriptable(frames)
	kids := map[int][]Frame{}
	for _, f := range frames {
		if f.ID != 0 && f.ParentID >= 0 && can[f.ID] {
			kids[f.ParentID] = append(kids[f.ParentID], f)
		}
	}
	var out []Frame
	introduced := false
	in := []int{0} // the documents whose frames are looked at next: the page's first
	for depth := 0; depth < maxFrameDepth && len(in) > 0 && len(out) < maxFramesSearched; depth++ {
		var next []int
		for _, parent := range in {
			for _, f := range e.framesShownIn(ctx, tabID, parent, kids[parent], frames, &introduced) {
				if len(out) < maxFramesSearched {
					out = append(out, f)
					next = append(next, f.ID)
				}
			}
		}
		in = next
	}
	return out
}

// framesShownIn is which of frames kids the document of frame parent shows, in its order.
func (e *Env) framesShownIn(ctx context.Context, tabID, parent int, kids, frames []Frame, introduced *bool) []Frame {
	if len(kids) == 0 {
		return nil
	}
	byID := map[int]Frame{}
	ids := make([]int, 0, len(kids))
	for _, f := range kids {
		byID[f.ID] = f
		ids = append(ids, f.ID)
	}
	var r struct {
		Shown   []int `json:"shown"`
		Unknown []int `json:"unknown"`
	}
	err := e.call(ctx, tabID, parent, pageFiles, "framesShown", map[string]any{"frameIds": ids}, &r)
	if err == nil && len(r.Unknown) > 0 && !*introduced {
		// The document has not heard from these frames yet: they say which they are, and it is
		// asked again.
		*introduced = true
		e.introduceFrames(ctx, tabID, frames)
		err = e.call(ctx, tabID, parent, pageFiles, "framesShown", map[string]any{"frameIds": ids}, &r)
	}
	if err != nil {
		return nil
	}
	out := make([]Frame, 0, len(r.Shown))
	for _, id := range r.Shown {
		if f, ok := byID[id]; ok {
			out = append(out, f)
		}
	}
	return out
}

// framesText is the text of the frames of tab that r names as shown, each after a line with
// its address, read as each frame reads itself (its own hidden text left out).
func (e *Env) framesText(ctx context.Context, tabID int, r *Readable) string {
	all, err := e.Browser.Frames(ctx, tabID)
	if err != nil {
		return ""
	}
	frames := live(all)
	can := scriptable(frames)
	var b strings.Builder
	n := 0
	for _, f := range frames {
		if f.ParentID != 0 || !can[f.ID] || !slices.Contains(r.ShownFrames, f.URL) || n == maxFramesRead {
			continue
		}
		var fr Readable
		if e.call(ctx, tabID, f.ID, readableFiles, "readable", nil, &fr) != nil || strings.TrimSpace(fr.Text) == "" {
			continue
		}
		fmt.Fprintf(&b, "\n\n[Frame: %s]\n%s", f.URL, fr.Text)
		n++
	}
	return b.String()
}

// Empty says, for a page that has no text to read, what it is instead and how to see it, or
// "" when it has text.
func (r *Readable) Empty() string {
	switch kind, _, _ := strings.Cut(r.ContentType, "/"); {
	case strings.TrimSpace(r.Text) != "":
		return ""
	case kind == "image":
		return "(This tab shows a picture (" + r.ContentType + "), not a page with text: take a screenshot to see it.)"
	case kind == "video" || kind == "audio":
		return "(This tab plays a " + kind + " file (" + r.ContentType + "), which has no text.)"
	case r.Frames > 0:
		return "(The page has no text of its own: it shows other pages in frames. A snapshot reads what they show.)"
	}
	return "(The page has no visible text.)"
}

// PDFReader reads the text of the PDF at an address, as the tab that shows it got it (the
// extension's offscreen document, with pdf.js): each page after a line "[Page N]". data, when
// not "", is the PDF itself in base64 (an address only its page can read: blob:).
type PDFReader interface {
	PDFText(ctx context.Context, url, data string) (PDFText, error)
}

// maxPagePDF is the largest PDF read from its page rather than from its address (blob:): it
// crosses from the page to the reader as text.
const maxPagePDF = 20 << 20

// PDFText is a PDF's text, its count of pages and the title its metadata gives.
type PDFText struct {
	Text  string
	Pages int
	Title string
}

var (
	sayPDFUnread = i18n.Sentence{Key: "errPDFUnread", English: "Skiff could not read this PDF ($1)"}
	sayPDFNoText = i18n.Sentence{Key: "errPDFNoText", English: "this PDF holds no text (a scan?): download it and attach it to a message, and its pages go as pictures"}
	sayPDFLetGo  = i18n.Sentence{Key: "pdfLetGo", English: "the page that made it has let it go: download it from the viewer and attach it to a message"}
	sayPDFBig    = i18n.Sentence{Key: "pdfPageTooLarge", English: "it is larger than 20 MB: download it from the viewer and attach it to a message"}
)

// pageMadePDF is the PDF a tab shows at an address only its page can read (blob:), in base64,
// read by the page; "" for any other address.
func (e *Env) pageMadePDF(ctx context.Context, tabID int, url string) (string, error) {
	if !strings.HasPrefix(url, "blob:") {
		return "", nil
	}
	var b struct {
		Data string `json:"data"`
		Why  string `json:"why"`
	}
	if err := e.call(ctx, tabID, 0, pageFiles, "pdfBytes", map[string]int{"max": maxPagePDF}, &b); err != nil {
		return "", err
	}
	switch b.Why {
	case "":
		return b.Data, nil
	case "size":
		return "", sayPDFUnread.Error(sayPDFBig.With())
	}
	return "", sayPDFUnread.Error(sayPDFLetGo.With())
}

// Doc is the name of the document a tab shows now (see Readable.Doc), and whether it has
// finished loading.
func (e *Env) Doc(ctx context.Context, tabID int) (doc string, loaded bool, err error) {
	var r struct {
		Doc        string `json:"doc"`
		ReadyState string `json:"readyState"`
	}
	if err := e.call(ctx, tabID, 0, pageFiles, "info", nil, &r); err != nil {
		return "", false, err
	}
	return r.Doc, r.ReadyState == "complete", nil
}

// Read reads a tab's readable text (Readability and Turndown, in the page).
func (e *Env) Read(ctx context.Context, tabID int) (*Readable, error) {
	var r Readable
	if err := e.call(ctx, tabID, 0, readableFiles, "readable", nil, &r); err != nil {
		return nil, err
	}
	if !r.PDF && len(r.ShownFrames) > 0 && len(strings.TrimSpace(r.Text)) < framedBelow {
		r.Text = strings.TrimSpace(r.Text + e.framesText(ctx, tabID, &r))
	}
	pr, ok := e.Browser.(PDFReader)
	switch {
	case !ok:
	case !r.PDF:
		for _, u := range r.PDFs {
			r.Text += e.shownPDF(ctx, pr, r.URL, u, &r.Pages)
		}
	default:
		data, err := e.pageMadePDF(ctx, tabID, r.URL)
		if err != nil {
			return nil, err
		}
		p, err := pr.PDFText(ctx, r.URL, data)
		if errors.Is(err, ErrNoFileAccess) {
			return nil, err // not the PDF: Skiff may not read files
		}
		if err != nil {
			why := i18n.Verbatim(err.Error())
			if ie := (*i18n.Error)(nil); errors.As(err, &ie) {
				why = ie.Text
			}
			return nil, sayPDFUnread.Error(why)
		}
		if p.Text == "" {
			return nil, sayPDFNoText.Error()
		}
		r.Text, r.Pages, r.Readable = p.Text, p.Pages, true
		if p.Title != "" {
			r.Title = p.Title
		}
	}
	return &r, nil
}

// ownPDF says whether a PDF a page shows may be read as the page's: one from the page's own
// site (a file on this computer only for a page that is one too). Another site's is not read:
// the reader asks with the user's cookies, so a page could otherwise have a document of their
// bank's put in its text for the model, and a web page a file of this computer.
func ownPDF(page, pdf string) bool {
	if strings.HasPrefix(pdf, "file:") {
		return strings.HasPrefix(page, "file:")
	}
	o := weburl.Origin(pdf)
	return o != "" && o == weburl.Origin(page)
}

// shownPDF is the text of a PDF a page shows in a frame, an embed or an object, headed by
// what it is, to follow the page's own text (or why it could not be read); pages counts its
// pages.
func (e *Env) shownPDF(ctx context.Context, pr PDFReader, page, url string, pages *int) string {
	name, _, _ := strings.Cut(url, "?")
	name = path.Base(name) // the file's name (the site's, for an address that names none)
	if !ownPDF(page, url) {
		return fmt.Sprintf("\n\n[The page shows the PDF %s from another site (%s), which Skiff does not read as this page's: opened in a tab of its own, it is read.]", name, url)
	}
	p, err := pr.PDFText(ctx, url, "")
	switch {
	case err != nil:
		return fmt.Sprintf("\n\n[The page shows the PDF %s, which Skiff could not read: %s.]", name, strings.TrimSuffix(err.Error(), "."))
	case p.Text == "":
		return fmt.Sprintf("\n\n[The page shows the PDF %s, which holds no text (a scan?).]", name)
	}
	*pages += p.Pages
	if p.Title != "" {
		name = fmt.Sprintf("%s (“%s”)", name, p.Title)
	}
	return fmt.Sprintf("\n\n[The page shows the PDF %s, %s:]\n%s", name, plural(p.Pages, "page"), p.Text)
}

// Selection reads the text the user has selected in a tab.
func (e *Env) Selection(ctx context.Context, tabID int) (string, error) {
	var r struct {
		Selection string `json:"selection"`
	}
	err := e.call(ctx, tabID, 0, pageFiles, "selection", nil, &r)
	return r.Selection, err
}

func readText(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*ReadTextInput)
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	r, err := e.Read(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	max := in.MaxChars
	if max <= 0 {
		max = 32000
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Title: %s\nURL: %s\n", oneLine(r.Title), r.URL)
	if r.Byline != "" {
		fmt.Fprintf(&b, "By: %s\n", oneLine(r.Byline))
	}
	b.WriteString("\n")
	b.WriteString(clip(r.Text, max))
	b.WriteString(r.Empty())
	if len(r.Text) > max {
		fmt.Fprintf(&b, "\n[Cut at %d of %d characters; ask again with a larger maxChars.]", max, len(r.Text))
	}
	return (&Result{Text: b.String(), Untrusted: true, URL: r.URL}).Summed(sumChars.With(min(len(r.Text), max))), nil
}

func getContent(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*GetContentInput)
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	var r struct {
		Text      string `json:"text"`
		Truncated bool   `json:"truncated"`
	}
	if err := e.call(ctx, t.ID, 0, pageFiles, "content", map[string]any{"selector": in.Selector, "html": in.HTML, "max": in.MaxChars}, &r); err != nil {
		return nil, err
	}
	text := r.Text
	if r.Truncated {
		text += "\n[Cut here; ask for a smaller part with a selector, or a larger maxChars.]"
	}
	if strings.TrimSpace(r.Text) == "" {
		text = "(no visible text)"
	}
	return (&Result{Text: text, Untrusted: true, URL: t.URL}).Summed(sumChars.With(len(r.Text))), nil
}

// MaxLinks is how many links one call of links lists.
const MaxLinks = 500

// Link is a link a page shows: its name, where it leads, and its ref.
type Link struct{ Text, Href, Ref string }

// Links are the visible links of the page in tab tabID, in the page's order: the first
// MaxLinks of them that hold filter (any case) in their name or address, and how many there
// are (About: roughly, past the first MaxLinks).
type Links struct {
	Links []Link `json:"links"`
	Total int    `json:"total"`
	About bool   `json:"about"`
}

// Alike says whether the element ref in tab tabID has namesakes (others of its frame with its
// role and name) and the heading above it; ok is false when the page cannot tell cheaply (an
// element named by its label, or by nothing), and the page is read whole to know.
func (e *Env) Alike(ctx context.Context, tabID int, ref string) (alike bool, near string, ok bool) {
	frame, local, err := parseRef(ref)
	if err != nil {
		return false, "", false
	}
	var r struct {
		Alike int    `json:"alike"`
		Near  string `json:"near"`
	}
	if e.call(ctx, tabID, frame, pageFiles, "alike", map[string]string{"ref": local}, &r) != nil || r.Alike < 0 {
		return false, "", false
	}
	return r.Alike > 0, r.Near, true
}

// Links reads the links of the page in tab tabID (a replay finds a result's address in them).
func (e *Env) Links(ctx context.Context, tabID int, filter string) (*Links, error) {
	var r Links
	// The page applies the filter before it keeps the first ones: a link past them (the "Next"
	// at the foot of a long list) is found by its words.
	if err := e.call(ctx, tabID, 0, pageFiles, "links", map[string]any{"max": MaxLinks, "filter": filter}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func linksTool(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*LinksInput)
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	r, err := e.Links(ctx, t.ID, in.Filter)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	n := 0
	for _, l := range r.Links {
		if b.Len() > MaxResultChars*3/4 {
			break // long addresses: fewer of them, and the rest said
		}
		fmt.Fprintf(&b, "- [%s] %q %s\n", l.Ref, l.Text, l.Href)
		n++
	}
	switch {
	case n == 0 && in.Filter != "":
		fmt.Fprintf(&b, "No link has %q in its text or address.\n", in.Filter)
	case n == 0:
		b.WriteString("No links found.\n")
	case r.Total > n:
		all, with := fmt.Sprint(r.Total), ""
		if r.About {
			all = "about " + all
		}
		if in.Filter != "" {
			with = fmt.Sprintf(" with %q", in.Filter)
		}
		fmt.Fprintf(&b, "These are the first %d of the page's %s links%s; the rest are not listed: pass filter (words of a link's text or address) to find one.\n", n, all, with)
	}
	return (&Result{Text: b.String(), Untrusted: true, URL: t.URL}).Summed(sumLinks.With(n)), nil
}

func findText(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*FindTextInput)
	if strings.TrimSpace(in.Text) == "" {
		return nil, failf("say what text to find")
	}
	ctx, t, err := e.approvedTab(ctx, in.TabID, f)
	if err != nil {
		return nil, err
	}
	type match struct {
		Context, In, Ref, Block string
		Y                       int
	}
	var r struct {
		Matches []match `json:"matches"`
	}
	const most = 20
	if err := e.call(ctx, t.ID, 0, pageFiles, "find", map[string]any{"text": in.Text, "max": most}, &r); err != nil {
		return nil, err
	}
	var b strings.Builder
	write := func(ms []match, frame Frame) {
		where := ""
		if frame.ID != 0 {
			where = " (in the frame showing " + frame.URL + ")"
		}
		for _, m := range ms {
			near := ""
			switch {
			case m.Ref != "":
				near = fmt.Sprintf(" (act on it with ref %s)", frameRef(frame.ID, m.Ref))
			case m.Block != "":
				near = fmt.Sprintf(" (no control holds it; its block has ref %s)", frameRef(frame.ID, m.Block))
			}
			fmt.Fprintf(&b, "- in %s%s at %d px%s: %q\n", m.In, where, m.Y, near, m.Context)
		}
	}
	write(r.Matches, Frame{})
	n := len(r.Matches)
	// What the page shows in its frames is on the page for the person looking at it.
	for _, f := range e.shownFrames(ctx, t.ID) {
		if n >= most {
			break
		}
		var fr struct {
			Matches []match `json:"matches"`
		}
		if e.call(ctx, t.ID, f.ID, pageFiles, "find", map[string]any{"text": in.Text, "max": most - n}, &fr) == nil {
			write(fr.Matches, f)
			n += len(fr.Matches)
		}
	}
	if n == 0 {
		fmt.Fprintf(&b, "%q is not on the page (as visible text).\n", in.Text)
	}
	return (&Result{Text: b.String(), Untrusted: true, URL: t.URL}).Summed(sumMatches.With(n)), nil
}

func screenshot(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*ScreenshotInput)
	t, err := e.tab(ctx, in.TabID)
	if err == nil {
		t, err = e.awake(ctx, t)
	}
	if err != nil {
		return nil, err
	}
	if !t.Active {
		// A tab left behind by one its page opened: Chrome draws it again once it is in front,
		// where its caller may put it (its window is no one else's view).
		if fr, ok := e.Browser.(Fronter); ok && fr.Front(ctx, t.ID) {
			e.fronted(t.ID)
			if now, err := e.Browser.Tab(ctx, t.ID); err == nil {
				t = now
			}
		}
	}
	if d, ok := e.Browser.Dialog(t.ID); ok {
		return nil, &DialogError{Dialog: d}
	}
	format := in.Format
	if format != "png" {
		format = "jpeg"
	}
	// Skiff's chat on the page steps out of the picture while Chrome captures (a page Skiff
	// cannot script has none): the model is shown the page, not Skiff covering part of it.
	var v struct {
		Veiled bool `json:"veiled"`
	}
	if e.call(ctx, t.ID, 0, pageFiles, "veil", map[string]any{"on": true}, &v) == nil && v.Veiled {
		defer func() {
			_ = e.call(context.WithoutCancel(ctx), t.ID, 0, pageFiles, "veil", map[string]any{"on": false}, nil)
		}()
	}
	cctx, cancel := context.WithTimeout(ctx, e.timeout())
	defer cancel()
	if (in.FullPage || f != nil && f.Element != nil) && !t.Active {
		return nil, ErrBackgroundShot
	}
	var img []byte
	text := fmt.Sprintf("Screenshot of %q (%s).", oneLine(t.Title), t.URL)
	switch {
	case f != nil && f.Element != nil:
		img, text, err = e.shootElement(cctx, f, t, format)
	case in.FullPage:
		img, text, err = e.shootPage(cctx, t, format)
	default:
		img, err = e.Browser.Capture(cctx, t.ID, format, 70)
	}
	if err != nil {
		return nil, err
	}
	return (&Result{Text: text, Image: &Image{Mime: "image/" + format, Data: img},
		URL: t.URL, Untrusted: true}).Summed(sumImage.With(max(1, (len(img)+512)>>10), strings.ToUpper(format))), nil
}

// maxShot is the longest side, in pixels, of a picture Skiff takes of more than the window: what
// models read at most (a taller page is cut there, and said to be).
const maxShot = 8000

// capture takes a picture of the region of the page given in CSS pixels from its top left
// (beyond the window when it must), no more than maxShot pixels on its longest side.
func (e *Env) capture(ctx context.Context, tabID int, m layout, format string, x, y, w, h float64) ([]byte, error) {
	scale := 1.0
	if dpr := m.Device.W / m.Content.W; m.Content.W > 0 && dpr > 1 {
		scale = 1 / dpr // a picture in CSS pixels: a sharp screen makes it no larger
	}
	params := map[string]any{"format": format, "clip": map[string]any{"x": x, "y": y, "width": w, "height": h, "scale": scale},
		"captureBeyondViewport": w > m.View.W+1 || h > m.View.H+1 || y < m.Visual.Y || y+h > m.Visual.Y+m.View.H+1}
	if format == "jpeg" {
		params["quality"] = 70
	}
	return DebugShot(ctx, e.Browser, tabID, params)
}

// DebugShot takes a picture of tab tabID with the debugger's Page.captureScreenshot (params as
// it takes them: format, quality, clip…) and returns the image's bytes.
func DebugShot(ctx context.Context, d interface {
	Debug(ctx context.Context, tabID int, method string, params any) (json.RawMessage, error)
}, tabID int, params map[string]any) ([]byte, error) {
	raw, err := d.Debug(ctx, tabID, "Page.captureScreenshot", params)
	if err != nil {
		return nil, err
	}
	var shot struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(raw, &shot); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(shot.Data)
}

// shootElement takes a picture of f's element: brought into view, and cut to its box.
func (e *Env) shootElement(ctx context.Context, f *Effect, t Tab, format string) ([]byte, string, error) {
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, "", err
	}
	// The debugger first: the bar Chrome shows while it is attached makes the window shorter.
	_, derr := e.attach(ctx, tab.ID)
	var box struct {
		What       string
		X, Y, W, H float64
	}
	if err := e.call(ctx, tab.ID, frame, pageFiles, "shotBox", map[string]any{"target": pt}, &box); err != nil {
		return nil, "", err
	}
	of := box.What + refNote(f.Element.Ref)
	if errors.Is(derr, ErrNoDebugger) {
		img, err := e.Browser.Capture(ctx, tab.ID, format, 70)
		return img, fmt.Sprintf("Screenshot of the window with %s in view: Skiff cannot cut a picture to one element on this tab (its debugger is not allowed here).", of), err
	} else if derr != nil {
		return nil, "", derr
	}
	p, err := e.topPoint(ctx, tab.ID, frame, point{X: box.X, Y: box.Y})
	if err != nil {
		return nil, "", err
	}
	m, err := e.attach(ctx, tab.ID) // scrolled to it
	if err != nil {
		return nil, "", err
	}
	w, h := min(box.W, maxShot), min(box.H, maxShot)
	img, err := e.capture(ctx, tab.ID, m, format, p.X+m.Visual.X, p.Y+m.Visual.Y, w, h)
	if err != nil {
		return nil, "", err
	}
	text := fmt.Sprintf("Screenshot of %s (%.0f×%.0f px) on %q (%s).", of, w, h, oneLine(t.Title), t.URL)
	if h < box.H || w < box.W {
		text += fmt.Sprintf(" It is %.0f×%.0f px: this is its top left %.0f×%.0f.", box.W, box.H, w, h)
	}
	return img, text, nil
}

// shootPage takes a picture of the whole page, beyond the window.
func (e *Env) shootPage(ctx context.Context, t Tab, format string) ([]byte, string, error) {
	m, err := e.attach(ctx, t.ID)
	if errors.Is(err, ErrNoDebugger) {
		img, err := e.Browser.Capture(ctx, t.ID, format, 70)
		return img, fmt.Sprintf("Screenshot of %q (%s): only what the window shows, as Skiff cannot take more of this tab (its debugger is not allowed here).", oneLine(t.Title), t.URL), err
	} else if err != nil {
		return nil, "", err
	}
	w, h := max(m.Content.W, m.View.W), max(m.Content.H, m.View.H)
	cw, ch := min(w, maxShot), min(h, maxShot)
	img, err := e.capture(ctx, t.ID, m, format, 0, 0, cw, ch)
	if err != nil {
		return nil, "", err
	}
	text := fmt.Sprintf("Screenshot of the whole page %q (%s), %.0f×%.0f px.", oneLine(t.Title), t.URL, cw, ch)
	switch {
	case ch < h:
		text = fmt.Sprintf("Screenshot of %q (%s): its first %.0f px of %.0f, %.0f px wide (a taller picture is more than a model reads: for what is further down, take one of an element there, by its ref).", oneLine(t.Title), t.URL, ch, h, cw)
	case h <= m.View.H+1:
		text += " The page is no taller than the window (a page that scrolls inside a box of its own shows only what the window does)."
	}
	return img, text, nil
}

func waitFor(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*WaitInput)
	if in.Selector == "" && in.Text == "" && in.TextGone == "" {
		if in.Seconds <= 0 {
			return nil, failf("say what to wait for: a selector, a text, a text to disappear, or seconds")
		}
		d := time.Duration(min(in.Seconds, 30) * float64(time.Second))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(d):
		}
		return &Result{Text: fmt.Sprintf("Waited %s.", d)}, nil
	}
	t, err := e.pageTab(ctx, in.TabID)
	if err != nil {
		return nil, err
	}
	timeout := time.Duration(in.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	args := map[string]any{"selector": in.Selector, "text": in.Text}
	what := fmt.Sprintf("an element matching %q", in.Selector)
	switch {
	case in.TextGone != "":
		args = map[string]any{"text": in.TextGone, "gone": true}
		what = fmt.Sprintf("%q to disappear", in.TextGone)
	case in.Text != "":
		what = fmt.Sprintf("the text %q", in.Text)
	}
	start := time.Now()
	// The frames the page shows are looked up again each second, not at every look: a
	// payment's frame that comes or goes is seen within one.
	var frames []Frame
	var framesAt time.Time
	for {
		var r struct {
			Met bool `json:"met"`
		}
		err := e.call(ctx, t.ID, 0, pageFiles, "check", args, &r)
		var ne *Error
		if err != nil && !(isRetry(err) || asErr(err, &ne) && strings.Contains(ne.Msg, "frame is gone")) {
			return nil, err
		}
		if err == nil && in.Selector == "" {
			// Text the page shows in a frame (a payment's answer, an embedded form's) is on
			// the page: there when any frame shows it, gone when none does.
			gone := in.TextGone != ""
			if r.Met == gone && time.Since(framesAt) >= time.Second {
				frames, framesAt = e.shownFrames(ctx, t.ID), time.Now()
			}
			for _, f := range frames {
				if r.Met != gone {
					break
				}
				var fr struct {
					Met bool `json:"met"`
				}
				if e.call(ctx, t.ID, f.ID, pageFiles, "check", args, &fr) == nil {
					r.Met = fr.Met
				}
			}
		}
		if err == nil && r.Met {
			return (&Result{Text: fmt.Sprintf("Found %s after %.1f s.", what, time.Since(start).Seconds())}).Summed(sumMet.With()), nil
		}
		if time.Since(start) > timeout {
			return nil, failf("waited %.1f s for %s; it did not happen", timeout.Seconds(), what)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
