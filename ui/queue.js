// Messages sent while a reply is being written wait here, above the message box, each one
// editable and removable; the core keeps them (they outlive the panel and the worker) and
// sends them in order as each reply ends. After Stop, a failed reply or a worker that stopped
// mid-reply, they wait for the user: Send now, or remove them.
import { $, el, keyed, banner } from "./dom.js";
import { call } from "./connection.js";
import { state, busy } from "./state.js";
import { runParams } from "./composer.js";
import { t, onLanguage, errorWords } from "./i18n.js";

let shown = { id: "", items: [] };

// drawQueue shows what waits in session id, as the core last said.
export function drawQueue(id, items) {
  shown = { id, items: items || [] };
  draw();
}

// loadQueue asks the core what waits in the chat on screen, unless it is the one shown.
export async function loadQueue(force) {
  const ses = state.active;
  const id = ses && ses.id ? ses.id : "";
  if (!force && id === shown.id) return draw();
  shown = { id, items: [] };
  draw();
  if (!id) return;
  try {
    const items = await call("queue.list", { sessionId: id });
    if (state.active && state.active.id === id) drawQueue(id, items);
  } catch (err) {
    banner(errorWords(err));
  }
}

function words(n, running) {
  return t(running ? "queueWaiting" : "queueStuck", n);
}
onLanguage(() => draw());

// sending: a reply is being written, or one just ended well and the core is sending the next
// waiting message (its chat.session follows the chat.done): no Send now in between.
function sending() {
  if (busy()) return true;
  const ms = (state.active && state.active.messages) || [];
  const last = ms[ms.length - 1];
  return !!last && last.role !== "user" && !last.status;
}

// draw shows the queue of the chat on screen; a row being edited keeps its text box.
export function draw() {
  const items = state.active && shown.id === state.active.id ? shown.items : [];
  const running = sending();
  $("queue").hidden = items.length === 0;
  $("queue-title").textContent = items.length ? words(items.length, running) : "";
  $("queue-send").hidden = running;
  keyed($("queue-list"), items, (q) => q.id, build, fill);
}

function build() {
  const text = el("p", { className: "queued-text" });
  const edit = el("button", { type: "button", className: "link", textContent: t("edit") });
  const remove = el("button", { type: "button", className: "link", textContent: t("remove") });
  const n = el("li", { className: "queued" }, text, el("span", { className: "queued-actions" }, edit, remove));
  edit.addEventListener("click", () => startEdit(n));
  remove.addEventListener("click", () => change(n.dataset.key, ""));
  return n;
}

function fill(n, q) {
  n.dataset.text = q.text;
  if (!n.classList.contains("editing")) n.querySelector(".queued-text").textContent = q.text;
}

function startEdit(n) {
  if (n.classList.contains("editing")) return;
  n.classList.add("editing");
  const box = el("textarea", { className: "queued-input", rows: 2, value: n.dataset.text, "aria-label": t("queuedMessage") });
  const save = el("button", { type: "button", className: "primary", textContent: t("save") });
  const cancel = el("button", { type: "button", textContent: t("cancel") });
  const form = el("div", { className: "queued-edit" }, box, el("span", { className: "queued-actions" }, save, cancel));
  const p = n.querySelector(".queued-text");
  p.hidden = true;
  n.querySelector(".queued-actions").hidden = true;
  n.insertBefore(form, p);
  const end = () => {
    form.remove();
    n.classList.remove("editing");
    p.hidden = false;
    n.querySelector(".queued-actions").hidden = false;
    p.textContent = n.dataset.text;
  };
  save.addEventListener("click", async () => {
    const text = box.value;
    end();
    p.textContent = text;
    await change(n.dataset.key, text);
  });
  cancel.addEventListener("click", end);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      save.click();
    } else if (e.key === "Escape") {
      e.preventDefault();
      end();
    }
  });
  box.focus();
}

async function change(id, text) {
  try {
    drawQueue(shown.id, await call("queue.edit", { sessionId: shown.id, id, text }));
  } catch (err) {
    banner(errorWords(err));
    loadQueue(true);
  }
}

$("queue-send").addEventListener("click", async () => {
  try {
    await call("queue.send", runParams());
  } catch (err) {
    banner(errorWords(err));
  }
});
