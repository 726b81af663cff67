// The message box: Enter sends (with the page, when attached), Shift+Enter is a new line, Stop
// stops the reply. A message sent while a reply is being written is queued by the core
// (queue.js shows it). A message that cannot be sent stays in the box.
import { $, el, banner } from "./dom.js";
import { call } from "./connection.js";
import { state } from "./state.js";
import { showSession } from "./chat.js";
import { attachForSend, afterSend, currentWindow, hasAsk } from "./page.js";
import { t, onLanguage } from "./i18n.js";
import * as slash from "./slash.js";
import { fileLabel } from "./tools.js";

slash.attach($("input"), { commands: () => state.active && state.active.commands, label: () => t("slashCommands") });

// The chat's mode: in agent mode the model may use the browser tools. Each chat keeps its own;
// a new chat starts as a plain chat (acting on the browser is something to turn on, not to
// find on).
let agentMode = false;
// Plan first (agent mode only): each run reads and proposes a plan, and acts once it is approved.
let planMode = false;

export function showMode(ses) {
  agentMode = !!(ses && ses.agent);
  planMode = !!(ses && ses.planFirst);
  drawMode();
  drawAgentModel(ses);
}

// A chat with an agent skiffd hosts picks the agent's model (its config option of category
// "model") instead of agent mode, which such an agent always has.
function drawAgentModel(ses) {
  const hosted = !!(ses && ses.provider && ses.provider.startsWith("acp:"));
  const opt = hosted && (ses.agentOptions || []).find((o) => o.category === "model");
  $("agent-toggle").hidden = hosted;
  $("plan-toggle").hidden = hosted || !agentMode;
  const sel = $("agent-model");
  sel.hidden = !opt;
  if (!opt) return;
  sel.dataset.option = opt.id;
  sel.replaceChildren(...opt.values.map((v) => el("option", { value: v, textContent: v, selected: v === opt.current })));
}
$("agent-model").addEventListener("change", async (e) => {
  const sel = e.target;
  try {
    await call("agent.option", { sessionId: state.active.id, option: sel.dataset.option, value: sel.value });
  } catch (err) {
    banner(err.message);
  }
});

function drawMode() {
  $("agent-toggle").setAttribute("aria-pressed", String(agentMode));
  $("plan-toggle").setAttribute("aria-pressed", String(planMode));
  $("plan-toggle").hidden = !agentMode || $("agent-toggle").hidden;
  if (!hasAsk()) $("input").placeholder = t(agentMode ? "placeholderAgent" : composerHooks.placeholder);
}
onLanguage(drawMode);

export function toggleAgent() {
  agentMode = !agentMode;
  drawMode();
}
$("agent-toggle").addEventListener("click", toggleAgent);
$("plan-toggle").addEventListener("click", () => {
  planMode = !planMode;
  drawMode();
});

// runParams are what every run takes besides its text: the mode and the window the tools start in.
export function runParams() {
  return { sessionId: state.active ? state.active.id : "", agent: agentMode, plan: agentMode && planMode, windowId: currentWindow() };
}

// What waits to go with the next message, attached with the button, pasted, or dropped on the
// box: pictures, each {name, mime, data (base64), url (its preview)}, and files, each {name,
// mime, data (base64 of their UTF-8 text: a PDF's is read here), pages, size, file: true}.
let images = [];
// The largest side and size a picture is sent at: anything larger is scaled down here, as a
// JPEG (what the providers scale to anyway), so a phone photo fits the core's 5 MB.
const maxSide = 2048;
const maxBytes = 5 << 20;
const kinds = ["image/png", "image/jpeg", "image/webp", "image/gif"];
// A file read for its text: no larger than this (the core sends the first 256 KB of its text).
const maxFile = 50 << 20;
// Files of text a person attaches, by extension when the system gives no type.
const textKinds = { md: "text/markdown", markdown: "text/markdown", txt: "text/plain", log: "text/plain", csv: "text/csv", tsv: "text/tab-separated-values",
  json: "application/json", ndjson: "application/x-ndjson", xml: "application/xml", yaml: "application/yaml", yml: "application/yaml", toml: "application/toml",
  sql: "application/sql", html: "text/html", htm: "text/html", css: "text/css", js: "application/javascript", mjs: "application/javascript",
  ts: "text/plain", tsx: "text/plain", jsx: "text/plain", py: "text/x-python", go: "text/plain", rs: "text/plain", java: "text/plain", c: "text/plain",
  h: "text/plain", cpp: "text/plain", cs: "text/plain", rb: "text/plain", php: "text/plain", sh: "application/x-sh", ini: "text/plain", conf: "text/plain",
  srt: "text/plain", vtt: "text/vtt", tex: "text/plain", rst: "text/plain", org: "text/plain", ics: "text/calendar", vcf: "text/vcard" };

// kindOf is what a file is taken as: "image", "pdf", a text type, or "" (not sendable).
function kindOf(file) {
  if (kinds.includes(file.type)) return "image";
  const ext = (file.name.match(/\.([a-z0-9]+)$/i) || [])[1]?.toLowerCase() || "";
  if (file.type === "application/pdf" || ext === "pdf") return "pdf";
  if (file.type.startsWith("text/")) return file.type;
  return textKinds[ext] || (["application/json", "application/xml", "application/x-yaml", "application/yaml", "application/javascript", "application/sql"].includes(file.type) ? file.type : "");
}

