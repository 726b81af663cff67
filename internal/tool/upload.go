package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"
)

// chosen is the file the call was sent for each path, in order.
func chosen(ctx context.Context, paths []string) ([]File, error) {
	find, _ := ctx.Value(filesKey{}).(Files)
	if len(paths) == 0 {
		return nil, failf("say which files to choose: files, with their paths")
	}
	if find == nil {
		return nil, failf("no file came with this call: upload_file takes files from an outside agent through skiffd, which reads them on its computer, or, in Skiff's panel, the pictures and files the user attached to the chat")
	}
	out := make([]File, 0, len(paths))
	for _, p := range paths {
		f, ok := find(ctx, p)
		if !ok {
			return nil, failf("the file %q did not come with this call (in Skiff's panel: give the name of a picture or a file the user attached to the chat)", p)
		}
		out = append(out, f)
	}
	return out, nil
}

// sized is a file as a person reads it in a list: its name and size ("cv.pdf (12.3 KB)").
func sized(f File) string {
	n := float64(len(f.Data))
	switch {
	case n < 1000:
		return fmt.Sprintf("%s (%d bytes)", f.Name, len(f.Data))
	case n < 1e6:
		return fmt.Sprintf("%s (%.1f KB)", f.Name, n/1e3)
	}
	return fmt.Sprintf("%s (%.1f MB)", f.Name, n/1e6)
}

// fileField is what the page says of the file field an element stands for (skiff.js fileField).
type fileField struct {
	Found    bool     `json:"found"`
	What     string   `json:"what"`
	Field    string   `json:"field"`
	Multiple bool     `json:"multiple"`
	Accept   string   `json:"accept"`
	Disabled bool     `json:"disabled"`
	Names    []string `json:"names"`
	Error    string   `json:"error"`
}

// fits checks files against a field: one file unless it takes several; a kind it does not ask
// for is said (a person's chooser offers "All files" too, and pages check their own way).
func (ff fileField) fits(files []File) (string, error) {
	if ff.Disabled {
		return "", failf("%s is disabled", ff.Field)
	}
	if len(files) > 1 && !ff.Multiple {
		return "", failf("%s takes one file, not %d", ff.Field, len(files))
	}
	var off []string
	for _, f := range files {
		if !accepts(ff.Accept, f) {
			off = append(off, f.Name)
		}
	}
	if len(off) == 0 {
		return "", nil
	}
	return fmt.Sprintf(" The field asks for %s, which %s is not: the page may refuse it.", ff.Accept, strings.Join(off, ", ")), nil
}

// accepts says whether a file is of a kind a field's accept attribute names (".pdf",
// "image/*", "application/pdf"); an empty one takes any.
func accepts(accept string, f File) bool {
	if strings.TrimSpace(accept) == "" {
		return true
	}
	mime := strings.ToLower(f.Mime)
	ext := strings.ToLower(path.Ext(f.Name))
	for _, a := range strings.Split(accept, ",") {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == "":
		case strings.HasPrefix(a, "."):
			if ext == a {
				return true
			}
		case strings.HasSuffix(a, "/*"):
			if strings.HasPrefix(mime, strings.TrimSuffix(a, "*")) {
				return true
			}
		case mime == a:
			return true
		}
	}
	return false
}

// uploadTarget resolves upload_file: the element, and the files the call came with (what the
// ask names, with their sizes: they leave this computer for the site).
func uploadTarget(ctx context.Context, e *Env, arg any) (*Effect, error) {
	in := arg.(*UploadInput)
	files, err := chosen(ctx, in.Files)
	if err != nil {
		return nil, err
	}
	f, err := e.element(ctx, in.TabID, in.Target, "upload")
	if err != nil {
		return nil, err
	}
	for _, file := range files {
		// The ask names each file by its path: a name alone ("credentials.json") does not
		// say which of the computer's files leaves it.
		at := file
		at.Name = file.Path
		f.Values = append(f.Values, sized(at))
	}
	return f, nil
}

