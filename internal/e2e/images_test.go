//go:build !js

package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/jpeg"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skiff-ai/skiff/internal/testkit"
)

// A picture chosen with the Image button and a large one pasted into the box go with the
// message, as the model server receives them: the first as it was, the second scaled down to a
// JPEG. The message shows both, and still does after the panel is reloaded.
func TestImagesGoWithTheMessage(t *testing.T) {
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "Two red pictures."} })
	tab := browser.Panel(t)
	Configure(t, tab, "openai", m.URL, "sk-img", "gpt-4o")
	NewChat(t, tab)

	png, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
	file := filepath.Join(t.TempDir(), "square.png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	Do(t, tab, chromedp.SetUploadFiles("#attach-file", []string{file}))
	WaitJS(t, tab, `document.querySelectorAll("#attachments .a-image").length === 1`)
	pastePicture(t, tab, 3000, 1500)
	Do(t, tab, chromedp.SendKeys("#input", "What are these?"+kb.Enter))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)

	convs := m.Conversations()
	if len(convs) != 1 {
		t.Fatalf("%d requests", len(convs))
	}
	user := convs[0].Messages[len(convs[0].Messages)-1]
	if user.Role != "user" || user.Text != "What are these?" || user.Images != 2 {
		t.Fatalf("the model got %+v", user)
	}
	if !bytes.Equal(user.Pictures[0], png) {
		t.Errorf("the chosen file arrived changed: % x", user.Pictures[0][:min(16, len(user.Pictures[0]))])
	}
	cfg, kind, err := image.DecodeConfig(bytes.NewReader(user.Pictures[1]))
	if err != nil || kind != "jpeg" || cfg.Width != 2048 || cfg.Height != 1024 {
		t.Errorf("the pasted 3000×1500 picture arrived as %s %d×%d (%v), want a 2048×1024 jpeg", kind, cfg.Width, cfg.Height, err)
	}
	if !JS[bool](t, tab, `document.getElementById("attachments").hidden`) {
		t.Error("the images are still waiting in the box after the message went")
	}
	shown := `[...document.querySelectorAll('#messages .msg[data-role="user"] .u-image')].filter((i) => i.complete && i.naturalWidth > 0).length === 2`
	WaitJS(t, tab, shown)
	Do(t, tab, chromedp.Reload())
	WaitJS(t, tab, `document.body.dataset.ready === "1"`)
	WaitJS(t, tab, shown)
}

// A text file and a PDF chosen with the Attach button go with the message as their text (the
// PDF's read by pdf.js in the panel, page by page), as the model server receives them; the
// message shows each as a chip with its pages or size, and still does after a reload. A file
// that is neither a picture nor text is refused with a sentence and waits for nothing.
func TestFilesGoWithTheMessage(t *testing.T) {
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "Two files read."} })
	tab := browser.Panel(t)
	Configure(t, tab, "openai", m.URL, "sk-files", "gpt-4o")
	NewChat(t, tab)

	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	zip := filepath.Join(dir, "archive.zip")
	if err := os.WriteFile(notes, []byte("# Notes\nNOTES-51d2: call the caterer.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zip, []byte("PK\x03\x04 not text"), 0o644); err != nil {
		t.Fatal(err)
	}
	Do(t, tab, chromedp.SetUploadFiles("#attach-file", []string{zip}))
	WaitJS(t, tab, `document.getElementById("banner").textContent.includes("archive.zip")`)
	Do(t, tab, chromedp.SetUploadFiles("#attach-file", []string{notes, filepath.Join(RepoRoot(), "testdata", "attach", "report.pdf")}))
	chips := `[...document.querySelectorAll("#attachments .a-file .file-chip")].map((c) => c.textContent)`
	WaitJS(t, tab, chips+`.length === 2 && `+chips+`.every((c) => c.includes("·"))`)
	if got := JS[[]string](t, tab, chips); !strings.Contains(got[0], "notes.md") || !strings.Contains(got[1], "report.pdf · 2 pages") {
		t.Errorf("the chips before sending: %q", got)
	}
	Do(t, tab, chromedp.SendKeys("#input", "What do these say?"+kb.Enter))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)

	convs := m.Conversations()
	if len(convs) != 1 {
		t.Fatalf("%d requests", len(convs))
	}
	user := convs[0].Messages[len(convs[0].Messages)-1]
	for _, want := range []string{"What do these say?", "NOTES-51d2", `name="notes.md"`, "[Page 1]", "PDF-33af", "[Page 2]", "PDF-91c0", "of 2 pages"} {
		if !strings.Contains(user.Text, want) {
			t.Errorf("the model did not get %q in:\n%s", want, user.Text)
		}
	}
	if user.Images != 0 {
		t.Errorf("a file went as a picture: %d", user.Images)
	}
	shown := `[...document.querySelectorAll('#messages .msg[data-role="user"] .u-file')].map((c) => c.textContent).join(" | ")`
	WaitJS(t, tab, shown+`.includes("report.pdf · 2 pages") && `+shown+`.includes("notes.md")`)
	Do(t, tab, chromedp.Reload())
	WaitJS(t, tab, `document.body.dataset.ready === "1"`)
	WaitJS(t, tab, shown+`.includes("report.pdf · 2 pages") && `+shown+`.includes("notes.md")`)
}

