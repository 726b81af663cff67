// The text of a PDF, read by pdf.js (itself imported on first use): for a PDF the user attaches
// (attach.js) and for one a tab shows (pdf.html, the worker's offscreen document).

// pdfText is the text of a PDF, page by page, read by pdf.js (loaded the first time one is
// read): each page after a line "[Page N]", its lines as the PDF ends them; with its count of
// pages and the title its metadata gives ("" when none). A PDF with no text (a scan) gives,
// if asked (pictures > 0), its first pages as pictures instead: JPEGs no larger than 2048 px
// a side, as a vision model reads them.
export async function pdfText(bytes, pictures = 0) {
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
    const hasText = /\S/.test(text.replace(/\[Page \d+\]/g, ""));
    const shots = [];
    for (let n = 1; !hasText && n <= Math.min(pictures, doc.numPages); n++) shots.push(await picture(await doc.getPage(n)));
    return { text: hasText ? text : "", pages: doc.numPages, title, pictures: shots };
  } finally {
    await task.destroy();
  }
}

// picture draws a page as a JPEG, its longest side at most 2048 px (the scale a model reads).
async function picture(page) {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: Math.min(3, 2048 / Math.max(base.width, base.height)) });
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: g, canvas, viewport }).promise;
  page.cleanup();
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("no picture"))), "image/jpeg", 0.85));
}