// upload gives the files to what the element stands for, the way the page takes them: the
// file field it is, labels or holds (set as the system's chooser sets it, then input and
// change); else what its click asks the chooser for (an "Attach" button whose script clicks a
// field of its own), caught before any dialog shows; else a drop of the files on it (a drop
// zone). It says which, with the names the field holds afterwards.
func upload(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*UploadInput)
	files, err := chosen(ctx, in.Files)
	if err != nil {
		return nil, err
	}
	ctx, tab, frame, pt, err := e.acting(ctx, f, f.Element)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(files))
	for i, file := range files {
		names[i] = sized(file)
	}
	list := strings.Join(names, ", ")
	var ff fileField
	if err := e.call(ctx, tab.ID, frame, pageFiles, "fileField", map[string]any{"target": pt}, &ff); err != nil {
		return nil, err
	}
	if ff.Error != "" {
		return nil, failf("%s", ff.Error)
	}
	if ff.Found {
		warn, err := ff.fits(files)
		if err != nil {
			return nil, err
		}
		w := e.watching(ctx, tab.ID, frame, false, &pt)
		var set fileField
		if err := e.call(ctx, tab.ID, frame, pageFiles, "setFiles", map[string]any{"target": pt, "files": files}, &set); err != nil {
			e.unwatch(tab.ID, w)
			return nil, err
		}
		text := fmt.Sprintf("Chose %s in %s%s.", list, ff.Field, refNote(f.Element.Ref)) + holds(set.Names, files) + warn
		return (&Result{Text: text + e.drawnFiles(ctx, tab, w), URL: tab.URL}).on(f.Element, ff.What), nil
	}
	// Nothing in it is a file field: a person clicks it, and the page asks for the chooser.
	w := &watch{known: e.knownTabs(ctx), frame: frame, at: time.Now()}
	e.follow(ctx, tab.ID, w)
	var p pressed
	var c Chooser
	asked := false
	_, noDebugger := e.attach(ctx, tab.ID)
	if noDebugger == nil {
		// Only a click with trusted input may ask for a chooser (a script's click has no user
		// activation); without the debugger, nothing is clicked.
		since := time.Now()
		stop := e.intercept(ctx, tab.ID)
		if p, err = e.mouse(ctx, tab.ID, frame, pt, "", 1); err != nil {
			stop()
			e.unwatch(tab.ID, w)
			return nil, err
		}
		w.token = p.Listen
		c, asked = e.chooserAfter(ctx, tab.ID, since)
		stop()
		if !p.Trusted {
			noDebugger = ErrNoDebugger // it was clicked with DOM events: no chooser could come
		}
	}
	if asked {
		text, err := e.chooserFiles(ctx, tab.ID, c, files)
		if err != nil {
			e.unwatch(tab.ID, w)
			return nil, err
		}
		text = fmt.Sprintf("Clicked %s%s; the page asked for a file chooser, and Skiff chose %s in it.", p.What, refNote(f.Element.Ref), list) + text
		return (&Result{Text: text + e.drawnFiles(ctx, tab, w), URL: tab.URL}).on(f.Element, p.What), nil
	}
	// What the click did instead (a person would see it too), said if nothing takes the files.
	clicked, did := "", ""
	if p.What != "" {
		clicked = ", clicking it asked for no file chooser,"
		if after := strings.TrimSpace(e.afterAction(ctx, tab.ID, tab, w)); after != "" {
			did = ". Skiff clicked it first, as a person would; " + strings.ToLower(after[:1]) + after[1:]
		}
	} else {
		e.unwatch(tab.ID, w)
	}
	// No chooser: what takes files by dropping them on it.
	w = e.watching(ctx, tab.ID, frame, false, &pt)
	var d struct {
		What     string `json:"what"`
		Accepted bool   `json:"accepted"`
	}
	if err := e.call(ctx, tab.ID, frame, pageFiles, "dropFiles", map[string]any{"target": pt, "files": files}, &d); err != nil {
		e.unwatch(tab.ID, w)
		return nil, err
	}
	if !d.Accepted {
		e.unwatch(tab.ID, w)
		if noDebugger != nil {
			// Whether a click on it asks for a chooser cannot be known here: say so, not that
			// it takes no files.
			return nil, failf("%s is not a file field, holds none and takes no files dropped on it; if clicking it asks for a file chooser, Skiff can answer that only through the debugger, which this tab does not let it attach (DevTools may be open on it): close DevTools on the tab, or give the file field itself", d.What)
		}
		return nil, failf("%s takes no files: it is not a file field and holds none%s and it does not take files dropped on it. Give the file field, or the page's own button for choosing files%s", d.What, clicked, strings.TrimSuffix(did, "."))
	}
	text := fmt.Sprintf("Dropped %s on %s%s (the page took the drop).", list, d.What, refNote(f.Element.Ref))
	return (&Result{Text: text + e.drawnFiles(ctx, tab, w), URL: tab.URL}).on(f.Element, d.What), nil
}

// readWait bounds the wait for what the page shows of the files it was given: pages read
// them first (a thumbnail, a size), then draw them in.
const readWait = time.Second

