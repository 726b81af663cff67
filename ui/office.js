// The text of an Office file a user attaches (Word, Excel and PowerPoint's .docx, .xlsx and
// .pptx; OpenDocument's .odt, .ods and .odp) or of an e-book (.epub), read here with what the
// browser has: each is a zip of XML files, opened with DecompressionStream and read with
// DOMParser. Loaded the first time such a file is attached. What it gives is what a reader
// sees: a document's paragraphs (headings marked with #, list items with -, tables as rows of
// cells), a workbook's sheets as comma-separated rows (dates as dates), a presentation's
// slides in order, a book's chapters in reading order.

// No part of a file is unpacked beyond this (a zip of a few KB can unpack to gigabytes), nor
// is more text made than this (more than is sent: the rest is cut, and the model told).
const maxPart = 64 << 20;
const maxText = 1 << 20;

// officeText is the text of the Office file bytes of kind (its extension: docx, xlsx, pptx,
// odt, ods, odp or epub).
export async function officeText(bytes, kind) {
  const zip = new Zip(bytes);
  switch (kind) {
    case "docx": return docx(zip);
    case "xlsx": return xlsx(zip);
    case "pptx": return pptx(zip);
    case "epub": return epub(zip);
    default: return odf(zip, kind);
  }
}

// Zip reads the entries a zip's central directory lists (no ZIP64: an Office file is not 4 GB).
class Zip {
  constructor(bytes) {
    this.b = bytes;
    const dv = (this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    let end = -1;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
      if (dv.getUint32(i, true) === 0x06054b50) {
        end = i;
        break;
      }
    }
    if (end < 0) throw new Error("not a zip (a password-protected Office file is not one)");
    this.entries = new Map();
    let p = dv.getUint32(end + 16, true);
    for (let n = dv.getUint16(end + 10, true); n > 0; n--) {
      if (p + 46 > bytes.length || dv.getUint32(p, true) !== 0x02014b50) throw new Error("a damaged zip");
      const nameLen = dv.getUint16(p + 28, true);
      const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLen));
      this.entries.set(name, { method: dv.getUint16(p + 10, true), size: dv.getUint32(p + 20, true), at: dv.getUint32(p + 42, true) });
      p += 46 + nameLen + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true);
    }
  }

  has(name) {
    return this.entries.has(name);
  }

  // text is an entry's content as text ("" when there is no such entry).
  async text(name) {
    return (await this.prefix(name, maxPart, true)).text;
  }

  // prefix is an entry's first bytes as text (at most soft bytes, when the entry may be cut
  // there: whole says whether it was not); hard refuses an entry larger than soft.
  async prefix(name, soft, hard = false) {
    const e = this.entries.get(name);
    if (!e) return { text: "", whole: true };
    const p = e.at;
    if (this.dv.getUint32(p, true) !== 0x04034b50) throw new Error("a damaged zip");
    const from = p + 30 + this.dv.getUint16(p + 26, true) + this.dv.getUint16(p + 28, true);
    const data = this.b.subarray(from, from + e.size);
    if (e.method === 0) return { text: new TextDecoder().decode(data.subarray(0, soft)), whole: data.length <= soft };
    if (e.method !== 8) throw new Error("an unknown compression");
    const reader = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    const parts = [];
    let size = 0;
    let whole = true;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      parts.push(value);
      if (size > soft) {
        await reader.cancel();
        if (hard) throw new Error("a part too large to unpack");
        whole = false;
        break;
      }
    }
    // A cut may fall inside a character: the decoder makes it a replacement mark.
    return { text: new TextDecoder().decode(await new Blob(parts).arrayBuffer()), whole };
  }

  async xml(name) {
    const s = await this.text(name);
    if (!s) return null;
    const doc = new DOMParser().parseFromString(s, "application/xml");
    if (doc.getElementsByTagName("parsererror").length) throw new Error("damaged XML in " + name);
    return doc;
  }
}

// Text is built line by line, and stops growing past maxText.
class Lines {
  constructor() {
    this.lines = [];
    this.size = 0;
  }
  get full() {
    return this.size > maxText;
  }
  add(line) {
    if (this.full) return;
    this.lines.push(line);
    this.size += line.length + 1;
  }
  toString() {
    return this.lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
  }
}

