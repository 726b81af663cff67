// Read aloud: a reply spoken by the browser's own voices (speechSynthesis). It needs no
// permission, and nothing is sent anywhere by Skiff: the voice is the system's. Settings may
// name a voice and a speed.

import { t } from "./i18n.js";

// Chrome's voices stop partway through an utterance that runs longer than about 15 s on some
// systems: a reply is spoken as a queue of short utterances, a paragraph or a few sentences
// each.
const maxChunk = 220;

let current = null; // what is being read: {id, done}

export const canSpeak = () => "speechSynthesis" in globalThis && "SpeechSynthesisUtterance" in globalThis;

// speakingId is the id of the message being read, if one is.
export const speakingId = () => (current ? current.id : "");

// spokenText is what a reply says to a listener: its paragraphs, headings, list items and
// table rows, in order, without its code (read symbol by symbol, it says nothing) or its buttons.
export function spokenText(content) {
  const blocks = "p, li, h1, h2, h3, h4, h5, h6, blockquote, tr, dt, dd";
  // Math is read from KaTeX's MathML (its symbols), not from its drawing nor its TeX source.
  const skip = "pre, .code, button, details, .notice, .m-actions, .typing, .katex-html, annotation";
  const out = [];
  let block, cell, line = "";
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && n.parentElement.closest(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n; (n = walker.nextNode()); ) {
    if (!n.data.trim()) {
      line += " "; // between two words set apart (or the layout's own)
      continue;
    }
    const b = n.parentElement.closest(blocks) || content;
    const c = n.parentElement.closest("td, th");
    if (b !== block) {
      out.push(line);
      line = "";
      block = b;
    } else if (c !== cell && line.trim()) {
      line = line.trimEnd() + ", "; // a table's row is read as one line, its cells apart
    }
    cell = c;
    line += n.data;
  }
  out.push(line);
  return out.map((s) => s.replace(/\s+/g, " ").trim()).filter(Boolean).join("\n");
}

// chunks cuts text into the utterances it is read as: each paragraph (a line) on its own,
// and a long one at its sentences, then at its commas or spaces, none over max characters.
export function chunks(text, max = maxChunk) {
  const out = [];
  const sentences = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "sentence" }) : null;
  for (const para of text.split("\n")) {
    const parts = sentences ? [...sentences.segment(para)].map((s) => s.segment) : para.split(/(?<=[.!?])\s+/);
    let cur = "";
    for (let s of parts) {
      while (s.length > max) {
        // A sentence longer than an utterance: cut at its last comma (or space) that fits.
        let at = Math.max(s.lastIndexOf(", ", max), s.lastIndexOf("; ", max));
        if (at < max / 3) at = s.lastIndexOf(" ", max);
        if (at < max / 3) at = max;
        if (cur.trim()) out.push(cur.trim());
        out.push(s.slice(0, at + 1).trim());
        cur = "";
        s = s.slice(at + 1);
      }
      if ((cur + s).length > max && cur.trim()) {
        out.push(cur.trim());
        cur = "";
      }
      cur += s;
    }
    if (cur.trim()) out.push(cur.trim());
  }
  return out;
}

// speak reads text aloud as message id, after whatever was being read is stopped. done(err)
// is called once, when the last part was read (err empty), when it was stopped (empty), or
// when the browser could not read it (err: its SpeechSynthesisErrorEvent.error, such as
// "synthesis-failed" where the system has no voice). lang, when known, picks the voice.
// voices is the system's voices Chrome offers (none on a Linux without a speech service).
export const voices = () => (canSpeak() ? speechSynthesis.getVoices() : []);

// speak reads text aloud as message id's, in language lang, with how (Settings' speech: a
// voice by its voiceURI, a rate), and calls done once it is over ("" or what went wrong).
export function speak(id, text, lang, done, how = {}) {
  const r = reader(id, done, how, async () => lang);
  r.add(text);
  r.finish();
}

