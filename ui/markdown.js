// Markdown for model output, which is untrusted HTML. marked turns text into HTML, DOMPurify
// (with the rules below) turns that into a DOM fragment, and only the fragment is inserted:
// no string from a model reaches innerHTML. Then code blocks get a language label and a copy
// button, links open in a new tab, and images become links (a model tricked by a page could
// otherwise leak the conversation through an image URL the panel fetches on its own).
// marked and DOMPurify are the pinned copies in vendor/, loaded as classic scripts before the
// modules (they are UMD builds that set globals).

import { t } from "./i18n.js";

const { marked, DOMPurify } = globalThis;

marked.use({ gfm: true, breaks: false, async: false });

// ---- math ----
// Models write math as TeX: $…$ or \(…\) in a line, $$…$$ or \[…\] set apart (the last two
// also inside a paragraph, as they often come). marked hands the TeX through as the text of a
// span (class math) or a paragraph (class math-block), the only classes the sanitizer keeps
// besides a code block's language; KaTeX then draws each in the sanitized fragment, with trust
// off (no \href, \url, \includegraphics, \htmlClass…: nothing that links, loads or styles) and
// its sizes and macro expansion bounded. A dollar amount is not math: an opening $ is followed
// by a character that is not a space, a closing one follows one and is not followed by a
// digit ("$5 and $10" stays text), as Pandoc reads it, and a code span's backtick is not in
// it ("$10 or `$HOME`" stays text and code).
const escapeHTML = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
marked.use({
  extensions: [
    {
      name: "mathBlock",
      level: "block",
      start(src) {
        const m = /(^|\n) {0,3}(\$\$|\\\[)/.exec(src);
        return m ? m.index + m[1].length : undefined;
      },
      tokenizer(src) {
        const m = /^ {0,3}(\$\$|\\\[)([\s\S]+?)(\$\$|\\\])[ \t]*(?:\n+|$)/.exec(src);
        if (m && (m[1] === "$$") === (m[3] === "$$") && m[2].trim()) return { type: "mathBlock", raw: m[0], tex: m[2].trim() };
      },
      renderer: (tok) => `<p class="math-block">${escapeHTML(tok.tex)}</p>\n`,
    },
    {
      name: "math",
      level: "inline",
      start(src) {
        const i = src.search(/\$|\\[([]/);
        return i < 0 ? undefined : i;
      },
      tokenizer(src) {
        let m = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])/.exec(src);
        if (m && (m[1] || m[2]).trim()) return { type: "math", raw: m[0], tex: (m[1] || m[2]).trim(), display: true };
        m = /^(?:\\\(([\s\S]+?)\\\)|\$(?=[^\s$`])([^$\n`]*?[^\s\\$`])\$(?!\d))/.exec(src);
        if (m && (m[1] || m[2]).trim()) return { type: "math", raw: m[0], tex: (m[1] || m[2]).trim(), display: false };
      },
      renderer: (tok) => (tok.display ? `<span class="math-block">${escapeHTML(tok.tex)}</span>` : `<span class="math">${escapeHTML(tok.tex)}</span>`),
    },
  ],
});

let katexLoad = null; // KaTeX, once asked for: it is loaded the first time a reply holds math
function loadKatex() {
  if (!katexLoad) {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL("./vendor/katex/katex.min.css", import.meta.url).href;
    document.head.append(css);
    katexLoad = import(new URL("./vendor/katex/katex.min.js", import.meta.url).href).then(() => globalThis.katex);
    katexLoad.catch(() => {}); // the TeX stays as it was written
  }
  return katexLoad;
}

const katexOptions = { throwOnError: false, trust: false, strict: "ignore", maxSize: 20, maxExpand: 300, output: "htmlAndMathml" };

// drawMath draws the math in root with KaTeX: at once when it is loaded, else once it is (the
// TeX shows meanwhile, and a block the stream replaced meanwhile is left alone).
function drawMath(root) {
  const maths = [...root.querySelectorAll(".math, .math-block")];
  if (!maths.length) return;
  const draw = (katex) => {
    for (const el of maths) {
      if (el.dataset.drawn) continue;
      const tex = el.textContent;
      try {
        katex.render(tex, el, { ...katexOptions, displayMode: el.classList.contains("math-block") });
        el.dataset.drawn = "1";
        el.title = tex; // the TeX, for who wants it (Copy copies the reply as written)
      } catch {
        el.textContent = tex;
      }
    }
  };
  if (globalThis.katex) draw(globalThis.katex);
  else loadKatex().then(draw, () => {});
}

const SAFE_HREF = /^(https?:|mailto:)/i;
const purifyConfig = {
  RETURN_DOM_FRAGMENT: true,
  USE_PROFILES: { html: true }, // no SVG, no MathML
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "option", "iframe", "object", "embed", "link", "meta", "base", "dialog", "template"],
  // Attributes that make a browser fetch (background, poster, lowsrc…), or style or name things.
  FORBID_ATTR: ["style", "id", "name", "srcset", "formaction", "action", "ping", "target", "autofocus", "tabindex", "popover",
    "background", "poster", "lowsrc", "dynsrc", "longdesc", "usemap", "cite", "data", "codebase", "archive", "classid", "profile", "manifest", "icon", "imagesrcset", "xlink:href"],
  ALLOW_DATA_ATTR: false,
};

// Set once: passing the config to every sanitize() call re-parses it each time, which is most
// of the cost of rendering a small block while streaming.
DOMPurify.setConfig(purifyConfig);

// Only a link's href and an image's src (images become links before anything is shown) may
// hold an address; any other attribute that does is dropped, whatever its name.
const URLISH = /^\s*(https?:|\/\/|ftp:|data:|blob:|file:|ws:|wss:)/i;
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  for (const a of [...(node.attributes || [])]) {
    const keep = (node.nodeName === "A" && a.name === "href") || (node.nodeName === "IMG" && a.name === "src");
    if (!keep && (a.name === "src" || a.name === "href" || URLISH.test(a.value))) node.removeAttribute(a.name);
  }
  if (node.nodeName === "A") {
    const href = node.getAttribute("href");
    if (href && SAFE_HREF.test(href.trim())) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow");
    } else {
      node.removeAttribute("href"); // relative, javascript:, data:, anything else
    }
  }
  // Class names only for code languages, math and code colours; nothing else can style itself
  // into the panel's UI.
  if (node.hasAttribute && node.hasAttribute("class")) {
    const cls = node.getAttribute("class");
    const lang = node.nodeName === "CODE" && /^language-[\w+#.-]{1,30}$/.test(cls);
    const math = (node.nodeName === "SPAN" && (cls === "math" || cls === "math-block")) || (node.nodeName === "P" && cls === "math-block");
    const colour = node.nodeName === "SPAN" && cls.split(" ").every((c) => /^(hljs-[a-z0-9_-]{1,30}|[a-z]{1,20}_{1,3})$/.test(c));
    if (!lang && !math && !colour) node.removeAttribute("class");
  }
});

// Images become links to the image: nothing is fetched without a click.
function imagesToLinks(root) {
  for (const img of root.querySelectorAll("img")) {
    const src = img.getAttribute("src") || "";
    const label = "image: " + (img.getAttribute("alt") || src || "(no address)");
    const repl = document.createElement(SAFE_HREF.test(src) ? "a" : "span");
    repl.className = "img-link";
    repl.textContent = "[" + label + "]";
    if (repl.nodeName === "A") {
      repl.href = src;
      repl.target = "_blank";
      repl.rel = "noopener noreferrer nofollow";
    }
    img.replaceWith(repl);
  }
  for (const media of root.querySelectorAll("video, audio, picture, source, track, area, map")) media.remove();
}

function decorateCode(root) {
  for (const code of root.querySelectorAll("pre > code")) {
    const pre = code.parentElement;
    const m = /^language-(.+)$/.exec(code.getAttribute("class") || "");
    const box = document.createElement("div");
    box.className = "code";
    const head = document.createElement("div");
    head.className = "code-head";
    const lang = document.createElement("span");
    lang.className = "lang";
    lang.textContent = m ? m[1] : "text";
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "copy-code";
    copy.textContent = t("copy");
    copy.setAttribute("aria-label", m ? t("copyCodeLang", m[1]) : t("copyCode"));
    head.append(lang, copy);
    pre.replaceWith(box);
    box.append(head, pre);
  }
}

// ---- code colours ----
// A code block that names its language is coloured by highlight.js (vendored, loaded the first
// time a reply holds one). Its output is HTML made from the block's text (escaped by it), and
// it goes through the sanitizer like everything else, which keeps its classes (hljs-…) on
// spans only. The block a reply is still writing is coloured once it is done, not at every
// render of the stream.
let hljs = null;
let hljsLoad = null;
function loadHighlight() {
  if (!hljsLoad) {
    for (const [file, media] of [["github.min.css", "(prefers-color-scheme: light)"], ["github-dark.min.css", "(prefers-color-scheme: dark)"]]) {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.media = media;
      css.href = new URL("./vendor/highlight/" + file, import.meta.url).href;
      document.head.append(css);
    }
    hljsLoad = import(new URL("./vendor/highlight/highlight.min.js", import.meta.url).href).then((m) => (hljs = m.default));
    hljsLoad.catch(() => {}); // the code stays as it was, uncoloured
  }
  return hljsLoad;
}

const MAX_COLOURED = 20000; // characters: a longer block stays plain (colouring it would stall the panel)

function colourCode(root) {
  const codes = [...root.querySelectorAll("pre > code[class^='language-']")].filter((c) => c.textContent.length <= MAX_COLOURED);
  if (!codes.length) return;
  const paint = () => {
    for (const code of codes) {
      const lang = code.getAttribute("class").slice("language-".length);
      if (code.dataset.coloured || !hljs.getLanguage(lang)) continue;
      let html;
      try {
        html = hljs.highlight(code.textContent, { language: lang, ignoreIllegals: true }).value;
      } catch {
        continue;
      }
      const frag = DOMPurify.sanitize(html);
      if (!frag || frag.textContent !== code.textContent) continue; // never other text than the block's
      code.replaceChildren(frag);
      code.dataset.coloured = "1";
    }
  };
  if (hljs) paint();
  else loadHighlight().then(paint, () => {});
}

// render returns a sanitized fragment for text (live: the block a stream is still writing,
// whose code is coloured once it is done). Markup the sanitizer cannot make a fragment of (a
// reply that opens with <frameset> parses as a document without a body) is shown as plain
// text.
export function render(text, live = false) {
  let frag = null;
  try {
    frag = DOMPurify.sanitize(marked.parse(text));
  } catch {
    frag = null;
  }
  if (!frag) {
    frag = document.createDocumentFragment();
    frag.append(Object.assign(document.createElement("p"), { className: "md-plain", textContent: text }));
    return frag;
  }
  imagesToLinks(frag);
  decorateCode(frag);
  drawMath(frag);
  if (!live) colourCode(frag);
  return frag;
}

// safeBreak returns the length of the longest prefix of text that ends just after a blank
// line outside any fenced code block and any block of math ($$ … $$, \[ … \], which may hold
// blank lines): blocks before it are complete and will not change as more text arrives. 0 when
// there is none.
export function safeBreak(text) {
  let fence = null; // the opening fence run ("```", "~~~~"…) while inside a code block
  let math = null; // the closing delimiter ($$ or \]) while inside a block of math
  let cut = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    if (nl < 0) break; // the last line is still being written
    const line = text.slice(pos, nl);
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    const m = /^ {0,3}(\$\$|\\\[)/.exec(line);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = null;
    } else if (math) {
      if (line.includes(math)) math = null;
    } else if (f) {
      fence = f[1];
    } else if (m) {
      const close = m[1] === "$$" ? "$$" : "\\]";
      if (!line.slice(m[0].length).includes(close)) math = close; // else opened and closed on its line
    } else if (line.trim() === "" && pos > 0) {
      cut = nl + 1;
    }
    pos = nl + 1;
  }
  return cut;
}

// Stream shows a reply as it arrives. New text appears at once, as plain text at the end of
// the open block; Markdown catches up at most once per INTERVAL, aligned to a frame. The text
// is cut at blank lines outside code fences: finished blocks are rendered once and appended,
// and only the open block at the end is re-rendered, so a render costs the size of that
// block, not of the reply. When the reply ends the panel renders the whole text once with
// render(), so the final DOM is exactly what render() gives.
export class Stream {
  constructor(el, text = "", onFlush = null) {
    this.el = el;
    this.onFlush = onFlush;
    this.text = "";
    this.committed = 0;
    this.done = document.createElement("div");
    this.live = document.createElement("div");
    this.done.className = "md-done";
    this.live.className = "md-live";
    el.replaceChildren(this.done, this.live);
    this.raw = null; // the text node new text goes into until the next render
    this.timer = 0;
    this.last = 0;
    if (text) {
      this.text = text;
      this.flush();
    }
  }
  append(t) {
    this.text += t;
    if (!this.raw) {
      this.raw = document.createTextNode("");
      (this.live.lastElementChild || this.live).append(this.raw);
    }
    this.raw.appendData(t);
    if (this.timer) return;
    // A timer to the next allowed render, then the frame after it. Frames alone would stop
    // while the panel is hidden; the timer alone could render twice in one frame.
    this.timer = setTimeout(() => {
      const go = () => {
        if (!this.timer) return;
        this.timer = 0;
        this.last = performance.now();
        this.flush();
      };
      requestAnimationFrame(go);
      setTimeout(go, 100); // a hidden panel gets no frames
    }, Math.max(0, this.last + Stream.INTERVAL - performance.now()));
  }
  flush() {
    this.raw = null;
    const tail = this.text.slice(this.committed);
    const cut = safeBreak(tail);
    if (cut > 0) {
      // Each finished part in its own box that the browser may skip laying out and painting
      // while it is off screen: the cost of a frame stays the size of what is visible.
      const chunk = document.createElement("div");
      chunk.className = "md-chunk";
      chunk.append(render(tail.slice(0, cut)));
      this.done.append(chunk);
      this.committed += cut;
    }
    this.live.replaceChildren(render(this.text.slice(this.committed), true));
    if (this.onFlush) this.onFlush();
  }
  // cancel drops a render still waiting for its turn (the message was redrawn or removed).
  cancel() {
    clearTimeout(this.timer);
    this.timer = 0;
  }
}

Stream.INTERVAL = 40; // ms: 25 renders a second looks continuous and leaves the thread free