const kids = (node, name) => [...node.children].filter((c) => !name || c.localName === name);
const kid = (node, name) => [...node.children].find((c) => c.localName === name);
const attr = (node, name) => {
  for (const a of node.attributes) if (a.localName === name) return a.value;
  return null;
};
// rid is the relationship an element names (r:id; its own id attribute, if any, has no namespace).
const rid = (node) => {
  for (const a of node.attributes) if (a.localName === "id" && a.namespaceURI) return a.value;
  return null;
};
const clean = (s) => s.replace(/[ \t]+/g, " ").trim();

// A row of cells as a line of comma-separated values (quoted when they need it).
function csv(cells) {
  while (cells.length && cells[cells.length - 1] === "") cells.pop();
  return cells.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(",");
}

// ---- Word (.docx)

async function docx(zip) {
  const doc = await zip.xml("word/document.xml");
  if (!doc) throw new Error("no word/document.xml");
  const out = new Lines();
  const body = doc.getElementsByTagNameNS("*", "body")[0];
  if (body) wordBlocks(body, out);
  // What the body refers to: its footnotes and endnotes, and the reviewers' comments.
  for (const [part, tag, head, mark] of [["word/footnotes.xml", "footnote", "Footnotes:", "^"], ["word/endnotes.xml", "endnote", "Endnotes:", "^e"], ["word/comments.xml", "comment", "Comments:", "comment "]]) {
    const notes = await zip.xml(part);
    if (!notes || out.full) continue;
    const lines = [];
    for (const n of notes.getElementsByTagNameNS("*", tag)) {
      if (attr(n, "type") === "separator" || attr(n, "type") === "continuationSeparator") continue;
      const text = clean(kids(n, "p").map(wordRuns).join(" "));
      const who = attr(n, "author");
      if (text) lines.push(`[${mark}${attr(n, "id")}] ${who ? who + ": " : ""}${text}`);
    }
    if (lines.length) {
      out.add("");
      out.add(head);
      for (const l of lines) out.add(l);
    }
  }
  return out.toString();
}

function wordBlocks(node, out) {
  for (const c of kids(node)) {
    if (out.full) return;
    if (c.localName === "p") {
      const text = wordRuns(c);
      const style = attr(kid(kid(c, "pPr") || c, "pStyle") || c, "val") || "";
      const h = /^(?:heading|titre|berschrift)\s*(\d)$/i.exec(style.replace(/\s/g, "")) || (/^title$/i.test(style) ? [, "1"] : null);
      const list = kid(c, "pPr") && kid(kid(c, "pPr"), "numPr");
      if (!text.trim() && list) continue; // a list item deleted as a tracked change leaves no gap
      out.add(!text.trim() ? "" : h ? "#".repeat(Math.min(6, +h[1])) + " " + text.trim() : list ? "- " + text.trim() : text);
    } else if (c.localName === "tbl") {
      out.add("");
      for (const tr of kids(c, "tr")) {
        if (kid(tr, "trPr") && kid(kid(tr, "trPr"), "del")) continue; // a row deleted as a tracked change
        out.add("| " + kids(tr, "tc").map((tc) => clean(kids(tc, "p").map(wordRuns).join(" "))).join(" | ") + " |");
      }
      out.add("");
    } else if (c.localName === "sdt") {
      const content = kid(c, "sdtContent");
      if (content) wordBlocks(content, out);
    }
  }
}

// wordRuns is a paragraph's text: its runs' text, tabs and breaks, not deleted text (a tracked
// change) nor a field's code.
function wordRuns(p) {
  let s = "";
  const walk = (n) => {
    for (const c of n.children) {
      switch (c.localName) {
        case "t": s += c.textContent; break;
        case "tab": s += "\t"; break;
        case "br": case "cr": s += "\n"; break;
        case "noBreakHyphen": s += "-"; break;
        case "footnoteReference": s += `[^${attr(c, "id")}]`; break;
        case "endnoteReference": s += `[^e${attr(c, "id")}]`; break;
        case "commentReference": s += `[comment ${attr(c, "id")}]`; break;
        // Deleted text (a tracked change), a field's code, and the copy of a text box kept for
        // older readers are not what the page shows.
        case "del": case "instrText": case "delText": case "pPr": case "rPr": case "Fallback": break;
        default: walk(c);
      }
    }
  };
  walk(p);
  return s;
}

