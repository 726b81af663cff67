// Schedules: a workflow or a prompt that runs by itself (internal/schedule), even with the panel
// closed: the core sets a browser alarm and runs each in a tab group and window of its own,
// every step through the gate. Listed under the workflows with when each runs next and how it
// last went; paused, resumed, deleted; made from a workflow's row or from a prompt.
import { $, el, keyed } from "./dom.js";
import { call, on } from "./connection.js";
import { t, say, when, onLanguage, errorWords } from "./i18n.js";

let list = [];

// loadSchedules reads the list again and draws it; it says false (the reason shown) when it
// could not. What was saved is said after it, once the list on screen holds it.
export async function loadSchedules() {
  try {
    list = (await call("schedule.list")) || [];
  } catch (err) {
    $("workflows-status").textContent = errorWords(err);
    return false;
  }
  draw();
  return true;
}

function repeatWords(r) {
  switch (r.every) {
    case "once":
      return t("scOnceAt", when(r.at));
    case "hourly":
      return t("scHourlyAt", (r.time || "00:00").slice(3));
    case "daily":
      return t("scDailyAt", r.time);
    case "weekdays":
      return t("scWeekdaysAt", r.time);
  }
  return r.every;
}

function draw() {
  const ul = $("schedule-list");
  if (!list.length) {
    ul.replaceChildren(el("li", { className: "note", textContent: t("scNone") }));
    return;
  }
  keyed(ul, list, (s) => s.id, (s) => {
    const li = el("li", { className: "schedule" });
    li.dataset.id = s.id;
    li.append(
      el("div", { className: "wf-head" }, el("strong", { className: "sc-name" }), el("span", { className: "note sc-when" })),
      el("p", { className: "note sc-last" }),
      el("div", { className: "row wrap" },
        el("button", { type: "button", className: "sc-run" }),
        el("button", { type: "button", className: "sc-pause" }),
        el("button", { type: "button", className: "sc-chat", textContent: t("scOpenChat") }),
        el("button", { type: "button", className: "sc-delete danger", textContent: t("wfDelete") })));
    return li;
  }, (li, s) => {
    li.dataset.state = s.running ? "running" : s.paused ? "paused" : "waiting";
    li.querySelector(".sc-name").textContent = s.name;
    let about = " · " + repeatWords(s.repeat);
    if (s.running) about += " · " + t("scRunning");
    else if (s.paused) about += " · " + t("scPaused");
    else if (s.nextAt) about += " · " + t("scNext", when(s.nextAt));
    li.querySelector(".sc-when").textContent = about;
    const last = li.querySelector(".sc-last");
    last.textContent = s.last ? t("scLast", when(s.last.at)) + " — " + say(s.last.outcomeText, s.last.outcome) : "";
    last.dataset.ok = s.last && s.last.ok ? "1" : "";
    li.querySelector(".sc-run").textContent = t("scRunNow");
    li.querySelector(".sc-run").disabled = !!s.running || !!s.now;
    li.querySelector(".sc-pause").textContent = s.paused ? t("scResume") : t("scPause");
    li.querySelector(".sc-chat").hidden = !(s.last && s.last.chat);
    li.querySelector(".sc-chat").textContent = t("scOpenChat");
    li.querySelector(".sc-delete").textContent = t("wfDelete");
  });
}

// scheduleForm is the form that makes a schedule: how often and when, and for a workflow the
// values of its parameters (a secret cannot be scheduled: the core says so), for a prompt its
// text and a name.
// counted is the value a run of parameter p takes when it is not changed: its recorded one, or
// for a date recorded a few days after another, counted from that one ({{check_in+3}}).
export function counted(p) {
  if (!p.from) return p.default || "";
  return "{{" + p.from + (p.days ? "+" + p.days : "") + "}}";
}

export function scheduleForm(w) {
  const form = el("form", { className: "sc-form" });
  if (!w) {
    form.append(
      el("label", {}, el("span", { textContent: t("scName") }), el("input", { name: "name", autocomplete: "off", required: true })),
      el("label", {}, el("span", { textContent: t("scPromptText") }), el("textarea", { name: "prompt", rows: 3, required: true })));
  }
  const every = el("select", { name: "every" },
    ...["daily", "weekdays", "hourly", "once"].map((v) => el("option", { value: v, textContent: t({ daily: "scDaily", weekdays: "scWeekdays", hourly: "scHourly", once: "scOnce" }[v]) })));
  const time = el("input", { name: "time", type: "time", value: "08:00", required: true });
  const soon = new Date(Date.now() + 60 * 60 * 1000);
  const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  const at = el("input", { name: "at", type: "datetime-local", value: local });
  const atLabel = el("label", { hidden: true }, el("span", { textContent: t("scAt") }), at);
  const timeLabel = el("label", {}, el("span", { textContent: t("scAt") }), time);
  every.addEventListener("change", () => {
    atLabel.hidden = every.value !== "once";
    timeLabel.hidden = every.value === "once";
  });
  form.append(el("label", {}, el("span", { textContent: t("scEvery") }), every), timeLabel, atLabel);
  for (const p of (w && w.params) || []) {
    if (p.secret) continue;
    form.append(el("label", {}, el("span", { textContent: p.label || p.name }),
      el("input", { name: "v:" + p.name, value: counted(p), autocomplete: "off" })));
  }
  if (w && (w.params || []).some((p) => !p.secret)) form.append(el("p", { className: "note sc-dates", textContent: t("wfDatesHint") }));
  form.append(el("button", { type: "submit", className: "primary sc-save", textContent: t("scSave") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const repeat = { every: every.value };
    if (every.value === "once") repeat.at = new Date(at.value).getTime();
    else repeat.time = time.value;
    const sc = { name: w ? w.name : form.elements.name.value, repeat };
    if (w) {
      sc.workflow = w.id;
      sc.values = {};
      for (const input of form.querySelectorAll("input[name^='v:']")) sc.values[input.name.slice(2)] = input.value;
    } else {
      sc.prompt = form.elements.prompt.value;
    }
    try {
      const saved = await call("schedule.save", sc);
      if (w) form.remove();
      else form.reset();
      if (await loadSchedules()) $("workflows-status").textContent = t("scSaved", saved.name) + " " + t("scNext", when(saved.nextAt));
    } catch (err) {
      $("workflows-status").textContent = errorWords(err);
    }
  });
  return form;
}

$("schedule-list").addEventListener("click", async (e) => {
  const b = e.target.closest("button");
  const li = e.target.closest(".schedule");
  if (!b || !li) return;
  const s = list.find((x) => x.id === li.dataset.id);
  if (!s) return;
  try {
    if (b.classList.contains("sc-run")) {
      await call("schedule.run", { id: s.id });
    } else if (b.classList.contains("sc-pause")) {
      await call("schedule.save", { ...s, paused: !s.paused });
    } else if (b.classList.contains("sc-delete")) {
      await call("schedule.delete", { id: s.id });
    } else if (b.classList.contains("sc-chat")) {
      await chrome.storage.session.set({ handoff: { sessionId: s.last.chat, draft: "", at: Date.now() } });
      return;
    }
    await loadSchedules();
  } catch (err) {
    $("workflows-status").textContent = errorWords(err);
  }
});

$("schedule-prompt").append(scheduleForm(null));
on("schedules.changed", () => {
  if (!$("workflows").hidden) loadSchedules();
});
onLanguage(() => draw());
