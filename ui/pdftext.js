// The text of a PDF, read by pdf.js (itself imported on first use): for a PDF the user attaches
// (attach.js) and for one a tab shows (pdf.html, the worker's offscreen document).

// pdfText is the text of a PDF, page by page, read by pdf.js (loaded the first time one is
// read): each page after a line "[Page N]", its lines as the PDF ends them; with its count of
// pages and the title its metadata gives ("" when none).
export async function pdfText(bytes) {
  const pdfjs = await import("./vendor/pdf.min.mjs");
  pdfjs.GlobalWorkerOptions.workerSrc = new URL("./vendor/pdf.worker.min.mjs", import.meta.url).href;
  const task = pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false });
  const doc = await task.promise;
  try {
    let text = "";
    for (let n = 1; n <= doc.numPages && text.length < 1 << 20; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let words = "";
      for (const it of content.items) {
        if (!("str" in it)) continue;
        words += it.str;
        if (it.hasEOL) words += "\n";
      }
      // A table of contents' dot leaders (". . . . .") say nothing a model needs.
      text += `[Page ${n}]\n${words.replace(/(?: ?\.){4,} ?/g, " … ").trim()}\n\n`;
      page.cleanup();
    }
    const meta = await doc.getMetadata().catch(() => null);
    const title = String((meta && meta.info && meta.info.Title) || "").trim();
    return { text: /\S/.test(text.replace(/\[Page \d+\]/g, "")) ? text : "", pages: doc.numPages, title };
  } finally {
    await task.destroy();
  }
}
