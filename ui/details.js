// What a reply's Details say, in the panel and in skiffd's web client: its model, the tokens
// counted, its timing and speed, what an agent run counted, and what a hosted agent said of its
// chat (its context window, its cost so far).

import { t } from "./i18n.js";

// details is what reply msg's Details show: its model, the tokens the provider (or the hosted
// agent) counted, how long it took to begin and to end, and how fast it was written; then, after
// an agent run's last reply, what the whole run counted (run: the model's replies of the run,
// when more than one); and, after a hosted agent's turn, what the agent told of the chat then
// (msg.agentUse: its context window, its cost so far). "" when none is known.
export function details(msg, run = []) {
  const lang = document.documentElement.lang || "en";
  const num = (x) => new Intl.NumberFormat(lang).format(x);
  const secs = (ms) => new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: ms < 1000 ? 2 : 1 }).format(ms / 1000);
  const u = msg.usage;
  const parts = [];
  if (u) {
    let tokens = t("infoTokens", num(u.input || 0), num(u.output || 0));
    if (u.reasoning) tokens += ", " + t("infoThinking", num(u.reasoning));
    if (u.cacheRead) tokens += ", " + t("infoCached", num(u.cacheRead));
    parts.push(tokens);
    if (u.cost > 0) parts.push(t("infoSpent", money(u.cost, "USD", lang)));
  }
  if (msg.firstMs && msg.doneMs) parts.push(t("infoTiming", secs(msg.firstMs), secs(msg.doneMs)));
  else if (msg.doneMs) parts.push(t("infoDone", secs(msg.doneMs)));
  // What the model wrote, thoughts included (some providers count them apart from the output):
  // all it counted but the request.
  const wrote = u ? (u.total > (u.input || 0) ? u.total - (u.input || 0) : u.output || 0) : 0;
  const writing = msg.doneMs - msg.firstMs;
  // A hosted agent's turn is timed whole, its tools' work in it: no writing speed, and its own
  // model calls are not Skiff's to count.
  const hosted = (msg.provider || "").startsWith("acp:");
  if (wrote > 0 && msg.firstMs && writing >= 100 && !hosted) parts.push(t("infoSpeed", num(Math.round((wrote * 1000) / writing))));
  const said = msg.agentUse ? chatCounts(msg.agentUse, num, lang) : "";
  if (!parts.length) return said;
  if (msg.model) parts.unshift(msg.model);
  const lines = [parts.join(" · ")];
  const counted = hosted ? [] : run.filter((m) => m.usage);
  if (counted.length) {
    const sum = (k) => counted.reduce((n, m) => n + (m.usage[k] || 0), 0);
    let all = t("infoRun", run.length, num(sum("input")), num(sum("output")));
    if (sum("cost") > 0) all += ", " + t("infoSpent", money(sum("cost"), "USD", lang));
    lines.push(all);
  }
  if (said) lines.push(said);
  return lines.join("\n");
}

// chatCounts is what a hosted agent said of its chat (use: {used, size, cost}): how full its
// context window is and what the chat has cost so far ("" when it said neither).
function chatCounts(use, num, lang) {
  const lines = [];
  if (use.size > 0) {
    const pct = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
    lines.push(t("infoContext", num(use.used || 0), num(use.size), pct.format((use.used || 0) / use.size)));
  }
  const c = use.cost;
  if (c && c.currency) lines.push(t("infoCost", money(c.amount, c.currency, lang)));
  return lines.join("\n");
}

// money is amount of currency (an ISO 4217 code) as lang writes it: a cent's fractions in three
// significant digits (a request often costs less than a cent), more in cents.
function money(amount, currency, lang) {
  const how = amount < 1 ? { maximumSignificantDigits: 3 } : { maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat(lang, { style: "currency", currency, ...how }).format(amount);
  } catch {
    return new Intl.NumberFormat(lang, how).format(amount) + " " + currency; // a code Intl does not know
  }
}