// ---- Excel (.xlsx)

async function xlsx(zip) {
  const shared = sharedStrings(await zip.text("xl/sharedStrings.xml"));
  const dates = await xlDateStyles(zip);
  const book = await zip.xml("xl/workbook.xml");
  if (!book) throw new Error("no xl/workbook.xml");
  // A workbook made on an old Mac counts its days from 1904.
  const pr = book.getElementsByTagNameNS("*", "workbookPr")[0];
  dates.epoch = pr && /^(1|true)$/.test(attr(pr, "date1904") || "") ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const targets = await rels(zip, "xl/_rels/workbook.xml.rels", "xl/");
  const out = new Lines();
  for (const sheet of book.getElementsByTagNameNS("*", "sheet")) {
    if (out.full) break;
    const path = targets.get(rid(sheet));
    const part = path && (await sheetXML(zip, path));
    if (!part) continue;
    const { doc, whole } = part;
    out.add(`[Sheet: ${attr(sheet, "name")}]` + (attr(sheet, "state") === "hidden" || attr(sheet, "state") === "veryHidden" ? " (hidden)" : ""));
    let rows = 0;
    for (const row of doc.getElementsByTagNameNS("*", "row")) {
      if (out.full) break;
      rows++;
      const cells = [];
      for (let c = row.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName !== "c") continue;
        const col = colIndex(c.getAttribute("r")) ?? cells.length;
        while (cells.length < col) cells.push("");
        cells[col] = xlValue(c, shared, dates);
      }
      const line = csv(cells);
      if (line) out.add(line);
    }
    if (!whole && !out.full) out.add(`[The sheet goes on: only its first ${rows} rows were read.]`);
    out.add("");
  }
  return out.toString();
}

// A sheet is read no further than this much of its XML (about half a megabyte of rows as
// text, more than a message carries): a sheet of a hundred thousand rows is 30 MB of XML,
// seconds to parse whole.
const maxSheetXML = 4 << 20;

// sheetXML is a sheet's document, its rows after the first maxSheetXML bytes left out (whole
// false): the XML is cut after its last whole row and its sheetData and worksheet closed.
async function sheetXML(zip, path) {
  let { text, whole } = await zip.prefix(path, maxSheetXML);
  if (!text) return null;
  if (!whole) {
    const root = /<([\w.-]+:)?worksheet[\s>]/.exec(text);
    const p = root ? root[1] || "" : "";
    const end = text.lastIndexOf(`</${p}row>`);
    const data = text.indexOf(`<${p}sheetData`);
    if (end < 0 || data < 0) return null;
    text = text.slice(0, end + `</${p}row>`.length) + `</${p}sheetData></${p}worksheet>`;
  }
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) throw new Error("damaged XML in " + path);
  return { doc, whole };
}

// sharedStrings are a workbook's shared strings, in order: each <si>'s text runs, without its
// phonetic ones. Scanned, not parsed: a workbook of a hundred thousand rows has as many
// strings, and a DOM of them took most of a second to build and walk.
function sharedStrings(xml) {
  const out = [];
  const tag = (name) => `<(?:[\\w.-]+:)?${name}\\b`;
  const si = new RegExp(`${tag("si")}[^>]*?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?si>)`, "g");
  const rph = new RegExp(`${tag("rPh")}[\\s\\S]*?</(?:[\\w.-]+:)?rPh>`, "g");
  const t = new RegExp(`${tag("t")}[^>]*?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?t>)`, "g");
  for (const m of xml.matchAll(si)) {
    let s = "";
    for (const r of (m[1] || "").replace(rph, "").matchAll(t)) s += unescapeXML(r[1] || "");
    out.push(s);
  }
  return out;
}

// unescapeXML is XML text with its entities and character references replaced.
function unescapeXML(s) {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, e) => {
    if (e[0] === "#") {
      const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : "";
    }
    return { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" }[e.toLowerCase()];
  });
}

// xlString is a shared or inline string's text, without its phonetic runs.
function xlString(si) {
  let s = "";
  for (const t of si.getElementsByTagNameNS("*", "t")) if (t.parentElement.localName !== "rPh") s += t.textContent;
  return s;
}