// reader reads message id's reply aloud as it arrives: add(text) queues its next lines (in
// order, each cut as speak cuts a reply), finish() says no more will come, and done is called
// once, as speak's, when the last queued line was read after finish, or when it was stopped or
// failed. lang(text) gives the language of each text added (a promise: the voice waits for
// it), "" when it cannot tell (a short line): then the language of the text before goes on.
// Whatever was being read before is stopped; with queue, it is read to its end first (the
// replies of one run, read as they come, one after the other), and its reader is done.
export function reader(id, done, how = {}, lang = async () => "", queue = false) {
  if (queue && current) {
    const before = current;
    current = null; // what it still has to say is said, but ends nothing now
    before.done("");
  } else stopSpeaking();
  const voice = how.voice ? voices().find((v) => v.voiceURI === how.voice) : null;
  const mine = { id, done, stopped: false };
  current = mine;
  voicing.add(mine);
  let last = null; // the last utterance given to the browser,
  let lastOver = true; // and whether it was read (or none was given yet)
  let finished = false;
  const held = []; // every utterance, until the end: Chrome forgets the end of one it collected
  let known = ""; // the language of the text read last, as far as it could be told
  const end = (err) => {
    held.length = 0;
    voicing.delete(mine);
    if (current !== mine) return; // stopped, or followed by another: its done was called then
    current = null;
    speechSynthesis.cancel();
    done(err || "");
  };
  const say = (parts, language) => {
    if (mine.stopped) return;
    for (const p of parts) {
      const u = new SpeechSynthesisUtterance(p);
      if (voice) {
        u.voice = voice; // the user's choice, whatever the reply's language
        u.lang = voice.lang;
      } else if (language) u.lang = language;
      if (how.rate) u.rate = how.rate;
      u.onerror = (e) => end(e.error === "interrupted" || e.error === "canceled" ? "" : e.error || "failed");
      u.onend = () => {
        if (u !== last) return;
        lastOver = true;
        if (finished) end("");
      };
      last = u;
      lastOver = false;
      held.push(u);
      speechSynthesis.speak(u);
    }
  };
  return {
    add(text) {
      const parts = chunks(text);
      if (mine.stopped || !parts.length) return;
      const language = lang(text).catch(() => "");
      // One line for every reader: what each adds goes to the browser in the order added. A
      // text the browser refused ends this reader, not the line.
      said = said.then(() => language).then((l) => say(parts, (known = l || known))).catch(() => end("failed"));
    },
    finish() {
      said = said.then(() => {
        finished = true;
        if (lastOver) end("");
      }).catch(() => end("failed"));
    },
    // reading says whether it is still this reader that reads.
    reading: () => current === mine,
  };
}
let said = Promise.resolve(); // the readers' texts, each given to the browser after the one before
const voicing = new Set(); // the readers not yet over: the one current, and those it followed

// trouble is what the user reads when the voice failed with err: the sentence for a system
// without a voice it can use, else the browser's reason.
export function trouble(err) {
  return /^(synthesis-failed|synthesis-unavailable|voice-unavailable|language-unavailable)$/.test(err) ? t("speechNoVoice") : t("speechFailed", err);
}

// stopSpeaking stops what is being read, if anything is.
export function stopSpeaking() {
  for (const r of voicing) r.stopped = true; // and what those before it still had to say
  voicing.clear();
  if (!current) return;
  const c = current;
  current = null;
  speechSynthesis.cancel();
  c.done("");
}

// replyLanguage is the language text is written in, as Chrome tells it (the extension's
// chrome.i18n.detectLanguage), so that a French reply gets a French voice whatever the
// panel's language; "" when Chrome is not sure or cannot say (the web client).
export async function replyLanguage(text) {
  const detect = globalThis.chrome && chrome.i18n && chrome.i18n.detectLanguage;
  if (!detect) return "";
  try {
    const r = await chrome.i18n.detectLanguage(text.slice(0, 2000));
    const best = r && r.isReliable && r.languages && r.languages[0];
    return best && best.language !== "und" ? best.language : "";
  } catch {
    return "";
  }
}