function base64(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

async function addImages(files) {
  for (const file of files) {
    if (images.length >= 4) {
      banner(t("errTooManyImages", 4));
      break;
    }
    const kind = kindOf(file);
    if (!kind) {
      banner(t("errFileType", file.name || file.type));
      continue;
    }
    if (kind !== "image") {
      await addFile(file, kind);
      continue;
    }
    try {
      const blob = await fitted(file);
      images.push({ name: file.name || "image", mime: blob.type, data: base64(new Uint8Array(await blob.arrayBuffer())), url: URL.createObjectURL(blob) });
    } catch {
      banner(t("errImageType", file.name || file.type));
    }
  }
  drawImages();
}

// addFile reads a file's text (a PDF's with pdf.js, in the panel) to go with the message.
async function addFile(file, kind) {
  if (file.size > maxFile) {
    banner(t("errFileTooBig", file.name, maxFile >> 20));
    return;
  }
  const item = { name: file.name || "file", mime: kind === "pdf" ? "application/pdf" : kind, size: file.size, file: true, reading: true };
  images.push(item);
  drawImages();
  try {
    let text;
    if (kind === "pdf") {
      const r = await pdfText(new Uint8Array(await file.arrayBuffer()));
      text = r.text;
      item.pages = r.pages;
    } else {
      text = await file.text();
      if (text.includes("\u0000")) throw new Error("binary");
      text = text.slice(0, 1 << 20); // more than the core sends (it cuts, and says so)
    }
    if (!text.trim()) {
      banner(t("errFileEmpty", item.name));
      drop(item);
    } else {
      item.data = base64(new TextEncoder().encode(text));
      delete item.reading;
    }
  } catch {
    banner(t("errFileType", item.name));
    drop(item);
  }
  drawImages();
}

// drop takes an attachment out of the box, if it is still there (removed, or sent, while its
// file was read, it is not).
function drop(item) {
  const i = images.indexOf(item);
  if (i >= 0) images.splice(i, 1);
}

// pdfText is the text of a PDF, page by page, read by pdf.js (loaded the first time one is
// attached): each page after a line "[Page N]", its lines as the PDF ends them.
async function pdfText(bytes) {
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
    return { text: /\S/.test(text.replace(/\[Page \d+\]/g, "")) ? text : "", pages: doc.numPages };
  } finally {
    await task.destroy();
  }
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

function drawImages() {
  const box = $("attachments");
  box.hidden = images.length === 0;
  box.replaceChildren(...images.map((img) => el("span", { className: img.file ? "a-image a-file" : "a-image" },
    img.file
      ? el("span", { className: "file-chip", title: img.name, textContent: img.reading ? t("fileReading", img.name) : fileLabel(img) })
      : el("img", { src: img.url, alt: img.name, title: img.name }),
    el("button", { type: "button", className: "icon small", textContent: "×", title: t("removeImage"), "aria-label": t("removeImage"),
      onclick: () => {
        if (img.url) URL.revokeObjectURL(img.url);
        drop(img);
        drawImages();
        $("input").focus();
      } }))));
}

function clearImages() {
  for (const img of images) if (img.url) URL.revokeObjectURL(img.url);
  images = [];
  drawImages();
}

$("attach").addEventListener("click", () => $("attach-file").click());
$("attach-file").addEventListener("change", (e) => {
  addImages([...e.target.files]);
  e.target.value = "";
});
$("input").addEventListener("paste", (e) => {
  const files = [...(e.clipboardData?.files || [])].filter((f) => kindOf(f));
  if (!files.length) return; // text pastes as text
  e.preventDefault();
  addImages(files);
});
$("composer").addEventListener("dragover", (e) => {
  if ([...e.dataTransfer.types].includes("Files")) e.preventDefault();
});
$("composer").addEventListener("drop", (e) => {
  const files = [...e.dataTransfer.files];
  if (!files.length) return;
  e.preventDefault();
  addImages(files);
});

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value;
  const sending = images;
  if (!text.trim() && !sending.length) return;
  if (sending.some((f) => f.reading)) {
    banner(t("fileStillReading"));
    return;
  }
  $("input").value = "";
  slash.close();
  try {
    const params = { ...runParams(), text, attach: attachForSend() };
    if (sending.length) params.images = sending.map(({ name, mime, data, pages }) => ({ name, mime, data, pages }));
    // The chat this starts is this page's to show: its first chat.session (which may come
    // before or after the answer) is taken while starting holds.
    if (!params.sessionId) state.starting = true;
    let r;
    try {
      r = await call("chat.send", params);
    } catch (err) {
      state.starting = false;
      throw err;
    }
    if (images === sending) clearImages(); // sent (or queued) with the message
    if (r && r.queued) return; // it waits above the box (queue.js); the page stays for the next message
    afterSend();
    drawMode();
  } catch (err) {
    $("input").value = text; // nothing is lost
    banner(err.message);
  }
});

$("input").addEventListener("keydown", (e) => {
  if (slash.key(e)) return;
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});

$("stop").addEventListener("click", () => state.active && call("chat.stop", { sessionId: state.active.id }));

// What the page holding the composer does after a new chat is made (the panel lists it).
// placeholder: the message box's key in chat mode.
export const composerHooks = { afterNew: async () => {}, placeholder: "placeholderChat" };

export async function newChat() {
  try {
    showSession(await call("session.new"));
    await composerHooks.afterNew();
  } catch (err) {
    banner(err.message);
  }
}
