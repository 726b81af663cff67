// Package ui holds the side panel's files (plain HTML, CSS and ES modules; build.sh copies them
// into the extension) and embeds the ones skiffd's web client shares with the panel: the
// markdown renderer with its pinned libraries (KaTeX for math and highlight.js for code among them), the DOM helpers, the slash-command list (with
// prompts.js, whose placeholders it selects), Read aloud (speech.js), the catalogs and their
// reader (i18n.js), a reply's Details (details.js), the attachments (attach.js, with pdf.js for a PDF's text and office.js for
// an Office file's), and the web client itself.
package ui

import "embed"

// Web is what skiffd serves under /app/.
//
//go:embed web details.js dom.js markdown.js slash.js prompts.js speech.js i18n.js cards.js attach.js pdftext.js office.js _locales vendor/marked.js vendor/purify.js vendor/pdf.min.mjs vendor/pdf.worker.min.mjs vendor/katex vendor/highlight
var Web embed.FS
