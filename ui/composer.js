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

// Images waiting to go with the next message: attached with the button, pasted, or dropped on
// the box. Each is {name, mime, data (base64), url (its preview)}.
let images = [];
// The largest side and size a picture is sent at: anything larger is scaled down here, as a
// JPEG (what the providers scale to anyway), so a phone photo fits the core's 5 MB.
const maxSide = 2048;
const maxBytes = 5 << 20;
const kinds = ["image/png", "image/jpeg", "image/webp", "image/gif"];

async function addImages(files) {
  for (const file of files) {
    if (images.length >= 4) {
      banner(t("errTooManyImages", 4));
      break;
    }
    if (!kinds.includes(file.type)) {
      banner(t("errImageType", file.name || file.type));
      continue;
    }
    try {
      const blob = await fitted(file);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let bin = "";
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      images.push({ name: file.name || "image", mime: blob.type, data: btoa(bin), url: URL.createObjectURL(blob) });
    } catch {
      banner(t("errImageType", file.name || file.type));
    }
  }
  drawImages();
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
  box.replaceChildren(...images.map((img, i) => el("span", { className: "a-image" },
    el("img", { src: img.url, alt: img.name, title: img.name }),
    el("button", { type: "button", className: "icon small", textContent: "×", title: t("removeImage"), "aria-label": t("removeImage"),
      onclick: () => {
        URL.revokeObjectURL(img.url);
        images.splice(i, 1);
        drawImages();
        $("input").focus();
      } }))));
}

function clearImages() {
  for (const img of images) URL.revokeObjectURL(img.url);
  images = [];
  drawImages();
}

$("attach").addEventListener("click", () => $("attach-file").click());
$("attach-file").addEventListener("change", (e) => {
  addImages([...e.target.files]);
  e.target.value = "";
});
$("input").addEventListener("paste", (e) => {
  const files = [...(e.clipboardData?.files || [])].filter((f) => f.type.startsWith("image/"));
  if (!files.length) return; // text pastes as text
  e.preventDefault();
  addImages(files);
});
$("composer").addEventListener("dragover", (e) => {
  if ([...e.dataTransfer.types].includes("Files")) e.preventDefault();
});
$("composer").addEventListener("drop", (e) => {
  const files = [...e.dataTransfer.files].filter((f) => f.type.startsWith("image/"));
  if (!files.length) return;
  e.preventDefault();
  addImages(files);
});

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value;
  const sending = images;
  if (!text.trim() && !sending.length) return;
  $("input").value = "";
  slash.close();
  try {
    const params = { ...runParams(), text, attach: attachForSend() };
    if (sending.length) params.images = sending.map(({ name, mime, data }) => ({ name, mime, data }));
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
