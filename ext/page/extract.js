// The readable page: injected into the page's isolated world after vendor/readability.js,
// vendor/turndown.js and vendor/turndown-gfm.js, it defines skiffExtract(), which skiff.js calls:
// what the model may see of the page, its URL and title, the user's selection, and the readable
// article as markdown. It reads a clone of the document and changes nothing in the page.
// Readability fails on some pages (apps, feeds): then the visible text of the body is used,
// whitespace collapsed.
// visibleClone is a copy of the document without what a person cannot see: elements that are
// hidden (display, visibility, opacity, aria-hidden, zero size, clipped, pushed off screen),
// text that cannot be read (colour of its background, no size), and noscript (whose content is
// never shown where scripts run). The checks are skiff.js's, the snapshot's own. A page whose
// text is nearly all hidden by visibility or opacity is one waiting for a script to reveal it
// (anti-flicker snippets hide the body until an A/B-test script loads): there, visibility and
// opacity are ignored when they are set on an element that holds nearly all the page's text
// (the body, a wrapper), and count everywhere else, so a page cannot hide most of itself to
// have its hidden part read.
function visibleClone() {
  const page = globalThis.skiffPage;
  if (!page || !document.body) return document.cloneNode(true);
  const total = document.body.textContent.length;
  let clone = strip(page, false);
  if (total > 2000 && clone.body.textContent.length < total * 0.1) clone = strip(page, true);
  return clone;
}

// gfmHeadingRow is turndown-plugin-gfm's own test (isHeadingRow): the tables it fails are the
// ones the plugin would keep as raw HTML.
function gfmHeadingRow(tr) {
  if (!tr) return false;
  const parent = tr.parentNode;
  const firstTbody = parent.nodeName === "TBODY" && (!parent.previousSibling || (parent.previousSibling.nodeName === "THEAD" && /^\s*$/.test(parent.previousSibling.textContent)));
  return parent.nodeName === "THEAD" || (parent.firstChild === tr && (parent.nodeName === "TABLE" || firstTbody) && [...tr.childNodes].every((n) => n.nodeName === "TH"));
}

// var, not const: two reads of a new page at once (the panel's chip and the chat on the page)
// can both inject these files, and a second const would throw in the page.
var SKIP = new Set(["script", "style", "template", "link", "meta", "br"]);

// culprit is the element whose own visibility or opacity hides el (el itself or an ancestor).
function culprit(el) {
  for (let a = el; a && a.nodeType === 1; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (+s.opacity === 0) return a;
    const p = a.parentElement;
    if (s.visibility !== "visible" && (!p || getComputedStyle(p).visibility === "visible")) return a;
  }
  return null;
}

function strip(page, revealed) {
  const clone = document.cloneNode(true);
  page.resetStyles();
  const total = document.body.textContent.length;
  const wraps = new Map(); // culprit -> whether it holds nearly all the text
  const flicker = (el) => {
    const c = culprit(el);
    if (!c) return false;
    if (!wraps.has(c)) wraps.set(c, c.contains(document.body) || c.textContent.length >= total * 0.9);
    return wraps.get(c);
  };
  const live = document.body.getElementsByTagName("*");
  const copy = clone.body.getElementsByTagName("*");
  const drop = [];
  for (let i = 0; i < live.length && i < copy.length; i++) {
    const el = live[i];
    if (SKIP.has(el.localName)) continue; // never shown, and Readability reads metadata in scripts
    if (el.localName === "noscript") {
      drop.push(copy[i]);
      continue;
    }
    const list = el.localName === "option" && el.closest("select");
    if (list && !list.multiple && list.size <= 1) {
      // A closed drop-down shows its chosen option alone (the others have no box till it opens).
      if (!el.selected) drop.push(copy[i]);
      continue;
    }
    const why = page.hiddenReason(el);
    if (why && !(revealed && (why === "visibility" || why === "opacity" || why === "invisible") && flicker(el))) drop.push(copy[i]);
  }
  if (!revealed) {
    const texts = (root) => {
      const out = [];
      const w = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) out.push(n);
      return out;
    };
    const lt = texts(document.body), ct = texts(clone.body);
    for (let i = 0; i < lt.length && i < ct.length; i++) {
      const p = lt[i].parentElement;
      if (lt[i].data.trim() && p && !SKIP.has(p.localName) && p.localName !== "option" && !page.textVisible(lt[i])) drop.push(ct[i]);
    }
  }
  for (const n of drop) n.remove();
  return clone;
}

// THIN is how few characters of article make a page read whole instead (extract).
var THIN = 200;

