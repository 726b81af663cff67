// Workflows: an agent run saved as steps that replay without a model (internal/workflow). The
// chat on screen is saved under a name; each workflow runs with its parameters (the values its
// run typed, passwords asked for each time and never stored), exports as JSON, imports (checked
// whole by the core before anything is written), and is deleted.
import { $, el, download, keyed } from "./dom.js";
import { call } from "./connection.js";
import { state } from "./state.js";
import { t, say, onLanguage, errorWords } from "./i18n.js";
import { currentWindow } from "./page.js";
import { loadSchedules, scheduleForm, counted } from "./schedules.js";

let list = [];

export async function openWorkflows() {
  $("workflow-name").value = state.active && state.active.title && !state.active.title.startsWith("▶") ? state.active.title : "";
  $("workflows-status").textContent = "";
  await Promise.all([load(), loadSchedules()]);
  $("workflow-name").focus();
}

// load reads the list again and draws it; it says false (the reason shown) when it could not.
// A status that says what was saved is shown after it, once the list on screen holds it: a Run
// clicked then starts from the saved version.
async function load() {
  try {
    list = (await call("workflow.list")) || [];
  } catch (err) {
    $("workflows-status").textContent = errorWords(err);
    return false;
  }
  draw();
  return true;
}

// draw shows the list keyed by workflow: a redraw (the list reloaded while the user reads it)
// keeps each row, and a run form the user is filling in, unless the workflow it was made from
// has a new version (its values and steps may have changed).
function draw() {
  const ul = $("workflow-list");
  if (!list.length) {
    ul.replaceChildren(el("li", { className: "note", textContent: t("wfNone") }));
    return;
  }
  keyed(ul, list, (w) => w.id, buildRow, (li, w) => {
    if (li.dataset.version !== String(w.version)) {
      for (const f of li.querySelectorAll(".wf-form, .sc-form")) f.remove();
      li.dataset.version = String(w.version);
    }
    const params = (w.params || []).map((p) => p.label || p.name).join(", ");
    li.querySelector(".wf-name").textContent = w.name;
    li.querySelector(".wf-about").textContent = " · " + t("wfSteps", w.steps.length) + (params ? " · " + params : "");
    li.querySelector(".wf-steps").replaceChildren(...w.steps.map((s) => el("li", { textContent: stepWords(s) })));
  });
}

function buildRow(w) {
  const li = el("li", { className: "workflow" });
  li.dataset.id = w.id;
  li.append(
    el("div", { className: "wf-head" }, el("strong", { className: "wf-name" }), el("span", { className: "note wf-about" })),
    el("ol", { className: "wf-steps" }),
    el("div", { className: "row wrap" },
      el("button", { type: "button", className: "wf-run primary", textContent: t("wfRun") }),
      el("button", { type: "button", className: "wf-schedule", textContent: t("scSchedule") }),
      el("button", { type: "button", className: "wf-edit", textContent: t("wfEdit") }),
      el("button", { type: "button", className: "wf-export", textContent: t("wfExport") }),
      el("button", { type: "button", className: "wf-delete danger", textContent: t("wfDelete") })));
  return li;
}

// stepWords is a step as the view lists it, a part of a date it writes named as a person says
// it ("{{departure:d}}": the day of {{departure}}).
function stepWords(s) {
  return say(s.whatText, s.what || s.tool).replace(/\{\{([a-z0-9_]+):([^}]+)\}\}/g, (all, name, pattern) => {
    const p = pattern.replace(/:[A-Za-z]{2}$/, ""); // (its language: ":fr", ":De")
    const has = (c) => p.includes(c);
    const key = has("d") ? "wfPartDay" : has("m") && has("y") ? "wfPartMonthYear" : has("m") ? "wfPartMonth" : has("y") ? "wfPartYear" : "";
    return key ? t(key, "{{" + name + "}}") : all;
  });
}