// A scanned PDF (pages that are pictures, no text) goes as pictures of its first pages, as
// many as the message has room for, drawn by pdf.js in the panel: the user is told, and a
// model that sees images gets them.
func TestAScannedPDFGoesAsPicturesOfItsPages(t *testing.T) {
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "A receipt."} })
	tab := browser.Panel(t)
	Configure(t, tab, "openai", m.URL, "sk-scan", "gpt-4o")
	NewChat(t, tab)
	Do(t, tab, chromedp.SetUploadFiles("#attach-file", []string{filepath.Join(RepoRoot(), "testdata", "attach", "scan-5-pages.pdf")}))
	WaitJS(t, tab, `[...document.querySelectorAll("#attachments .a-image img")].filter((i) => i.complete && i.naturalWidth > 0).length === 4`)
	if b := JS[string](t, tab, `document.getElementById("banner").textContent`); !strings.Contains(b, "“scan-5-pages.pdf” holds no text (a scan?): its first 4 pages of 5 go as pictures") {
		t.Errorf("banner %q", b)
	}
	if got := JS[[]string](t, tab, `[...document.querySelectorAll("#attachments img")].map((i) => i.alt + " " + i.naturalWidth + "x" + i.naturalHeight)`); got[0] != "scan-5-pages.pdf (page 1) 1448x2048" || got[3] != "scan-5-pages.pdf (page 4) 1448x2048" {
		t.Errorf("the pictures: %q", got)
	}
	// The page is drawn, not blank: the receipt's dark letters are in its top part.
	dark := JS[int](t, tab, `(() => {
		const img = document.querySelector("#attachments img");
		const c = new OffscreenCanvas(img.naturalWidth, img.naturalHeight / 3);
		const g = c.getContext("2d");
		g.drawImage(img, 0, 0);
		const d = g.getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 200) n++;
		return n;
	})()`)
	if dark < 2000 {
		t.Errorf("the first page's picture is blank (%d dark pixels in its top third)", dark)
	}
	Do(t, tab, chromedp.SendKeys("#input", "What does it say?"+kb.Enter))
	WaitJS(t, tab, lastAssistant+`?.dataset.status === "done"`)
	convs := m.Conversations()
	if user := convs[0].Messages[len(convs[0].Messages)-1]; user.Images != 4 {
		t.Errorf("the model got %d pictures, want 4", user.Images)
	}
}

// Word, Excel and PowerPoint files and their OpenDocument kin, made by LibreOffice and by
// Microsoft Office, and e-books, go with the message as their text, read in the panel: a
// document's headings, lists, tables and footnotes, a workbook's sheets as rows with dates as
// dates, a deck's slides with their speaker's notes, a book's chapters in order. A password-protected workbook is refused with a
// sentence, and the others still go.
func TestOfficeFilesGoAsTheirText(t *testing.T) {
	m := testkit.NewModel(t, func(*testkit.Conversation) testkit.Turn { return testkit.Turn{Text: "Read."} })
	tab := browser.Panel(t)
	Configure(t, tab, "openai", m.URL, "sk-office", "gpt-4o")
	NewChat(t, tab)
	office := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(RepoRoot(), "testdata", "attach", "office", n))
		}
		return out
	}
	chips := `[...document.querySelectorAll("#attachments .a-file .file-chip")].map((c) => c.textContent)`
	for i, step := range []struct {
		files []string
		chips int
		want  []string
	}{
		{office("memo.docx", "ledger.xlsx", "deck.pptx", "excel-password.xlsx"), 3, []string{
			`name="memo.docx"`, "# Harbour refit plan", "The marker for this document is WORD-4c1f.", "## Crew", "- Grace checks the rigging, twice.",
			"| New sails | 4,200 |", "WORD-9a27, café and naïve",
			"[Sheet: Orders]", "Date,Customer,Amount", `2026-03-14,"Lovelace, Ada",1250.5`, "Total,,1330.5", "[Sheet: Notes]", "SHEET-2b90",
			"[Slide 1]\nQuarterly review\nSLIDE-1a5c: sales rose", "[Slide 2]", "SLIDE-6e02", "Notes: Speaker only: NOTES-SECRET",
		}},
		{office("memo.odt", "ledger.ods", "deck.odp", "word-footnotes.docx"), 4, []string{
			`name="memo.odt"`, "## Costs", "| Antifouling | 950 |", `2026-04-02,SHEET-7d3e,80`, "[Sheet: Notes]", "Notes: Speaker only: NOTES-SECRET",
			"Ouch[^1].[^2]", "Footnotes:\n[^1] A tachyon walks into a bar.\n[^2] Fin.",
		}},
		// A workbook whose days count from 1904 has the same dates; e-books read in their order;
		// and a document with tracked changes reads as if they were accepted.
		{office("ledger1904.xlsx", "memo.epub", "alice.epub", "word-tracked-changes.docx"), 4, []string{`2026-03-14,"Lovelace, Ada",1250.5`, `2026-04-02,SHEET-7d3e,80`,
			"This is the content.\nAnd here is much more content.\nThis is new content, that I suggest.", "- Point one\n- Point three",
			`name="memo.epub"`, "# Harbour memo", "WORD-9a27", "| New sails | 4,200 |",
			"# Alice's Adventures in Wonderland", "## Down The Rabbit-Hole\nAlice was beginning to get very tired", "what a wonderful dream it had been.",
		}},
	} {
		Do(t, tab, chromedp.SetUploadFiles("#attach-file", step.files))
		WaitJS(t, tab, fmt.Sprintf(`%s.length === %d && %s.every((c) => c.includes("·"))`, chips, step.chips, chips))
		if i == 0 {
			WaitJS(t, tab, `document.getElementById("banner").textContent.includes("“excel-password.xlsx” could not be read")`)
		}
		Do(t, tab, chromedp.SendKeys("#input", "What do these say?"+kb.Enter))
		WaitJS(t, tab, fmt.Sprintf(`document.querySelectorAll('#messages .msg[data-role="assistant"][data-status="done"]').length === %d`, i+1))
		convs := m.Conversations()
		user := convs[len(convs)-1].Messages[len(convs[len(convs)-1].Messages)-1]
		for _, want := range step.want {
			if !strings.Contains(user.Text, want) {
				t.Errorf("the model did not get %q in:\n%s", want, user.Text)
			}
		}
		if strings.Contains(user.Text, "excel-password") {
			t.Error("the workbook that could not be read went with the message")
		}
		for _, gone := range []string{"default content", "Item 1", "C1"} {
			if strings.Contains(user.Text, gone) {
				t.Errorf("deleted text %q went with the message", gone)
			}
		}
	}
}