// plainText is the text of a (detached, so unlaid) tree with a line break around each block.
var BLOCKS = new Set(["address", "article", "aside", "blockquote", "dd", "details", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tr", "ul", "br"]);
function plainText(root) {
  let out = "";
  const walk = (n) => {
    if (n.nodeType === 3) out += n.data;
    if (n.nodeType !== 1 || SKIP.has(n.localName) && n.localName !== "br" || n.localName === "noscript") {
      if (n.nodeType === 1 && n.localName === "br") out += "\n";
      return;
    }
    const block = BLOCKS.has(n.localName);
    if (block) out += "\n";
    for (const k of n.childNodes) walk(k);
    if (block) out += "\n";
    else if (n.localName === "td" || n.localName === "th") out += " ";
  };
  if (root) walk(root);
  return out.replace(/[ \t\u00a0]+/g, " ").replace(/ *\n */g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}

globalThis.skiffExtract = () => {
  // Chrome's PDF viewer: the document holds no text of the PDF (the core reads the PDF
  // itself, internal/tool PDFReader).
  if (document.contentType === "application/pdf" && window === window.top) {
    // A PDF a site made in memory (blob:) is named by no file: by the site that made it.
    let file = decodeURIComponent(location.pathname.split("/").pop() || "");
    if (location.protocol === "blob:") file = new URL(location.pathname).host + " (PDF)";
    return { url: location.href, title: document.title || file || location.href, selection: "", text: "", readable: false, byline: "", siteName: "", pdf: true };
  }
  const selection = String(window.getSelection ? window.getSelection() : "").trim();
  let article = null;
  try {
    // Readability's own threshold (500 characters): below it, it tries again with fewer of its
    // cleanups and keeps the longest result. A lower one (200 here before) kept a first try
    // that found a newsletter box on pages whose article it then never reached.
    article = new Readability(visibleClone()).parse();
  } catch (e) {
    article = null;
  }
  let text = "";
  let readable = false;
  if (article && article.content) {
    const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
    td.use(turndownPluginGfm.gfm);
    td.remove(["script", "style", "noscript", "iframe", "form", "button", "input", "select", "textarea", "svg", "canvas"]);
    // The GFM plugin keeps tables without a heading row as raw HTML (layout tables, infoboxes):
    // give the model their rows as text instead. Added rules take precedence over kept ones.
    td.addRule("plainTables", {
      filter: (node) => node.nodeName === "TABLE" && !gfmHeadingRow(node.rows[0]),
      replacement: (content) => "\n\n" + content.replace(/\n{2,}/g, "\n").trim() + "\n\n",
    });
    // Links as their text: the targets are most of a link-heavy page's bytes and the model
    // rarely needs them (the links tool lists them). A link whose text is its address stays.
    td.addRule("links", { filter: "a", replacement: (content) => content });
    // Images carry nothing the model can read but their alt text.
    td.addRule("images", { filter: "img", replacement: (_, node) => (node.getAttribute("alt") ? "[image: " + node.getAttribute("alt") + "]" : "") });
    text = td.turndown(article.content).replace(/\n{3,}/g, "\n\n").trim();
    readable = true;
    // A page that is mostly a form or an app (a sign-in, a booking, a settings page): the
    // article Readability finds is next to nothing, its forms left out, and the user asking
    // about the page would send nothing of it. Its visible text goes instead: headings, labels,
    // buttons, the option chosen in a drop-down (never what is typed into a field: plainText
    // reads no value).
    if (text.length < THIN && document.body) {
      const all = plainText(visibleClone().body);
      if (all.length > text.length) (text = all), (readable = false);
    }
  } else if (document.body) {
    text = plainText(visibleClone().body);
  } else if (document.documentElement) {
    text = plainText(document.documentElement.cloneNode(true)); // an SVG or XML document: no body
  }
  return {
    url: location.href,
    title: (article && article.title) || document.title || location.href,
    selection,
    text,
    readable,
    byline: (article && article.byline) || "",
    siteName: (article && article.siteName) || "",
    pdfs: shownPDFs(),
    contentType: document.contentType,
    frames: document.querySelectorAll("iframe, frame").length,
    shownFrames: shownFrames(),
  };
};

// shownFrames are the addresses of the frames a person sees on the page (a frameset's, an
// iframe that shows a document), at least 100 by 60 pixels and not hidden: when the page has
// little text of its own, theirs is read too (Env.Read). A hidden frame is never read.
function shownFrames() {
  const page = globalThis.skiffPage;
  const out = [];
  for (const el of document.querySelectorAll("iframe, frame")) {
    const r = el.getBoundingClientRect();
    if (r.width < 100 || r.height < 60 || (page && page.hiddenReason(el))) continue;
    let url = "";
    try {
      url = el.contentDocument?.URL || "";
    } catch {}
    if (!url && el.src) url = el.src;
    if (url && !out.includes(url)) out.push(url);
  }
  return out;
}

// shownPDFs are the addresses of the PDFs the page shows in a frame, an embed or an object
// (a course's reading, a form's notice, a journal's viewer), at most three of the largest, each
// at least 200 by 150 pixels and not hidden: their text is the page's too, and no page script
// can read it (Chrome's viewer draws it). A PDF is known by its type, its address (.pdf), or
// the document a frame of this site holds.
function shownPDFs() {
  const page = globalThis.skiffPage;
  const found = [];
  for (const el of document.querySelectorAll("iframe, embed, object")) {
    const src = el.localName === "object" ? el.getAttribute("data") : el.getAttribute("src");
    if (!src) continue;
    let url;
    try {
      url = new URL(src, document.baseURI);
    } catch {
      continue;
    }
    // A file of this computer only in a page that is one (the core checks again, and reads
    // only the page's own site's).
    if (!/^https?:$/.test(url.protocol) && !(url.protocol === "file:" && location.protocol === "file:")) continue;
    let pdf = (el.getAttribute("type") || "").toLowerCase() === "application/pdf" || /\.pdf$/i.test(url.pathname);
    if (!pdf && el.localName === "iframe") {
      try {
        pdf = el.contentDocument?.contentType === "application/pdf";
      } catch {}
    }
    const r = el.getBoundingClientRect();
    if (!pdf || r.width < 200 || r.height < 150 || (page && page.hiddenReason(el))) continue;
    url.hash = "";
    if (!found.some((f) => f.url === url.href)) found.push({ url: url.href, area: r.width * r.height });
  }
  return found.sort((a, b) => b.area - a.area).slice(0, 3).map((f) => f.url);
}