// drawnFiles is what the page says after it was given files: it waits (up to readWait) until
// the page drew something and then held still for a moment, or for nothing if it draws nothing.
func (e *Env) drawnFiles(ctx context.Context, tab Tab, w *watch) string {
	if w.token != "" {
		last := -1
		for end := time.Now().Add(readWait); time.Now().Before(end); {
			var n struct {
				Added int `json:"added"`
			}
			if e.call(unpinned(ctx), tab.ID, w.frame, pageFiles, "addedSince", map[string]string{"token": w.token}, &n) != nil || n.Added < 0 || n.Added > 0 && n.Added == last {
				break
			}
			last = n.Added
			select {
			case <-ctx.Done():
				return ""
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return e.afterAction(ctx, tab.ID, tab, w)
}

// A page asks for the chooser in the click's own handler, so the debugger's event for it is
// sent before the click's events are acknowledged; it is looked for at least chooserLook
// after the click and two round trips through the debugger (events come in order with the
// answers), and no longer than chooserWait (a busy machine).
const (
	chooserLook = 300 * time.Millisecond
	chooserWait = 1500 * time.Millisecond
)

// chooserAfter is the chooser the tab's page asked for since since, if it asked.
func (e *Env) chooserAfter(ctx context.Context, tabID int, since time.Time) (Chooser, bool) {
	trips := 0
	for end := time.Now().Add(chooserWait); time.Now().Before(end); {
		if c, ok := e.Browser.FileChooser(tabID, since); ok {
			return c, true
		}
		if trips >= 2 && time.Since(since) >= chooserLook {
			break
		}
		if _, err := e.Browser.Debug(unpinned(ctx), tabID, "Runtime.evaluate", map[string]any{"expression": "0"}); err == nil {
			trips++
		}
		select {
		case <-ctx.Done():
			return Chooser{}, false
		case <-time.After(25 * time.Millisecond):
		}
	}
	return Chooser{}, false
}

// intercept keeps the system's file chooser from opening until the returned func is called.
func (e *Env) intercept(ctx context.Context, tabID int) func() {
	if _, err := e.Browser.Debug(unpinned(ctx), tabID, "Page.setInterceptFileChooserDialog", map[string]any{"enabled": true}); err != nil {
		return func() {}
	}
	return func() { e.undo(tabID, "Page.setInterceptFileChooserDialog", map[string]any{"enabled": false}) }
}

// chooserJS runs on the file field that asked for the chooser (which may be outside the
// document): with set false it says what the field takes; with set true it takes the files as
// the chooser gives them, then input and change, and says the names it holds.
const chooserJS = `function (files, set) {
  if (!set) return { found: true, multiple: this.multiple, accept: this.accept || "", disabled: this.disabled, field: "the page's file field" };
  const bytes = (b64) => { if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64); const s = atob(b64), u = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i); return u; };
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(new File([bytes(f.data)], f.name, { type: f.mime }));
  this.files = dt.files;
  this.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  this.dispatchEvent(new Event("change", { bubbles: true }));
  return { found: true, names: Array.from(this.files, (f) => f.name) };
}`

// chooserFiles gives files to the field behind chooser c, through the debugger.
func (e *Env) chooserFiles(ctx context.Context, tabID int, c Chooser, files []File) (string, error) {
	ctx = unpinned(ctx)
	raw, err := e.Browser.Debug(ctx, tabID, "DOM.resolveNode", map[string]any{"backendNodeId": c.BackendNodeID})
	if err != nil {
		// A field in a frame of another site is another debugger target's.
		return "", failf("the page asked for a file chooser, but its file field could not be reached (it may be in a frame of another site); give the file field itself, from the snapshot")
	}
	var node struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if json.Unmarshal(raw, &node) != nil || node.Object.ObjectID == "" {
		return "", failf("the page asked for a file chooser, but its file field could not be reached; give the file field itself, from the snapshot")
	}
	defer e.undo(tabID, "Runtime.releaseObject", map[string]any{"objectId": node.Object.ObjectID})
	run := func(set bool) (fileField, error) {
		args := []map[string]any{{"value": files}, {"value": set}}
		if !set {
			args[0] = map[string]any{"value": []File{}}
		}
		raw, err := e.Browser.Debug(ctx, tabID, "Runtime.callFunctionOn", map[string]any{"objectId": node.Object.ObjectID,
			"functionDeclaration": chooserJS, "arguments": args, "returnByValue": true})
		if err != nil {
			return fileField{}, err
		}
		var r struct {
			Result struct {
				Value fileField `json:"value"`
			} `json:"result"`
			Exception *struct {
				Text string `json:"text"`
			} `json:"exceptionDetails"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return fileField{}, err
		}
		if r.Exception != nil {
			return fileField{}, failf("the page's file field refused the files (%s)", r.Exception.Text)
		}
		return r.Result.Value, nil
	}
	ff, err := run(false)
	if err != nil {
		return "", err
	}
	if c.Multiple {
		ff.Multiple = true
	}
	warn, err := ff.fits(files)
	if err != nil {
		return "", err
	}
	set, err := run(true)
	if err != nil {
		return "", err
	}
	return holds(set.Names, files) + warn, nil
}

// holds checks what a field holds after it was given files: the names it took back, or a
// sentence that says it does not hold them (a page that cleared it at once).
func holds(names []string, files []File) string {
	if len(names) == len(files) {
		same := true
		for i := range names {
			same = same && names[i] == files[i].Name
		}
		if same {
			return ""
		}
	}
	if len(names) == 0 {
		// Many pages take the files and empty the field at once, so that the same file can
		// be chosen again: what they show says whether they kept them.
		return " The page took them from the field and emptied it."
	}
	return " The field now holds " + strings.Join(names, ", ") + "."
}
