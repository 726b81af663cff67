// What waits to go with the next message, attached with a button, pasted, or dropped on the
// message box: pictures, each {name, mime, data (base64), url (its preview)}, and files, each
// {name, mime, data (base64 of their UTF-8 text: a PDF's is read here), pages, size, file:
// true}. The panel's composer and skiffd's web client share it; the core (or skiffd) checks
// again what arrives.
import { el } from "./dom.js";
import { t } from "./i18n.js";

// The largest side and size a picture is sent at: anything larger is scaled down here, as a
// JPEG (what the providers scale to anyway), so a phone photo fits the 5 MB a picture may be.
const maxSide = 2048;
const maxBytes = 5 << 20;
const kinds = ["image/png", "image/jpeg", "image/webp", "image/gif"];
// A file read for its text: no larger than this (the first 256 KB of its text is sent).
const maxFile = 50 << 20;
// A file the agent may give a page as it is (upload_file), kept with its text: no larger.
const maxOriginal = 10 << 20;
// How many attachments a message carries.
const maxItems = 4;
// Files of text a person attaches, by extension when the system gives no type.
const textKinds = { md: "text/markdown", markdown: "text/markdown", txt: "text/plain", log: "text/plain", csv: "text/csv", tsv: "text/tab-separated-values",
  json: "application/json", ndjson: "application/x-ndjson", xml: "application/xml", yaml: "application/yaml", yml: "application/yaml", toml: "application/toml",
  sql: "application/sql", html: "text/html", htm: "text/html", css: "text/css", js: "application/javascript", mjs: "application/javascript",
  ts: "text/plain", tsx: "text/plain", jsx: "text/plain", py: "text/x-python", go: "text/plain", rs: "text/plain", java: "text/plain", c: "text/plain",
  h: "text/plain", cpp: "text/plain", cs: "text/plain", rb: "text/plain", php: "text/plain", sh: "application/x-sh", ini: "text/plain", conf: "text/plain",
  srt: "text/plain", vtt: "text/vtt", tex: "text/plain", rst: "text/plain", org: "text/plain", ics: "text/calendar", vcf: "text/vcard" };

// Office files and e-books read for their text (office.js), by extension.
const officeKinds = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  epub: "application/epub+zip",
};

const extOf = (file) => (file.name.match(/\.([a-z0-9]+)$/i) || [])[1]?.toLowerCase() || "";

// kindOf is what a file is taken as: "image", "pdf", "office", a text type, or "" (not
// sendable).
export function kindOf(file) {
  if (kinds.includes(file.type)) return "image";
  const ext = extOf(file);
  if (file.type === "application/pdf" || ext === "pdf") return "pdf";
  if (officeKinds[ext]) return "office";
  if (file.type.startsWith("text/")) return file.type;
  return textKinds[ext] || (["application/json", "application/xml", "application/x-yaml", "application/yaml", "application/javascript", "application/sql"].includes(file.type) ? file.type : "");
}

// fileLabel is a file attached to a message as its chip says it: its name, and its pages (a
// PDF) or the size of its text.
export function fileLabel(f) {
  const n = f.pages ? t("filePages", f.pages) : t("fileKB", Math.max(1, Math.round((f.size || 0) / 1024)));
  return t("fileChip", f.name, n);
}