// The run form: one field per parameter, the recorded value filled in (a date that follows
// another, counted from it); a secret is a password field, empty. A choice offers what the page
// offered when it was recorded (a datalist: another value may still be typed).
let choiceLists = 0;
function runForm(w) {
  const form = el("form", { className: "wf-form" });
  for (const p of w.params || []) {
    const input = el("input", { name: p.name, value: p.secret ? "" : counted(p), type: p.secret ? "password" : "text", autocomplete: "off" });
    const label = el("label", {}, el("span", { textContent: (p.label || p.name) + (p.secret ? " (" + t("wfSecret") + ")" : "") }), input);
    if (!p.secret && Array.isArray(p.choices) && p.choices.length) {
      const list = el("datalist", { id: "wf-choices-" + ++choiceLists });
      for (const c of p.choices) list.append(el("option", { value: String(c) }));
      input.setAttribute("list", list.id);
      label.append(list);
    }
    form.append(label);
  }
  if ((w.params || []).some((p) => !p.secret)) form.append(el("p", { className: "note wf-dates", textContent: t("wfDatesHint") }));
  form.append(el("label", { className: "check" }, el("input", { type: "checkbox", name: "repair", className: "wf-repair" }), el("span", { textContent: t("wfRepair") })));
  form.append(el("button", { type: "submit", className: "primary wf-start", textContent: t("wfStart") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const values = {};
    for (const input of form.querySelectorAll("input:not([type=checkbox])")) values[input.name] = input.value;
    const repair = form.querySelector(".wf-repair").checked;
    state.starting = true; // the chat the run makes is this panel's to show
    try {
      await call("workflow.run", { id: w.id, values, repair, windowId: currentWindow() });
    } catch (err) {
      state.starting = false;
      $("workflows-status").textContent = errorWords(err);
      return;
    }
    form.remove(); // it served: the next Run starts from the workflow's own values
    $("workflows-toggle").click(); // back to the chat, where the run shows its steps
  });
  return form;
}

// editForm edits a copy of w: its name, each parameter's field name, value and secrecy (a secret
// keeps no value), and its steps (removed or moved). Saved, it is the workflow's next version;
// the core checks it whole and drops parameters no step uses any more.
function editForm(w) {
  const draft = structuredClone(w);
  const form = el("form", { className: "wf-edit-form" });
  const name = el("input", { name: "name", value: draft.name, autocomplete: "off", required: true });
  const params = el("div", { className: "wf-edit-params" });
  for (const p of draft.params || []) {
    const label = el("input", { value: p.label || "", autocomplete: "off", "aria-label": t("wfParamLabel") + " " + p.name });
    const value = el("input", { value: p.default || "", autocomplete: "off", disabled: !!p.secret, "aria-label": t("wfDefault") + " " + p.name });
    const secret = el("input", { type: "checkbox", checked: !!p.secret });
    label.addEventListener("input", () => (p.label = label.value));
    value.addEventListener("input", () => (p.default = value.value));
    const choices = p.choices;
    secret.addEventListener("change", () => {
      p.secret = secret.checked;
      value.disabled = secret.checked;
      if (secret.checked) value.value = p.default = "";
      if (secret.checked) delete p.choices; // (a secret keeps nothing of the page's either)
      else if (choices) p.choices = choices;
    });
    const row = el("fieldset", { className: "wf-edit-param" }, el("legend", { textContent: "{{" + p.name + "}}" }),
      el("label", {}, el("span", { textContent: t("wfParamLabel") }), label),
      el("label", {}, el("span", { textContent: t("wfDefault") }), value),
      el("label", { className: "check" }, secret, el("span", { textContent: t("wfSecret") })));
    if (p.from) {
      // A date that counts from another when a run leaves it: the user may make it its own.
      const follows = el("input", { type: "checkbox", checked: true, className: "wf-follows" });
      const was = { from: p.from, days: p.days };
      follows.addEventListener("change", () => Object.assign(p, follows.checked ? was : { from: "", days: 0 }));
      row.append(el("label", { className: "check" }, follows, el("span", { textContent: t("wfFollows", counted(p), p.from) })));
    }
    row.dataset.param = p.name;
    params.append(row);
  }
  const steps = el("ol", { className: "wf-edit-steps" });
  // The steps that go to an address found for a value's recorded value (a result's own): the
  // user may let them go there whatever the value (the address serves every value).
  const madeFor = new WeakMap(draft.steps.filter((s) => s.for).map((s) => [s, s.for]));
  const drawSteps = () => {
    steps.replaceChildren(...draft.steps.map((s, i) => el("li", {},
      el("span", { textContent: stepWords(s) }),
      // A step on an element the page shows only at times (a pop-up): the replay goes on
      // without it when it is not there.
      (s.targets || []).length ? el("label", { className: "check wf-optional" },
        el("input", { type: "checkbox", checked: !!s.optional, onchange: (e) => (s.optional = e.target.checked) }),
        el("span", { textContent: t("wfOptional") })) : false,
      madeFor.has(s) ? el("label", { className: "check wf-for" },
        el("input", { type: "checkbox", checked: !!s.for, onchange: (e) => (e.target.checked ? (s.for = madeFor.get(s)) : delete s.for) }),
        el("span", { textContent: t("wfForStop", "{{" + madeFor.get(s) + "}}") })) : false,
      el("button", { type: "button", className: "icon", title: t("wfUp"), "aria-label": t("wfUp"), textContent: "↑", disabled: i === 0, onclick: () => move(i, -1) }),
      el("button", { type: "button", className: "icon", title: t("wfDown"), "aria-label": t("wfDown"), textContent: "↓", disabled: i === draft.steps.length - 1, onclick: () => move(i, 1) }),
      el("button", { type: "button", className: "wf-remove-step", textContent: t("wfRemoveStep"), disabled: draft.steps.length === 1, onclick: () => { draft.steps.splice(i, 1); drawSteps(); } }))));
  };
  const move = (i, d) => {
    [draft.steps[i], draft.steps[i + d]] = [draft.steps[i + d], draft.steps[i]];
    drawSteps();
  };
  drawSteps();
  form.append(el("label", {}, el("span", { textContent: t("wfNameLabel") }), name));
  if ((draft.params || []).length) form.append(el("strong", { textContent: t("wfParams") }), params);
  form.append(el("strong", { textContent: t("wfStepsHead") }), steps,
    el("div", { className: "row wrap" },
      el("button", { type: "submit", className: "primary wf-edit-save", textContent: t("wfEditSave") }),
      el("button", { type: "button", className: "wf-edit-cancel", textContent: t("wfCancel"), onclick: () => form.remove() })));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    draft.name = name.value;
    try {
      const saved = await call("workflow.update", { workflow: draft });
      form.remove();
      if (await load()) $("workflows-status").textContent = t("wfSavedVersion", saved.name, saved.version);
    } catch (err) {
      $("workflows-status").textContent = errorWords(err);
    }
  });
  return form;
}

