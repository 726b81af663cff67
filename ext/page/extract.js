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
// (anti-flicker snippets hide the body until an A/B-test script loads): there, only display,
// aria-hidden, size and position count.
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

const SKIP = new Set(["script", "style", "template", "link", "meta", "br"]);

function strip(page, revealed) {
  const clone = document.cloneNode(true);
  page.resetStyles();
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
    const why = page.hiddenReason(el);
    if (why && !(revealed && (why === "visibility" || why === "opacity" || why === "invisible"))) drop.push(copy[i]);
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
      if (lt[i].data.trim() && p && !SKIP.has(p.localName) && !page.textVisible(lt[i])) drop.push(ct[i]);
    }
  }
  for (const n of drop) n.remove();
  return clone;
}

globalThis.skiffExtract = () => {
  const selection = String(window.getSelection ? window.getSelection() : "").trim();
  let article = null;
  try {
    article = new Readability(visibleClone(), { charThreshold: 200 }).parse();
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
  } else if (document.body) {
    text = (document.body.innerText || "").replace(/[ \t]+/g, " ").replace(/\n\s*\n+/g, "\n\n").trim();
  }
  return {
    url: location.href,
    title: (article && article.title) || document.title || location.href,
    selection,
    text,
    readable,
    byline: (article && article.byline) || "",
    siteName: (article && article.siteName) || "",
  };
};
