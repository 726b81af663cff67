// The worker's offscreen document (chrome.offscreen; a service worker cannot run pdf.js): it
// reads the text of the PDF a tab shows, which the page-side code cannot (Chrome's viewer
// shows it), for the core to read as the page (internal/chrome, PDFText). It fetches the
// tab's own address, with the site's cookies as the tab had them, at most maxBytes.
import { pdfText } from "./pdftext.js";

const maxBytes = 50 << 20;

// Why a PDF could not be read, as the core words it (internal/chrome): where it is, what the
// site answered, its size, or pdf.js's own error (a damaged or locked PDF).
class Unread extends Error {
  constructor(code, detail = "") {
    super(code + (detail ? ": " + detail : ""));
    this.code = code;
    this.detail = String(detail);
  }
}

// read is the text of the PDF at url, or of data (its bytes in base64, read by its page).
async function read(url, data) {
  const b = await bytes(url, data);
  return pdfText(b).catch((e) => {
    throw new Unread("pdf", e.message);
  });
}

// bytes is the PDF itself: data decoded (an address only its page can read: blob:), the file
// (file:), or what the site answers, at most maxBytes.
async function bytes(url, data) {
  if (data) return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  if (/^file:/i.test(url)) return local(url);
  if (!/^https?:/i.test(url)) throw new Unread("scheme");
  const r = await fetch(url, { credentials: "include" }).catch((e) => {
    throw new Unread("network", e.message);
  });
  if (!r.ok) throw new Unread("status", r.status);
  if (Number(r.headers.get("content-length")) > maxBytes) throw new Unread("size");
  const reader = r.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Unread("size");
    }
    parts.push(value);
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

// A PDF on this computer (file:), which fetch does not take: read with XMLHttpRequest, which
// Chrome allows an extension when the user lets it read files ("Allow access to file URLs",
// on by default for an unpacked extension). Chrome says no more than that it failed: the
// worker knows whether it was allowed.
function local(url) {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open("GET", url);
    x.responseType = "arraybuffer";
    x.onprogress = (e) => {
      if (e.loaded > maxBytes) {
        x.abort();
        reject(new Unread("size"));
      }
    };
    x.onload = () => {
      if (!x.response || x.response.byteLength > maxBytes) return reject(new Unread(x.response ? "size" : "file"));
      resolve(new Uint8Array(x.response));
    };
    x.onerror = () => reject(new Unread("file"));
    x.send();
  });
}

// The last PDFs read in the last minute, or being read, by address: a long PDF the chip's read
// gave up on (its time ran out) is still read here, and the message's read that follows
// takes it.
const recent = new Map();
function cached(url, data) {
  const had = recent.get(url);
  if (had && Date.now() - had.at < 60000) return had.p;
  const p = read(url, data);
  p.catch(() => recent.delete(url));
  recent.delete(url);
  recent.set(url, { p, at: Date.now() });
  while (recent.size > 3) recent.delete(recent.keys().next().value);
  return p;
}

chrome.runtime.onMessage.addListener((msg, sender, reply) => {
  // Only the worker asks (no tab sent it): a content script cannot have a page fetched.
  if (!msg || msg.to !== "skiff-pdf" || sender.id !== chrome.runtime.id || sender.tab) return;
  cached(String(msg.url), typeof msg.data === "string" ? msg.data : "").then(
    (r) => reply({ text: r.text, pages: r.pages, title: r.title }),
    (e) => reply({ error: String((e && e.message) || e), code: (e && e.code) || "pdf", detail: (e && e.detail) || "" }),
  );
  return true; // the answer comes later
});