$("workflow-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  const li = e.target.closest(".workflow");
  if (!b || !li || b.type === "submit") return;
  const w = list.find((x) => x.id === li.dataset.id);
  if (!w) return;
  if (b.classList.contains("wf-run")) {
    let form = li.querySelector(".wf-form");
    if (!form) li.append((form = runForm(w)));
    (form.querySelector("input") || form.querySelector("button")).focus();
  } else if (b.classList.contains("wf-edit")) {
    let form = li.querySelector(".wf-edit-form");
    if (!form) li.append((form = editForm(w)));
    form.querySelector("input").focus();
  } else if (b.classList.contains("wf-schedule")) {
    let form = li.querySelector(".sc-form");
    if (!form) li.append((form = scheduleForm(w)));
    form.querySelector("select").focus();
  } else if (b.classList.contains("wf-export")) {
    download({ name: w.name.replace(/[^\p{L}\p{N}]+/gu, "-") + ".skiff-workflow.json", mime: "application/json", text: JSON.stringify(w, null, 2) });
  } else if (b.classList.contains("wf-delete")) {
    try {
      await call("workflow.delete", { id: w.id });
      await load();
    } catch (err) {
      $("workflows-status").textContent = errorWords(err);
    }
  }
});

$("workflow-save").addEventListener("submit", async (e) => {
  e.preventDefault();
  const status = $("workflows-status");
  if (!state.active) {
    status.textContent = t("wfNoChat");
    return;
  }
  try {
    const w = await call("workflow.save", { sessionId: state.active.id, name: $("workflow-name").value });
    if (await load()) status.textContent = w.version > 1 ? t("wfSavedVersion", w.name, w.version) : t("wfSaved", w.name);
  } catch (err) {
    status.textContent = errorWords(err);
  }
});

$("workflow-import").addEventListener("click", () => $("workflow-import-file").click());
$("workflow-import-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  try {
    const ws = await call("workflow.import", { data: await file.text() });
    if (await load()) $("workflows-status").textContent = t("wfImported", ws.length);
  } catch (err) {
    $("workflows-status").textContent = errorWords(err);
  }
});

// A replay that stopped because the page changed, on screen: the user may hand the rest to the
// model now (as the run form's "let the model finish" does at once). The workflow's secrets
// are kept nowhere, so they are asked for again here.
export async function drawFinish() {
  const form = $("replay-finish");
  const ses = state.active;
  const wf = ses && ses.workflow;
  const can = !!wf && !!wf.stop && !wf.done && !wf.repairMsg && ["missing", "moved", "failed"].includes(wf.stopKind) && !state.streaming.has(ses.id);
  if (!can) {
    form.hidden = true;
    form.replaceChildren();
    delete form.dataset.session;
    return;
  }
  if (form.dataset.session === ses.id) return; // drawn already: keep what is typed
  form.dataset.session = ses.id;
  let secrets = [];
  try {
    const w = ((await call("workflow.list")) || []).find((x) => x.id === wf.id);
    secrets = ((w && w.params) || []).filter((p) => p.secret);
  } catch {}
  if (form.dataset.session !== ses.id) return; // another chat came meanwhile
  const status = el("p", { className: "note", role: "status" });
  form.replaceChildren(
    el("p", { className: "note", textContent: t("wfFinishNote", wf.next + 1) }),
    ...secrets.map((p) => el("label", {}, el("span", { textContent: p.label || p.name }),
      el("input", { type: "password", name: "v:" + p.name, autocomplete: "off", required: true }))),
    el("button", { type: "submit", className: "primary", textContent: t("wfFinish") }),
    status);
  form.hidden = false;
}

$("replay-finish").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target;
  const values = {};
  for (const input of form.querySelectorAll("input[name^='v:']")) values[input.name.slice(2)] = input.value;
  const button = form.querySelector("button");
  button.disabled = true;
  try {
    await call("workflow.finish", { sessionId: form.dataset.session, values, windowId: currentWindow() });
  } catch (err) {
    form.querySelector("[role=status]").textContent = errorWords(err);
    button.disabled = false;
  }
});

onLanguage(() => list.length && draw());