// colIndex is the column of a cell reference: "C7" → 2.
function colIndex(ref) {
  const m = /^([A-Z]+)\d+$/.exec(ref || "");
  if (!m) return null;
  let n = 0;
  for (const ch of m[1]) n = n * 26 + ch.charCodeAt(0) - 64;
  return n - 1;
}

// (A sheet's cells are its most numerous elements: read with the DOM's own walks, not the
// helpers above, which copy each element's children.)
function xlValue(c, shared, dates) {
  let v = "", is = null;
  for (let k = c.firstElementChild; k; k = k.nextElementSibling) {
    if (k.localName === "v") v = k.textContent;
    else if (k.localName === "is") is = k;
  }
  switch (c.getAttribute("t")) {
    case "s": return shared[+v] ?? "";
    case "inlineStr": return is ? xlString(is) : "";
    case "b": return v === "1" ? "TRUE" : "FALSE";
    case "str": case "e": return v;
  }
  const s = c.getAttribute("s");
  if (v !== "" && s !== null && dates.has(+s)) return serialDate(+v, dates.epoch);
  return v;
}

// xlDateStyles are the cell styles whose number format shows a date or a time.
async function xlDateStyles(zip) {
  const out = new Set();
  const doc = await zip.xml("xl/styles.xml");
  if (!doc) return out;
  const custom = new Map();
  for (const f of doc.getElementsByTagNameNS("*", "numFmt")) custom.set(+attr(f, "numFmtId"), attr(f, "formatCode") || "");
  const xfs = doc.getElementsByTagNameNS("*", "cellXfs")[0];
  if (!xfs) return out;
  kids(xfs, "xf").forEach((xf, i) => {
    const id = +attr(xf, "numFmtId");
    const code = custom.get(id);
    const builtin = (id >= 14 && id <= 22) || (id >= 45 && id <= 47);
    if (code !== undefined ? /[dmyhs]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "")) : builtin) out.add(i);
  });
  return out;
}

// serialDate is a spreadsheet's day number, counted from epoch, as an ISO date (and time,
// when it has one).
function serialDate(v, epoch) {
  const n = Number(v);
  if (!Number.isFinite(n)) return v;
  const d = new Date(epoch + Math.round(n * 86400000));
  const iso = d.toISOString();
  return Number.isInteger(n) ? iso.slice(0, 10) : n < 1 ? iso.slice(11, 19) : iso.slice(0, 19).replace("T", " ");
}

// rels are a part's relationships: id → the path of its target in the zip.
async function rels(zip, path, base) {
  const out = new Map();
  const doc = await zip.xml(path);
  if (!doc) return out;
  for (const r of doc.getElementsByTagNameNS("*", "Relationship")) {
    const t = attr(r, "Target") || "";
    if (attr(r, "TargetMode") === "External") continue;
    out.set(attr(r, "Id"), t.startsWith("/") ? t.slice(1) : resolve(base + t));
  }
  return out;
}

// resolve takes "." and ".." out of a path in the zip.
function resolve(path) {
  const out = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== ".") out.push(part);
  }
  return out.join("/");
}

// ---- PowerPoint (.pptx)

async function pptx(zip) {
  const pres = await zip.xml("ppt/presentation.xml");
  if (!pres) throw new Error("no ppt/presentation.xml");
  const targets = await rels(zip, "ppt/_rels/presentation.xml.rels", "ppt/");
  const out = new Lines();
  let n = 0;
  for (const id of pres.getElementsByTagNameNS("*", "sldId")) {
    if (out.full) break;
    const path = targets.get(rid(id));
    const slide = path && (await zip.xml(path));
    if (!slide) continue;
    out.add(`[Slide ${++n}]`);
    for (const line of drawingText(slide)) out.add(line);
    // The speaker's notes: the notes page's text, not its picture of the slide, its number,
    // header, footer or date.
    const dir = path.slice(0, path.lastIndexOf("/") + 1);
    const own = await rels(zip, dir + "_rels/" + path.slice(dir.length) + ".rels", dir);
    for (const target of own.values()) {
      if (!/notesSlides\/[^/]+\.xml$/.test(target)) continue;
      const notes = await zip.xml(target);
      const lines = notes ? drawingText(notes, ["sldImg", "sldNum", "hdr", "ftr", "dt"]) : [];
      if (lines.length) out.add("Notes: " + lines.join("\n"));
    }
    out.add("");
  }
  return out.toString();
}