function base64(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

// fitted is the file as it goes: as it is when small enough, else scaled down to a JPEG.
async function fitted(file) {
  const bmp = await createImageBitmap(file); // also proves it is a picture the browser can read
  const scale = Math.min(1, maxSide / Math.max(bmp.width, bmp.height));
  if (scale === 1 && file.size <= maxBytes) {
    bmp.close();
    return file;
  }
  const canvas = new OffscreenCanvas(Math.max(1, Math.round(bmp.width * scale)), Math.max(1, Math.round(bmp.height * scale)));
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff"; // a transparent PNG becomes a JPEG on white, not on black
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(bmp, 0, 0, canvas.width, canvas.height);
  bmp.close();
  return canvas.convertToBlob({ type: "image/jpeg", quality: 0.85 });
}

// Attachments wires a composer: the Attach button opens picker (an <input type="file">),
// a paste into input or a drop on zone adds files, and box shows them as chips, each with
// a button that removes it. say shows a sentence to the user; pictures() says whether
// pictures may go (a reason to refuse them when they may not: a sentence key and its
// arguments, or ""); originals: a file goes with its own bytes too (the panel's agent can
// give it to a page), not only its text.
export class Attachments {
  constructor({ box, input, zone, button, picker, say, pictures = () => "", originals = false }) {
    this.items = [];
    this.box = box;
    this.input = input;
    this.say = say;
    this.pictures = pictures;
    this.originals = originals;
    button.addEventListener("click", () => picker.click());
    picker.addEventListener("change", (e) => {
      this.add([...e.target.files]);
      e.target.value = "";
    });
    input.addEventListener("paste", (e) => {
      const files = [...(e.clipboardData?.files || [])].filter((f) => kindOf(f));
      if (!files.length) return; // text pastes as text
      e.preventDefault();
      this.add(files);
    });
    zone.addEventListener("dragover", (e) => {
      if ([...e.dataTransfer.types].includes("Files")) e.preventDefault();
    });
    zone.addEventListener("drop", (e) => {
      const files = [...e.dataTransfer.files];
      if (!files.length) return;
      e.preventDefault();
      this.add(files);
    });
  }

  // reading says whether a file is still being read (the message must wait for it).
  get reading() {
    return this.items.some((f) => f.reading);
  }

  // sendable is what goes with the message, as the core and skiffd take it.
  sendable() {
    return this.items.map(({ name, mime, data, pages, original }) => ({ name, mime, data, pages, original }));
  }

  async add(files) {
    for (const file of files) {
      if (this.items.length >= maxItems) {
        this.say(t("errTooManyImages", maxItems));
        break;
      }
      const kind = kindOf(file);
      if (!kind) {
        this.say(t("errFileType", file.name || file.type));
        continue;
      }
      if (kind !== "image") {
        await this.addFile(file, kind);
        continue;
      }
      const no = this.pictures(file.name || "image");
      if (no) {
        this.say(no);
        continue;
      }
      try {
        const blob = await fitted(file);
        this.items.push({ name: file.name || "image", mime: blob.type, data: base64(new Uint8Array(await blob.arrayBuffer())), url: URL.createObjectURL(blob) });
      } catch {
        this.say(t("errImageType", file.name || file.type));
      }
    }
    this.draw();
  }

  // addFile reads a file's text (a PDF's with pdf.js, an Office file's with office.js) to go
  // with the message.
  async addFile(file, kind) {
    if (file.size > maxFile) {
      this.say(t("errFileTooBig", file.name, maxFile >> 20));
      return;
    }
    const mime = kind === "pdf" ? "application/pdf" : kind === "office" ? officeKinds[extOf(file)] : kind;
    const item = { name: file.name || "file", mime, size: file.size, file: true, reading: true };
    this.items.push(item);
    this.draw();
    try {
      let text;
      if (this.originals && file.size <= maxOriginal) item.original = base64(new Uint8Array(await file.arrayBuffer()));
      if (kind === "pdf") {
        const { pdfText } = await import("./pdftext.js");
        // A scan has no text: its first pages go as pictures, as many as the message has room
        // for (this file's place included), when pictures may go.
        const room = this.pictures(item.name) ? 0 : maxItems - this.items.length + 1;
        const r = await pdfText(new Uint8Array(await file.arrayBuffer()), room);
        text = r.text;
        item.pages = r.pages;
        if (!text && r.pictures.length) {
          const at = this.items.indexOf(item);
          if (at < 0) return; // removed while it was read
          const shots = r.pictures.map((blob, i) => ({ name: `${item.name} (page ${i + 1})`, mime: blob.type, blob, url: URL.createObjectURL(blob) }));
          for (const s of shots) s.data = base64(new Uint8Array(await s.blob.arrayBuffer()));
          this.items.splice(at, 1, ...shots.map(({ blob, ...s }) => s));
          this.say(t(r.pictures.length < r.pages ? "fileScannedSome" : "fileScanned", r.pictures.length, item.name, r.pages));
          this.draw();
          return;
        }
      } else if (kind === "office") {
        const { officeText } = await import("./office.js");
        text = await officeText(new Uint8Array(await file.arrayBuffer()), extOf(file));
      } else {
        text = await file.text();
        if (text.includes("\u0000")) throw new Error("binary");
        text = text.slice(0, 1 << 20); // more than is sent (the rest is cut, and the model told)
      }
      if (!text.trim()) {
        this.say(t("errFileEmpty", item.name));
        this.drop(item);
      } else {
        item.data = base64(new TextEncoder().encode(text));
        delete item.reading;
      }
    } catch {
      this.say(t(kind === "pdf" || kind === "office" ? "errFileUnreadable" : "errFileType", item.name));
      this.drop(item);
    }
    this.draw();
  }

  // drop takes an attachment out of the box, if it is still there (removed, or sent, while its
  // file was read, it is not).
  drop(item) {
    const i = this.items.indexOf(item);
    if (i >= 0) this.items.splice(i, 1);
  }

  // take empties the box if it still holds what was sent (sent); revoke false keeps the
  // pictures' previews (the sent message shows them).
  take(sent, revoke = true) {
    if (this.items !== sent) return;
    if (revoke) for (const img of sent) if (img.url) URL.revokeObjectURL(img.url);
    this.items = [];
    this.draw();
  }

  // restore puts back what was taken for a message that did not go, when nothing was
  // attached since.
  restore(sent) {
    if (this.items.length) return;
    this.items = sent;
    this.draw();
  }

  draw() {
    this.box.hidden = this.items.length === 0;
    this.box.replaceChildren(...this.items.map((img) => el("span", { className: img.file ? "a-image a-file" : "a-image" },
      img.file
        ? el("span", { className: "file-chip", title: img.name, textContent: img.reading ? t("fileReading", img.name) : fileLabel(img) })
        : el("img", { src: img.url, alt: img.name, title: img.name }),
      el("button", { type: "button", className: "icon small", textContent: "×", title: t("removeImage"), "aria-label": t("removeImage"),
        onclick: () => {
          if (img.url) URL.revokeObjectURL(img.url);
          this.drop(img);
          this.draw();
          this.input.focus();
        } }))));
  }
}
