// Page context: runs in the page's isolated world after vendor/readability.js, vendor/turndown.js
// and vendor/turndown-gfm.js, and evaluates to what the model may see of the page: its URL and
// title, the user's selection, and the readable article as markdown. It reads a clone of the
// document and changes nothing in the page. Readability fails on some pages (apps, feeds):
// then the visible text of the body is used, whitespace collapsed.
(() => {
  const selection = String(window.getSelection ? window.getSelection() : "").trim();
  let article = null;
  try {
    article = new Readability(document.cloneNode(true), { charThreshold: 200 }).parse();
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
      filter: (node) => node.nodeName === "TABLE" && !(node.rows[0] && [...node.rows[0].cells].every((c) => c.nodeName === "TH")) && !(node.tHead && node.tHead.rows.length),
      replacement: (content) => "\n\n" + content.replace(/\n{2,}/g, "\n").trim() + "\n\n",
    });
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
})();