// drawingText is the paragraphs of a slide's shapes (but placeholders of a type in skip), as
// lines.
function drawingText(doc, skip = []) {
  const lines = [];
  for (const sp of doc.getElementsByTagNameNS("*", "sp")) {
    if (skip.includes(attr(sp.getElementsByTagNameNS("*", "ph")[0] || sp, "type"))) continue;
    for (const p of sp.getElementsByTagNameNS("http://schemas.openxmlformats.org/drawingml/2006/main", "p")) {
      let s = "";
      for (const c of p.children) {
        if (c.localName === "r" || c.localName === "fld") s += kid(c, "t")?.textContent ?? "";
        else if (c.localName === "br") s += "\n";
      }
      if (s.trim()) lines.push(s);
    }
  }
  return lines;
}

// ---- OpenDocument (.odt, .ods, .odp)

async function odf(zip, kind) {
  const { doc, whole } = kind === "ods" ? await odsContent(zip) : { doc: await zip.xml("content.xml"), whole: true };
  if (!doc) throw new Error("no content.xml");
  const out = new Lines();
  const body = doc.getElementsByTagNameNS("*", "body")[0];
  const part = body && [...body.children][0];
  if (!part) return "";
  if (kind === "ods") {
    for (const table of part.getElementsByTagNameNS("*", "table")) {
      if (out.full) break;
      out.add(`[Sheet: ${attr(table, "name")}]`);
      for (const row of table.getElementsByTagNameNS("*", "table-row")) {
        if (out.full) break;
        const line = csv(odfCells(row));
        if (line) out.add(line); // an empty row repeated a million times is one row not added
      }
      out.add("");
    }
    if (!whole && !out.full) out.add("[The workbook goes on: only its first rows were read.]");
  } else if (kind === "odp") {
    let n = 0;
    for (const page of part.getElementsByTagNameNS("*", "page")) {
      if (out.full) break;
      out.add(`[Slide ${++n}]`);
      const notes = [];
      for (const p of page.getElementsByTagNameNS("*", "p")) {
        const text = odfInline(p);
        if (!text.trim()) continue;
        if (p.closest("notes")) notes.push(text);
        else out.add(text);
      }
      if (notes.length) out.add("Notes: " + notes.join("\n"));
      out.add("");
    }
  } else odfBlocks(part, out);
  return out.toString();
}

// odsContent is a workbook's content, read only to its first maxSheetXML bytes, as a sheet
// of a workbook is (whole false): cut after its last whole row and closed. A workbook whose
// rows sit deeper (in row groups) than a cut can close is read whole.
async function odsContent(zip) {
  let { text, whole } = await zip.prefix("content.xml", maxSheetXML);
  if (!text) return { doc: null, whole };
  if (!whole) {
    const tp = (/<([\w.-]+:)?table-row[\s>]/.exec(text) || [])[1] || "";
    const op = (/<([\w.-]+:)?document-content\b/.exec(text) || [])[1] || "";
    const end = text.lastIndexOf(`</${tp}table-row>`);
    const cut = end < 0 ? "" : text.slice(0, end + `</${tp}table-row>`.length) + `</${tp}table></${op}spreadsheet></${op}body></${op}document-content>`;
    const doc = cut && new DOMParser().parseFromString(cut, "application/xml");
    if (doc && !doc.getElementsByTagName("parsererror").length) return { doc, whole };
  }
  return { doc: await zip.xml("content.xml"), whole: true };
}

function odfBlocks(node, out) {
  for (const c of kids(node)) {
    if (out.full) return;
    switch (c.localName) {
      case "h": out.add("#".repeat(Math.min(6, +(attr(c, "outline-level") || 1))) + " " + odfInline(c).trim()); break;
      case "p": out.add(odfInline(c)); break;
      case "list": for (const item of kids(c, "list-item")) for (const p of kids(item)) {
        if (p.localName === "list") odfBlocks({ children: [p] }, out);
        else out.add("- " + odfInline(p).trim());
      } break;
      case "table":
        out.add("");
        for (const row of c.getElementsByTagNameNS("*", "table-row")) out.add("| " + odfCells(row).join(" | ") + " |");
        out.add("");
        break;
      case "section": case "table-of-content": case "index-body": odfBlocks(c, out); break;
    }
  }
}

