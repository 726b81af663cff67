package chrome

import (
	"context"
	"errors"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/tool"
)

// A service worker cannot run pdf.js (no DOM, no dynamic import): the text of a PDF a tab
// shows is read in an offscreen document (ext/panel/pdf.html), opened on the first read and
// closed once it has been idle a while.
var offscreen struct {
	mu    sync.Mutex
	open  bool
	idle  *time.Timer
	using int
}

// Why a PDF could not be read (the reader's codes), in the user's words.
var (
	sayPDFScheme  = i18n.Sentence{Key: "pdfNotOnTheWeb", English: "it is not on the web (a file on this computer, or one a page made): download it and attach it to a message"}
	sayPDFStatus  = i18n.Sentence{Key: "pdfSiteAnswered", English: "the site answered $1 when Skiff asked for it again"}
	sayPDFNetwork = i18n.Sentence{Key: "pdfNoAnswer", English: "the site did not answer when Skiff asked for it again"}
	sayPDFSize    = i18n.Sentence{Key: "pdfTooLarge", English: "it is larger than 50 MB"}
	sayPDFBroken  = i18n.Sentence{Key: "pdfBroken", English: "it is damaged, or locked with a password"}
	sayPDFGone    = i18n.Sentence{Key: "pdfFileGone", English: "the file is no longer where the tab opened it: it was moved, renamed or deleted"}
)

// unread is the reader's failure as a sentence (tool.PDFReader's error; tool words it further).
func unread(code, detail, english string) error {
	switch code {
	case "scheme":
		return sayPDFScheme.Error()
	case "status":
		return sayPDFStatus.Error(i18n.Verbatim(detail))
	case "network":
		return sayPDFNetwork.Error()
	case "size":
		return sayPDFSize.Error()
	case "pdf":
		return sayPDFBroken.Error()
	case "file":
		// A file on this computer Chrome would not give: not allowed, or not there.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if allowed, err := callAPI(ctx, chromeAPI("extension"), "isAllowedFileSchemeAccess"); err == nil && !allowed.Truthy() {
			return tool.ErrNoFileAccess
		}
		return sayPDFGone.Error()
	}
	return errors.New(english)
}

// offscreenIdle is how long the PDF reader stays open after its last read.
const offscreenIdle = time.Minute

var _ tool.PDFReader = (*Browser)(nil)

// PDFText reads the text of the PDF at url (or data, its bytes in base64, when not "") in the
// offscreen document.
func (b *Browser) PDFText(ctx context.Context, url, data string) (tool.PDFText, error) {
	if err := openReader(ctx); err != nil {
		return tool.PDFText{}, err
	}
	defer doneReading()
	msg := js.Global().Get("Object").New()
	msg.Set("to", "skiff-pdf")
	msg.Set("url", url)
	if data != "" {
		msg.Set("data", data)
	}
	v, err := callAPI(ctx, chromeAPI("runtime"), "sendMessage", msg)
	if err != nil && strings.Contains(err.Error(), "Receiving end does not exist") {
		// The document is gone (closed by the browser): open it again, once.
		offscreen.mu.Lock()
		offscreen.open = false
		offscreen.mu.Unlock()
		if err = openReader(ctx); err == nil {
			doneReading()
			v, err = callAPI(ctx, chromeAPI("runtime"), "sendMessage", msg)
		}
	}
	if err != nil {
		return tool.PDFText{}, err
	}
	if v.Type() != js.TypeObject {
		return tool.PDFText{}, errors.New("the PDF reader did not answer")
	}
	if e := v.Get("error"); e.Type() == js.TypeString {
		return tool.PDFText{}, unread(str(v.Get("code")), str(v.Get("detail")), e.String())
	}
	return tool.PDFText{Text: str(v.Get("text")), Pages: v.Get("pages").Int(), Title: str(v.Get("title"))}, nil
}

// openReader opens the offscreen document unless it is open, and holds it open.
func openReader(ctx context.Context) error {
	offscreen.mu.Lock()
	defer offscreen.mu.Unlock()
	offscreen.using++
	if offscreen.idle != nil {
		offscreen.idle.Stop()
		offscreen.idle = nil
	}
	if offscreen.open {
		return nil
	}
	o := js.Global().Get("Object").New()
	o.Set("url", "panel/pdf.html")
	o.Set("reasons", js.ValueOf([]any{"WORKERS"}))
	o.Set("justification", "Reads the text of a PDF a tab shows, with pdf.js, for the user's chat.")
	if _, err := callAPI(ctx, chromeAPI("offscreen"), "createDocument", o); err != nil {
		// A worker that restarted finds the document it had opened still there.
		if has, herr := callAPI(ctx, chromeAPI("offscreen"), "hasDocument"); herr != nil || !has.Truthy() {
			offscreen.using--
			return err
		}
	}
	offscreen.open = true
	return nil
}

// doneReading lets the offscreen document close once no read has used it for offscreenIdle.
func doneReading() {
	offscreen.mu.Lock()
	defer offscreen.mu.Unlock()
	offscreen.using--
	if offscreen.using > 0 {
		return
	}
	offscreen.idle = time.AfterFunc(offscreenIdle, func() {
		offscreen.mu.Lock()
		defer offscreen.mu.Unlock()
		if offscreen.using > 0 || !offscreen.open {
			return
		}
		offscreen.open = false
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = callAPI(ctx, chromeAPI("offscreen"), "closeDocument")
	})
}