// A long sheet is read only as far as a message carries (its first 4 MB of XML: a sheet of
// a hundred thousand rows took seconds to parse whole), and the text says where it stops.
func TestALongSheetIsReadAsFarAsItGoes(t *testing.T) {
	tab := browser.Panel(t)
	read := func(name, kind string) string {
		b, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "attach", "office", name))
		if err != nil {
			t.Fatal(err)
		}
		return JS[string](t, tab, `(async () => {
			const b = Uint8Array.from(atob(`+jsString(base64.StdEncoding.EncodeToString(b))+`), (c) => c.charCodeAt(0));
			const { officeText } = await import("./office.js");
			return officeText(b, `+jsString(kind)+`);
		})()`)
	}
	// The OpenDocument workbook: cut the same way, said once for the workbook.
	ods := read("long.ods", "ods")
	if !strings.HasPrefix(ods, "[Sheet: long]\nid,date,customer,amount\n0,2026-01-01,Customer 0,0\n") || !strings.HasSuffix(ods, "\n[The workbook goes on: only its first rows were read.]") || strings.Contains(ods, "LAST-ROW-9d1c") {
		t.Errorf("the .ods reads %q … %q", ods[:min(len(ods), 80)], ods[max(0, len(ods)-120):])
	}
	got := read("long.xlsx", "xlsx")
	if !strings.HasPrefix(got, "[Sheet: long]\nid,date,customer,amount\n0,2026-01-01,Customer 0,0\n") {
		t.Errorf("the sheet begins %q", got[:min(len(got), 120)])
	}
	m := regexp.MustCompile(`\n(\d+),2026-\d\d-\d\d,Customer \d+,[\d.]+\n\[The sheet goes on: only its first (\d+) rows were read\.\]$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("the sheet does not end saying where it stops: %q", got[max(0, len(got)-200):])
	}
	if last, rows := m[1], m[2]; strconv.Itoa(mustAtoi(t, last)+2) != rows { // the header is a row, and ids count from 0
		t.Errorf("the last row read is %s, but the text says %s rows", last, rows)
	}
	if strings.Contains(got, "LAST-ROW-9d1c") {
		t.Error("the sheet was read to its end")
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// pastePicture pastes a red w×h PNG into the message box, as a user pasting a picture from the
// clipboard, and waits for it to wait there with the others.
func pastePicture(t *testing.T, tab context.Context, w, h int) {
	t.Helper()
	n := JS[int](t, tab, `document.querySelectorAll("#attachments .a-image").length`)
	JS[bool](t, tab, fmt.Sprintf(`(async () => {
		const c = new OffscreenCanvas(%d, %d);
		const g = c.getContext("2d");
		g.fillStyle = "#c00";
		g.fillRect(0, 0, c.width, c.height);
		const dt = new DataTransfer();
		dt.items.add(new File([await c.convertToBlob({type: "image/png"})], "pasted.png", {type: "image/png"}));
		document.getElementById("input").dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
		return true;
	})()`, w, h))
	WaitJS(t, tab, fmt.Sprintf(`document.querySelectorAll("#attachments .a-image").length === %d`, n+1))
}