// odfCells are a table row's cells as they read, a repeated cell once per repeat (an empty
// one only once: a row's tail of empty cells can be repeated thousands of times).
function odfCells(row) {
  const cells = [];
  for (const c of kids(row)) {
    if (c.localName !== "table-cell" && c.localName !== "covered-table-cell") continue;
    const text = clean(kids(c, "p").map(odfInline).join(" "));
    const times = text ? Math.min(+(attr(c, "number-columns-repeated") || 1), 256) : 1;
    for (let i = 0; i < times; i++) cells.push(text);
  }
  while (cells.length && cells[cells.length - 1] === "") cells.pop();
  return cells;
}

// odfInline is a paragraph's text: its spaces (text:s), tabs and line breaks, not its notes'
// citations nor its annotations.
function odfInline(p) {
  let s = "";
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) s += c.data;
      else if (c.nodeType !== 1) continue;
      else if (c.localName === "s") s += " ".repeat(Math.min(+(attr(c, "c") || 1), 64));
      else if (c.localName === "tab") s += "\t";
      else if (c.localName === "line-break") s += "\n";
      else if (c.localName === "annotation" || c.localName === "note-citation") continue;
      else walk(c);
    }
  };
  walk(p);
  return s;
}

// ---- E-books (.epub)

async function epub(zip) {
  const container = await zip.xml("META-INF/container.xml");
  const root = container && attr(container.getElementsByTagNameNS("*", "rootfile")[0] || container.documentElement, "full-path");
  const opf = root && (await zip.xml(root));
  if (!opf) throw new Error("no package document");
  const dir = root.slice(0, root.lastIndexOf("/") + 1);
  const items = new Map();
  for (const it of opf.getElementsByTagNameNS("*", "item")) items.set(attr(it, "id"), { href: attr(it, "href") || "", type: attr(it, "media-type") || "", nav: /\bnav\b/.test(attr(it, "properties") || "") });
  const out = new Lines();
  const title = opf.getElementsByTagNameNS("*", "title")[0]?.textContent.trim();
  if (title) out.add("# " + title);
  for (const ref of opf.getElementsByTagNameNS("*", "itemref")) {
    if (out.full) break;
    const it = items.get(attr(ref, "idref"));
    // The book's own table of contents says nothing the chapters do not.
    if (!it || it.nav || !/html/.test(it.type)) continue;
    const src = await zip.text(resolve(dir + decodeURIComponent(it.href.split("#")[0])));
    if (!src) continue;
    let doc = new DOMParser().parseFromString(src, "application/xhtml+xml");
    if (doc.getElementsByTagName("parsererror").length) doc = new DOMParser().parseFromString(src, "text/html");
    const body = doc.getElementsByTagNameNS("*", "body")[0];
    if (body) htmlBlocks(body, out);
    out.add("");
  }
  return out.toString();
}

// htmlBlocks is a chapter's text as a reader sees it: headings as #, list items as -, table
// rows as cells, each paragraph a line; not its scripts or styles.
function htmlBlocks(node, out) {
  let line = "";
  const flush = () => {
    if (line.trim()) out.add(clean(line));
    line = "";
  };
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (out.full) return;
      if (c.nodeType === 3) {
        line += c.data.replace(/\s+/g, " ");
        continue;
      }
      if (c.nodeType !== 1) continue;
      const tag = c.localName.toLowerCase();
      if (tag === "script" || tag === "style" || tag === "head") continue;
      if (tag === "br") line += "\n";
      else if (/^h[1-6]$/.test(tag)) {
        flush();
        out.add("#".repeat(+tag[1]) + " " + clean(c.textContent));
      } else if (tag === "li") {
        flush();
        line = "- ";
        walk(c);
        flush();
      } else if (tag === "tr") {
        flush();
        out.add("| " + [...c.children].map((td) => clean(td.textContent)).join(" | ") + " |");
      } else if (/^(p|div|section|article|blockquote|pre|ul|ol|table|tbody|thead|dl|dt|dd|figure|figcaption|aside|header|footer|nav|hr)$/.test(tag)) {
        flush();
        walk(c);
        flush();
      } else walk(c);
    }
  };
  walk(node);
  flush();
}
