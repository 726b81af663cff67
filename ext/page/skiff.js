// Skiff's page-side code. The core injects it into a page's isolated world (the page cannot see
// or change it) the first time a tool needs the page, then calls globalThis.skiffPage.call(name,
// argsJSON) through chrome.scripting. It collects (a tree of what a person sees, with stable refs
// for what they can act on; text, links, matches) and acts (actionability checks before a
// trusted input event, or DOM events when the debugger is not available). What the model sees is
// formatted by the core, in Go; this file returns plain data.
(() => {
  if (globalThis.skiffPage) return;

  // ---- refs: stable for an element as long as the document lives ----
  // desc: for a control the last snapshot saw, its kind and name ("button", "Like"), to know
  // its stand-in by; for one of several alike ("Reply" under each post), also the words around
  // it that were its own (near).
  const refs = { next: 1, byRef: new Map(), byEl: new WeakMap(), desc: new Map() };
  function refOf(el) {
    let r = refs.byEl.get(el);
    if (!r) {
      r = "e" + refs.next++;
      refs.byEl.set(el, r);
      refs.byRef.set(r, new WeakRef(el));
    }
    return r;
  }
  function byRef(r) {
    const w = refs.byRef.get(r);
    const el = w && w.deref();
    return el && el.isConnected ? el : redrawn(r);
  }
  // redrawn is the element that took the place of ref's, when the page drew it again (React and
  // the like replace a button as they render: after a click, after typing elsewhere): the one
  // element now of the same tag, role and name, when ref's was the one such element when it
  // was seen; of several alike, the one among the words that were around ref's (the same post,
  // the same row, wherever the page put it now). Then the ref names it from now on. null when
  // there is none, or no one it could be more than another.
  const MAX_ALIKE = 100;
  function redrawn(r) {
    const d = refs.desc.get(r);
    if (!d) return null;
    let alike = [];
    const visit = (el) => {
      if (alike.length > (d.near ? MAX_ALIKE : 1)) return;
      if (el.localName === d.tag && !ours(el) && roleOf(el) === d.role && clean(nameOf(el, d.role)) === d.name && !hiddenUp(el)) alike.push(el);
      for (const k of kidsOf(el)) if (k.nodeType === 1) visit(k);
    };
    fresh();
    if (document.documentElement) visit(document.documentElement);
    if (d.near) alike = alike.length > MAX_ALIKE ? [] : alike.filter((el) => nearWords(el, d.name) === d.near);
    if (alike.length !== 1) return null;
    const found = alike[0];
    refs.byRef.set(r, new WeakRef(found));
    if (!refs.byEl.has(found)) refs.byEl.set(found, r);
    return found;
  }
  // nearWords tells one of several alike controls apart as a person does: the words of the
  // nearest box around it that says more than its name (the post a Reply is under, the row a
  // Delete is in), as a sorted set. Numbers are left out (a count, a time that moves on as the
  // page draws again); so is its own name. "" when no box close around it says more.
  function nearWords(el, name) {
    const own = new Set(plainWords(name));
    let up = 0;
    for (let a = parentOf(el); a && up < 6 && a !== document.body && a !== document.documentElement; a = parentOf(a), up++) {
      const w = plainWords(textHead(a, 400)).filter((x) => !own.has(x));
      if (w.length) return [...new Set(w)].sort().join(" ");
    }
    return "";
  }
  function plainWords(s) {
    return s.toLowerCase().match(/[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*/gu) || [];
  }
  // textHead is the text el holds, its first max characters in whole words (a box's text is read
  // only as far as it takes to tell it apart: a few hundred text nodes at most, each cut to what
  // is still wanted, whatever a page puts in them).
  function textHead(el, max) {
    let s = "";
    const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let nodes = 0;
    for (let n = w.nextNode(); n && s.length <= max && nodes++ < 300; n = w.nextNode()) s += n.data.slice(0, max + 1 - s.length) + " ";
    return s.length > max ? s.slice(0, s.lastIndexOf(" ", max)) : s;
  }

  // ---- the composed tree (shadow roots, open or closed, and slots) ----
  // Skiff's own overlay (ext/page/overlay.js, same isolated world) is not part of the page:
  // no reader sees into it. It is known by identity, never by name: a page cannot hide its own
  // content from Skiff by calling an element what the overlay is called.
  const ours = (el) => el === globalThis.__skiffOverlayHost;
  function shadowOf(el) {
    if (ours(el)) return null;
    if (el.shadowRoot) return el.shadowRoot;
    try {
      return chrome.dom && chrome.dom.openOrClosedShadowRoot ? chrome.dom.openOrClosedShadowRoot(el) : null;
    } catch {
      return null;
    }
  }
  function kidsOf(el) {
    const root = shadowOf(el);
    if (root) return [...root.childNodes];
    if (el.localName === "slot") {
      const assigned = el.assignedNodes({ flatten: true });
      return assigned.length ? assigned : [...el.childNodes];
    }
    return [...el.childNodes];
  }
  function parentOf(n) {
    if (n.assignedSlot) return n.assignedSlot;
    if (n.parentElement) return n.parentElement;
    const p = n.parentNode;
    return p && p.nodeType === 11 && p.host ? p.host : null;
  }
  // deepAll is the elements under root (itself included) that match sel, in the composed
  // tree: inside shadow roots, and a slot's assigned nodes where they are drawn (a web
  // component's list, whose options are its own children slotted into it).
  function deepAll(root, sel, max = 2000) {
    const out = [];
    const walk = (n) => {
      if (out.length >= max) return;
      if (n.nodeType === 1) {
        if (n.matches(sel)) out.push(n);
        for (const k of kidsOf(n)) walk(k);
      } else if (n.nodeType === 9 || n.nodeType === 11) for (const k of n.childNodes) walk(k);
    };
    walk(root);
    return out;
  }
  function contains(anc, n) {
    for (let x = n; x; x = parentOf(x)) if (x === anc) return true;
    return false;
  }

  // ---- what a person can see ----
  let styles = new Map();
  let backgrounds = new Map();
  let legible = new Map();
  let regions = new Map(); // element -> where its content can be seen (clipping), see outer
  let covers = null; // opaque positioned elements that may hide what is under them
  let editors = null; // box -> field of the code editors on the page (editorField)
  let standIns = null; // drawn control -> the hidden <select> it stands for (selectFor)
  let besideLists = new Map(); // parent of an item -> the listbox found about it (besideUnseenList)
  let hovering; // what the page's style sheets show a pointer over only under the mouse (hoverPointer), once read: by document or shadow tree, and each sheet's selectors
  const colors = new Map();
  // fresh forgets what was computed of the page's styles and layout (each read starts anew).
  function fresh() {
    styles = new Map();
    backgrounds = new Map();
    legible = new Map();
    regions = new Map();
    covers = null;
    editors = null;
    standIns = null;
    hovering = undefined;
    besideLists = new Map();
  }
  function style(el) {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = getComputedStyle(el)));
    return s;
  }
  function parseColor(c) {
    let v = colors.get(c);
    if (v === undefined) {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c || "");
      v = m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null;
      colors.set(c, v);
    }
    return v;
  }
  function luminance([r, g, b]) {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  }
  // background of el as seen behind its text, or null when an image or gradient may be there.
  function backgroundOf(el) {
    if (!el || el.nodeType !== 1) return [255, 255, 255, 1]; // the canvas
    let bg = backgrounds.get(el);
    if (bg !== undefined) return bg;
    const s = style(el);
    const c = parseColor(s.backgroundColor);
    if (s.backgroundImage && s.backgroundImage !== "none") bg = null;
    else if (c && c[3] > 0.9) bg = c;
    else if (c && c[3] > 0) bg = null;
    else bg = backgroundOf(parentOf(el));
    backgrounds.set(el, bg);
    return bg;
  }
  // drawsNothing says whether nothing in el can show: none of its text and none of the
  // elements in it has a box of any size (an empty span where a stylesheet would have drawn
  // the logo, an empty block, a menu scaled to nothing until its item is hovered). Shadow
  // trees, and subtrees of more than 40 elements, are not judged.
  function drawsNothing(el) {
    if (shadowOf(el)) return false;
    let n = 0;
    for (const d of el.querySelectorAll("*")) if (++n > 40 || shadowOf(d)) return false;
    const range = document.createRange();
    range.selectNodeContents(el);
    for (const r of range.getClientRects()) if (r.width >= 1 && r.height >= 1) return false;
    return true;
  }
  // Why an element and everything in it cannot be seen, or "".
  function hiddenReason(el) {
    if (el.getAttribute("aria-hidden") === "true") return "aria-hidden";
    if (el.hidden || el.inert) return "hidden";
    // The native check first: it answers most elements without reading their style.
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: false })) {
      const s = style(el);
      const d = s.display;
      if (d === "contents") return ""; // no box of its own; its children have theirs
      if (d === "none") return "display:none";
      if (s.visibility !== "visible") return "visibility";
      if (+s.opacity === 0) return "opacity";
      return "invisible";
    }
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) {
      // Tiny: visible only if its content overflows it, which a clip or overflow forbids.
      const s = style(el);
      const clips = s.overflow !== "visible" || s.contain.includes("paint");
      if ((r.width < 1 || r.height < 1) && clips) return "zero-size";
      // Nothing in it to overflow: an empty link a stylesheet would have drawn a logo in.
      if ((r.width < 1 || r.height < 1) && !/^(input|select|textarea|img|video|canvas|iframe|embed|object)$/.test(el.localName) && drawsNothing(el)) return "zero-size";
      if ((s.position === "absolute" || s.position === "fixed") && (clips || /rect\(\s*0(px)?[,\s]+0(px)?[,\s]+0(px)?[,\s]+0(px)?\s*\)/.test(s.clip))) return "clipped";
      if (/inset\(\s*(50|100)%/.test(s.clipPath) || /circle\(\s*0/.test(s.clipPath)) return "clipped";
    }
    // Cut to nothing by its own clip, whatever its size (a drop-down Chosen keeps closed with
    // clip: rect(0, 0, 0, 0) and clip-path: inset(100%)).
    const sc = style(el);
    if ((sc.position === "absolute" || sc.position === "fixed") && /rect\(\s*0(px)?[,\s]+0(px)?[,\s]+0(px)?[,\s]+0(px)?\s*\)/.test(sc.clip)) return "clipped";
    if (/inset\(\s*(50|100)%/.test(sc.clipPath) || /circle\(\s*0/.test(sc.clipPath)) return "clipped";
    // Pushed out of the page: nothing a person can scroll to shows it (but a box around it
    // that scrolls that way, which was scrolled past it).
    if (r.width > 0 && r.height > 0 && ((r.right + scrollX <= 0 && !scrolledPast(el, r, "left")) || (r.bottom + scrollY <= 0 && !scrolledPast(el, r, "top")))) return "off-screen";
    // Cut away by an ancestor that hides its overflow (outside its box, which no scrolling
    // brings into view).
    if (r.width > 0 && r.height > 0 && !meets(r, outer(el))) return "clipped";
    if (r.left > innerWidth + 50) {
      const de = document.documentElement;
      if (r.left + scrollX >= Math.max(de.scrollWidth, innerWidth) + 50 && style(el).position !== "fixed" && !scrolledPast(el, r, "right")) return "off-screen";
    }
    return "";
  }
  // scrolledPast says whether r, el's box, which lies past the page's side (left, top or
  // right), is only out of view in a box around el that scrolls that way: a list scrolled
  // down, a strip of cards that goes on to the right. It is measured from where what that box
  // scrolls starts: what lies before that start no scrolling shows.
  function scrolledPast(el, r, side) {
    for (let x = parentOf(el); x && x.nodeType === 1 && x !== document.body && x !== document.documentElement; x = parentOf(x)) {
      if (!scrolls(x, side !== "top")) continue;
      const b = x.getBoundingClientRect();
      if (side === "top") return r.bottom - b.top + x.scrollTop > 0;
      if (style(x).direction === "rtl") return true; // its start is on the right
      if (side === "left") return r.right - b.left + x.scrollLeft > 0;
      return r.left - b.left + x.scrollLeft < x.scrollWidth + 50;
    }
    return false;
  }
  // Whether a text node's text can be read: not too small, not the colour of what is behind it,
  // not pushed away by text-indent, not cut away by a clipping ancestor, not under an opaque
  // element stacked above it, and laid out somewhere.
  function textVisible(t) {
    const el = t.parentElement;
    if (!el) return false;
    let v = legible.get(el);
    if (v === undefined) legible.set(el, (v = textStyleVisible(el)));
    if (v === 1 || v === 0) return v === 1;
    // The element does not vouch for all its text (inline, zero-size, or partly clipped):
    // ask the text's own boxes.
    const range = document.createRange();
    range.selectNodeContents(t);
    const region = v === 3 ? outer(el) : null;
    for (const r of range.getClientRects()) if (r.width >= 1 && r.height >= 1 && (!region || shows(r, region))) return true;
    return false;
  }
  // shows says whether a line of text in r can be read through region g: at least half of its
  // height shows (a sliver of a line clipped by a box's padding is not text a person reads).
  function shows(r, g) {
    return meets(r, g) && Math.min(r.bottom, g.b) - Math.max(r.top, g.t) >= (r.bottom - r.top) / 2;
  }

  // ---- clipping: where an element's content can be seen, in viewport coordinates ----
  const ALL = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
  function meets(r, g) {
    return !!g && r.right > g.l && r.left < g.r && r.bottom > g.t && r.top < g.b;
  }
  function inside(r, g) {
    return !!g && r.left >= g.l - 1 && r.right <= g.r + 1 && r.top >= g.t - 1 && r.bottom <= g.b + 1;
  }
  // outer is the region an element can be seen in, as its ancestors clip it: its parent's
  // region (for an absolutely positioned element, its containing block's; a fixed one escapes
  // them), or null when none of it can be seen.
  function outer(el) {
    const s = style(el);
    if (s.position === "fixed") return ALL;
    let p = parentOf(el);
    if (s.position === "absolute") while (p && p.nodeType === 1 && style(p).position === "static" && p !== document.documentElement) p = parentOf(p);
    return p && p.nodeType === 1 ? region(p) : ALL;
  }
  // region is where the content of el can be seen: its outer region, cut to its box on each
  // axis where it hides its overflow; on an axis where it scrolls, what is inside can be
  // scrolled anywhere its box shows. The page's own scrolling (html, body) clips nothing: a
  // dialog that locks it for a moment hides nothing for good.
  function region(el) {
    let g = regions.get(el);
    if (g !== undefined) return g;
    g = outer(el);
    const s = style(el);
    if (g && el !== document.body && el !== document.documentElement && (s.overflowX !== "visible" || s.overflowY !== "visible")) {
      const b = el.getBoundingClientRect();
      g = { ...g };
      for (const [o, lo, hi, blo, bhi] of [[s.overflowX, "l", "r", b.left, b.right], [s.overflowY, "t", "b", b.top, b.bottom]]) {
        if (o === "hidden" || o === "clip") (g[lo] = Math.max(g[lo], blo)), (g[hi] = Math.min(g[hi], bhi));
        else if (o === "auto" || o === "scroll") {
          if (bhi <= g[lo] || blo >= g[hi]) g[lo] = g[hi] = 0;
          else (g[lo] = -Infinity), (g[hi] = Infinity);
        }
      }
      if (!(g.l < g.r && g.t < g.b)) g = null;
    }
    regions.set(el, g);
    return g;
  }

  // ---- covers: opaque elements stacked above text ----
  // stacking is where an element paints among its page, roughly as CSS paints: in-flow content
  // first, then positioned elements by z-index; [z, positioned].
  function stacking(el) {
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) {
      const s = style(x);
      if (s.position !== "static") {
        const z = parseInt(s.zIndex, 10);
        if (!isNaN(z)) return [z, 1];
        for (let y = parentOf(x); y && y.nodeType === 1; y = parentOf(y)) {
          const z2 = parseInt(style(y).zIndex, 10);
          if (style(y).position !== "static" && !isNaN(z2)) return [z2, 1];
        }
        return [0, 1];
      }
    }
    return [0, 0];
  }
  function fixedBound(el) {
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) if (/^(fixed|sticky)$/.test(style(x).position)) return true;
    return false;
  }
  // standing says whether cover, over an element (hit: the part of it at the element's point),
  // waits for an answer before it goes, as a dialog or a cookie banner does: a dialog, or a box
  // fixed over the page, with buttons or links of its own and nothing in it saying it is at
  // work. A spinner, a loading veil, a toast go by themselves: they are waited out.
  // Its parts are looked for in shadow roots too: consent banners are often drawn in one.
  function standing(cover, hit = cover) {
    const dialog = cover.localName === "dialog" || /^(dialog|alertdialog)$/.test(roleOf(cover)) || cover.getAttribute("aria-modal") === "true";
    if (!dialog && !fixedBound(hit)) return false;
    for (let x = cover; x; x = parentOf(x)) if (x.getAttribute && x.getAttribute("aria-busy") === "true") return false;
    const c = coverHolds(cover);
    return !c.busy && c.controls;
  }
  // coverHolds is what a cover holds, shadow roots included (at most 3000 elements looked at):
  // something at work (busy: a progress bar, a region marked busy), controls a person answers
  // with, pictures, words.
  function coverHolds(cover) {
    const out = { busy: false, controls: false, pictures: false, words: false };
    let seen = 0;
    const look = (el) => {
      if (seen++ > 3000) return;
      if (el.matches("[role=progressbar], progress, [aria-busy=true]")) out.busy = true;
      if (el.matches("button, a[href], input, select, textarea, [role=button], [role=link], [role=checkbox], [role=switch]")) out.controls = true;
      if (el.localName === "img") out.pictures = true;
      for (const k of kidsOf(el)) {
        if (out.busy) return;
        if (k.nodeType === 3 && !out.words && /\S/.test(k.data)) out.words = true;
        else if (k.nodeType === 1) look(k);
      }
    };
    look(cover);
    return out;
  }
  // laidOver says whether cover, a box in the page's flow (not fixed: standing judges those)
  // over an element, is laid out there to stay, as a broken layout's or an open menu's is:
  // the page has loaded (its fonts too), the box has words or controls of its own, stands
  // where it stood at the last look, and nothing says it will go (it is not at work, not a
  // live region such as a toast, and neither it nor what holds it or is in it is animating).
  // Such a box is said at once; one that may still go is waited out.
  const coverBoxes = new WeakMap(); // cover -> its box at the last look
  function laidOver(cover, hit) {
    if (fixedBound(hit) || document.readyState !== "complete" || document.fonts.status === "loading") return false;
    const r = cover.getBoundingClientRect();
    const box = [r.x, r.y, r.width, r.height].join();
    const before = coverBoxes.get(cover);
    coverBoxes.set(cover, box);
    if (before !== box) return false;
    for (let x = cover; x; x = parentOf(x)) {
      if (!x.getAttribute) continue;
      if (x.getAttribute("aria-busy") === "true" || (x.getAttribute("aria-live") || "off") !== "off" || /^(status|alert|log|timer|marquee|progressbar)$/.test(roleOf(x))) return false;
    }
    for (const a of document.getAnimations()) {
      const t = a.playState === "running" && a.effect && a.effect.target;
      if (t && t.nodeType === 1 && (contains(t, cover) || contains(cover, t))) return false;
    }
    const c = coverHolds(cover);
    return !c.busy && (c.controls || c.pictures || c.words);
  }
  // calm says how still the page is, for a failure a still page does not change by itself (a
  // disabled control, a box over an element, an element hidden or of no size): n counts the changes to this document and the
  // answers it got since the first ask (Skiff's own chat left out), watched until 5 s after
  // the last ask; busy, that it loaded or got an answer within the last moments, still loads,
  // or something on it moves or shows it is at work. The core stops waiting once n has stood
  // for a while with the page not busy. (What the page waits for an answer to, unseen here, it
  // has waited for since before then.)
  let calmWatch = null;
  function calm() {
    if (!calmWatch) {
      const w = { n: 0, timer: 0 };
      w.obs = new MutationObserver((rs) => {
        for (const r of rs) if (!ours(r.target)) w.n++;
      });
      w.obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      w.answers = new PerformanceObserver((l) => (w.n += l.getEntries().length));
      w.answers.observe({ type: "resource" });
      calmWatch = w;
    }
    const w = calmWatch;
    clearTimeout(w.timer);
    w.timer = setTimeout(() => {
      w.obs.disconnect();
      w.answers.disconnect();
      if (calmWatch === w) calmWatch = null;
    }, 5000);
    const now = performance.now();
    const load = performance.getEntriesByType("navigation")[0]?.loadEventEnd || 0;
    let answered = 0;
    for (const r of performance.getEntriesByType("resource")) answered = Math.max(answered, r.responseEnd);
    const busy = document.readyState !== "complete" || !load || now - load < 2000 || now - answered < 1000 || document.fonts.status === "loading" || document.getAnimations().some((a) => a.playState === "running") || !!loadingNow().busy;
    return { n: w.n, busy: busy ? 1 : 0 };
  }
  // opaque says whether el paints a solid box over what is under it.
  function opaque(el, s) {
    if (+s.opacity < 0.9 || s.visibility !== "visible") return false;
    if (/^(img|video|canvas|iframe|embed|object)$/.test(el.localName)) return true;
    const c = parseColor(s.backgroundColor);
    return !!c && c[3] >= 0.9;
  }
  // paintedIn is where el can paint now: inside the boxes of the ancestors that clip it (any
  // overflow but visible, a scroller's included: unlike region, what a scroller holds is cut
  // to its box as it is scrolled now).
  function paintedIn(el) {
    const g = { ...ALL };
    let pos = style(el).position;
    for (let p = parentOf(el); pos !== "fixed" && p && p.nodeType === 1 && p !== document.body && p !== document.documentElement; p = parentOf(p)) {
      const s = style(p);
      if (pos === "absolute" && s.position === "static") continue; // not its containing block
      const b = p.getBoundingClientRect();
      if (s.overflowX !== "visible") (g.l = Math.max(g.l, b.left)), (g.r = Math.min(g.r, b.right));
      if (s.overflowY !== "visible") (g.t = Math.max(g.t, b.top)), (g.b = Math.min(g.b, b.bottom));
      pos = s.position;
    }
    return g;
  }
  function coverList() {
    if (covers) return covers;
    covers = [];
    if (!document.body) return covers;
    const tw = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
    for (let el = tw.nextNode(); el; el = tw.nextNode()) {
      const s = style(el);
      if (s.position === "static" || !opaque(el, s)) continue;
      const b = el.getBoundingClientRect();
      if (b.width < 2 || b.height < 2 || unseen(el)) continue;
      // It covers only where it shows: a part that reaches past a box that hides its overflow
      // (an editor's gutter below the editor) covers nothing there.
      const g = paintedIn(el);
      const r = { left: Math.max(b.left, g.l), top: Math.max(b.top, g.t), right: Math.min(b.right, g.r), bottom: Math.min(b.bottom, g.b) };
      if (r.right - r.left < 2 || r.bottom - r.top < 2) continue;
      covers.push({ el, r, key: stacking(el), fixed: fixedBound(el) });
    }
    return covers;
  }
  // scrollsClear says whether scrolling the page can bring r (an element that scrolls with it)
  // out from under c (one fixed to the screen) and into the viewport: a bar at the top never
  // uncovers what sits at the top of the page.
  function scrollsClear(r, c) {
    const de = document.scrollingElement || document.documentElement;
    const most = Math.max(0, de.scrollHeight - innerHeight - scrollY); // how far it can still go down
    const up = scrollY; // and up
    const lo = r.top - most, hi = r.top + up; // where r's top can be in the viewport
    const h = r.bottom - r.top;
    const meetsRange = (a, b) => Math.max(lo, a) <= Math.min(hi, b);
    return meetsRange(0, c.top - h) || meetsRange(c.bottom, innerHeight - h);
  }
  // coveredBy is the opaque element that hides el (its whole box) by painting above it, or
  // null. An element fixed to the screen hides what scrolls only if no scrolling uncovers it.
  function coveredBy(el, r) {
    const list = coverList();
    if (!list.length) return null;
    let mine = null, fixed = null;
    for (const c of list) {
      if (c.el === el || contains(c.el, el) || !inside(r, { l: c.r.left, t: c.r.top, r: c.r.right, b: c.r.bottom })) continue;
      if (fixed === null) fixed = fixedBound(el);
      if (c.fixed && !fixed && scrollsClear(r, c.r)) continue;
      if (mine === null) mine = stacking(el);
      const above = c.key[0] !== mine[0] ? c.key[0] > mine[0] : c.key[1] !== mine[1] ? c.key[1] > mine[1] : !!(el.compareDocumentPosition(c.el) & (Node.DOCUMENT_POSITION_FOLLOWING | Node.DOCUMENT_POSITION_CONTAINED_BY));
      if (above) return c.el;
    }
    return null;
  }
  // textStyleVisible says whether text in el can be read: 0 no (too small, transparent, the
  // colour of its background, pushed away, clipped away, covered), 1 yes (el has a box that
  // shows), 2 it depends on the text node, 3 it depends on the text node's place (el is partly
  // clipped).
  function textStyleVisible(el) {
    const s = style(el);
    if (parseFloat(s.fontSize) < 3) return 0;
    if (Math.abs(parseFloat(s.textIndent)) > 900 && s.overflow !== "visible") return 0;
    // SVG text is painted by its fill and stroke, not its colour.
    const svg = el.namespaceURI === "http://www.w3.org/2000/svg";
    const paint = (c, o) => c && c !== "none" && !/^url\(/.test(c) ? parseColor(c) : null;
    let fg = svg ? paint(s.fill) : parseColor(s.color);
    if (svg) {
      const fillSeen = fg && fg[3] * +(s.fillOpacity || 1) >= 0.1;
      const stroke = paint(s.stroke);
      const strokeSeen = stroke && stroke[3] * +(s.strokeOpacity || 1) >= 0.1 && parseFloat(s.strokeWidth) > 0;
      const gradient = /^url\(/.test(s.fill) || /^url\(/.test(s.stroke);
      if (!fillSeen && !strokeSeen && !gradient) return 0;
      if (!fillSeen) fg = stroke;
    }
    if (fg && fg[3] < 0.1) return 0;
    if (!svg && s.webkitTextFillColor && parseColor(s.webkitTextFillColor) && parseColor(s.webkitTextFillColor)[3] < 0.1) return 0;
    const bg = fg ? backgroundOf(el) : null;
    if (fg && bg) {
      // The colour of its background: as light (or dark) as it, and of nearly the same colour
      // (yellow on white is as light as white, and a person reads it).
      const a = luminance(fg), b = luminance(bg);
      const near = Math.max(Math.abs(fg[0] - bg[0]), Math.abs(fg[1] - bg[1]), Math.abs(fg[2] - bg[2])) < 48;
      if (near && (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) < 1.15) return 0;
    }
    const r = el.getBoundingClientRect();
    const sized = r.width >= 1 && r.height >= 1;
    if (sized) {
      const g = outer(el);
      if (!meets(r, g)) return 0;
      if (coveredBy(el, r)) return 0;
      if (!inside(r, g)) return 3;
    }
    if (s.display.startsWith("inline") || svg) return 2;
    return sized ? 1 : 2;
  }

  // ---- roles and names, after ARIA (enough of it for what agents act on) ----
  const landmarks = { header: "banner", footer: "contentinfo", nav: "navigation", main: "main", aside: "complementary", search: "search" };
  const inputRoles = { button: "button", submit: "button", reset: "button", image: "button", checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton", search: "searchbox", file: "button", color: "button" };
  // The landmarks (and tables) given a ref for a snapshot to start there, not to be acted on.
  const placeRoles = /^(dialog|form|table|main|navigation|region|search|complementary)$/;
  const interactiveRoles = new Set(["button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option", "slider", "spinbutton", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem", "gridcell"]);
  const heldRoles = new Set(["textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton"]);
  const nameFromContent = new Set(["button", "link", "heading", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem", "cell", "gridcell", "columnheader", "rowheader", "checkbox", "radio", "switch", "tooltip", "listitem", "paragraph", "legend", "caption", "term", "definition", "summary"]);
  // ---- code editors that take their text in a field out of sight (CodeMirror 5, Monaco, Ace) ----
  // Such an editor draws its text itself and takes what is typed in a textarea it keeps a pixel
  // wide (or in a box of no size): a person clicks the editor and types. The box it draws stands
  // for that field: a textbox, named as the field (or the textarea it replaced) is, holding the
  // text it shows without its line numbers, typed into through the field.
  function editorField(el) {
    if (!editors) {
      editors = new Map();
      for (const f of document.querySelectorAll("textarea")) {
        if (f.disabled || f.tabIndex < 0 || f.getAttribute("aria-hidden") === "true") continue;
        const why = hiddenReason(f);
        const r = f.getBoundingClientRect();
        if (!(why === "clipped" || why === "zero-size" || why === "off-screen" || why === "opacity" || (!why && (r.width <= 2 || r.height <= 2)))) continue;
        for (let b = f.parentElement, i = 0; b && b !== document.body && i < 4; b = b.parentElement, i++) {
          const br = b.getBoundingClientRect();
          if (br.width < 60 || br.height < 16) continue;
          if (unseen(b) || b.querySelectorAll("input:not([type=hidden]), textarea, select, [contenteditable]:not([contenteditable=false])").length !== 1) break;
          editors.set(b, f);
          break;
        }
      }
    }
    return editors.size ? editors.get(el) || null : null;
  }
  // selectFor is the <select> a page hid and draws el in place of (Chosen, nice-select, and
  // the like, which put their control right after the select they hide, with no role of their
  // own): el is that drop-down, named by the select's label, offering the select's options.
  function selectFor(el) {
    if (!standIns) {
      standIns = new Map();
      for (const s of document.querySelectorAll("select")) {
        const d = s.nextElementSibling;
        if (!d || s.disabled || !hiddenReason(s) || !/^(div|span|a)$/.test(d.localName) || d.hasAttribute("role") || (d.localName === "a" && d.hasAttribute("href"))) continue;
        const r = d.getBoundingClientRect();
        if (r.width < 30 || r.height < 10 || r.height > 150 || unseen(d) || d.querySelector("select, textarea, button, a[href], [role=button], [role=combobox], [role=listbox]")) continue;
        standIns.set(d, s);
      }
    }
    return standIns.size ? standIns.get(el) || null : null;
  }
  // What an editor draws around its text: gutters, line numbers, cursors, scrollbars (a class
  // that ends with one of these words: "CodeMirror-linenumber", "line-numbers", "ace_gutter").
  const editorChrome = /(^|[-_])(gutters?|gutter-wrapper|gutter-cell|linenumbers?|line-numbers|margin|minimap|[vh]?scrollbar|cursors?|cursor-layer|cursors-layer|measure)$/i;
  // editorText is the text a code editor's box shows, a line to a line.
  function editorText(box, field) {
    let out = "";
    const walk = (n) => {
      if (out.length > 4000) return;
      if (n.nodeType === 3) {
        if (textVisible(n)) out += n.data.replace(privateUse, "");
        return;
      }
      if (n.nodeType !== 1 || n === field || /^(script|style|textarea)$/.test(n.localName)) return;
      if ((n.getAttribute("class") || "").split(/\s+/).some((c) => editorChrome.test(c))) return;
      const s = style(n);
      if (s.display === "none" || s.visibility === "hidden") return;
      const block = s.display !== "inline" && s.display !== "contents" && !s.display.startsWith("inline");
      if (block && out && !out.endsWith("\n")) out += "\n";
      for (const k of n.childNodes) walk(k);
      if (block && out && !out.endsWith("\n")) out += "\n";
    };
    walk(box);
    return out.split("\n").map((l) => l.replace(/\u00a0/g, " ").replace(/\s+$/, "")).join("\n").replace(/^\n+|\n+$/g, "");
  }
  function roleOf(el) {
    if (editorField(el)) return "textbox";
    const explicit = (el.getAttribute("role") || "").trim().split(/\s+/)[0];
    if (explicit && explicit !== "none" && explicit !== "presentation") return explicit;
    if (explicit) return "";
    const tag = el.localName;
    switch (tag) {
      case "a":
      case "area":
        return el.hasAttribute("href") ? "link" : "";
      case "button":
        return "button";
      case "input": {
        const type = (el.getAttribute("type") || "text").toLowerCase();
        if (type === "hidden") return "";
        if (inputRoles[type]) return inputRoles[type];
        return el.list ? "combobox" : "textbox";
      }
      case "textarea":
        return "textbox";
      case "select":
        return el.multiple || el.size > 1 ? "listbox" : "combobox";
      case "option":
        return "option";
      case "img":
        return el.getAttribute("alt") === "" && !el.title ? "" : "img";
      case "svg":
        return el.getAttribute("aria-label") || el.querySelector(":scope > title") ? "img" : "";
      case "h1": case "h2": case "h3": case "h4": case "h5": case "h6":
        return "heading";
      case "p":
        return "paragraph";
      case "ul": case "ol": case "menu":
        return "list";
      case "li":
        return "listitem";
      case "table":
        return "table";
      case "tr":
        return "row";
      case "td":
        return "cell";
      case "th":
        return el.getAttribute("scope") === "row" ? "rowheader" : "columnheader";
      case "caption":
        return "caption";
      case "form":
        return el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") || el.getAttribute("name") ? "form" : "";
      case "dialog":
        return "dialog";
      case "fieldset":
        return "group";
      case "legend":
        return "legend";
      case "details":
        return "group";
      case "summary":
        return "button";
      case "iframe": case "frame":
        return "iframe";
      case "progress":
        return "progressbar";
      case "hr":
        return "separator";
      case "blockquote":
        return "blockquote";
      case "pre":
        return "code";
      case "label": {
        const c = proxied(el);
        return c ? roleOf(c) : "";
      }
      case "dt":
        return "term";
      case "dd":
        return "definition";
      case "section":
        return el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") ? "region" : "";
    }
    if (landmarks[tag]) {
      if ((tag === "header" || tag === "footer") && el.parentElement && el.parentElement.closest("article, aside, main, nav, section")) return "";
      return landmarks[tag];
    }
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return "textbox";
    if (selectFor(el)) return "combobox";
    const drawn = drawnFor(el);
    if (drawn) return roleOf(drawn);
    if ((el.hasAttribute("aria-selected") || el.hasAttribute("aria-disabled")) && besideUnseenList(el)) return "option";
    return "";
  }

  // proxied is the hidden checkbox, radio or file field a visible label stands for. Sites hide
  // the native input (display:none, opacity 0, clipped to a pixel, moved off the page) and draw
  // their own box (or "Upload" button) beside its label, which is what a person clicks: the first label a person can see
  // stands for the input, with its role, name and state, and a click on it changes the input.
  function proxied(el) {
    const c = el.control;
    if (!c || c.localName !== "input" || !/^(checkbox|radio|file)$/.test(c.type) || !unseen(c) || drawnFor(c.parentElement) === c) return null;
    for (const l of c.labels) if (!unseen(l)) return l === el ? c : null;
    return null;
  }
  // drawnFor is the hidden checkbox or radio a box stands for that holds it and draws the
  // control a person clicks around it, outside any label (Element Plus's switch: a div that
  // toggles on a click, holding its hidden input and the track drawn beside it; a label for
  // the input elsewhere, a form's row's, does not toggle it there), or null.
  function drawnFor(el) {
    if (!el || (el.localName !== "div" && el.localName !== "span") || el.hasAttribute("role")) return null;
    let input = null;
    for (let k = el.firstElementChild; k; k = k.nextElementSibling) {
      if (k.localName === "input" && (k.type === "checkbox" || k.type === "radio")) {
        if (input) return null;
        input = k;
      }
    }
    // (Not where a label drawn in the box or around the input stands for it, the checkbox
    // trick of an accordion's row; nor a box that says more than a control does: a card.)
    if (!input || input.closest("label") || [...input.labels].some((l) => contains(el, l)) || !unseen(input) || unseen(el)) return null;
    if (el.querySelector("input:not([type=checkbox]):not([type=radio]), button, select, textarea, a[href]") || clean(visibleText(el, 80), 80).length > 40) return null;
    return input;
  }
  // controlOf is the element whose state an action on el changes: a label's control, the
  // input a box drawn for it holds, or el.
  function controlOf(el) {
    return el.localName === "label" && el.control ? el.control : drawnFor(el) || el;
  }

  // An icon font's glyphs are private-use characters: a picture, not words ("\ue095").
  const privateUse = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/gu;
  function clean(s, n = 120) {
    s = String(s || "").replace(privateUse, "").replace(/\s+/g, " ").trim();
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
  }
  // visibleText is the text a person sees in el: hidden parts left out.
  // With named, what names a part of el counts too, as it does in a name from content: a part's
  // aria-label instead of its words, an icon's title (a link that is only a logo).
  function visibleText(el, limit = 400, except = null, named = false) {
    let out = "";
    const walk = (n) => {
      if (out.length > limit || n === except) return;
      if (n.nodeType === 3) {
        // A space or a newline alone still parts the words around it: "Sign in" written as
        // two spans, highlighted code ("int add") where each word is an element.
        if (!n.data.trim()) out += n.data ? " " : "";
        else if (textVisible(n)) out += n.data.replace(privateUse, "");
        return;
      }
      if (n.nodeType === 1 && n.localName === "br") out += " ";
      if (n.nodeType !== 1 || hiddenReason(n) || /^(script|style|noscript|template)$/.test(n.localName)) return;
      if (named && n !== el) {
        const own = n.getAttribute("aria-label") || (n.localName === "svg" && n.querySelector(":scope > title")?.textContent);
        if (own && own.trim()) {
          out += " " + own + " ";
          return;
        }
      }
      if (n.localName === "img" && n.alt) out += " " + n.alt + " ";
      if (n.localName === "input" && /^(submit|button|reset)$/.test(n.type)) out += " " + n.value + " ";
      for (const k of kidsOf(n)) walk(k);
      if (style(n).display !== "inline") out += " ";
    };
    walk(el);
    return clean(out, limit);
  }
  // heardText is what assistive tech reads in el: the words a person sees, and those a page
  // keeps for screen readers only (an icon button's "Close" clipped to a pixel, a toggle's
  // label drawn see-through); not what the page removed (display: none, visibility: hidden,
  // aria-hidden, hidden). A control whose visible words are none is named by it, as a screen
  // reader names it; never page text (hidden text is not read as the page's).
  function heardText(el, limit = 100, except = null) {
    let out = "";
    const walk = (n) => {
      if (out.length > limit || n === except) return;
      if (n.nodeType === 3) {
        out += n.data.replace(privateUse, "");
        return;
      }
      if (n.nodeType !== 1 || /^(script|style|noscript|template)$/.test(n.localName)) return;
      if (n !== el && (n.getAttribute("aria-hidden") === "true" || n.hidden)) return;
      const s = style(n);
      if (s.display === "none" || s.visibility === "hidden" || s.visibility === "collapse") return;
      if (n !== el) {
        const own = n.getAttribute("aria-label") || (n.localName === "svg" && n.querySelector(":scope > title")?.textContent);
        if (own && own.trim()) {
          out += " " + own + " ";
          return;
        }
      }
      if (n.localName === "img" && n.alt) out += " " + n.alt + " ";
      for (const k of kidsOf(n)) walk(k);
      if (s.display !== "inline") out += " ";
    };
    walk(el);
    return clean(out, limit);
  }
  function labelsOf(el) {
    const out = [];
    // A label around its control names it by its own words: the options of a list inside it
    // are not part of the list's name.
    // A label the page hid from assistive tech (the rest of the page, while a list is open
    // over it) still names its field, as a hidden label does.
    if (el.labels) for (const l of el.labels) out.push(visibleText(l, 400, el) || heardText(l, 100, el) || (contains(l, el) ? "" : clean(l.textContent, 400)));
    // A custom element that is a form field (Trix's editor, a design system's input) takes
    // labels as an input does; this world cannot see that it was declared one, nor its labels.
    else if (el.localName.includes("-")) {
      const around = el.closest("label");
      if (around) out.push(visibleText(around, 400, el));
      if (el.id) for (const l of el.getRootNode().querySelectorAll?.(`label[for="${CSS.escape(el.id)}"]`) || []) if (l !== around) out.push(visibleText(l, 400, el));
    }
    return out.filter(Boolean).join(" ");
  }
  // hasRef says whether snapshot items hold anything with a ref.
  function hasRef(items) {
    return items.some((it) => typeof it !== "string" && (it.ref || (it.kids && hasRef(it.kids))));
  }
  // textOf is the text of snapshot items: what a name from content reads, computed from the
  // children the snapshot already has instead of walking them again.
  function textOf(items) {
    let out = "";
    for (const it of items) {
      if (typeof it === "string") out += it;
      else if (it.name) out += " " + it.name + " ";
      else if (it.kids) out += " " + textOf(it.kids) + " ";
      if (out.length > 400) break;
    }
    return out;
  }

  // nameOf is an element's accessible name; kids, when given, are its snapshot children, which
  // a name from content is read from.
  function nameOf(el, role, kids) {
    if (el.localName === "label" && role) {
      const c = proxied(el);
      const n = c && nameOf(c, role);
      if (n) return n;
    }
    const drawn = role && drawnFor(el);
    if (drawn) return nameOf(drawn, role);
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      // What it points at names it even when hidden (a label the page hid while a list is
      // open over it, a visually hidden span), as accessible names are computed.
      const t = by.split(/\s+/).map((id) => el.getRootNode().getElementById?.(id) || document.getElementById(id)).filter(Boolean).map((x) => visibleText(x) || clean(x.textContent, 400)).join(" ");
      if (t.trim()) return clean(t);
    }
    const aria = el.getAttribute("aria-label");
    if (aria && aria.trim()) return clean(aria);
    const sf = selectFor(el);
    if (sf) return nameOf(sf, "combobox");
    if ((role === "combobox" || role === "listbox") && !/^(input|select|textarea)$/.test(el.localName)) {
      // A drop-down a widget draws around the select it hides inside it (Choices.js): named
      // by the select's label.
      const inner = el.querySelector("select");
      const n = inner && hiddenReason(inner) ? nameOf(inner, "combobox") : "";
      if (n) return n;
    }
    const ef = editorField(el);
    if (ef) {
      // Its field's name, or that of the textarea it took the place of (CodeMirror's
      // fromTextArea leaves it, hidden, just before the editor).
      const prev = el.previousElementSibling;
      return nameOf(ef, "textbox") || (prev && prev.localName === "textarea" ? nameOf(prev, "textbox") : "");
    }
    const tag = el.localName;
    if (tag === "input" || tag === "textarea" || tag === "select") {
      if (tag === "input" && /^(submit|button|reset)$/.test(el.type)) return clean(el.value || (el.type === "submit" ? "Submit" : el.type === "reset" ? "Reset" : ""));
      if (tag === "input" && el.type === "image") return clean(el.alt || el.value || "Submit");
      const l = labelsOf(el);
      if (l) return clean(l);
      // A field inside a custom element that is the form's field (Material's md-checkbox,
      // md-switch) is labelled as its element is: by the label around it or for its id.
      const host = el.getRootNode().host;
      const hl = host && !(el.labels && el.labels.length) ? labelsOf(host) : "";
      if (hl) return clean(hl);
      if (el.title) return clean(el.title);
      if (el.placeholder) return clean(el.placeholder);
      return "";
    }
    // A custom element that is a control (or is clicked as one: Material's md-radio, whose role
    // this world cannot see) takes the label around it or for its id.
    if (tag.includes("-") && (interactiveRoles.has(role) || (!role && isInteractive(el, role)))) {
      const l = labelsOf(el);
      if (l) return clean(l);
    }
    // A button is labelable too: one drawn as a checkbox, a switch or a radio (Radix, shadcn/ui,
    // Headless UI) is named by its <label for>, before its own content, as HTML-AAM says.
    if ((tag === "button" || tag === "meter" || tag === "progress" || tag === "output") && el.labels && el.labels.length) {
      const l = labelsOf(el);
      if (l) return clean(l);
    }
    if (tag === "img" || tag === "area") return clean(el.getAttribute("alt") || el.title);
    if (tag === "svg") return clean(el.querySelector(":scope > title")?.textContent || "");
    if (tag === "iframe") return clean(el.title || el.name || "");
    if (tag === "fieldset") {
      const lg = el.querySelector(":scope > legend");
      if (lg) return visibleText(lg, 120);
    }
    if (tag === "table") {
      const c = el.querySelector(":scope > caption");
      if (c) return visibleText(c, 120);
    }
    // Fields, lists and sliders are not named by what they hold (ARIA): their value and
    // options are said as such.
    if (nameFromContent.has(role) || (interactiveRoles.has(role) && !heldRoles.has(role))) {
      // A part labelled on its own counts by its label (a "×" labelled "Close the notice"), as
      // the page's text around it does not say it.
      const t = kids && !el.querySelector("[aria-label]") ? clean(textOf(kids), 160) : visibleText(el, 160, null, true);
      // A number alone, which its title says in full, is named by its title: a calendar's day
      // (Ant Design's: "10", titled "2026-12-10"), a page of results ("3", titled "Page 3").
      if (/^\d{1,4}$/.test(t) && el.title && el.title.length > t.length && new RegExp(`(^|\\D)0*${t}(\\D|$)`).test(el.title)) return clean(el.title, 160);
      if (t) return clean(t, 160);
      // An icon button or link whose words are for screen readers only ("Close" clipped to a
      // pixel: Bootstrap's visually-hidden, Tailwind's sr-only).
      const heard = interactiveRoles.has(role) ? heardText(el) : "";
      if (heard) return heard;
    }
    return clean(el.title || "");
  }

  // hoverPointer says whether the page's own style sheets give el the pointer cursor once the
  // mouse is over it (".datepicker-cell:hover { cursor: pointer }", as vanillajs-datepicker
  // draws its days): a person sees the hand as they reach it. Read from the sheets the page
  // may read (not another site's), their rules whose selector says :hover, without it; in a
  // shadow tree, from the tree's own (a <style> in it, the sheets a component adopts, as Lit's
  // do), which alone select there. Once per document or tree a read.
  function hoverPointer(el) {
    const root = el.getRootNode();
    if (!hovering) hovering = new Map();
    let over = hovering.get(root);
    if (!over) {
      let found = [];
      const read = (rules, depth) => {
        for (const r of rules) {
          if (found.length >= 200) return;
          if (r.cssRules && depth < 4 && !(r instanceof CSSStyleRule)) read(r.cssRules, depth + 1); // (@media, @supports, @layer)
          if (!(r instanceof CSSStyleRule) || !r.selectorText.includes(":hover") || r.style.cursor !== "pointer") continue;
          for (const one of r.selectorText.split(",")) {
            if (!one.includes(":hover")) continue;
            const sel = one.replaceAll(":hover", "").trim();
            try {
              if (sel) document.documentElement.matches(sel); // (left out when it is none without :hover: "::-webkit-scrollbar-thumb", ":not()")
              if (sel) found.push(sel);
            } catch {}
          }
        }
      };
      const all = [];
      for (const sheet of [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])]) {
        // (A sheet many trees adopt is read once, as is a <style> each copy of a component
        // writes the same.)
        const key = sheet.ownerNode && sheet.ownerNode.localName === "style" ? "style:" + sheet.ownerNode.textContent : sheet;
        let sels = hovering.get(key);
        if (!sels) {
          found = [];
          try {
            read(sheet.cssRules, 0);
          } catch {} // (another site's sheet)
          hovering.set(key, (sels = found));
        }
        all.push(...sels.slice(0, 200 - all.length));
      }
      over = new Set();
      try {
        if (all.length) over = new Set(root.querySelectorAll(all.join(",")));
      } catch {}
      hovering.set(root, over);
    }
    return over.has(el);
  }
  // inRow says whether el is an item of a flex container laid out in a row.
  function inRow(el) {
    const p = parentOf(el);
    if (!p || p.nodeType !== 1) return false;
    const ps = style(p);
    return /flex$/.test(ps.display) && !ps.flexDirection.startsWith("column");
  }
  function pointerOnly(el) {
    // Apps often make divs clickable: the pointer cursor is the sign a person sees (a hand
    // that grabs, or arrows that move, for a thing dragged: a card, a file, a grip; not a map
    // or a canvas that takes half the page). Only the outermost element of such a region
    // counts, and only if it is not inside a control. A pointer shown only under the mouse
    // counts too (hoverPointer).
    let cursor = style(el).cursor;
    if (cursor !== "pointer" && hoverPointer(el)) cursor = "pointer";
    if (cursor !== "pointer" && !((cursor === "grab" || cursor === "move") && (() => { const b = el.getBoundingClientRect(); return b.width * b.height < (innerWidth * innerHeight) / 4; })())) return false;
    const p = parentOf(el);
    if (p && p.nodeType === 1 && style(p).cursor === cursor) return false;
    for (let x = p; x && x.nodeType === 1; x = parentOf(x)) if (interactiveRoles.has(roleOf(x))) return false;
    return true;
  }
  const dragMarks = ".ui-draggable-handle, .ui-sortable-handle, .cdk-drag, .cdk-drag-handle";
  function isInteractive(el, role) {
    if (interactiveRoles.has(role)) return true;
    // What the page made draggable is acted on (dragged): the browser's own draggable, and
    // the marks drag libraries put on what they drag (jQuery UI's handles, Angular CDK's).
    if (el.hasAttribute("onclick") || el.getAttribute("draggable") === "true" || el.matches(dragMarks) || (el.tabIndex >= 0 && el.hasAttribute("tabindex") && el.getAttribute("tabindex") !== "-1")) return true;
    if (el.localName === "label" && el.control) return false;
    // A link with no address that names itself (title) is a script's control, as old pages
    // and jQuery UI draw them (a calendar's Prev and Next), whatever its cursor.
    if (el.localName === "a" && !el.hasAttribute("href") && el.title.trim() && !wraps(el)) return true;
    return pointerOnly(el) && !wraps(el);
  }
  // wraps says whether el is only the wrapping of a control that fills it (a design system's
  // element around the button of its shadow tree, a box around a link): the control is what
  // is acted on, not a second thing beside it.
  function wraps(el) {
    const c = (shadowOf(el) || el).querySelector('a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[role=combobox]');
    if (!c) return false;
    const a = el.getBoundingClientRect(), b = c.getBoundingClientRect();
    return b.width * b.height >= 0.8 * a.width * a.height;
  }
  function disabled(el) {
    if (el.disabled) return true;
    if (el.closest && el.closest("fieldset:disabled") && /^(input|button|select|textarea)$/.test(el.localName)) return true;
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) if (x.getAttribute("aria-disabled") === "true") return true;
    return false;
  }

  // wanting is what the form of control (a disabled button or field) still wants, as the
  // browser or the page says: its fields that are required and empty, or not valid (at most
  // five, each said with its ref and why). Read from the fields' state: nothing is checked
  // aloud (checkValidity would make the page show its errors).
  function wanting(control) {
    // Its form, or, on a page that draws forms without one (many apps), the nearest box
    // around it that holds fields.
    let fields = null;
    const form = control.form || (control.closest && control.closest("form"));
    if (form) fields = [...form.elements];
    for (let x = parentOf(control), up = 0; !fields && x && x.nodeType === 1 && x !== document.body && up < 8; x = parentOf(x), up++) {
      const found = [...x.querySelectorAll("input, select, textarea")].filter((f) => f !== control);
      if (found.length) fields = found;
    }
    const out = [];
    for (const f of fields || []) {
      if (out.length >= 5) break;
      if (f === control || !/^(input|select|textarea)$/.test(f.localName) || disabled(f)) continue;
      const bad = (f.willValidate && !f.validity.valid) || f.getAttribute("aria-invalid") === "true";
      // A box drawn over a hidden checkbox is its label: the field counts when either shows.
      if (!bad || (hiddenReason(f) && ![...(f.labels || [])].some((l) => !hiddenReason(l)))) continue;
      const why = !f.validity.valueMissing ? "not valid" : /^(checkbox|radio)$/.test(f.type) || f.localName === "select" ? "not chosen" : "empty";
      out.push(`${describe(f)} [${refOf(f)}] (${why})`);
    }
    return out;
  }

  // disabledWhy is what a page says of why a control is disabled, where pages say it: its
  // description (aria-describedby, often a hidden hint), or a tooltip on it or on the box
  // around it (a disabled button gets no mouse events, so sites put its tooltip on a wrapper).
  function disabledWhy(control) {
    const ids = control.getAttribute("aria-describedby");
    const described = ids ? clean(ids.split(/\s+/).map((id) => id && control.getRootNode().getElementById?.(id)).filter(Boolean).map((x) => x.textContent).join(" "), 160) : "";
    if (described) return described;
    for (let x = control, up = 0; x && x.nodeType === 1 && up < 3; x = parentOf(x), up++) {
      const tip = clean(x.getAttribute("title") || "", 160);
      if (tip && tip !== clean(nameOf(control, roleOf(control)) || "", 160)) return tip;
    }
    return "";
  }

  // secret says whether a field holds a password or payment data ("password", "payment" or
  // ""): Skiff never reads such a value back, and typing into one always asks the user.
  const paymentWords = /\b(cc|card|credit)[\s_-]?(num|number|no)\b|\bcardnumber\b|\b(cvc|cvv|cvv2|csc|cid)\b|security[\s_-]?code|\biban\b/i;
  function secret(el) {
    if (!el || el.nodeType !== 1) return "";
    if (el.localName === "input" && el.type === "password") return "password";
    if (!/^(input|textarea)$/.test(el.localName) && !el.isContentEditable) return "";
    const ac = (el.getAttribute("autocomplete") || "").toLowerCase();
    // (A combobox is never one: Ant Design's select and others write "new-password" on their
    // field only to keep the browser's autofill away from it.)
    if (/(^|\s)(current-password|new-password|one-time-code)(\s|$)/.test(ac) && !comboboxLike(el)) return "password";
    if (/(^|\s)cc-/.test(ac)) return "payment";
    const words = [el.name, el.id, el.getAttribute("aria-label"), el.placeholder, el.getAttribute("data-testid")].filter(Boolean).join(" ");
    return paymentWords.test(words.replace(/([a-z])([A-Z])/g, "$1 $2")) ? "payment" : "";
  }

  // besideUnseenList says el is an item of a list a person sees, drawn beside a listbox kept
  // out of sight for assistive tech (Ant Design's, rc-select's: a virtual list of divs that say
  // only whether they are disabled, beside a listbox of no size holding only the options about
  // the active one): such an item, when it says whether it is chosen or can be, is an option.
  function besideUnseenList(el) {
    const p = parentOf(el);
    if (!p || p.nodeType !== 1) return false;
    let l = besideLists.get(p); // (the items of a list share its answer, read once a snapshot)
    if (l === undefined) {
      l = null;
      for (let x = p, i = 0; x && x.nodeType === 1 && i < 5 && !/^(body|html)$/.test(x.localName); i++, x = parentOf(x)) {
        if ((l = x.querySelector('[role="listbox"]'))) break;
      }
      besideLists.set(p, l);
    }
    return !!l && !contains(l, el) && unseen(l);
  }

  // comboboxLike says el is a field that offers a list to choose from.
  function comboboxLike(el) {
    return roleOf(el) === "combobox" || el.hasAttribute("aria-autocomplete") || el.getAttribute("aria-haspopup") === "listbox";
  }

  // describe says which element this is, in words, for the model and for the user.
  function describe(el) {
    const r = roleOf(el);
    const role = r || el.localName;
    // A field is not called by what it holds (its value, its choice), as in the snapshot.
    // One the page hid from assistive tech only (the rest of the page, while a menu is open
    // over it) is still called by the words a person sees on it.
    const name = nameOf(el, r) || (heldRoles.has(role) ? "" : clean(visibleText(el, 60), 60) || (el.checkVisibility?.() && el.closest("[aria-hidden=true], [inert]") ? clean(el.textContent, 60) : ""));
    if (name) return `${role} “${name}”`;
    // One that says nothing (an icon) is called what its page's code calls it, as the snapshot
    // says it: the bin, not the third button.
    const hint = codeName(el);
    return hint ? `${role} (${hint})` : `${role} <${el.localName}${el.id ? "#" + el.id : ""}>`;
  }

  // ---- frames: each frame tells its parent which frame it is (frame ids are the browser's) ----
  const frameOf = new WeakMap(); // iframe element -> frame id
  const heard = new Set(); // the frame ids whose hello arrived
  const hearing = new Set(); // knows() calls waiting for hellos
  addEventListener("message", (e) => {
    const d = e.data;
    if (!d || typeof d !== "object" || typeof d.__skiffFrame !== "number") return;
    for (const f of document.querySelectorAll("iframe, frame")) {
      if (f.contentWindow === e.source) frameOf.set(f, d.__skiffFrame);
    }
    for (const host of shadowHosts()) {
      for (const f of shadowOf(host).querySelectorAll("iframe, frame")) if (f.contentWindow === e.source) frameOf.set(f, d.__skiffFrame);
    }
    heard.add(d.__skiffFrame);
    for (const w of hearing) w();
  });
  // knows answers once the hellos of frameIds (this frame's children, told to say hello) have
  // arrived, or after max ms: the core waits on this instead of on time.
  function knows({ frameIds, max }) {
    return new Promise((res) => {
      const check = () => {
        if (!frameIds.every((id) => heard.has(id))) return;
        end(true);
      };
      const end = (all) => {
        hearing.delete(check);
        clearTimeout(cap);
        res({ ok: 1, all });
      };
      const cap = setTimeout(() => end(false), max || 500);
      hearing.add(check);
      check();
    });
  }
  function shadowHosts() {
    const out = [];
    const tw = document.createTreeWalker(document.documentElement || document, NodeFilter.SHOW_ELEMENT);
    for (let n = tw.currentNode; n; n = tw.nextNode()) if (n.nodeType === 1 && shadowOf(n)) out.push(n);
    return out;
  }
  function frameElementFor(id) {
    for (const f of document.querySelectorAll("iframe, frame")) if (frameOf.get(f) === id) return f;
    for (const host of shadowHosts()) for (const f of shadowOf(host).querySelectorAll("iframe, frame")) if (frameOf.get(f) === id) return f;
    return null;
  }

  // ---- the snapshot ----
  const textual = /^(paragraph|listitem|cell|columnheader|rowheader|heading|caption|legend|term|definition|blockquote|code)$/;
  const skip = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "base", "datalist", "param", "source", "track", "br", "wbr", "object", "embed", "canvas", "audio", "video"]);
  const MAX_NODES = 30000;

  // After a full snapshot, the document is watched until its first change: an element added
  // or removed, an attribute, a text. unchanged({ watch }) then says whether it is still as
  // that snapshot read it, so a caller that only looks for elements in it (a workflow's
  // replay) need not read it again. A value typed into a field is not a change of the page's
  // elements. Inside a shadow root nothing is seen, so a page with one is never watched.
  let watcher = null;
  let watched = "";
  let watches = 0;
  function watchChanges() {
    if (watcher) watcher.disconnect();
    watched = doc + ":" + ++watches;
    watcher = new MutationObserver(() => {
      watcher.disconnect();
      watcher = null;
    });
    watcher.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    return watched;
  }
  function unchanged({ watch }) {
    if (watcher && watcher.takeRecords().length) {
      watcher.disconnect();
      watcher = null;
    }
    return { ok: 1, same: !!watcher && !!watch && watch === watched };
  }
  // seeThroughFields is the text fields among snapshot items read in a see-through box.
  function seeThroughFields(items) {
    const out = [];
    for (const it of items) {
      if (typeof it === "string") continue;
      if (it.ref && /^(textbox|searchbox|spinbutton|combobox)$/.test(it.role) && it.value !== undefined) out.push({ ...it, kids: undefined });
      else if (it.kids) out.push(...seeThroughFields(it.kids));
    }
    return out;
  }
  // hitsItself says whether el is a checkbox or radio drawn see-through over the box a page
  // draws for it, which a click at its place reaches (Material's md-checkbox and md-radio):
  // what a person clicks, as a hidden native input a visible label stands for is.
  function hitsItself(el) {
    if (el.localName !== "input" || !/^(checkbox|radio)$/.test(el.type) || (el.labels && [...el.labels].some((l) => !unseen(l) && l.checkVisibility()))) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 8 || r.height < 8 || r.bottom < 0 || r.top > innerHeight) return false;
    const at = deepFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return at === el;
  }
  // seeThrough says whether el is hidden only by being drawn see-through (it, or a box it is in).
  function seeThrough(el) {
    let found = false;
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) {
      const r = hiddenReason(x);
      if (r === "opacity") found = true;
      else if (r && r !== "invisible") return false; // "invisible": what a box around it makes it
    }
    return found;
  }
  function snapshot({ root, interactive } = {}) {
    fresh();
    if (watcher) {
      watcher.disconnect();
      watcher = null;
    }
    let count = 0;
    let shadows = false;
    const kinds = new Map(); // each control's tag, role and name: the refs of those so called
    let thru = 0; // inside a box drawn see-through (seeThroughFields)
    const vh = innerHeight;
    // A dialog opened modal (showModal) makes the page behind it inert: nothing there can be
    // clicked or typed in until it closes, and Chrome's accessibility tree leaves it out.
    const modal = root ? null : topModal();
    const walk = (n) => {
      if (++count > MAX_NODES) return [];
      if (modal && n !== modal && n.nodeType === 1 && !contains(n, modal) && !contains(modal, n) && !n.matches(":popover-open")) return [];
      if (n.nodeType === 3) {
        const t = n.data.replace(privateUse, "").replace(/\s+/g, " ");
        if (!t.trim()) {
          // A space alone between two words inside an inline element still parts them in a
          // name read from content: "Sign in" written as two spans, or highlighted code
          // ("int add"). Between blocks it says nothing, and is left out.
          const p = n.parentElement;
          return t && n.previousSibling && n.nextSibling && p && style(p).display.startsWith("inline") ? [" "] : [];
        }
        if (!textVisible(n)) return [];
        return [t];
      }
      if (n.nodeType !== 1) return []; // comments and the rest never reach the model
      const el = n;
      if (el.localName === "br") return [" "]; // a line break parts the words on either side
      if (skip.has(el.localName) || ours(el)) return [];
      let why = hiddenReason(el);
      if (why === "opacity" && hitsItself(el)) why = ""; // a see-through checkbox over the box drawn for it
      // A combobox's field drawn see-through once it shows its choice in a box of its own
      // (react-select): where a person clicks and types to choose again.
      if (why === "opacity" && el.localName === "input" && el.tabIndex >= 0 && roleOf(el) === "combobox") why = "";
      if (why === "opacity" && !thru) {
        // A box drawn see-through until its field has the focus (Material's outlined text
        // field, whose label stands in its place; a date field's empty sections): a person sees
        // where to click and type. Its text fields are kept, and nothing else in it.
        thru++;
        const inside = [];
        for (const k of kidsOf(el)) for (const x of walk(k)) inside.push(x);
        thru--;
        return seeThroughFields(inside);
      }
      if (why && !(thru && (why === "opacity" || why === "invisible"))) return [];
      const role = roleOf(el);
      const act = isInteractive(el, role);
      if (role === "iframe") {
        const node = { role, name: nameOf(el, role), ref: refOf(el), frame: frameOf.has(el) ? frameOf.get(el) : -1, src: el.src || "" };
        return [node];
      }
      const room = scrollRoom(el);
      // Refs in document order: the element's before its children's.
      const ref = act || placeRoles.test(role) || room ? refOf(el) : "";
      let kids = [];
      const root = shadowOf(el);
      if (root) shadows = true;
      if (root || el.localName === "slot") {
        for (const k of kidsOf(el)) for (const x of walk(k)) kids.push(x);
      } else {
        for (let k = el.firstChild; k; k = k.nextSibling) for (const x of walk(k)) kids.push(x);
      }
      // The spaces kept between words part words inside the element, never begin or end it.
      while (kids[0] === " ") kids.shift();
      while (kids.length && kids[kids.length - 1] === " ") kids.pop();
      if (el.localName === "select") kids = [];
      if (el.localName === "textarea" || el.localName === "input") kids = [];
      // A label beside its control (for=) says its text once too, as the control's name,
      // when the control is there to say it.
      if (el.localName === "label" && !role && !act && el.control && !el.contains(el.control) && !unseen(el.control) && kids.every((k) => typeof k === "string") && clean(kids.join("")) === nameOf(el.control, roleOf(el.control))) return [];
      if (el.localName === "label" && !role && el.control) {
        // A label says its text once, as its control's name: not again after the control.
        const c = kids.find((k) => typeof k !== "string" && k.ref && byRef(k.ref) === el.control);
        if (c && c.name && kids.every((k) => k === c || typeof k === "string") && clean(kids.filter((k) => k !== c).join("")) === c.name) kids = [c];
      }
      const s = style(el);
      const inline = s.display.startsWith("inline") && !/^(heading|paragraph|listitem|list|table|row)$/.test(role);
      if (!role && !act && !(room && kids.length)) {
        if (inline || kids.length === 0) return kids;
        // A few words in a box of a flex row sit on the row's line, beside its other boxes, as
        // inline text does (air-datepicker's title: "December," and its year in an <i>).
        if (kids.every((k) => typeof k === "string") && clean(kids.join("")).length <= 60 && inRow(el)) return [" ", ...kids, " "];
        return [{ group: 1, kids }];
      }
      const node = { role: role || (act ? "generic" : "scrollable") };
      if (room) node.scroll = room;
      if (textual.test(role) && !act && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby")) {
        // Text blocks (paragraphs, list items, cells, headings) say their text once: as their
        // name when it is all text, else through their children.
        if (kids.every((k) => typeof k === "string")) {
          node.name = clean(kids.join(""), 4000);
          kids = [];
        }
      } else {
        node.name = nameOf(el, role, kids);
      }
      if (ref) node.ref = ref;
      if (ref && act && node.name) {
        const key = el.localName + "\n" + node.role + "\n" + node.name;
        const same = kinds.get(key);
        if (same) same.push(ref);
        else kinds.set(key, [ref]);
      }
      // A link that says nothing (a picture without words, an icon) is told apart by where it
      // leads: a shop's tiles, a gallery.
      if (role === "link" && !node.name && el.href && typeof el.href === "string") node.href = shortHref(el.href);
      // A control that says nothing (an icon: a cross, a magnifier, a bin) is told apart by
      // what its page's code calls it.
      else if (act && !node.name && !clean(textOf(kids))) {
        const h = codeName(el);
        if (h) node.hint = h;
      }
      if (inline) node.inline = 1;
      if (role === "heading") node.level = +(el.getAttribute("aria-level") || el.localName.slice(1)) || 2;
      const ctl = role ? controlOf(el) : el;
      if (ctl !== el && ctl.type === "file") node.type = "file"; // a label standing for a hidden file field
      if (act && disabled(ctl)) node.disabled = 1;
      if (el.getAttribute("aria-expanded")) node.expanded = el.getAttribute("aria-expanded") === "true" ? 1 : 0;
      if (el.localName === "details") node.expanded = el.open ? 1 : 0;
      const checked = ctl.localName === "input" && /^(checkbox|radio)$/.test(ctl.type) ? ctl.checked : ctl.getAttribute("aria-checked");
      if (checked !== null && checked !== undefined && /^(checkbox|radio|switch|menuitemcheckbox|menuitemradio|option)$/.test(node.role)) node.checked = checked === true || checked === "true" ? 1 : checked === "mixed" ? 2 : 0;
      if (el.getAttribute("aria-selected") === "true" || (el.localName === "option" && el.selected)) node.selected = 1;
      if (el.getAttribute("aria-pressed")) node.pressed = el.getAttribute("aria-pressed") === "true" ? 1 : 0;
      if (ctl.required || el.getAttribute("aria-required") === "true") node.required = 1;
      if (el.readOnly || el.getAttribute("aria-readonly") === "true") node.readonly = 1;
      if (act && el.getAttribute("aria-invalid") === "true") node.invalid = 1;
      if (/^(ascending|descending)$/.test(el.getAttribute("aria-sort") || "")) node.sort = el.getAttribute("aria-sort");
      if (el.localName === "input" || el.localName === "textarea") {
        const kind = secret(el);
        if (kind === "password") node.password = 1;
        else if (kind === "payment") node.payment = 1;
        else if (!/^(checkbox|radio|submit|button|reset|image|file)$/.test(el.type)) node.value = clean(el.value, 200);
        if (el.type === "file" || (el.type && !/^(text|textarea)$/.test(el.type) && !inputRoles[el.type] && el.type !== "search")) node.type = el.type;
        if (el.placeholder && el.placeholder !== node.name) node.placeholder = clean(el.placeholder, 60);
      } else if (el.localName === "select") {
        const opts = [...el.options];
        node.value = clean(opts.filter((o) => o.selected).map((o) => o.label).join(", "), 120);
        node.options = opts.slice(0, 30).map((o) => clean(o.label, 60));
        if (opts.length > 30) node.more = opts.length - 30;
      } else if (el.isContentEditable && role === "textbox") {
        node.value = clean(el.innerText, 200);
        kids = [];
      } else if (editorField(el)) {
        node.value = clean(editorText(el, editorField(el)), 200);
        kids = [];
      } else if (selectFor(el)) {
        // A drop-down a library draws for a select it hid (Chosen): what the select holds,
        // and the select's options, which a list opened shows only in part.
        const s = selectFor(el);
        const opts = [...s.options];
        node.value = clean(opts.filter((o) => o.selected && o.value !== "").map((o) => o.label).join(", "), 120) || clean(textOf(kids), 120);
        node.options = opts.filter((o) => o.label.trim()).slice(0, 30).map((o) => clean(o.label, 60));
        if (opts.length > 30) node.more = opts.length - 30;
        if (!hasRef(kids)) kids = [];
      } else if (role === "combobox" && node.name && !hasRef(kids)) {
        // A drop-down drawn as a button (Radix, shadcn/ui) shows its choice as its words: that
        // is its value, what its name (its label) does not say.
        const v = clean(textOf(kids), 200);
        if (v && v !== node.name) node.value = v;
        kids = [];
      } else if (/^(slider|spinbutton|progressbar|meter|scrollbar)$/.test(role) && (el.hasAttribute("aria-valuetext") || el.hasAttribute("aria-valuenow"))) {
        node.value = clean(el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow"), 60);
        if (clean(textOf(kids)) === node.value) kids = [];
      }
      const r = el.getBoundingClientRect();
      if (act && (r.bottom < 0 || r.top > vh)) node.offscreen = 1;
      // A name read from the content says it all when the content holds nothing to act on:
      // link "Home" needs no "Home" under it, nor an image whose alt text is the name.
      if (node.name && !kids.some((k) => typeof k !== "string" && (k.ref || k.kids))) {
        const text = clean(kids.map((k) => (typeof k === "string" ? k : k.name || "")).join(" "), 400);
        // A control's words are its name; a panel's are not, whatever names it (a tab panel that
        // takes the focus, named by its tab: Radix, Headless UI).
        const named = act && (nameFromContent.has(role) || interactiveRoles.has(role));
        if (named || !text || text === node.name || node.name.startsWith(text.replace(/…$/, ""))) kids = [];
      } else if (node.name && kids.length && !hasRef(kids) && clean(textOf(kids), 400) === node.name) {
        kids = []; // the same words in blocks of their own (a floated logo's text, a card's title)
      }
      // A fieldset named by its legend does not say the legend again.
      if (el.localName === "fieldset" && node.name && kids.length && kids[0].role === "legend" && kids[0].name === node.name) kids.shift();
      // A control drawn by a custom element that keeps a native one of the same kind inside it
      // (Ionic's ion-checkbox and ion-toggle): one control, not two.
      if (/^(checkbox|switch|radio)$/.test(node.role) && node.ref) kids = kids.flatMap((k) => (typeof k !== "string" && k.role === node.role && k.name === node.name && k.ref ? k.kids || [] : [k]));
      if (kids.length) node.kids = kids;
      // Nothing to read and nothing to do: an empty paragraph, a separator, a bare container.
      if (!node.ref && !node.name && !kids.length && node.role !== "img" && node.value === undefined) return [];
      // A list says nothing its items do not: its items stand at its place, unless it is named.
      if ((role === "list" || role === "rowgroup") && !node.name && !node.ref) return kids.length ? [{ group: 1, kids }] : [];
      return [node];
    };
    const start = root ? byRef(root) : document.body || document.documentElement;
    if (root && !start) return { error: `there is no element ${root} on the page any more (it was removed or the page changed); take a new snapshot` };
    let tree = start ? walk(start) : [];
    if (!root && !modal && count <= MAX_NODES) {
      for (const [key, same] of kinds) {
        const [tag, role, raw] = key.split("\n");
        const name = clean(raw);
        if (same.length === 1) {
          refs.desc.set(same[0], { tag, role, name });
          continue;
        }
        // Several alike: each known by the words around it, when no other has the same.
        const near = same.length <= MAX_ALIKE ? same.map((r) => nearWords(byRef(r), name)) : [];
        const times = new Map();
        for (const w of near) times.set(w, (times.get(w) || 0) + 1);
        same.forEach((r, i) => {
          if (near[i] && times.get(near[i]) === 1) refs.desc.set(r, { tag, role, name, near: near[i] });
          else refs.desc.delete(r);
        });
      }
    }
    if (interactive) tree = onlyInteractive(tree);
    const de = document.documentElement;
    return {
      url: location.href,
      title: document.title,
      tree: wire(tree),
      truncated: count > MAX_NODES,
      human: root ? undefined : humanCheck() || undefined,
      modal: modal ? { ref: refOf(modal), name: nameOf(modal, "dialog") || clean(modal.querySelector("h1, h2, h3, h4, [role=heading]")?.textContent || "", 80), behind: controlsBehind(modal) } : undefined,
      pdf: document.contentType === "application/pdf" && window === top ? 1 : undefined,
      watch: root || interactive || shadows || count > MAX_NODES ? undefined : watchChanges(),
      scroll: { y: Math.round(scrollY), height: Math.round(Math.max(de ? de.scrollHeight : 0, document.body ? document.body.scrollHeight : 0)), viewport: Math.round(innerHeight), width: Math.round(innerWidth) },
    };
  }

  // wire writes a finished tree as the core decodes it in one pass: a text as {t: text}.
  function wire(items) {
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (typeof it === "string") items[i] = { t: it };
      else if (it.kids) wire(it.kids);
    }
    return items;
  }

  // onlyInteractive keeps the elements a person can act on (all that have a ref: a clickable
  // list item, row or picture as well as a control), and the landmarks around them that say
  // where they are.
  function onlyInteractive(items) {
    const out = [];
    for (const it of items) {
      if (typeof it === "string") continue;
      const kids = it.kids ? onlyInteractive(it.kids) : [];
      const keep = it.ref && !placeRoles.test(it.role) && !it.scroll;
      // One element to a line: the text that made a run of them a line of prose is gone. A
      // nameless one (a clickable box, a card a page lets people drag) is named by its words,
      // which go with the text.
      const name = it.name || (keep && it.kids ? clean(textOf(it.kids), 80) : "");
      if (keep) out.push({ ...it, name: name || undefined, inline: undefined, kids: kids.length ? kids : undefined });
      else if (kids.length && it.ref) out.push({ ...it, inline: undefined, kids });
      else out.push(...kids);
    }
    return out;
  }

  // codeName is what a page's code calls a control that has no name: a test id, the action it
  // runs, its icon's name (data-icon, an SVG sprite's symbol, an icon font's class), its id or
  // first class made of words ("page-search__search-button", "menu_btn"; one that says which way
  // it goes before it: "qs-right"); "" when there is
  // none (generated ids and utility classes say nothing, nor does the page itself).
  const wordy = /^(?=.{4,40}$)[a-z]+(?:[-_:.]+[a-z]+|[A-Z][a-z]+)+$/;
  const way = /(^|[-_:.])(next|prev|previous|left|right|forward|back|backward)([-_:.]|$)/i;
  const iconClass = /^(?:fa[srlbdk]?|bi|icon|icons|glyphicon|mdi|ti|ion|octicon|lucide|feather|gg|ri|la|las|bx|bxs)-([a-z][a-z-]{1,30})$/;
  const generic = /^(?:btn|button|icon|js|ui|is|has|c|o|u|l)$/;
  function codeName(el) {
    if (el.nodeType !== 1 || el === document.body || el === document.documentElement) return "";
    for (const a of ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy", "data-action", "data-icon"]) {
      const v = el.getAttribute(a);
      if (v && /[a-z]{3}/i.test(v)) return clean(v, 40);
    }
    const icon = el.querySelector("[data-icon], use, i[class], span[class], svg[class]");
    if (icon) {
      const v = icon.getAttribute("data-icon") || (icon.localName === "use" ? (icon.getAttribute("href") || icon.getAttribute("xlink:href") || "").split("#")[1] : "");
      if (v && /[a-z]{3}/i.test(v)) return clean(v, 40);
      for (const c of icon.classList || []) {
        const m = iconClass.exec(c);
        if (m && !generic.test(m[1])) return m[1];
      }
    }
    if (wordy.test(el.id)) return el.id;
    // (Of its classes, the one that says which way it goes before one its siblings share:
    // js-datepicker's arrows are "qs-arrow qs-left" and "qs-arrow qs-right".)
    let first = "";
    for (const c of el.classList) {
      if (!wordy.test(c)) continue;
      if (way.test(c)) return c;
      first ||= c;
    }
    return first;
  }
  // shortHref is where a link leads, as short as it is clear: its path on this site, its
  // whole address on another, at most 100 characters.
  function shortHref(h) {
    let u;
    try {
      u = new URL(h);
    } catch {
      return clean(h, 100);
    }
    if (u.protocol === "javascript:") return "javascript:…";
    return clean(u.origin === location.origin ? u.pathname + u.search + u.hash : u.href, 100);
  }
  // scrollRoom is how far a box the page scrolls inside (a list of channels, a pane of
  // messages, the terms in a dialog: what a person scrolls with the wheel over it; a strip of
  // cards, a wide table: what they scroll sideways) can scroll each way it scrolls, in screens
  // of its own to a tenth; null for one that does not. The page's own scrolling is said in the
  // snapshot's head; a field scrolls its own text, and code scrolls what the snapshot already
  // holds whole.
  function scrollRoom(el) {
    if (el === document.scrollingElement || el === document.documentElement || /^(textarea|select|pre|code)$/.test(el.localName)) return null;
    const t = (n, of) => Math.round((Math.max(0, n) / of) * 10) / 10;
    let room = null;
    const h = el.clientHeight;
    if (scrolls(el, false) && h >= 40 && el.scrollHeight >= h + 8) room = { u: t(el.scrollTop, h), d: t(el.scrollHeight - h - el.scrollTop, h) };
    const w = el.clientWidth;
    if (scrolls(el, true) && w >= 40 && el.scrollWidth >= w + 8) {
      // A box that reads right to left counts its scrollLeft from 0 down.
      const x = Math.abs(el.scrollLeft);
      const back = t(x, w), on = t(el.scrollWidth - w - x, w);
      const rtl = style(el).direction === "rtl";
      room = { ...room, l: rtl ? on : back, r: rtl ? back : on };
    }
    return room;
  }
  // scrolls says whether el is a box that scrolls what it holds up and down (across: sideways).
  function scrolls(el, across) {
    const s = style(el);
    return across ? /^(auto|scroll|overlay)$/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 2 : /^(auto|scroll|overlay)$/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 2;
  }

  // ---- finding the element an action targets ----
  function resolve(t) {
    if (t.ref) {
      const was = refs.byRef.get(t.ref)?.deref();
      const el = byRef(t.ref);
      if (!el) return { error: `there is no element ${t.ref} on the page any more (it was removed or the page changed); take a new snapshot` };
      return { el, redrawn: el !== was ? 1 : undefined };
    }
    if (t.selector) {
      let el;
      try {
        el = deepQuery(t.selector);
      } catch (e) {
        return { error: `the selector ${JSON.stringify(t.selector)} is not valid CSS (${e.message})` };
      }
      if (!el || ours(el)) return { error: `no element matches ${JSON.stringify(t.selector)}`, retry: 1 };
      return { el };
    }
    if (typeof t.x === "number" && typeof t.y === "number") {
      const el = deepFromPoint(t.x, t.y);
      if (el && ours(el)) return { error: `(${t.x}, ${t.y}) is on Skiff's own chat, which is not part of the page; close it or choose another point` };
      if (!el) return { error: `nothing is at (${t.x}, ${t.y}) in the viewport` };
      return { el, point: { x: t.x, y: t.y } };
    }
    return { error: "say which element: a ref from the snapshot, a CSS selector, or x and y" };
  }
  function deepQuery(sel) {
    const found = document.querySelector(sel);
    if (found) return found;
    for (const host of shadowHosts()) {
      const el = shadowOf(host).querySelector(sel);
      if (el) return el;
    }
    return null;
  }
  function deepFromPoint(x, y) {
    let el = document.elementFromPoint(x, y);
    for (let i = 0; el && i < 20; i++) {
      const root = shadowOf(el);
      const inner = root && root.elementFromPoint(x, y);
      if (root && (!inner || inner === el)) return slotAt(el, x, y) || el;
      if (!inner) break;
      el = inner;
    }
    return el;
  }
  // slotAt is the slot of host's shadow tree that draws the host's own text at (x, y) (a
  // button of a design system whose label is the text given to it: <sl-button>Save</sl-button>),
  // where the point is in the composed tree; the host's shadow tree reports the host itself.
  function slotAt(host, x, y) {
    for (const k of host.childNodes) {
      if (k.nodeType !== 3 || !k.assignedSlot) continue;
      const range = document.createRange();
      range.selectNodeContents(k);
      for (const b of range.getClientRects()) if (x >= b.left && x <= b.right && y >= b.top && y <= b.bottom) return k.assignedSlot;
    }
    return null;
  }

  const frame = () => new Promise((res) => {
    if (document.visibilityState === "hidden") return res(); // no frames, and nothing animates
    requestAnimationFrame(() => res());
    setTimeout(res, 100);
  });

  // locate runs the checks Playwright makes before acting: attached, visible, stable, enabled,
  // editable (for typing), and receives events at the action point. It scrolls the element
  // into view and returns the point to act at, in this frame's viewport.
  async function locate({ target, action, focus, from }) {
    fresh();
    const r0 = resolve(target);
    if (r0.error) return r0;
    let el = r0.el;
    const what = describe(el);
    if (!el.isConnected) return { error: `${what} is no longer attached to the page`, retry: 1 };
    // A field drawn see-through over the box that shows its value (react-select's search field
    // once a choice shows) is where a person clicks and types all the same, as Playwright holds:
    // whether it gets the events at its point is checked below.
    const why = hiddenUp(el);
    const seeThroughField = ((why === "opacity" || /^(invisible|opacity on an enclosing element)$/.test(why) && seeThrough(el)) && (el.isContentEditable || /^(input|textarea|select)$/.test(el.localName)) && !/^(checkbox|radio|file|hidden)$/.test(el.type || "")) || (why === "opacity" && hitsItself(el));
    if (why && !seeThroughField) {
      // The page hid the rest of itself from assistive tech while something is open over it
      // (a modal list, menu or dialog: Radix, Headless UI): a person sees the element, but
      // must close what is open first.
      const over = /^(aria-hidden|hidden)/.test(why) && !/display|visib|opacity/.test(why) ? openOver(el) : null;
      if (over) return { error: `${what} is behind ${describe(over)} [${refOf(over)}], which the page holds open over the rest: act in it, or close it first (press_key Escape)`, retry: 1, lasting: standing(over) ? 1 : undefined, what };
      // In a menu, a section or a popover that is closed: what opens it is said, at once (it
      // does not open by itself).
      const toggle = openerOf(el);
      if (toggle) return { error: `${what} is not visible: it is in a part of the page that ${describe(toggle)} [${refOf(toggle)}] opens, closed now; open it first`, retry: 1, lasting: 1, what };
      return { error: `${what} is not visible (${why})`, retry: 1, calm: calm(), what };
    }
    if (action !== "hover" && action !== "scroll" && action !== "drop" && disabled(controlOf(el))) {
      // A form's button the page enables once the form is complete (a sign-up's "Create
      // account"): what the form still wants is said, and said at once, since the page waits
      // for it.
      const want = wanting(controlOf(el));
      if (want.length) return { error: `${what} is disabled; its form still has fields to fill: ${want.join(", ")}`, retry: 1, lasting: 1, what };
      const why = disabledWhy(controlOf(el));
      return { error: why ? `${what} is disabled; the page says why: “${why}”` : `${what} is disabled`, retry: 1, calm: calm(), what };
    }
    // The page behind a dialog opened modal (showModal) is inert: no click, focus or key
    // reaches it until the dialog closes.
    const modal = action === "scroll" ? null : topModal();
    if (modal && !contains(modal, el) && !el.closest(":popover-open")) return { error: `${what} is behind ${describe(modal)} [${refOf(modal)}], a dialog open over the page: nothing behind it can be used until it closes; act in it, or close it first`, retry: 1, lasting: standing(modal) ? 1 : undefined, what };
    // A file field (or the label a site draws as its "Upload" button) opens the system's file
    // chooser, which would wait in front of the user with no one to answer it.
    if (action === "click" && controlOf(el).localName === "input" && controlOf(el).type === "file") return { error: `${what} opens a file chooser: to choose files for it, use upload_file on it`, what };
    if (action === "type") {
      const editable = el.isContentEditable || !!editorField(el) || ((el.localName === "input" || el.localName === "textarea") && !/^(checkbox|radio|submit|button|reset|image|file)$/.test(el.type));
      if (!editable && el.localName === "select") return { error: `${what} is a list to choose from, not a text field: choose one of its options with select_option`, what };
      if (!editable && /^(checkbox|radio)$/.test(el.type)) return { error: `${what} is not a text field: click it to check or uncheck it`, what };
      if (!editable) return { error: `${what} is not a text field; type needs an input, a textarea or an editable element`, what };
      const field = editorField(el) || el;
      if (field.readOnly && deepActive() !== field) {
        // Some pages keep a field read-only until it has the focus (to keep the browser's
        // autofill out of it): a person clicks it first, and it takes text.
        field.focus({ preventScroll: true });
      }
      if (field.readOnly) return { error: `${what} is read-only: a picker may fill it (click it and choose in what opens)`, retry: 1, lasting: 1, what };
    }
    if (!r0.point) {
      const r = boxOf(el);
      if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) bringIntoView(el, "center");
    }
    let box = boxOf(el);
    if (action === "click" || action === "hover") hiddenBefore = { el, set: hiddenControls(), at: Date.now() };
    if (action === "type") {
      // Nothing goes to a point: the text goes to the focused element, so its box need not
      // hold still first (waiting for that costs a frame). Focusing and choosing an option
      // still wait, for the check below that nothing covers the element.
      if (box.width < 1 || box.height < 1) return { error: `${what} has no size on screen`, retry: 1, calm: calm(), what };
      const out = { ok: 1, what, point: { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) }, viewport: { w: innerWidth, h: innerHeight } };
      // Asked to, it takes the focus for typing in the same call (see focusForTyping).
      return focus ? { ...focusForTyping({ target, clear: !!focus.clear }), ...out } : out;
    }
    // Stable: the same box on two consecutive frames.
    for (let i = 0; i < 10; i++) {
      await frame();
      const b = boxOf(el);
      if (b.x === box.x && b.y === box.y && b.width === box.width && b.height === box.height) break;
      box = b;
      if (i === 9) return { error: `${what} keeps moving (an animation?)`, retry: 1, what };
    }
    if (box.width < 1 || box.height < 1) return { error: `${what} has no size on screen`, retry: 1, calm: calm(), what };
    // Aim inside one of the element's own boxes (a link that wraps over two lines has two, and
    // the middle of the box around both may be neither), the largest that the element shows at.
    let point = r0.point;
    if (!point) {
      const rects = [...el.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth)
        .sort((a, b) => b.width * b.height - a.width * a.height);
      const candidates = [];
      for (const r of rects) {
        candidates.push({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
        // A label whose middle is a link (I accept the terms) is clicked beside it: at its
        // start, where sites draw their box, or further along.
        if (el.localName === "label") for (const f of [0, 0.25, 0.75]) candidates.push({ x: r.x + Math.max(2, r.width * f), y: r.y + r.height / 2 });
      }
      candidates.push({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
      point = candidates.find((p) => lands(el, p)) || uncovered(el, rects) || candidates[0];
    }
    if (r0.point && target.expect) {
      // A click at a point: the element there must still be the one the user allowed.
      const meant = byRef(target.expect);
      if (!meant || !contains(meant, el)) return { error: `the element at (${point.x}, ${point.y}) is now ${what}, not the one that was checked; take a new snapshot`, what };
    }
    // Where something is dropped, what is dragged may be on its way over it (a page that
    // draws it under the mouse): that does not cover it.
    const carried = action === "drop" && from ? resolve(from).el : null;
    if (carried) point = placeAim(carried, el, point);
    if (action !== "type" && action !== "scroll") {
      const hit = deepFromPoint(point.x, point.y);
      if (!hit) return { error: `${what} is outside the viewport`, retry: 1, what };
      if (!contains(el, hit) && !(el.localName === "label" && el.control && contains(el.control, hit)) && !(carried && contains(carried, hit)) && !ownPart(el, hit)) {
        let cover = hit;
        for (let x = hit; x && x.nodeType === 1; x = parentOf(x)) if (!contains(x, el) && x !== document.body) cover = x;
        // Under a bar that stays put while the page scrolls (a sticky header, a cookie strip at
        // the bottom), as a person sees it: they scroll the element out from under it. It is
        // brought to the middle of the view and looked at again; one the page cannot move from
        // under the bar is said to be covered.
        if (!r0.point && fixedBound(hit) && !fixedBound(el)) {
          const b = boxOf(el);
          if (Math.abs(b.top + b.height / 2 - innerHeight / 2) > innerHeight / 8) bringIntoView(el, "nearest");
        }
        const lasting = standing(cover, hit) || laidOver(cover, hit);
        // A picker a field typed into keeps open while the field has the focus (a date's
        // calendar, opened against the field's edge): a person leaves the field with Tab,
        // which keeps what was typed, where Escape undoes it in some (Ant Design's).
        const a = deepActive();
        let typed = "", held;
        if (a && a !== el && !contains(cover, a) && (a.localName === "textarea" || (a.localName === "input" && /^(text|search|email|tel|url|number|date|time|datetime-local|month|week)$/.test(a.type))) && a.value && !secret(a)) {
          const f = boxOf(a), c = boxOf(cover);
          const against = c.left < f.right && c.right > f.left && ((c.top >= f.bottom - 4 && c.top <= f.bottom + 40) || (c.bottom <= f.top + 4 && c.bottom >= f.top - 40));
          // (What the page marks as not valid, it may not keep either way.)
          if (against && a.getAttribute("aria-invalid") === "true") typed = ` (the focus is still in ${describe(a)}, whose typed value the page marks as not valid: it may want it written another way; Tab leaves the field as a person does)`;
          else if (against) [typed, held] = [` (the focus is still in ${describe(a)}, which holds what was typed: Tab leaves it as a person does and keeps it, where Escape may undo it)`, 1];
        } else if (a && a !== el && contains(cover, a) && !contains(a, hit) && (comboboxLike(a) || a.getAttribute("aria-expanded") === "true") &&
          hit.closest?.('[role="listbox"], [role="option"], [role="tree"], [role="treeitem"], [role="grid"], [role="menu"], [role^="menuitem"]')) {
          // A list its field keeps open while it has the focus, drawn in the box around the
          // field (Tom Select's, opening again after a choice): the same. (Not a dialog
          // around the field, which leaving it does not close.)
          [typed, held] = [` (the focus is still in ${describe(a)}, whose list stays open while it has it: Tab leaves it as a person does and keeps its choice, where Escape may undo it)`, 1];
        }
        return { error: `${what} is covered by ${describe(cover)} at the point where it would be clicked; close or move that first${typed}`, retry: 1, lasting: lasting ? 1 : undefined, calm: lasting ? undefined : calm(), what, held };
      }
    }
    return { ok: 1, what, point: { x: Math.round(point.x), y: Math.round(point.y) }, viewport: { w: innerWidth, h: innerHeight }, hidden: document.visibilityState === "hidden" ? 1 : undefined, scroll: carried ? { x: scrollX, y: scrollY } : undefined };
  }
  // ownPart says whether hit, over el where el would be clicked, is a part of el's own control
  // as a person sees it, which a click on reaches what el's does: the label for el, or, over a
  // field, a part that is no control in the box about the field that shows the pointer and
  // holds no other control (Element Plus draws its select's placeholder over its field, in the
  // box whose click opens its list). Not over a button: a banner laid over one takes its click.
  function ownPart(el, hit) {
    for (let x = hit; x && x.nodeType === 1; x = parentOf(x)) if (x.localName === "label" && x.control === el) return true;
    if (!/^(input|textarea|select)$/.test(el.localName) && !/^(textbox|combobox|searchbox|spinbutton)$/.test(roleOf(el))) return false;
    let box = parentOf(el);
    for (let i = 0; box && box.nodeType === 1 && i < 3 && box !== document.body; i++, box = parentOf(box)) {
      if (!contains(box, hit)) continue;
      if (style(box).cursor !== "pointer") return false;
      for (let x = hit; x && x !== box; x = parentOf(x)) if (isInteractive(x, roleOf(x))) return false;
      return !deepAll(box, "*").some((o) => o !== el && !contains(el, o) && !contains(o, el) && interactiveRoles.has(roleOf(o)) && !unseen(o));
    }
    return false;
  }
  // scrolled is where the page is scrolled to, for a drag to follow the page when it scrolls
  // under the mouse (a page grown shorter as the dragged element left its flow, scrolled back
  // to its end): the point it aims at moves with it. (Not the target's own move: a list that
  // makes room for what is dragged moves the target on purpose.)
  function scrolled() {
    return { ok: 1, x: scrollX, y: scrollY };
  }
  // settling says whether the page is moving things (an animation or transition that ends): a
  // list making room for what is dragged over it, which pages sort by once it has.
  function settling() {
    return { ok: 1, moving: document.getAnimations().some(ending) ? 1 : 0 };
  }
  // placeAim is where to let go of carried over el. Dropped on one of its kind (an item of its
  // list, a card of another column), it takes that one's place, as a person drops it: past the
  // middle of the item in the way it moves along its own list (the last quarter), before the
  // item in another list (the first quarter); sorting libraries decide by which side of the
  // middle the pointer is. Anything else (a column, a bin) is dropped in its middle.
  function placeAim(carried, el, point) {
    const same = parentOf(carried) === parentOf(el);
    if (!same && !(carried.localName === el.localName && roleOf(carried) === roleOf(el))) return point;
    const a = boxOf(carried), b = boxOf(el);
    const dx = b.x + b.width / 2 - (a.x + a.width / 2), dy = b.y + b.height / 2 - (a.y + a.height / 2);
    let p = { ...point };
    if (same && Math.abs(dx) > Math.abs(dy)) p.x = b.x + b.width * (dx > 0 ? 0.75 : 0.25);
    else p.y = b.y + b.height * (same && dy > 0 ? 0.75 : 0.25);
    p = { x: Math.round(p.x), y: Math.round(p.y) };
    return p.y > 0 && p.y < innerHeight && p.x > 0 && p.x < innerWidth && lands(el, p) ? p : point;
  }
  // boxOf is where el shows: its own box, or, when it has none, the largest box of what is in
  // it (a link around a floated logo has an empty box of its own; display: contents has none).
  function boxOf(el) {
    const b = el.getBoundingClientRect();
    if (b.width >= 1 && b.height >= 1) return b;
    let best = null;
    let n = 0;
    for (const d of el.querySelectorAll("*")) {
      if (++n > 200) break;
      const r = d.getBoundingClientRect();
      if (r.width >= 1 && r.height >= 1 && (!best || r.width * r.height > best.width * best.height) && !hiddenReason(d)) best = r;
    }
    return best || b;
  }
  // lands says whether a click at p (in this frame's viewport) reaches el: what is there is el,
  // inside it, or the control of the label el is.
  // A press on a link or a button inside a label goes to that, not to the label's control; a
  // press anywhere on a label goes to its control.
  // uncovered is a point where el shows when its middle is under something else (a neighbour
  // laid over its end, a badge over its middle): where a person clicks, on what they see of it.
  // Its words first, then a grid over its boxes; null when nothing of it shows, or when 20 ms
  // of looking found nothing (a long covered element has thousands of word boxes; the caller
  // aims again while its time lasts).
  function uncovered(el, rects) {
    const inView = (r) => r.width >= 1 && r.height >= 1 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
    const until = performance.now() + 20;
    const range = document.createRange();
    range.selectNodeContents(el);
    const words = [...range.getClientRects()].filter(inView);
    for (const r of words) {
      const p = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      if (lands(el, p)) return p;
      if (performance.now() > until) return null;
    }
    for (const r of [...words, ...rects].slice(0, 12)) {
      if (performance.now() > until) return null;
      for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
          const p = { x: Math.min(r.right - 1, Math.max(r.left + 1, r.x + r.width * fx)), y: Math.min(r.bottom - 1, Math.max(r.top + 1, r.y + r.height * fy)) };
          if (p.x < 0 || p.y < 0 || p.x >= innerWidth || p.y >= innerHeight) continue;
          if (lands(el, p)) return p;
        }
      }
    }
    return null;
  }
  function lands(el, p) {
    const hit = deepFromPoint(p.x, p.y);
    if (!hit) return false;
    if (el.localName === "label") {
      const other = hit.closest && hit.closest(inLabel);
      if (other && other !== el.control && contains(el, other)) return false;
      return contains(el, hit) || (!!el.control && contains(el.control, hit));
    }
    return contains(el, hit) || labelFor(el, hit);
  }
  const inLabel = "a[href], button, select, textarea, summary, input, [role=button], [role=link]";
  // labelFor says whether hit is in a label of el (a box the site draws over its checkbox).
  function labelFor(el, hit) {
    const l = hit.closest && hit.closest("label");
    return !!l && l.control === el && !(hit.closest(inLabel) && contains(l, hit.closest(inLabel)) && hit.closest(inLabel) !== el);
  }
  // armClick is called just before a click is sent at point: it checks that the element is
  // still what is there (or says what is), and listens for the press to reach it.
  const armed = new Map();
  function armClick({ target, point, kind, was }) {
    let r = resolve(target);
    let redrawn = r.redrawn;
    if (r.error && target.ref && point && was) {
      // A page that draws the element again as the mouse comes over it (a framework
      // re-rendering on hover): the element at the point that is what was aimed at (the same
      // role and name) stands for it, and takes its ref.
      for (let x = deepFromPoint(point.x, point.y); x && x.nodeType === 1; x = parentOf(x)) {
        if (describe(x) !== was) continue;
        refs.byRef.set(target.ref, new WeakRef(x));
        if (!refs.byEl.has(x)) refs.byEl.set(x, target.ref);
        r = { el: x };
        redrawn = 1;
        break;
      }
    }
    if (r.error) return r;
    const el = r.el;
    if (point && !lands(el, point)) {
      const hit = deepFromPoint(point.x, point.y);
      if (!hit || !ownPart(el, hit)) return { error: `${describe(el)} is no longer at the point it was found at (${hit ? describe(hit) : "nothing"} is there now)`, retry: 1 };
    }
    const token = Math.random().toString(36).slice(2);
    const state = { hit: false, on: "" };
    // The pointer event and the mouse event both: a page that opens its list on pointerdown
    // and cancels it (Radix's Select and menus) gets no mousedown at all.
    const types = kind === "hover" ? ["pointermove", "mousemove"] : ["pointerdown", "mousedown"];
    const listen = (e) => {
      const path = e.composedPath ? e.composedPath() : [e.target];
      if (path.includes(el) || path.includes(controlOf(el)) || path.some((x) => x.localName === "label" && x.control === el) || (e.target?.nodeType === 1 && ownPart(el, e.target))) state.hit = true;
      else if (!state.on && e.target && e.target.nodeType === 1) state.on = describe(e.target);
    };
    for (const type of types) addEventListener(type, listen, { capture: true });
    // On the element too: a press inside a closed shadow root reaches the window retargeted
    // to its host, where it cannot be told from a press elsewhere on the host.
    const mine = () => (state.hit = true);
    for (const type of types) el.addEventListener(type, mine, { capture: true });
    const stop = () => {
      for (const type of types) removeEventListener(type, listen, { capture: true }), el.removeEventListener(type, mine, { capture: true });
    };
    armed.set(token, { state, el, stop });
    setTimeout(() => armed.has(token) && (armed.get(token).stop(), armed.delete(token)), 10000);
    // What the page says back to the click is heard from here (saidSince, after it).
    return { ok: 1, token, redrawn, state: kind === "hover" ? undefined : stateOf(el), listen: noteSaid({ reveal: 1, hover: kind === "hover" }, el).token };
  }
  // stateOf is what a click may change on el that a person sees: whether it is checked,
  // pressed, expanded (a label's, its control's); undefined when it has none of these.
  function stateOf(el) {
    const c = controlOf(el);
    const s = {};
    const tri = (v) => (v === "mixed" ? 2 : v === "true" ? 1 : 0);
    if (c.localName === "input" && /^(checkbox|radio)$/.test(c.type)) s.checked = c.indeterminate ? 2 : c.checked ? 1 : 0;
    else if (c.hasAttribute("aria-checked")) s.checked = tri(c.getAttribute("aria-checked"));
    if (c.hasAttribute("aria-pressed")) s.pressed = tri(c.getAttribute("aria-pressed"));
    if (c.hasAttribute("aria-expanded")) s.expanded = tri(c.getAttribute("aria-expanded"));
    else if (c.localName === "summary" && c.parentElement && c.parentElement.localName === "details") s.expanded = c.parentElement.open ? 1 : 0;
    if (c.hasAttribute("aria-selected") && /^(tab|option|treeitem|gridcell|row)$/.test(roleOf(c))) s.selected = tri(c.getAttribute("aria-selected"));
    // A column header a click sorts by (the header, or the button in it).
    const th = c.closest && c.closest('[aria-sort], th, [role="columnheader"]');
    if (th && (th === c || contains(th, c))) s.sort = { ascending: 1, descending: 2, other: 3 }[th.getAttribute("aria-sort")] || 0;
    if (th && !th.hasAttribute("aria-sort") && !c.hasAttribute("aria-sort")) delete s.sort;
    if (s.checked !== undefined && roleOf(el) === "switch") s.switch = 1; // on or off
    return Object.keys(s).length ? s : undefined;
  }
  // stateFor is stateOf the target, read again a moment after a click.
  function stateFor({ target }) {
    const r = resolve(target);
    if (r.error) return r;
    return { ok: 1, ...(stateOf(r.el) || {}) };
  }
  // clicked says whether the press armClick listened for reached the element.
  function clicked({ token }) {
    const a = armed.get(token);
    if (!a) return { ok: 1, hit: false, on: "", gone: 1 };
    a.stop();
    armed.delete(token);
    return { ok: 1, hit: a.state.hit, on: a.state.on, state: a.el.isConnected ? stateOf(a.el) : undefined };
  }

  // ---- dragging ----
  // armDrag is called just before the button goes down on what is dragged (target), to be
  // dropped on to: it checks the element is still at the point, notes where it is (its list,
  // its place in it), and listens for what a drag sets off: the press reaching it, a drag the
  // browser starts (dragstart), a drop and where it lands. dragged says what came of it.
  const drags = new Map();
  // dragEnds resolves what a drag moves (target) and what it lets go over (to).
  function dragEnds(target, to) {
    const r = resolve(target);
    if (r.error) return r;
    const d = resolve(to);
    if (d.error) return d;
    return { el: r.el, dest: d.el };
  }
  function armDrag({ target, to, point }) {
    const ends = dragEnds(target, to);
    if (ends.error) return ends;
    const { el, dest } = ends;
    if (point && !lands(el, point)) {
      const hit = deepFromPoint(point.x, point.y);
      return { error: `${describe(el)} is no longer at the point it was found at (${hit ? describe(hit) : "nothing"} is there now)`, retry: 1 };
    }
    const token = Math.random().toString(36).slice(2);
    const st = { pressed: 0, on: "", started: 0, dropped: 0, onDest: 0, dropOn: "" };
    const inPath = (e, x) => (e.composedPath ? e.composedPath() : [e.target]).includes(x);
    const handlers = {
      pointerdown: (e) => (inPath(e, el) ? (st.pressed = 1) : !st.on && e.target?.nodeType === 1 && (st.on = describe(e.target))),
      mousedown: (e) => inPath(e, el) && (st.pressed = 1),
      dragstart: () => (st.started = 1),
      drop: (e) => {
        st.dropped = 1;
        if (inPath(e, dest)) st.onDest = 1;
        else if (e.target?.nodeType === 1) st.dropOn = describe(e.target);
      },
    };
    for (const [type, h] of Object.entries(handlers)) addEventListener(type, h, { capture: true });
    // On the element too: inside a closed shadow root the press reaches the window as its host's.
    const mine = () => (st.pressed = 1);
    el.addEventListener("pointerdown", mine, { capture: true });
    const stop = () => {
      for (const [type, h] of Object.entries(handlers)) removeEventListener(type, h, { capture: true });
      el.removeEventListener("pointerdown", mine, { capture: true });
    };
    // Where it is, and where each of the few elements around it is: what a page moves may be
    // what holds the element (the row of a grip).
    const was = [];
    for (let x = el, k = 0; x && x.nodeType === 1 && x !== document.body && k < 5; x = parentOf(x), k++) was.push({ el: x, ...placeOf(x) });
    const b = el.getBoundingClientRect();
    drags.set(token, { st, el, dest, what: describe(el), destWhat: describe(dest), was, at: { x: b.x + scrollX, y: b.y + scrollY }, stop });
    setTimeout(() => drags.has(token) && (drags.get(token).stop(), drags.delete(token)), 20000);
    // What the page says back is heard as for a click; what moves afterwards (a card gliding
    // to its place) is waited for, the dragged element's own motion included. Not what it
    // shows afresh: that is mostly the element itself, in its new place.
    return { ok: 1, token, listen: noteSaid({}, dest).token };
  }
  // placeOf is where el is: its parent, its place among the siblings a person sees (not the
  // heading of a column drawn beside its cards), and the ones on either side.
  function placeOf(el) {
    const parent = parentOf(el);
    const heading = (x) => /^h[1-6]$/.test(x.localName) || x.getAttribute("role") === "heading";
    const sibs = parent && parent.children.length <= 1000 ? [...parent.children].filter((x) => x === el || (!hiddenReason(x) && !(heading(x) && !heading(el)))) : [el];
    const i = sibs.indexOf(el);
    return { parent, index: i, count: sibs.length, prev: sibs[i - 1], next: sibs[i + 1] };
  }
  // placeName is the part of the page that holds el, in words: the nearest container the page
  // named, or the heading over it nearest before it ("the part headed “Done”"); "" when none.
  function placeName(el) {
    let n = 0;
    for (let x = parentOf(el); x && x.nodeType === 1 && n < 8; x = parentOf(x), n++) {
      const role = roleOf(x);
      if (role && (x.hasAttribute("aria-label") || x.hasAttribute("aria-labelledby")) && nameOf(x, role)) return describe(x);
      let near = null;
      for (const h of x.querySelectorAll(':scope > :is(h1, h2, h3, h4, h5, h6, [role=heading]), :scope > header :is(h1, h2, h3, h4, h5, h6)')) {
        if (!contains(h, el) && h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && !hiddenReason(h)) near = h;
      }
      if (near) return `the part headed “${clean(visibleText(near, 60), 60)}”`;
      if (x === document.body) break;
    }
    return "";
  }
  // dragged says what the drag armDrag listened for did: whether the press reached the
  // element, whether the page took a drop on the target, and where the element is now (the
  // same element, or one with its words where the page drew it again).
  function dragged({ token }) {
    const a = drags.get(token);
    if (!a) return { ok: 1, gone: 1 };
    a.stop();
    drags.delete(token);
    let el = a.el.isConnected && !hiddenReason(a.el) ? a.el : null;
    if (!el) {
      let n = 0;
      for (const root of [a.dest, document]) {
        if (!root.isConnected && root !== document) continue;
        for (const x of root.querySelectorAll(a.el.localName)) {
          if (++n > 3000) break;
          if (x !== a.el && describe(x) === a.what && !hiddenReason(x)) {
            el = x;
            break;
          }
        }
        if (el) break;
      }
    }
    const out = { ok: 1, pressed: a.st.pressed, on: a.st.on, started: a.st.started, dropped: a.st.dropped, onDest: a.st.onDest, dropOn: a.st.dropOn };
    if (!el) return { ...out, gone: 1 };
    // What moved: the element, or the nearest of what holds it that left its place.
    let was = a.was[0];
    let now = placeOf(el);
    if (el === a.el && now.parent === was.parent && now.index === was.index) {
      for (const w of a.was.slice(1)) {
        if (!w.el.isConnected) break;
        const p = placeOf(w.el);
        if (p.parent !== w.parent || p.index !== w.index) {
          was = w, now = p, out.unit = describe(w.el);
          break;
        }
      }
    }
    const unit = out.unit ? was.el : el;
    out.wasIndex = was.index + 1;
    out.index = now.index + 1;
    out.count = now.count;
    if (now.prev) out.after = describe(now.prev);
    else if (now.next) out.before = describe(now.next);
    if (now.parent !== was.parent) out.moved = 1, out.into = contains(a.dest, unit) && a.dest !== unit ? a.destWhat : placeName(unit) || (now.parent ? describe(now.parent) : "");
    else if (now.index !== was.index) out.reordered = 1;
    else if (el === a.el) {
      // Moved on the page but not in it (a box a page positions where it is let go).
      const b = el.getBoundingClientRect();
      if (Math.abs(b.x + scrollX - a.at.x) + Math.abs(b.y + scrollY - a.at.y) > 4) {
        out.shifted = 1;
        const d = a.dest.isConnected ? a.dest.getBoundingClientRect() : null;
        const c = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
        if (d && c.x >= d.left && c.x <= d.right && c.y >= d.top && c.y <= d.bottom) out.over = 1;
      }
    }
    return out;
  }
  // domDrag is a drag made of DOM events, where the debugger is not available: a pointer and
  // mouse press, moves and release for pages that follow the mouse, and the browser's drag
  // events (with data) for draggable elements.
  async function domDrag({ target, to, point }) {
    const ends = dragEnds(target, to);
    if (ends.error) return ends;
    const { el, dest } = ends;
    const b = boxOf(dest);
    const p1 = point;
    const p2 = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    mouse(el, "pointerdown", p1, { buttons: 1 });
    mouse(el, "mousedown", p1, { buttons: 1 });
    const dt = new DataTransfer();
    const drag = (x, type) => x.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: p2.x, clientY: p2.y, dataTransfer: dt }));
    const native = el.closest && el.closest("[draggable=true]");
    const started = native && drag(native, "dragstart");
    for (let i = 1; i <= 8; i++) {
      const p = { x: p1.x + ((p2.x - p1.x) * i) / 8, y: p1.y + ((p2.y - p1.y) * i) / 8 };
      const at = deepFromPoint(p.x, p.y) || document.documentElement;
      mouse(at, "pointermove", p, { buttons: 1 });
      mouse(at, "mousemove", p, { buttons: 1 });
      await frame();
    }
    const at = deepFromPoint(p2.x, p2.y) || dest;
    if (started) {
      drag(at, "dragenter");
      const taken = !drag(at, "dragover"); // a target that takes drops cancels dragover
      if (taken) drag(at, "drop");
      drag(native, "dragend");
    }
    mouse(at, "pointerup", p2);
    mouse(at, "mouseup", p2);
    return { ok: 1 };
  }

  // ---- what the page says back to an action ----
  // A click on Submit that only shows "Please enter a valid email address", a browser that
  // refuses to send a form with a required field empty, a button that opens a dialog: the
  // action happened, and what it led to is only on the page. noteSaid notes what the page is
  // saying before an action (its alerts, status messages, open dialogs, fields marked
  // invalid) and hears the fields a form is stopped on; saidSince says what is new after it.
  const voiceSel = '[role=alert],[role=alertdialog],[role=status],[aria-live]:not([aria-live="off"]),output,[role=dialog],dialog,[aria-modal="true"],[aria-invalid="true"]';
  const isDialog = (el) => el.localName === "dialog" || /^(dialog|alertdialog)$/.test(roleOf(el)) || el.getAttribute("aria-modal") === "true";
  function voices(roots = shadowRoots(document)) {
    const out = new Map();
    for (const root of [document, ...roots]) {
      for (const el of root.querySelectorAll(voiceSel)) {
        if (out.size >= 60) break;
        if (!unseen(el)) out.set(el, el.getAttribute("aria-invalid") === "true" ? "" : visibleText(el, 300));
      }
    }
    return out;
  }
  // shadowRoots is the shadow roots of the custom elements under root, and theirs in turn
  // (bounded): where a web component keeps its dialog, its alerts and its live regions.
  function shadowRoots(root, out = []) {
    for (const el of root.querySelectorAll("*")) {
      if (out.length >= 200) break;
      if (el.localName.includes("-")) hostRoots(el, out, false);
    }
    return out;
  }
  // hostRoots is el's shadow root and those under it (with those of el's descendants when
  // deep): where an element the page added keeps what it says.
  function hostRoots(el, out = [], deep = true) {
    const r = el.localName.includes("-") && shadowOf(el);
    if (r) out.push(r), shadowRoots(r, out);
    if (deep) shadowRoots(el, out);
    return out;
  }
  const noting = new Map();
  // restless is where the page changed its text by itself, with when: what changed while no
  // action was watched (a ticker, a "12 people are looking" count). A number that moves there
  // during an action moved by itself, not because of it.
  const restless = new WeakMap();
  new MutationObserver((records) => {
    if (noting.size) return;
    const now = Date.now();
    for (const r of records) {
      const at = r.type === "characterData" ? r.target.parentNode : r.target;
      if (at) restless.set(at, now);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
  // What shows that the page is still working on an action: a spinner (an endless animation),
  // a progress bar, a region marked busy, or the pressed button disabled and saying "Saving…".
  const progressSel = "[role=progressbar],progress";
  const endless = () => new Set(document.getAnimations().filter((a) => a.playState === "running" && a.effect?.getComputedTiming?.().iterations === Infinity));
  function noteSaid({ target, reveal, hover } = {}, pressed) {
    const el = pressed || (target && resolve(target).el) || document.activeElement;
    // The controls hidden now, for a click or a hover that shows them (a menu the mouse opens,
    // a panel a button unfolds): they were there all along, so no addition says them.
    const hiddenCtl = reveal ? (hiddenBefore && hiddenBefore.el === el && Date.now() - hiddenBefore.at < 5000 ? hiddenBefore.set : hiddenControls()) : null;
    hiddenBefore = null;
    const form = el && (el.form || el.closest?.("form"));
    const watched = [el, ...(form ? form.querySelectorAll("button:not([type]),button[type=submit],input[type=submit]") : [])].filter((x) => x && x.nodeType === 1).slice(0, 6);
    const busyBefore = new Set(document.querySelectorAll('[aria-busy="true"]'));
    // What the pressed element is called before the action: a tooltip the mouse brings up
    // that only says that is not news ("Follow" that then reads "Following" is).
    const names = el && el.nodeType === 1 ? [nameOf(el, roleOf(el)), el.getAttribute("title"), el.getAttribute("aria-label")].map((s) => clean(s, 200).toLowerCase()).filter(Boolean) : [];
    const spinning = endless();
    const token = Math.random().toString(36).slice(2);
    const refused = [];
    const on = (e) => refused.length < 5 && e.target && e.target.nodeType === 1 && refused.push(e.target);
    addEventListener("invalid", on, { capture: true });
    const stop = () => removeEventListener("invalid", on, { capture: true });
    // What the page adds or rewrites meanwhile: an error shown in a plain block, a button that
    // now reads "Saved", a list that grew. What it takes away is kept too, so that content
    // drawn again as it was is not news.
    const added = [];
    const removed = [];
    const mo = new MutationObserver((records) => {
      for (const r of records) {
        // What was taken away is kept with where it was, to tell a number that moved on once
        // (a basket's count) from one that keeps moving (a clock).
        if (r.type === "characterData") {
          if (removed.length < 300) removed.push({ text: r.oldValue || "", at: r.target.parentNode });
          if (added.length < 300) added.push(r.target);
          continue;
        }
        for (const x of r.removedNodes) if (removed.length < 300) removed.push({ text: (x.textContent || "").slice(0, 4000), at: r.target, node: x });
        for (const x of r.addedNodes) if (added.length < 300) added.push(x);
      }
    });
    // (In the shadow trees of the page's custom elements too: a web component's "Saved".)
    const roots = shadowRoots(document);
    for (const r of [document.documentElement, ...roots]) mo.observe(r, { childList: true, subtree: true, characterData: true, characterDataOldValue: true });
    const stopAll = () => (stop(), mo.disconnect());
    const before = voices(roots);
    // What the fields hold, for an action that fills some other than the one acted on (a
    // date picker's day, "Same as delivery address", an address chosen from suggestions).
    const values = new Map();
    for (const f of document.querySelectorAll(valueSel)) {
      if (values.size >= 400) break;
      values.set(f, f.value);
    }
    const open = new Map(); // the dialogs showing, by what they are called: one may close
    for (const el of before.keys()) if (isDialog(el)) open.set(el, describe(el));
    noting.set(token, { before, open, refused, stop: stopAll, added, removed, watched, busyBefore, spinning, names, hiddenCtl, tips: !hover, t0: document.timeline.currentTime || 0, values, roots });
    setTimeout(() => noting.has(token) && (stopAll(), noting.delete(token)), 15000);
    return { ok: 1, token };
  }
  // The fields that hold a value a person reads: text of any kind, a number, a date, a list.
  const valueSel = "input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=reset]):not([type=image]):not([type=file]):not([type=range]),textarea,select";
  // filledSince is the fields the action changed the value of, other than the one acted on
  // (said with what they hold now; a secret's value is not).
  function filledSince(l, dialogs) {
    const out = [];
    const acted = l.watched[0] === document.body || l.watched[0] === document.documentElement ? null : l.watched[0]; // (the focus nowhere)
    for (const [f, v] of l.values) {
      if (out.length >= 4) break;
      if (!f.isConnected || f.value === v || (acted && (f === acted || contains(acted, f) || (acted.control && acted.control === f))) || dialogs.some((d) => d.contains(f)) || unseen(f)) continue;
      const kind = secret(f);
      out.push({ what: describe(f), ref: refOf(f), value: kind ? "" : clean(f.localName === "select" ? [...f.selectedOptions].map((o) => o.text).join(", ") : f.value, 100), secret: kind ? 1 : 0 });
    }
    return out;
  }
  // hiddenControls is the set of controls on the page that are not rendered now (bounded).
  const ctlSel = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=link],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=tab],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem]';
  // hiddenBefore is what was hidden when the element about to be clicked or hovered was found,
  // before the mouse moved there (a menu the stylesheet shows on hover is open by the time the
  // press is armed).
  let hiddenBefore = null;
  // eyeHides says whether why, the reason hiddenReason gives for el, keeps el from a person's
  // eyes, not only from assistive tech (aria-hidden, inert).
  const eyeHides = (el, why) => !!why && why !== "aria-hidden" && !(why === "hidden" && !el.hidden);
  // hiddenToEye says whether something around el, or el, keeps it from a person's eyes.
  function hiddenToEye(el) {
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) if (eyeHides(x, hiddenReason(x))) return true;
    return false;
  }
  function hiddenControls() {
    const out = new Set();
    if (!Element.prototype.checkVisibility) return out;
    let n = 0;
    // Reading where each control is costs more than asking whether it is drawn: on a long page
    // (thousands of links) only the first ones drawn are judged by their place too. A count,
    // not a time: on a busy machine a time budget judged fewer, and what a click revealed
    // went unsaid.
    let placed = 0;
    for (const el of document.querySelectorAll(ctlSel)) {
      if (++n > 5000) break;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
        // A checkbox drawn by a label a person sees is not hidden (what reads after the action
        // judges it so too).
        // (Drawn to the eye: one the page hid only from assistive tech, with the rest of the
        // page while a list is open over it, MUI's, is not hidden.)
        if (!(el.localName === "input" && /^(checkbox|radio|file)$/.test(el.type) && el.labels && [...el.labels].some((l) => l.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && !hiddenToEye(l)))) out.add(el);
        continue;
      }
      if (++placed > 600) continue;
      // Kept out of sight by its place or its size rather than by its style: pushed off the
      // page (left: -9999px), shrunk to nothing (a scale of 0), or cut away by a box that
      // hides its overflow (a max-height of 0 that a class or a hover lifts). Judged as what
      // is read after the action judges it, so that one seen both times is not news.
      // Drawn, only hidden from assistive tech (the page made the rest inert while a menu is
      // open over it) is not hidden: closing the menu reveals nothing.
      const why = hiddenReason(el);
      if (eyeHides(el, why)) out.add(el);
    }
    return out;
  }
  // shownSpinner says whether a person sees spinner t: not hidden, and not under what the page
  // painted over it (react-hot-toast keeps a loader turning under the check mark of every toast
  // that is done). The callers forget where things were once per look (the page moves on
  // between looks); the list of what covers is then read at most once per look, when a spinner
  // is there to judge.
  function shownSpinner(t) {
    return !unseen(t) && !coveredBy(t, t.getBoundingClientRect());
  }
  // spinner says whether an endless animation is a page's "working" sign: it turns, or it (or
  // what holds it) is called a spinner, a loader, busy or progress.
  function spinner(a, t) {
    try {
      if (a.effect.getKeyframes().some((k) => /rotate/.test(k.transform || "") || (k.rotate && k.rotate !== "none"))) return true;
    } catch {}
    for (let x = t, i = 0; x && x.nodeType === 1 && i < 3; x = x.parentElement, i++) {
      if (/spin|load|busy|progress|wait|pending/i.test(`${x.getAttribute("class") || ""} ${x.id} ${x.getAttribute("aria-label") || ""}`)) return true;
    }
    return false;
  }
  // placeholders says whether endless animations (of anims) draw a skeleton of what is coming:
  // at least two blocks of some size that shimmer or pulse, called a skeleton, a shimmer, a
  // placeholder or a pulse (a single pulsing dot, a "live" badge, is not one).
  function placeholders(anims) {
    let n = 0;
    for (const a of anims) {
      const t = a.effect?.target;
      if (!t || t.nodeType !== 1) continue;
      let named = /skeleton|shimmer|placeholder|pulse/i.test(a.animationName || "");
      for (let x = t, i = 0; !named && x && x.nodeType === 1 && i < 3; x = x.parentElement, i++) named = /skeleton|shimmer|placeholder|pulse/i.test(`${x.getAttribute("class") || ""} ${x.id}`);
      if (!named || unseen(t)) continue;
      const r = t.getBoundingClientRect();
      if (r.width >= 24 && r.height >= 6 && ++n >= 2) return true;
    }
    return false;
  }
  // busyNow says how the page shows it is still working on the action noted by token ("" when
  // it does not): what it sends may be out of Skiff's sight (a cross-site frame's request, a
  // socket), while what it shows is not.
  async function busyNow({ token }) {
    const l = noting.get(token);
    if (!l) return { ok: 1 };
    covers = null; // asked again every 100 ms while the page changes (shownSpinner)
    for (const x of document.querySelectorAll('[aria-busy="true"]')) if (!l.busyBefore.has(x) && !unseen(x)) return { ok: 1, busy: `${describe(x)} is marked busy` };
    for (const x of l.watched) {
      const says = x.isConnected && disabled(x) ? clean(visibleText(x, 80) || x.value, 80) : "";
      if (/(…|\.\.\.)$/.test(says) && !unseen(x)) return { ok: 1, busy: `${describe(x)} says "${says}"` };
    }
    for (const x of new Set(l.added)) {
      if (x.nodeType !== 1 || !x.isConnected) continue;
      const p = x.matches(progressSel) ? x : x.querySelector(progressSel);
      if (p && !unseen(p)) return { ok: 1, busy: "it shows a progress bar" };
    }
    for (const a of endless()) {
      const t = a.effect?.target;
      // Not one the pointer set off on what was pressed (a button that pulses while hovered),
      // nor one that is not a spinner (a player's bars that move while it plays).
      if (!l.spinning.has(a) && t && t.nodeType === 1 && !(l.watched[0] && t.contains(l.watched[0])) && spinner(a, t) && shownSpinner(t)) return { ok: 1, busy: "it shows a spinner" };
    }
    if (placeholders([...endless()].filter((a) => !l.spinning.has(a)))) return { ok: 1, busy: "it shows placeholders where its content will be" };
    // A transition that has run its time is over for getAnimations at once, but its end event
    // is sent at the next frame, and a page may start the next part then (Bootstrap shows its
    // dialog once its backdrop has faded in). So when the last look saw motion and this one
    // sees none, it looks again after the page's next frames: on a busy machine the gap
    // between the two is long enough to read the page with the dialog not there yet.
    let now = moving(l);
    if (!now && l.moved) {
      await frame();
      await frame();
      now = moving(l);
    }
    l.moved = now;
    return { ok: 1, moving: now ? 1 : 0 };
  }
  // moving says whether something the action set moving still moves: a transition or an
  // animation that started since, ends within two seconds, and is not the pressed element's
  // own (a button that changes colour as it is pressed), nor of what holds it.
  function moving(l) {
    const pressed = l.watched[0];
    for (const a of document.getAnimations()) {
      if (!ending(a) || (a.startTime !== null && a.startTime < l.t0)) continue; // (no start time yet: it starts at the next frame)
      const el = a.effect.target;
      if (!el || el.nodeType !== 1 || !el.isConnected || (pressed && (el.contains(pressed) || pressed.contains(el)))) continue;
      return true;
    }
    return false;
  }
  // ending says whether animation a runs now and ends within two seconds (not one that loops
  // for ever: a spinner).
  function ending(a) {
    if (a.playState !== "running") return false;
    const t = a.effect?.getComputedTiming?.();
    return !!t && t.iterations !== Infinity && t.endTime - (t.localTime || 0) < 2000;
  }
  // loadingNow says how a page shows it is still loading what it will show ("" when it does
  // not): a region marked busy, a progress bar with no value yet, a spinner. A page that
  // fetches its content after its load shows one of these until it comes.
  function loadingNow() {
    covers = null; // (shownSpinner)
    for (const x of document.querySelectorAll('[aria-busy="true"]')) if (!unseen(x)) return { ok: 1, busy: `${describe(x)} is marked busy` };
    for (const x of document.querySelectorAll("progress:not([value]),[role=progressbar]:not([aria-valuenow])")) if (!unseen(x)) return { ok: 1, busy: "it shows a progress bar" };
    for (const a of endless()) {
      const t = a.effect?.target;
      if (t && t.nodeType === 1 && spinner(a, t) && shownSpinner(t)) return { ok: 1, busy: "it shows a spinner" };
    }
    if (placeholders(endless())) return { ok: 1, busy: "it shows placeholders where its content will be" };
    return { ok: 1, busy: "" };
  }
  // wordsOf is the text of the elements ids (an aria-describedby list) name.
  const wordsOf = (el, ids) => clean((ids || "").split(/\s+/).map((id) => id && el.getRootNode().getElementById?.(id)).filter(Boolean).map((x) => visibleText(x, 200)).join(" "), 200);
  // addedSince counts what the page added or rewrote since noteSaid gave token, without ending
  // the watch (an upload waits for the page to draw the files it read).
  function addedSince({ token }) {
    const l = noting.get(token);
    return { ok: 1, added: l ? l.added.length : -1 };
  }
  function saidSince({ token }) {
    const l = noting.get(token);
    if (!l) return { ok: 1 };
    l.stop();
    noting.delete(token);
    const out = { ok: 1, said: [], opened: [], closed: [], marked: [], refused: [] };
    const seen = new Set();
    for (const el of l.refused) {
      if (seen.has(el) || out.refused.length >= 3) continue;
      seen.add(el);
      out.refused.push({ what: describe(el), why: clean(el.validationMessage, 200) });
    }
    const dialogs = [];
    const spoke = [];
    // The shadow roots known before, and those of what the action added (walking the whole
    // page again costs 5 to 12 ms on one of 10,000 elements).
    const roots = [...l.roots];
    for (const x of new Set(l.added)) if (x.nodeType === 1 && x.isConnected) roots.push(...hostRoots(x));
    const now = voices([...new Set(roots)]);
    for (const [el, what] of l.open) if (!now.has(el) && out.closed.length < 2) out.closed.push(what);
    for (const [el, text] of now) {
      const before = l.before.get(el);
      if (before === text) continue;
      if (el.getAttribute("aria-invalid") === "true") {
        if (before === undefined && out.marked.length < 3) out.marked.push({ what: describe(el), why: wordsOf(el, el.getAttribute("aria-errormessage") || el.getAttribute("aria-describedby")) });
        continue;
      }
      if (isDialog(el)) {
        if (before === undefined && out.opened.length < 2) {
          out.opened.push({ what: describe(el), ref: refOf(el) });
          dialogs.push(el);
        }
        continue;
      }
      if (!text || dialogs.some((d) => d.contains(el))) continue;
      if (before && shape(before) === shape(text) && tellsTime(text)) continue; // a live clock moved on
      // A region that grew (a list of notices) says what it added.
      const news = before && text.startsWith(before) ? text.slice(before.length).trim() : text;
      if (news && out.said.length < 3 && !out.said.includes(news)) {
        out.said.push(clean(news, 200));
        spoke.push(el);
      }
    }
    // What a voice said, or a dialog that opened holds, is not said again as shown; a voice
    // that said nothing new may still have grown past what it is read for (a long log).
    const voiced = [...spoke, ...dialogs];
    Object.assign(out, shownSince(l.added, l.removed, voiced, out.said, l.names, l.tips));
    out.filled = filledSince(l, dialogs);
    if (l.hiddenCtl && l.hiddenCtl.size) {
      // Controls that were there, hidden, and show now (outside a dialog that opened, which is
      // said with its ref): a menu's items, a panel's buttons.
      const drawn = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && !unseen(el);
      // A checkbox drawn by its label (the input see-through or hidden: Klaro's switches) shows
      // when its label does, and is acted on there, as the snapshot has it.
      const standIn = (el) => (el.localName === "input" && /^(checkbox|radio|file)$/.test(el.type) && el.labels ? [...el.labels].find(drawn) : null);
      const shown = [...l.hiddenCtl].filter((el) => el.isConnected && !dialogs.some((d) => d.contains(el)) && (drawn(el) || standIn(el)));
      const outer = shown.filter((el) => !shown.some((o) => o !== el && o.contains(el)));
      if (outer.length) {
        out.revealed = outer.slice(0, 8).map((el) => ({ what: describe(el), ref: refOf(drawn(el) ? el : standIn(el)) }));
        out.revealedMore = outer.length - out.revealed.length;
      }
    }
    return out;
  }
  // shownSince is the visible text the page added or rewrote during an action, as the added
  // nodes still on the page hold it (those inside another added node are part of it): the
  // pieces, when they are short, or how much there is. Left out: what the voices already said
  // (or, for a dialog that opened, what the model can read in it), what was taken away as it
  // was (a list drawn again), a number that keeps moving by itself (a clock, a countdown), and
  // Skiff's own overlay, and what only names the element pressed (a tooltip the mouse brought
  // up), or is a tooltip (tips: for a click). A number that moved on once (a basket's count, a like) is the news an
  // "Add to basket" has: it is said with what it was.
  function shownSince(added, removed, voiced, said, names = [], tips = false) {
    const gone = new Set(removed.map((r) => clean(r.text, 4000)).filter(Boolean));
    const host = globalThis.__skiffOverlayHost;
    // A node taken out and put back elsewhere (a list sorted, a card moved) shows nothing new.
    const putBack = new Set(removed.map((r) => r.node).filter(Boolean));
    const nodes = [...new Set(added)].filter((x) => x.isConnected && !putBack.has(x));
    const top = nodes.filter((x) => !nodes.some((o) => o !== x && o.contains(x)));
    const pieces = [];
    for (const x of top) {
      const el = x.nodeType === 1 ? x : x.parentElement;
      if (!el || (host && host.contains(el)) || voiced.some((v) => v.contains(el))) continue;
      if (/^(script|style|noscript|template|head|title|meta|link)$/.test(el.localName)) continue;
      // A tooltip the mouse brought up on the way to a click is not what the click did (a
      // hover is asked for what it shows).
      if (tips && el.closest && el.closest('[role="tooltip"]')) continue;
      // (A text put in a box kept for screen readers only, as drag libraries announce a drop
      // in, is no more seen than the box is.)
      let text = x.nodeType === 3 ? (textVisible(x) && !unseen(el) ? clean(x.data, 4000) : "") : x.nodeType === 1 && !unseen(el) ? visibleText(x, 4000) : "";
      for (const w of said) text = text.replace(w, " ").trim(); // a voice inside it already said that
      if (!text || gone.has(text) || names.includes(text.toLowerCase())) continue;
      // A mark drawn alone (the ✓ of a checkbox drawn as a button, a radio's dot, a caret)
      // says nothing the state read back does not.
      if (text.length <= 2 && !/[\p{L}\p{N}]/u.test(text)) continue;
      const moved = text.length <= 40 && /\d/.test(text) ? numberMoved(x, text, removed) : "";
      if (moved === null) continue; // a number that keeps moving
      if (moved) {
        if (!pieces.some((p) => p.text === moved.now)) pieces.push({ text: moved.now, was: moved.was });
        continue;
      }
      for (const g of gone) {
        // Drawn again with more at one end (a list that grew): only the new part is news.
        if (g.length >= 20 && text.length > g.length && text.startsWith(g)) text = text.slice(g.length).trim();
        else if (g.length >= 20 && text.length > g.length && text.endsWith(g)) text = text.slice(0, -g.length).trim();
      }
      if (!text || pieces.some((p) => p.text === text)) continue;
      pieces.push({ text, was: "" });
    }
    const total = pieces.reduce((n, p) => n + p.text.length, 0);
    if (total > 300) return { shown: [], was: [], more: total };
    const some = pieces.slice(0, 4);
    return { shown: some.map((p) => clean(p.text, 200)), was: some.map((p) => p.was), more: 0 };
  }
  // A text that tells time moves on by itself: a clock, a countdown, "3 seconds ago".
  const tellsTime = (t) => /\d\s*:\s*\d\d|\bago\b|\d\s*(s|secs?|seconds?)\b/i.test(t);
  const shape = (t) => t.replace(/\d+/g, "#");
  // numberMoved judges a short text x now holds, in which only numbers differ from what was
  // taken away in the same place: null when it keeps moving (it changed there more than once
  // during the action, or by itself in the two minutes before it, or it tells time), else what
  // it shows now and was ("Basket (1)", "Basket (0)"; a bare number with the words around it).
  // "" when no number moved: a text like any other.
  function numberMoved(x, text, removed) {
    const same = removed.filter((r) => r.at === x.parentNode).map((r) => clean(r.text, 40)).filter((t) => t !== text && shape(t) === shape(text));
    if (!same.length) return "";
    if (same.length > 1 || Date.now() - (restless.get(x.parentNode) || 0) < 120000) return null;
    let now = text;
    let was = same[0];
    // A bare number ("1" in "Basket (1)") is said with the words around it.
    for (let p = x.parentElement, i = 0; p && i < 3 && !/\p{L}/u.test(now); p = p.parentElement, i++) {
      const around = visibleText(p, 100);
      if (around.length > 80) break;
      if (around.split(now).length === 2) was = around.replace(now, was);
      now = around;
    }
    return tellsTime(now) ? null : { now, was };
  }

  // humanCheck names the check a page shows that a person is there (a CAPTCHA a person solves:
  // reCAPTCHA's box, hCaptcha's, Cloudflare's Turnstile and its "Just a moment…" page), or "".
  // Only one a person sees counts: reCAPTCHA v3 and the invisible v2 show a badge, not a check.
  function humanCheck() {
    const shown = (el) => {
      if (unseen(el)) return false;
      const b = el.getBoundingClientRect();
      return b.width >= 40 && b.height >= 40;
    };
    const kinds = [
      ["reCAPTCHA", /^https:\/\/(www\.)?(google\.com|recaptcha\.net)\/recaptcha\/(api2|enterprise)\/(anchor|bframe)/, ".g-recaptcha"],
      ["hCaptcha", /^https:\/\/([a-z0-9-]+\.)?hcaptcha\.com\//, ".h-captcha"],
      ["Cloudflare's check", /^https:\/\/challenges\.cloudflare\.com\//, ".cf-turnstile, #challenge-form, #challenge-stage"],
    ];
    for (const [name, src, sel] of kinds) {
      for (const f of document.querySelectorAll("iframe[src]")) if (src.test(f.src) && !/[?&]size=invisible/.test(f.src) && shown(f)) return name;
      for (const el of document.querySelectorAll(sel)) if (shown(el)) return name;
    }
    return "";
  }
  // topModal is the dialog open modal (showModal) over the page, the last one opened on top,
  // or null. (A modal dialog inside a shadow root is not seen.)
  function topModal() {
    let m = null;
    for (const d of document.querySelectorAll("dialog[open]")) if (d.matches(":modal")) m = d;
    return m;
  }
  // controlsBehind counts the controls a modal dialog makes inert: the page's, less its own.
  function controlsBehind(modal) {
    const sel = "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [tabindex]:not([tabindex='-1'])";
    return Math.max(0, document.querySelectorAll(sel).length - modal.querySelectorAll(sel).length);
  }
  // openOver is a list, menu or dialog open over the page that el is not in (the last one in
  // the document, which a portal appends), or null.
  function openOver(el) {
    const open = [...document.querySelectorAll('[role=dialog], [role=alertdialog], [role=listbox], [role=menu], dialog[open]')].filter((x) => !contains(x, el) && !unseen(x));
    return open.at(-1) || null;
  }
  // unseen says whether a person cannot see el (or something around it hides it), position
  // included: what is read for the model (links, find) must pass it.
  function unseen(el) {
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) if (hiddenReason(x)) return true;
    return false;
  }
  // openerOf is the control a person uses to show el, hidden in a part of the page that is
  // closed: a button or link that says it controls that part and that it is collapsed
  // (aria-controls, aria-expanded="false"), a closed <details>' summary, a closed popover's
  // button (popovertarget). Only one the person can see and use now counts.
  function openerOf(el) {
    const usable = (c) => c && !hiddenUp(c) && !disabled(c);
    let up = 0;
    for (let x = el; x && x.nodeType === 1 && up < 40; x = parentOf(x), up++) {
      const sum = x.localName === "details" && !x.open ? x.querySelector(":scope > summary") : null;
      if (sum && !sum.contains(el) && usable(sum)) return sum;
      if (!x.id) continue;
      const id = CSS.escape(x.id);
      const root = x.getRootNode();
      const c = root.querySelector(`[aria-controls~="${id}"][aria-expanded="false"]`) || (x.hasAttribute("popover") && !x.matches(":popover-open") ? root.querySelector(`[popovertarget="${id}"]`) : null);
      if (usable(c)) return c;
    }
    return null;
  }
  function hiddenUp(el) {
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) {
      const why = hiddenReason(x);
      if (why && why !== "off-screen") return x === el ? why : why + " on an enclosing element";
    }
    return "";
  }

  // ---- acting with DOM events (when trusted input is not available) and the DOM-only actions ----
  function mouse(el, type, p, extra = {}) {
    const Ev = type.startsWith("pointer") ? PointerEvent : MouseEvent;
    el.dispatchEvent(new Ev(type, { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, view: window, button: 0, buttons: type.endsWith("down") ? 1 : 0, pointerType: "mouse", ...extra }));
  }
  function domClick({ target, point, count }) {
    const r = resolve(target);
    if (r.error) return r;
    const p = point || r.point;
    // The events go where a person's press would: to the innermost element at the point,
    // when it is part of the target (a drop-down whose list opens from a click on the list of
    // choices inside it, as Chosen's does), and the press focuses what it lands on.
    const hit = p ? deepFromPoint(p.x, p.y) : null;
    const el = hit && hit !== r.el && contains(r.el, hit) ? hit : r.el;
    const focusable = (x) => x.matches && x.matches("input, textarea, select, button, a[href], [tabindex], [contenteditable]:not([contenteditable=false])");
    let f = el;
    while (f && f !== r.el && !focusable(f)) f = parentOf(f);
    for (const t of ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]) mouse(el, t, p);
    for (let i = 1; i <= (count || 1); i++) {
      mouse(el, "pointerdown", p, { detail: i });
      mouse(el, "mousedown", p, { detail: i });
      if (f && f.focus) f.focus({ preventScroll: true });
      mouse(el, "pointerup", p, { detail: i });
      mouse(el, "mouseup", p, { detail: i });
      mouse(el, "click", p, { detail: i });
    }
    if ((count || 1) === 2) mouse(el, "dblclick", p, { detail: 2 });
    return { ok: 1 };
  }
  function domHover({ target, point }) {
    const r = resolve(target);
    if (r.error) return r;
    for (const t of ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]) mouse(r.el, t, point || r.point);
    return { ok: 1 };
  }
  // focusForTyping focuses a field and selects what it holds (so typed text replaces it).
  let typingIn = null; // the field typing goes to (typedOn)
  function focusForTyping({ target, clear }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    const ef = editorField(el);
    if (ef) {
      // A code editor: its field takes the keys; what it holds is chosen with the editor's
      // own Select all, a key the core presses (the field's selection is not the editor's).
      ef.focus({ preventScroll: true });
      typingIn = ef;
      const empty = !editorText(el, ef);
      return { ok: 1, focused: document.activeElement === ef, empty, editor: 1, selectAll: clear && !empty ? (/Mac/.test(navigator.platform) ? "Meta+A" : "Control+A") : undefined };
    }
    el.focus({ preventScroll: true });
    typingIn = el;
    if (clear) {
      if (typeof el.select === "function" && el.localName !== "select") el.select();
      else if (el.isContentEditable) {
        const range = document.createRange();
        range.selectNodeContents(el);
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
    } else if (el.isContentEditable) {
      const range = document.createRange(); // the caret at the end: typed text is added there
      range.selectNodeContents(el);
      range.collapse(false);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    } else if (typeof el.setSelectionRange === "function" && el.value !== undefined) {
      try {
        el.setSelectionRange(el.value.length, el.value.length);
      } catch {
        /* input types without a selection */
      }
    }
    const special = el.localName === "input" && pickers.has(el.type) ? el.type : "";
    return { ok: 1, focused: document.activeElement === el || contains(el, deepActive()), empty: !(el.value || el.textContent), special, maxLength: el.maxLength > 0 ? el.maxLength : undefined };
  }
  // pasteText gives lines of text to the code editor being typed into as a paste, which it
  // takes as written: typed, each new line would be indented again by the editor (Monaco,
  // CodeMirror). It says whether the editor took it (it handles the paste itself).
  function pasteText({ text }) {
    const el = typingIn;
    if (!el || !el.isConnected || document.activeElement !== el) return { ok: 1, taken: 0 };
    const data = new DataTransfer();
    data.setData("text/plain", text);
    const ev = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true, composed: true });
    el.dispatchEvent(ev);
    return { ok: 1, taken: ev.defaultPrevented ? 1 : 0 };
  }
  // typedOn says where typing stands once part of a text longer than its field takes went in:
  // what the field holds (a secret one: only its length), and the field the page moved the
  // focus on to, if it did (a code split into one box per digit), which the rest goes to (what
  // it held selected, as typing with clear does).
  function typedOn({ clear }) {
    const el = typingIn;
    if (!el || !el.isConnected) return { error: "the field typed into is no longer on the page" };
    const out = { ok: 1, what: describe(el), held: secret(el) ? undefined : el.value, length: (el.value || "").length };
    const a = deepActive();
    const field = a && a !== el && ((a.localName === "input" && !/^(checkbox|radio|submit|button|reset|image|file|hidden|range|color)$/.test(a.type) && !pickers.has(a.type)) || a.localName === "textarea") && !a.readOnly && !a.disabled;
    if (field) {
      typingIn = a;
      if (clear && typeof a.select === "function") a.select();
      out.next = { what: describe(a), maxLength: a.maxLength > 0 ? a.maxLength : undefined };
    }
    return out;
  }

  // ---- native pickers: date, time, month, week, colour, range ----
  // Their values are set as a person's choice in the picker sets them (the value, then input
  // and change), from what a person would write: ISO forms, the page's own locale order for
  // numeric dates (day first but in the US), month names, 12-hour times, colour names.
  const pickers = new Set(["date", "time", "datetime-local", "month", "week", "color", "range"]);
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  function dayFirst() {
    const lang = (document.documentElement.lang || navigator.language || "en-US").toLowerCase();
    return !/^en-(us|ph)$|^en$/.test(lang) || lang === "en-gb";
  }
  function parseDate(t) {
    t = t.trim();
    let m = /^(\d{4})[-/.] ?(\d{1,2})[-/.] ?(\d{1,2})\.?$/.exec(t); // (Korean's and Hungarian's "2027. 1. 5." too)
    if (m) return [+m[1], +m[2], +m[3]];
    m = /^(\d{1,2})[-/.] ?(\d{1,2})[-/.] ?(\d{2,4})\.?$/.exec(t); // (Croatian's "24. 11. 2026." too)
    if (m) {
      let [a, b, y] = [+m[1], +m[2], +m[3]];
      if (y < 100) y += 2000;
      if (a > 12 || (b <= 12 && dayFirst())) return [y, b, a];
      return [y, a, b];
    }
    const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    const fr = ["janv", "févr", "mars", "avr", "mai", "juin", "juil", "août", "sept", "oct", "nov", "déc"];
    const word = (w) => {
      w = w.toLowerCase().replace(/\.$/, "");
      let i = months.findIndex((x) => w.startsWith(x));
      if (i < 0) i = fr.findIndex((x) => w.startsWith(x) || x.startsWith(w));
      return i < 0 ? 0 : i + 1;
    };
    m = /^(\d{1,2})(?:st|nd|rd|th|er)?\s+([^\d\s,]+)\.?,?\s+(\d{4})$/i.exec(t);
    if (m && word(m[2])) return [+m[3], word(m[2]), +m[1]];
    m = /^([^\d\s,]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i.exec(t);
    if (m && word(m[1])) return [+m[3], word(m[1]), +m[2]];
    return null;
  }
  function parseTime(t) {
    t = t.trim();
    // The half of the day before the clock, as Korean, Japanese and Chinese write it ("오후 2:30").
    const half = /^(오전|오후|午前|午後|上午|下午)\s*/.exec(t);
    if (half) t = t.slice(half[0].length) + (/^(오후|午後|下午)$/.test(half[1]) ? " pm" : " am");
    const m = /^(\d{1,2})(?:[:h.](\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(t);
    if (!m) return null;
    let h = +m[1];
    const min = +(m[2] || 0), sec = m[3] ? +m[3] : null;
    if (m[4]) {
      const pm = /^p/i.test(m[4]);
      if (h === 12) h = pm ? 12 : 0;
      else if (pm) h += 12;
    }
    if (h > 23 || min > 59 || (sec !== null && sec > 59)) return null;
    return pad(h) + ":" + pad(min) + (sec !== null ? ":" + pad(sec) : "");
  }
  function pickerValue(el, text) {
    const t = String(text).trim();
    const date = (s) => {
      const d = parseDate(s);
      if (!d || d[1] < 1 || d[1] > 12 || d[2] < 1 || d[2] > 31) return null;
      return pad(d[0], 4) + "-" + pad(d[1]) + "-" + pad(d[2]);
    };
    switch (el.type) {
      case "date":
        return date(t);
      case "time":
        return parseTime(t);
      case "datetime-local": {
        const m = /^(.+?)(?:T|\s+(?:at\s+|à\s+)?)(\d{1,2}(?:[:h.]\d{2})?(?::\d{2})?\s*(?:[ap]\.?m\.?)?)$/i.exec(t);
        const d = m && date(m[1]), h = m && parseTime(m[2]);
        return d && h ? d + "T" + h : null;
      }
      case "month": {
        let m = /^(\d{4})[-/](\d{1,2})$/.exec(t) || /^(\d{1,2})[-/](\d{4})$/.exec(t);
        if (m) return m[1].length === 4 ? m[1] + "-" + pad(+m[2]) : m[2] + "-" + pad(+m[1]);
        const d = date("1 " + t);
        return d ? d.slice(0, 7) : null;
      }
      case "week": {
        const m = /^(\d{4})-?W(\d{1,2})$/i.exec(t) || /^(?:week|semaine)\s*(\d{1,2}),?\s+(\d{4})$/i.exec(t);
        if (!m) return null;
        return m[1].length === 4 ? m[1] + "-W" + pad(+m[2]) : m[2] + "-W" + pad(+m[1]);
      }
      case "color": {
        const c = document.createElement("canvas").getContext("2d");
        c.fillStyle = "#010203";
        c.fillStyle = t;
        const v = String(c.fillStyle);
        if (/^#[0-9a-f]{6}$/i.test(v) && (v !== "#010203" || /^#?010203$/i.test(t))) return v.toLowerCase();
        const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(v);
        return m ? "#" + [m[1], m[2], m[3]].map((x) => pad((+x).toString(16))).join("") : null;
      }
      case "range": {
        const n = parseFloat(t);
        return isNaN(n) ? null : String(n);
      }
    }
    return null;
  }
  const formats = { date: "2026-11-24 or 24/11/2026", time: "14:30 or 2:30 PM", "datetime-local": "2026-11-24 14:30", month: "2026-11 or November 2026", week: "2026-W48", color: "#ff8800 or a colour name", range: "a number" };
  // setValue sets a native picker's value as choosing it in the picker does.
  function setValue({ target, text }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    const what = describe(el);
    const v = pickerValue(el, text);
    if (v === null) return { error: `${what} is a ${el.type} field, and ${JSON.stringify(text)} is not a ${el.type} Skiff can read; write it like ${formats[el.type]}` };
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
    set.call(el, v);
    if (el.value === "" && v !== "") return { error: `${what} did not take ${JSON.stringify(text)} (${v}): it may be outside the field's range (${el.min || "no minimum"} to ${el.max || "no maximum"})` };
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    return { ok: 1, value: el.value };
  }
  function deepActive() {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }
  // domType sets a field's value the way frameworks (React, Vue) notice: through the native
  // setter, with input and change events.
  function domType({ target, text, clear }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    el.focus({ preventScroll: true });
    if (el.isContentEditable) {
      if (clear) el.textContent = "";
      document.execCommand("insertText", false, text);
    } else {
      const proto = el.localName === "textarea" ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      const set = Object.getOwnPropertyDescriptor(proto, "value").set;
      set.call(el, (clear ? "" : el.value) + text);
      el.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText", data: text }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
    return { ok: 1 };
  }
  // domKey presses a key with DOM events (the debugger cannot press real ones on this tab). A
  // browser acts on no such event by itself, so what it would have done for the common keys is
  // done here, unless the page cancelled the keydown; it says what ("" for nothing).
  function domKey({ key, code, modifiers, text }) {
    const el = deepActive() || document.body;
    const init = { key, code, bubbles: true, cancelable: true, composed: true, ctrlKey: !!(modifiers & 2), shiftKey: !!(modifiers & 8), altKey: !!(modifiers & 1), metaKey: !!(modifiers & 4) };
    const go = el.dispatchEvent(new KeyboardEvent("keydown", init));
    if (go && text) el.dispatchEvent(new KeyboardEvent("keypress", init));
    const did = go ? keyDefault(el, key, !!(modifiers & 6), !!(modifiers & 8), !!(modifiers & 1)) : "cancelled";
    el.dispatchEvent(new KeyboardEvent("keyup", init));
    return { ok: 1, did };
  }
  const caretTypes = new Set(["text", "search", "url", "tel", "password"]);
  // keyDefault does what the browser does for a key pressed in el: Enter sends a field's form,
  // follows a link, presses a button or starts a line; Space presses a button or ticks a box;
  // Tab moves the focus; in a field, Control+A selects, Backspace and Delete delete, Home, End
  // and the side arrows move the caret.
  function keyDefault(el, key, mod, shift, alt) {
    const tag = el.localName;
    const role = el.getAttribute && el.getAttribute("role");
    const pressable = tag === "button" || tag === "summary" || (tag === "input" && /^(button|submit|reset|checkbox|radio|image)$/.test(el.type)) || /^(button|checkbox|switch|radio|menuitem|tab|option)$/.test(role || "");
    const text = tag === "textarea" || (tag === "input" && caretTypes.has(el.type));
    if (key === "Enter" && !mod && !alt) {
      if (tag === "input" && !pressable && el.form) {
        el.form.requestSubmit();
        return "sent its form";
      }
      if (tag === "textarea" || el.isContentEditable) return edit(el, "\n") ? "started a new line" : "";
      if ((tag === "a" && el.href) || (pressable && !/^(checkbox|radio|switch)$/.test(el.type || role))) {
        el.click();
        return "pressed it";
      }
      return "";
    }
    if (key === " " && !mod && !alt && pressable) {
      el.click();
      return "pressed it";
    }
    if (key === "Tab" && !mod && !alt) {
      const all = [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex], [contenteditable=''], [contenteditable=true]")].filter(
        (x) => x.tabIndex >= 0 && !x.disabled && !(x.localName === "input" && x.type === "hidden") && x.getClientRects().length > 0,
      );
      const order = [...all.filter((x) => x.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex), ...all.filter((x) => x.tabIndex === 0)];
      if (!order.length) return "";
      const i = order.indexOf(el);
      const next = order[(i < 0 ? (shift ? order.length - 1 : 0) : i + (shift ? order.length - 1 : 1)) % order.length];
      next.focus();
      return "moved the focus";
    }
    if (text || el.isContentEditable) {
      if (mod && key.toLowerCase() === "a") {
        if (text) el.select();
        else getSelection().selectAllChildren(el);
        return "selected its text";
      }
      if ((key === "Backspace" || key === "Delete") && !alt) {
        if (el.isContentEditable) return document.execCommand(key === "Backspace" ? "delete" : "forwardDelete") ? "deleted" : "";
        let [a, b] = [el.selectionStart, el.selectionEnd];
        if (a === null) return "";
        if (a === b) [a, b] = key === "Backspace" ? [Math.max(0, a - 1), a] : [a, Math.min(el.value.length, a + 1)];
        if (a === b) return "";
        el.setRangeText("", a, b, "end");
        el.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: key === "Backspace" ? "deleteContentBackward" : "deleteContentForward" }));
        return "deleted";
      }
      if (text && !mod && /^(Home|End|ArrowLeft|ArrowRight)$/.test(key)) {
        const [a, b, v] = [el.selectionStart, el.selectionEnd, el.value];
        if (a === null) return "";
        const at = {
          Home: v.lastIndexOf("\n", a - 1) + 1, // the line's start (a field has one line)
          End: v.indexOf("\n", b) < 0 ? v.length : v.indexOf("\n", b),
          ArrowLeft: a === b ? Math.max(0, a - 1) : a,
          ArrowRight: a === b ? Math.min(v.length, b + 1) : b,
        }[key];
        el.setSelectionRange(at, at);
        return "moved the caret";
      }
    }
    return "";
  }
  // edit types text at the caret of a field or an editable element, as the browser does.
  function edit(el, text) {
    if (el.isContentEditable) return document.execCommand(text === "\n" ? "insertParagraph" : "insertText", false, text);
    const [a, b] = [el.selectionStart, el.selectionEnd];
    if (a === null) return false;
    el.setRangeText(text, a, b, "end");
    el.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: text === "\n" ? "insertLineBreak" : "insertText", data: text === "\n" ? null : text }));
    return true;
  }
  // fieldValue reads a field back. A secret is never returned: given expect, it says whether
  // the field holds it.
  function fieldValue({ target, expect }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    // What the field says is wrong with its value; an empty required field is not the typing's.
    const v = el.validity;
    const invalid = v && !v.valid && !v.valueMissing ? el.validationMessage || "invalid" : undefined;
    // A field the page's own code marks, as one not in a form it can read (a date it cannot
    // parse), with the words it points to, if any.
    let marked;
    if (!invalid && el.getAttribute("aria-invalid") === "true") marked = wordsOf(el, el.getAttribute("aria-errormessage") || el.getAttribute("aria-describedby")) || " ";
    if (secret(el)) return { ok: 1, password: 1, length: (el.value || "").length, matches: typeof expect === "string" ? el.value === expect : undefined, invalid, marked };
    if (el.isContentEditable) return { ok: 1, value: el.innerText, editor: 1, invalid, marked };
    // A code editor draws what it took in its next frames (Monaco): read it once it has.
    if (editorField(el)) return frame().then(frame).then(() => ({ ok: 1, value: editorText(el, editorField(el)), editor: 1, code: 1 }));
    return { ok: 1, value: el.value, picker: el.localName === "input" && pickers.has(el.type) ? el.type : undefined, invalid, marked };
  }
  // sliderOf says where a slider a page draws itself stands (ARIA: aria-valuenow, between
  // aria-valuemin and aria-valuemax, 0 and 100 unless said).
  function sliderOf({ target }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    const what = describe(el);
    const num = (a, d) => (el.hasAttribute(a) && !isNaN(parseFloat(el.getAttribute(a))) ? parseFloat(el.getAttribute(a)) : d);
    const now = num("aria-valuenow", NaN);
    if (isNaN(now)) return { error: `${what} does not say where it stands (it has no aria-valuenow), so Skiff cannot set it; use press_key with the arrow keys and look at the page` };
    return { ok: 1, what, now, min: num("aria-valuemin", 0), max: num("aria-valuemax", 100), text: clean(el.getAttribute("aria-valuetext") || String(now), 60) };
  }
  function isChecked({ target }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = controlOf(r.el);
    const aria = el.getAttribute("aria-checked");
    return { ok: 1, checked: el.checked === true || aria === "true" };
  }
  function selectOption({ target, values }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    const what = describe(el);
    if (el.localName !== "select") return { error: `${what} is not a <select>; click it and then click the option instead` };
    if (el.disabled) return { error: `${what} is disabled` };
    // Each value names an option by its value, label or text, in any case and spacing; else,
    // as with a list a page draws, by part of its label when only one holds it ("United
    // States" for "United States of America").
    const opts = [...el.options];
    const names = (os) => os.slice(0, 20).map((o) => JSON.stringify(clean(o.label, 80))).join(", ") + (os.length > 20 ? `, and ${os.length - 20} more` : "");
    const picked = [];
    for (const v of values) {
      const w = folded(v);
      let hits = opts.filter((o) => folded(o.value) === w || folded(o.label) === w || folded(o.text) === w);
      if (!hits.length && /^\d+$/.test(w)) {
        // A number names the option that writes it with zeros before it, or without ("9", "09").
        const n = (s) => (/^\d+$/.test(s) ? s.replace(/^0+(?=\d)/, "") : null);
        hits = opts.filter((o) => n(folded(o.value)) === n(w) || n(folded(o.label)) === n(w));
      }
      if (!hits.length && w) {
        hits = opts.filter((o) => folded(o.label).includes(w));
        if (hits.length > 1) return { error: `${JSON.stringify(v)} matches several options of ${what}: ${names(hits)}; give the whole name` };
      }
      for (const o of hits) if (!o.disabled && !picked.includes(o)) picked.push(o);
    }
    if (!picked.length) {
      const off = opts.filter((o) => o.disabled && values.some((v) => folded(o.label) === folded(v) || folded(o.value) === folded(v)));
      if (off.length) return { error: `option ${JSON.stringify(off[0].label)} of ${what} is disabled` };
      return { error: `${what} has no option ${values.map((v) => JSON.stringify(v)).join(" or ")}; it has ${names(opts)}` };
    }
    if (!el.multiple && picked.length > 1) picked.length = 1;
    // Choosing what is already chosen changes nothing, and a browser fires no event for it.
    const was = [...el.options].filter((o) => o.selected);
    if (was.length === picked.length && picked.every((o) => o.selected)) return { ok: 1, what, selected: picked.map((o) => o.label), already: 1 };
    for (const o of el.options) o.selected = picked.includes(o);
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    // The page's handlers may put it back (or choose for it): say what it holds now.
    const now = [...el.options].filter((o) => o.selected);
    const kept = now.length === picked.length && picked.every((o) => o.selected);
    return { ok: 1, what, selected: picked.map((o) => o.label), now: kept ? undefined : now.map((o) => o.label) };
  }
  // optionsOf finds what a list a page draws itself offers for el (a combobox, a button that
  // opens a list, a listbox): the options of the list el controls or owns, or of el itself, or,
  // when el names no list, of the lists showing on the page; each with a ref, its name, and
  // whether it is chosen. shows is what el shows (its value, or its text).
  let listsBefore = new WeakSet(); // the lists showing before a list was opened (first)
  // floats are the boxes a page draws over itself, put at the end of its body: its children,
  // and the children of one that holds them without being placed itself (Element Plus's
  // container of all its pop-ups).
  function floats() {
    const out = [];
    for (const x of document.body?.children || []) {
      if (/^(script|style|template|noscript)$/.test(x.localName)) continue;
      // (A wrapper of the page's own content has a height: not one.)
      if (style(x).position === "static" && x.children.length && x.children.length <= 50 && !x.getBoundingClientRect().height) out.push(...x.children);
      else out.push(x);
    }
    return out;
  }
  function optionsOf({ target, first }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    const lists = [];
    const add = (x) => x && !lists.includes(x) && lists.push(x);
    if (roleOf(el) === "listbox") add(el);
    const named = new Set(); // the lists el names
    const open = el.getAttribute("aria-expanded") === "true";
    for (const x of [el, ...deepAll(el, "[aria-controls], [aria-owns]")]) {
      for (const a of ["aria-controls", "aria-owns"]) {
        for (const id of (x.getAttribute(a) || "").split(/\s+/)) {
          if (!id) continue;
          const l = x.getRootNode().getElementById?.(id) || document.getElementById(id);
          add(l);
          if (l) named.add(l);
        }
      }
    }
    // A list drawn for el when it opens, which el does not name (or names by an id no
    // element has: Ant Design's TreeSelect, whose tree has none): one that was not showing
    // before (first notes those that were: another widget's).
    if (first) {
      listsBefore = new WeakSet();
      // (The menus of a field that is open already are its own: a cascade left open.)
      for (const x of deepAll(document, open ? '[role="listbox"], [role="tree"]' : '[role="listbox"], [role="tree"], [role="menu"]')) if (!unseen(x)) listsBefore.add(x);
      // (And the boxes the page draws over itself, put at the end of its body: another
      // widget's, unless the field is open, when they may be its own; not one the page says
      // is hidden, which is going: a list just chosen from, fading out.)
      if (!open) for (const x of floats()) if (!unseen(x) && x.getAttribute("aria-hidden") !== "true") listsBefore.add(x);
    } else if (!lists.length) {
      for (const x of deepAll(document, '[role="listbox"], [role="tree"]')) if (!listsBefore.has(x)) add(x);
    }
    const options = [];
    let drawing = 0; // options still drawn in see-through (a menu that shows its items one by one)
    for (const l of lists) {
      if (unseen(l)) continue;
      // (A tree of treeitems is how Select2 4.0 draws its list.)
      for (const o of roleOf(l) === "option" ? [l] : deepAll(l, '[role="option"], [role="treeitem"]').filter((o) => o !== l)) {
        if (options.length < 300 && unseen(o) && seeThrough(o)) drawing++;
        if (options.length >= 300 || unseen(o)) continue;
        options.push({ ref: refOf(o), name: nameOf(o, "option"), selected: o.getAttribute("aria-selected") === "true" ? 1 : 0, disabled: disabled(o) ? 1 : 0 });
      }
    }
    // A list el names kept for assistive tech only, out of sight (Ant Design's, rc-select's: a
    // listbox of no size holding only the options about the active one), beside the list a
    // person sees, drawn as divs in the same pop-up: the options are that list's items, those
    // taken for options (besideUnseenList) or else those that show the pointer, and none when
    // the pop-up also holds el (a box around the whole control). (Not another control's list,
    // closed, whose pop-up's box may hold every pop-up of the page.)
    if (!options.length) {
      for (const l of lists) {
        if (!named.has(l) || !unseen(l)) continue;
        let box = parentOf(l);
        for (let i = 0; box && box.nodeType === 1 && unseen(box) && i < 3; i++) box = parentOf(box);
        if (!box || box.nodeType !== 1 || /^(body|html)$/.test(box.localName) || unseen(box) || contains(box, el)) continue;
        const items = deepAll(box, "*").filter((x) => !contains(l, x) && !unseen(x));
        const marked = items.filter((x) => roleOf(x) === "option");
        for (const x of marked.length ? marked : items.filter((x) => pointerOnly(x))) {
          const name = nameOf(x, "option") || clean(visibleText(x, 120), 120);
          if (name && options.length < 300) options.push({ ref: refOf(x), name, selected: x.getAttribute("aria-selected") === "true" ? 1 : 0, disabled: disabled(x) ? 1 : 0 });
        }
      }
    }
    // A drop-down drawn for a hidden select (selectFor) names no list: its options are what it
    // shows inside it whose words are an option of the select (the last element in the page's
    // order that says them: the innermost, and the list's rather than the choice shown above
    // it), chosen and disabled as the select's. Closed, it shows one at most (its choice).
    const sf = selectFor(el);
    if (sf && !options.length) {
      const opts = [...sf.options].filter((o) => o.label.trim());
      const found = new Map();
      for (const x of deepAll(el, "*")) {
        if (unseen(x)) continue;
        const words = clean(visibleText(x, 200), 200);
        const o = opts.find((o) => clean(o.label, 200) === words);
        if (o) found.set(o, x);
      }
      for (const o of found.size > 1 ? opts : []) {
        const x = found.get(o);
        if (x && options.length < 300) options.push({ ref: refOf(x), name: clean(o.label, 120), selected: o.selected ? 1 : 0, disabled: o.disabled || (o.parentElement && o.parentElement.disabled) ? 1 : 0 });
      }
    }
    // A field that opens menus, one a level (a cascader: Ant Design's and Element Plus's region
    // pickers, Europe, then France, then Paris): the levels are the menus that were not
    // showing before it was opened, in the page's order, each with its items. Only a field
    // opens them so (a combobox, or a field that takes no typing): a button's menu holds
    // actions, each judged as the click it is.
    let levels;
    // (A text field that says it opens something, not as a combobox: Element Plus's cascader
    // that searches.)
    const expands = /^(input|textarea)$/.test(el.localName) && el.hasAttribute("aria-expanded");
    if (!options.length && (!first || open) && (roleOf(el) === "combobox" || expands || (el.readOnly && /^(input|textarea)$/.test(el.localName)))) {
      for (const m of deepAll(document, '[role="menu"]')) {
        if (listsBefore.has(m) || unseen(m) || contains(m, el) || (levels && levels.length >= 10)) continue;
        const items = [];
        for (const x of deepAll(m, '[role^="menuitem"]')) {
          if (unseen(x) || items.length >= 300) continue;
          const checked = x.getAttribute("aria-checked") === "true" || x.getAttribute("aria-selected") === "true";
          items.push({ ref: refOf(x), name: clean(visibleText(x, 120), 120) || nameOf(x, "menuitem"), selected: checked ? 1 : 0, disabled: disabled(x) ? 1 : 0 });
        }
        if (items.length) (levels ||= []).push(items);
      }
      if (levels) options.push(...levels[0]);
    }
    // A text field open that says it opens something and names nothing a list marks as one
    // (Element Plus's cascader searching, drawing the paths it found as items of no role): its
    // options are the items showing the pointer in a box drawn over the page since it was
    // typed into, put at the end of the body as such boxes are.
    if (!options.length && !levels && !first && open && expands && !el.readOnly) {
      for (const box of floats()) {
        if (listsBefore.has(box) || unseen(box) || contains(box, el)) continue;
        for (const x of deepAll(box, "*")) {
          // (Not a link or a button a pop-up shows beside them: clicked as such, with click.)
          if (options.length >= 300 || unseen(x) || !pointerOnly(x) || interactiveRoles.has(roleOf(x)) || /^(a|button|input|select|textarea)$/.test(x.localName)) continue;
          const name = clean(visibleText(x, 120), 120) || nameOf(x, "option");
          if (name) options.push({ ref: refOf(x), name, selected: x.getAttribute("aria-selected") === "true" ? 1 : 0, disabled: disabled(x) ? 1 : 0 });
        }
      }
    }
    const field = el.localName === "input" || el.localName === "textarea" || el.isContentEditable;
    let shows = el.localName === "input" || el.localName === "textarea" ? el.value : roleOf(el) === "listbox" ? "" : visibleText(el, 120);
    // A drop-down drawn for a hidden select shows what the select holds (its list may still be
    // fading out around it): what the form sends.
    if (sf) shows = [...sf.options].filter((o) => o.selected && o.value !== "").map((o) => o.label).join(", ") || shows;
    // A search field inside the box that shows the choice (Tom Select draws the chosen item
    // beside its emptied field; react-select in a box around the field's own): the choice is
    // what the nearest box around it that holds no other control shows.
    if (!shows && el.localName === "input") {
      for (let box = el.parentElement, i = 0; box && i < 4 && !/^(label|form|fieldset|body)$/.test(box.localName); box = box.parentElement, i++) {
        if (![...box.querySelectorAll("input:not([type=hidden]), select, textarea")].every((x) => x === el)) break;
        if ((shows = visibleText(box, 120))) break;
      }
    }
    // A search field that has the focus, the list's own (Select2 opens its list with one, or
    // draws one inside the control for a multiple choice): where a person types to find an
    // option that is not showing, or that comes after a request.
    const a = deepActive();
    // (A drop-down drawn for a hidden select keeps its search field when it closes: closed, it
    // is opened as a person opens it, by a click, its field does not search until it is.)
    const search = a && a !== el && (a.localName === "input" || a.localName === "textarea" || a.isContentEditable) && !a.readOnly && !/^(checkbox|radio|button|submit|reset|range|color|file|hidden)$/.test(a.type || "") && !unseen(a) && !(sf && !options.length) ? refOf(a) : "";
    // A field with a datalist suggests through the browser, not the page: nothing to wait for.
    return { ok: 1, what: describe(el), editable: field && !el.readOnly ? 1 : 0, datalist: el.localName === "input" && el.list ? 1 : 0, collapsed: el.getAttribute("aria-expanded") === "false" ? 1 : 0, open: open ? 1 : 0, shows: clean(shows, 120), search, searchInside: search && contains(el, a) ? 1 : 0, options, drawing, levels };
  }
  // bringIntoView scrolls el to the middle of the viewport. Chrome's scrollIntoView places an
  // inline element that holds blocks (a link wrapped around an icon and a label) by its first,
  // empty line, far from where it is drawn: the page is then scrolled by what is left.
  // reveal brings the target into the middle of the view of every document around it: an
  // element in a frame that is in the frame's own view may be below the page's (the frame
  // itself only partly on screen), which only the page sees; scrollIntoView scrolls each.
  function reveal({ target }) {
    const r = resolve(target);
    if (r.error) return r;
    r.el.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    fresh();
    return { ok: 1 };
  }
  // shotBox is where an element is drawn, for a picture of it: brought into view (its top,
  // when it is taller than the window), in this frame's viewport, with what it is.
  function shotBox({ target }) {
    fresh();
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    const what = describe(el);
    const why = hiddenUp(el);
    if (why) return { error: `${what} is not visible (${why})`, what };
    let b = boxOf(el);
    if (b.width < 1 || b.height < 1) return { error: `${what} has no size on screen`, what };
    if (b.top < 0 || b.left < 0 || b.bottom > innerHeight || b.right > innerWidth) {
      if (b.height > innerHeight) el.scrollIntoView({ block: "start", inline: "nearest", behavior: "instant" });
      else bringIntoView(el, "nearest");
      b = boxOf(el);
    }
    return { ok: 1, what, x: b.left, y: b.top, w: b.width, h: b.height };
  }
  function bringIntoView(el, inline) {
    el.scrollIntoView({ block: "center", inline, behavior: "instant" });
    const r = boxOf(el);
    const dy = r.top < 0 || r.bottom > innerHeight ? r.top + r.height / 2 - innerHeight / 2 : 0;
    const dx = r.left < 0 || r.right > innerWidth ? r.left + r.width / 2 - innerWidth / 2 : 0;
    if (dy || dx) scrollBy({ top: dy, left: dx, behavior: "instant" });
    fresh(); // what was learnt of where things are is from before the scroll
  }
  // scroll scrolls as a person does with the wheel. Given an element and no way to go, it
  // brings the element into view. Given an element and a way, it scrolls the box that scrolls
  // that way around it (the element itself when it is one: a list of channels, a pane of
  // messages, a strip of cards), or the page; an element out of sight is brought into view
  // first, which is what a model that names one meant. Without an element it scrolls the page,
  // or, when the page scrolls in a box of its own, its largest box; with a modal dialog open,
  // the dialog's largest box (the page behind it is not what a person over it scrolls).
  function scroll({ target, direction, amount }) {
    const across = direction === "left" || direction === "right";
    const page = document.scrollingElement || document.documentElement;
    let sc = null;
    if (target && (target.ref || target.selector)) {
      const r = resolve(target);
      if (r.error) return r;
      const el = r.el;
      for (let x = el; x && x.nodeType === 1 && !sc; x = parentOf(x)) if (x !== page && x !== document.body && scrolls(x, across)) sc = x;
      if (!direction || (sc !== el && !inSight(el, sc))) {
        bringIntoView(el, "nearest");
        return { ok: 1, what: describe(el), y: Math.round(scrollY) };
      }
      sc = sc || page;
    } else {
      const modal = topModal();
      sc = modal || !pageScrolls(across, page) ? largestScroller(modal || document, across) || page : page;
    }
    const whole = sc === page;
    const h = whole ? innerHeight : sc.clientHeight;
    const w = whole ? innerWidth : sc.clientWidth;
    const step = amount > 0 ? amount : Math.round((across ? w : h) * 0.8);
    const before = across ? sc.scrollLeft : sc.scrollTop;
    if (direction === "top") sc.scrollTop = 0;
    else if (direction === "bottom") sc.scrollTop = sc.scrollHeight;
    else if (direction === "up") sc.scrollTop -= step;
    else if (direction === "left") sc.scrollLeft -= step;
    else if (direction === "right") sc.scrollLeft += step;
    else sc.scrollTop += step;
    fresh(); // where things are is not where they were
    // The box, when the page is not what moved: what it is, and its ref to scroll it again.
    const box = whole ? {} : { box: roleOf(sc) || nameOf(sc, "") ? describe(sc) : "the box", boxRef: refOf(sc) };
    if (across) return { ok: 1, across: 1, x: Math.round(Math.abs(sc.scrollLeft)), moved: Math.round(Math.abs(sc.scrollLeft - before)), width: sc.scrollWidth, ...box };
    return { ok: 1, y: Math.round(sc.scrollTop), moved: Math.round(sc.scrollTop - before), height: sc.scrollHeight, viewport: h, atEnd: sc.scrollTop + h >= sc.scrollHeight - 2, ...box };
  }
  const pageScrolls = (across, page) => (across ? page.scrollWidth > innerWidth + 2 : page.scrollHeight > innerHeight + 2);
  // extent is how long (or wide) the box with ref scrolls, or the page: what scrolling to its
  // end loaded shows as it growing.
  function extent({ ref, across }) {
    const el = ref ? byRef(ref) : document.scrollingElement || document.documentElement;
    if (!el) return { error: `there is no element ${ref} on the page any more` };
    return { ok: 1, size: across ? el.scrollWidth : el.scrollHeight };
  }
  // inSight says whether a person sees some of el: in the window, and in the box sc it scrolls
  // in (null: the page).
  function inSight(el, sc) {
    const r = el.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) return false;
    if (!sc) return true;
    const b = sc.getBoundingClientRect();
    return r.bottom > b.top && r.top < b.bottom && r.right > b.left && r.left < b.right;
  }
  // largestScroller is the largest box under root (itself included) that scrolls that way and
  // a person can see, or null.
  function largestScroller(root, across) {
    let best = null, area = 0;
    const all = root.nodeType === 1 ? [root, ...root.querySelectorAll("*")] : root.querySelectorAll("*");
    for (const el of all) {
      if (el === document.body || el === document.documentElement || !scrolls(el, across)) continue;
      const a = el.clientWidth * el.clientHeight;
      if (a > area && !unseen(el)) (best = el), (area = a);
    }
    return best;
  }

  // ---- reading ----
  function content({ selector, html, max }) {
    let el = document.body || document.documentElement;
    if (selector) {
      try {
        el = deepQuery(selector);
      } catch (e) {
        return { error: `the selector ${JSON.stringify(selector)} is not valid CSS (${e.message})` };
      }
      if (!el) return { error: `no element matches ${JSON.stringify(selector)}` };
    }
    fresh();
    const limit = max || 20000;
    const text = html ? visibleHTML(el, limit) : pageText(el, limit);
    return { ok: 1, text: text.slice(0, limit), truncated: text.length >= limit };
  }
  // pageText is the text a person sees in root, in lines: a block (a paragraph, a heading, a
  // row, an item, a field's label) starts one, cells and inline parts share it, as the page
  // lays them out. Words that sit apart on the page stay apart: a settings page's "Email
  // notifications" and "Password" are not one sentence, for the model or for the check of
  // what reads like instructions to it.
  function pageText(root, limit) {
    let out = "";
    const walk = (n) => {
      if (out.length > limit) return;
      if (n.nodeType === 3) {
        // A line break in the source is a space, but in preformatted text (code, a poem).
        const p = n.parentElement && style(n.parentElement);
        const pre = p && /^(pre|preserve|break-spaces)/.test(p.whiteSpaceCollapse || p.whiteSpace);
        if (pre) {
          // Kept as written, spaces marked so that the lines are not collapsed (below).
          if (!n.data.trim() || textVisible(n)) out += n.data.replace(privateUse, "").replace(/[ \t]/g, (c) => (c === " " ? "\u0001" : "\u0002"));
        } else if (!n.data.trim()) out += n.data ? " " : "";
        else if (textVisible(n)) out += n.data.replace(privateUse, "").replace(/\s+/g, " ");
        return;
      }
      if (n.nodeType !== 1) return;
      if (n.localName === "br") {
        out += "\n";
        return;
      }
      if (hiddenReason(n) || /^(script|style|noscript|template)$/.test(n.localName)) return;
      if (n.localName === "img" && n.alt) out += " " + n.alt + " ";
      if (n.localName === "input" && /^(submit|button|reset)$/.test(n.type)) out += " " + n.value + " ";
      const d = style(n).display;
      const sep = d === "inline" || d === "contents" ? "" : /^(inline|table-cell)/.test(d) ? " " : "\n";
      out += sep;
      for (const k of kidsOf(n)) walk(k);
      out += sep;
    };
    walk(root);
    // Preformatted spaces (marked \u0001, tabs \u0002) are kept as they are.
    return out.split("\n").map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, " ").trim().replace(/\u0001/g, " ").replace(/\u0002/g, "\t")).filter(Boolean).join("\n");
  }
  // visibleHTML is el's markup as a person's page shows it: no hidden elements or unreadable
  // text, no comments, scripts or styles, only the attributes that say what an element is or
  // where it leads, and no values of password or payment fields.
  const keepAttrs = new Set(["id", "class", "href", "src", "alt", "title", "name", "type", "role", "for", "action", "method", "placeholder", "value", "checked", "selected", "disabled", "colspan", "rowspan", "lang", "dir", "aria-label", "aria-expanded", "aria-checked", "aria-selected", "aria-pressed", "aria-disabled", "aria-current", "aria-level"]);
  const voids = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const escText = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const escAttr = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  function visibleHTML(root, limit) {
    let out = "";
    const walk = (n) => {
      if (out.length > limit) return;
      if (n.nodeType === 3) {
        if (!n.data.trim()) out += n.data ? " " : "";
        else if (textVisible(n)) out += escText(n.data.replace(privateUse, ""));
        return;
      }
      if (n.nodeType !== 1) return; // comments, processing instructions
      const tag = n.localName;
      if (/^(script|style|noscript|template|link|meta)$/.test(tag) || hiddenReason(n)) return;
      out += "<" + tag;
      for (const a of n.attributes) {
        if (!keepAttrs.has(a.name) || (a.name === "value" && secret(n)) || /^\s*javascript:/i.test(a.value)) continue;
        out += ` ${a.name}="${escAttr(a.value.length > 300 ? a.value.slice(0, 300) + "…" : a.value)}"`;
      }
      out += ">";
      if (voids.has(tag)) return;
      for (const k of kidsOf(n)) walk(k);
      out += "</" + tag + ">";
    };
    walk(root);
    return out.replace(/\s{2,}/g, " ");
  }
  // links are the page's visible links, the first max of them that hold filter (any case) in
  // their text or address: the filter is applied before the cut, so a link past the first max
  // is found by it. Past the first max, links are counted, not read (reading whether each is
  // seen costs time on a page of thousands): total is then about.
  function links({ max, filter }) {
    fresh();
    const out = [];
    const seen = new Set();
    const want = String(filter || "").toLowerCase();
    const limit = max || 300;
    const modal = topModal(); // the page behind a modal dialog cannot be used until it closes
    let total = 0, past = 0;
    for (const a of document.querySelectorAll("a[href], area[href]")) {
      const href = a.href;
      if (!href || /^javascript:/i.test(href)) continue;
      if (want && !roughName(a).toLowerCase().includes(want)) continue; // before the costly reads
      if (out.length >= limit) { past++; continue; }
      if (unseen(a) || (modal && !contains(modal, a))) continue;
      const text = nameOf(a, "link");
      const key = href + "|" + text;
      if (seen.has(key)) continue;
      seen.add(key);
      if (want && !(text + " " + href).toLowerCase().includes(want)) continue;
      total++;
      out.push({ text, href, ref: refOf(a) });
    }
    return { ok: 1, links: out, total: total + past, about: past > 0 };
  }
  // alike says, cheaply, whether ref's element has namesakes: how many other elements of this
  // document (its open shadow trees too) have its role and name, and the heading above it. A
  // workflow's step on one with none needs no place among them, and no reading of the whole
  // page to find it. -1 when it cannot tell so: an element named by what is outside it (a
  // field by its label), or by nothing.
  const rolesTags = "a, area, button, input, option, summary, h1, h2, h3, h4, h5, h6, td, th, li, p, dt, dd, legend, caption, [role]";
  function alike({ ref }) {
    fresh();
    const el = byRef(ref);
    if (!el) return { error: `no element has ref ${ref} now` };
    const role = roleOf(el);
    const name = role && nameFromContent.has(role) ? nameOf(el, role) : "";
    if (!name) return { ok: 1, alike: -1 };
    const words = folded(name);
    let n = 0;
    for (const x of deepAll(document.documentElement, rolesTags, 100000)) {
      // (Its name is made of its words, labels, title and pictures' alt: those without the
      // name's words are not read whole.)
      if (x === el || roleOf(x) !== role || !folded(roughName(x) + " " + (x.value || "")).includes(words)) continue;
      if (nameOf(x, role) === name && !unseen(x)) n++;
    }
    let near = "";
    for (const h of deepAll(document.documentElement, "h1, h2, h3, h4, h5, h6, [role=heading]", 100000)) {
      if (!(h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) break; // (one around it is above it)
      if (roleOf(h) === "heading" && !unseen(h)) near = nameOf(h, "heading");
    }
    return { ok: 1, alike: n, near: near.slice(0, 100) };
  }
  // roughName is all a link's name can be made of, read cheaply: its text, address, labels,
  // title and pictures' alt text. Its name is within it.
  function roughName(a) {
    let s = a.textContent + " " + a.href + " " + (a.getAttribute("aria-label") || "") + " " + (a.title || "") + " " + (a.getAttribute("alt") || "");
    for (const img of a.querySelectorAll("img[alt]")) s += " " + img.alt;
    for (const id of (a.getAttribute("aria-labelledby") || "").split(/\s+/)) if (id) s += " " + (document.getElementById(id)?.textContent || "");
    return s;
  }
  // The words a search compares: any run of spaces (a line break, a no-break space) is one, in
  // any case.
  const folded = (s) => String(s).replace(/[\s\u00a0\u202f]+/g, " ").trim().toLowerCase();
  const unread = /^(script|style|noscript|template)$/;
  // squashed is s without its spaces: an element's textContent may join words its layout parts
  // ("Ships<br>tomorrow"), so what it holds is first compared so.
  const squashed = (s) => String(s).replace(/[\s\u00a0\u202f]+/g, "").toLowerCase();
  // holders finds the smallest elements under el (in its shadow trees too) whose visible text
  // holds needle (folded), into out; it says whether it found one. It looks only down the
  // elements whose text holds needle (and into shadow trees, which their host's text leaves
  // out), so what it costs is the depth of the page, not its size.
  function holders(el, needle, out, max, sq = squashed(needle)) {
    let found = false;
    for (const k of kidsOf(el)) {
      if (out.length >= max) return true;
      if (k.nodeType === 1 && !unread.test(k.localName) && (shadowOf(k) || squashed(k.textContent).includes(sq)) && holders(k, needle, out, max, sq)) found = true;
    }
    if (found || el === document.documentElement) return found;
    if (!squashed(el.textContent + (shadowOf(el) ? shadowOf(el).textContent : "")).includes(sq) || !folded(visibleText(el, 4000)).includes(needle)) return false;
    out.push(el);
    return true;
  }
  // find is where text a person sees is on the page: each text node that holds it, or, for
  // words split across elements ("Order <b>confirmed</b>", "$<span>12</span>.99"), the
  // smallest element that does.
  function find({ text, max }) {
    fresh();
    max = max || 20;
    const needle = folded(text);
    const out = [];
    const match = (node) => {
      const el = node.nodeType === 1 ? node : node.parentElement;
      let act = el;
      while (act && !isInteractive(act, roleOf(act))) act = parentOf(act);
      // The words around the match come from the block it is in (a match in <b> inside a
      // paragraph reads with the paragraph).
      let block = el;
      while (block && parentOf(block) && style(block).display.startsWith("inline")) block = parentOf(block);
      const text = clean(visibleText(block, 4000), 4000);
      const i = text.toLowerCase().indexOf(needle);
      const r = el.getBoundingClientRect();
      out.push({
        context: clean(i < 0 ? (node.nodeType === 3 ? node.data : text) : text.slice(Math.max(0, i - 80), i + needle.length + 80), 220),
        in: describe(block),
        ref: act ? refOf(act) : undefined,
        // Text no control holds (a zone that takes dropped files, a div a script listens
        // on) still gets a ref: its block's, to hover, drag, drop on or click.
        block: act ? undefined : refOf(block),
        y: Math.round(r.top + scrollY),
      });
    };
    const visit = (walker) => {
      for (let n = walker.nextNode(); n && out.length < max; n = walker.nextNode()) {
        if (!folded(n.data).includes(needle) || !textVisible(n) || unseen(n.parentElement)) continue;
        match(n);
      }
    };
    const root = document.body || document.documentElement;
    visit(document.createTreeWalker(root, NodeFilter.SHOW_TEXT));
    for (const host of shadowHosts()) if (out.length < max) visit(document.createTreeWalker(shadowOf(host), NodeFilter.SHOW_TEXT));
    if (!out.length && needle) {
      const els = [];
      holders(root, needle, els, max);
      for (const el of els) if (!unseen(el)) match(el);
    }
    return { ok: 1, matches: out };
  }
  // check answers a wait: whether a selector matches a visible element, the text is there, or
  // it is gone.
  function check({ selector, text, gone }) {
    fresh();
    if (selector) {
      let el;
      try {
        el = deepQuery(selector);
      } catch (e) {
        return { error: `the selector ${JSON.stringify(selector)} is not valid CSS (${e.message})` };
      }
      const there = !!el && !hiddenUp(el);
      return { ok: 1, met: gone ? !there : there };
    }
    // The page's text as drawn, its lines and no-break spaces read as spaces; then what its
    // shadow trees show, which that text leaves out.
    const needle = folded(text);
    const body = document.body;
    let there = !!body && folded(body.innerText).includes(needle);
    if (!there && body && needle) there = holders(body, needle, [], 1);
    return { ok: 1, met: gone ? !there : there };
  }
  // framesShown says which of the frames with frameIds (children of this document) a person
  // can see: their frame element is drawn. unknown: the frames this document has not heard
  // from (hello).
  function framesShown({ frameIds }) {
    const shown = [], unknown = [];
    for (const id of frameIds) {
      const f = frameElementFor(id);
      if (!f) unknown.push(id);
      else if (!unseen(f)) shown.push(id);
    }
    return { ok: 1, shown, unknown };
  }
  // settle resolves as soon as the loaded page is usable: when a frame passes with no change
  // to it, at once (least: when least ms pass with none, for a page that is about to hear of
  // something); when it is still changing (scripts rendering it), once it has not changed for
  // quiet ms; and after max ms in any case.
  function settle({ quiet, max, least }) {
    return new Promise((res) => {
      let timer = 0;
      let changed = false;
      const done = () => {
        obs.disconnect();
        clearTimeout(timer);
        clearTimeout(cap);
        res({ ok: 1, readyState: document.readyState, changed });
      };
      const obs = new MutationObserver(() => {
        changed = true;
        clearTimeout(timer);
        timer = setTimeout(done, quiet || 100);
      });
      obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      const cap = setTimeout(done, max || 2000);
      const still = () => {
        if (!changed) done();
      };
      if (least) setTimeout(still, least);
      else frame().then(still);
    });
  }
  // hello tells the parent frame which frame this is, so the parent's snapshot can put this
  // frame's tree under the right iframe.
  function hello({ frameId }) {
    if (window.parent !== window) window.parent.postMessage({ __skiffFrame: frameId }, "*");
    return { ok: 1 };
  }
  // frameBox is where frame id's iframe shows in this frame's viewport (its content box).
  function frameBox({ frameId }) {
    const f = frameElementFor(frameId);
    if (!f) return { error: "unknown frame" };
    const r = f.getBoundingClientRect();
    const s = style(f);
    return { ok: 1, x: r.left + f.clientLeft + parseFloat(s.paddingLeft), y: r.top + f.clientTop + parseFloat(s.paddingTop) };
  }
  // doc names this document: a new page (a navigation, a reload) gets a new one, so the core
  // can tell that what it read of a tab is still what the tab shows.
  const doc = Math.random().toString(36).slice(2) + Date.now().toString(36);
  function info() {
    return { ok: 1, url: location.href, title: document.title, readyState: document.readyState, visible: document.visibilityState, doc };
  }
  // ---- what a call will act on, as data ----
  // elementInfo is an element as the gate weighs it: what a person calls it (role, accessible
  // name), what it is (tag, input type, whether a native control), whether it holds a secret,
  // where acting on it leads, and the origin of the document it is in.
  // docOrigin is the origin of this document: a frame a page wrote itself (about:srcdoc, the
  // body of TinyMCE's editor; about:blank) has its parent's, where its address has none.
  const docOrigin = () => (location.origin === "null" && location.protocol === "about:" && location.ancestorOrigins?.length ? location.ancestorOrigins[0] : location.origin);
  function elementInfo(el) {
    const role = roleOf(el) || "";
    const out = { ref: refOf(el), role, name: nameOf(el, role) || clean(visibleText(el, 60), 60), tag: el.localName, origin: docOrigin(), frameUrl: location.href };
    if (el.localName === "input") out.type = (el.getAttribute("type") || "text").toLowerCase();
    const kind = secret(el);
    if (kind) out.field = kind;
    const link = el.closest && el.closest("a[href], area[href]");
    if (link && /^https?:/i.test(link.href)) out.link = link.href;
    else if (link && !/^(javascript|file|about|data|blob|chrome|chrome-extension):/i.test(link.href)) out.app = link.href.slice(0, 300);
    if (link && link.target && !/^_(self|parent|top)$/i.test(link.target)) out.newTab = true;
    const popup = (el.getAttribute("aria-haspopup") || "").toLowerCase();
    if (/^(listbox|tree|grid|dialog)$/.test(popup)) out.popup = popup;
    // A text field that says it opens something (aria-expanded) opens what it suggests.
    else if (!popup && /^(input|textarea)$/.test(el.localName) && el.hasAttribute("aria-expanded")) out.popup = "listbox";
    if ((el.localName === "input" || el.localName === "textarea") && el.readOnly) out.readonly = true;
    // In a box over the page: a dialog, or a box fixed on the screen (a cookie banner), and
    // whether the box speaks of cookies (whatever its buttons say: "OK, understood").
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) {
      if (x.localName === "dialog" || /^(dialog|alertdialog)$/.test(roleOf(x)) || x.getAttribute("aria-modal") === "true" || style(x).position === "fixed") {
        out.over = true;
        // ("cookie" in most languages' banners; Turkish, Finnish, Hungarian, Korean, Polish and
        // Japanese say it their own way too)
        if (/\bcookies?\b|çerez|evästei|sütik|쿠키|ciasteczk|クッキー|kolačić|бисквитк/i.test((x.innerText || "").slice(0, 3000))) out.consent = true;
        break;
      }
    }
    const form = el.form || (el.closest && el.closest("form"));
    if (form) {
      const submits = (el.localName === "button" && (el.getAttribute("type") || "submit").toLowerCase() === "submit") || (el.localName === "input" && /^(submit|image)$/.test(el.type));
      if (submits) out.submits = (el.formAction && el.getAttribute("formaction") ? el.formAction : "") || form.action || location.href;
    }
    // A control that says nothing: what its page's code calls it, as the snapshot shows it.
    if (!out.name && !out.link) {
      const h = codeName(el);
      if (h) out.hint = h;
    }
    if (el === document.body || el === document.documentElement) (out.role = "document"), (out.name = clean(document.title, 80));
    // The language its words are in, as the page says (lang="sv-SE" on it or around it): a
    // date typed or chosen there is written in it again ("december" is Swedish on a Swedish
    // page).
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) {
      const l = x.getAttribute("lang");
      if (l === null) continue;
      const code = l.trim().toLowerCase().split(/[-_]/)[0];
      if (/^[a-z]{2,3}$/.test(code)) out.lang = code;
      break;
    }
    return out;
  }
  // activation is the control a click on el activates: el itself, the control it is inside
  // (a span in a button, an image in a link), or a label's control.
  const activatable = "button, a[href], area[href], input, select, textarea, summary, label, [role=button], [role=link], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=tab], [role=option], [role=checkbox], [role=radio], [role=switch], [role=treeitem]";
  function activation(el) {
    for (let x = el; x && x.nodeType === 1; x = parentOf(x)) {
      if (!x.matches || !x.matches(activatable)) continue;
      if (x.localName === "label") return x.control || x;
      return x;
    }
    return el;
  }
  // implicitSubmit says whether Enter in el submits its form: in Chrome, Enter in any input but
  // a button does (a checkbox and a radio too); a submit button or image is pressed itself.
  function implicitSubmit(el) {
    return el.localName === "input" && !!el.form && !/^(button|submit|reset|image|hidden)$/.test(el.type);
  }
  // defaultButton is the control Enter in a field of form presses: its first submit button.
  function defaultButton(form) {
    for (const c of form.elements) {
      if ((c.localName === "button" && (c.getAttribute("type") || "submit").toLowerCase() === "submit") || (c.localName === "input" && /^(submit|image)$/.test(c.type))) return c;
    }
    return null;
  }
  // target describes what a call will act on: the element of {target} (a ref, a selector or a
  // point), or with {focused} the element that has the focus; what a click on it activates; and
  // for a field in a form, what Enter in it does (the form's default button and where the form
  // goes). An element in a child frame is answered with that frame's id (and the point inside
  // it), for the core to ask there.
  function target({ target, focused }) {
    fresh();
    let el, point;
    if (focused) {
      el = deepActive();
      if (!el || el === document.documentElement) el = document.body || document.documentElement;
    } else {
      const r = resolve(target);
      if (r.error) return r;
      (el = r.el), (point = r.point);
    }
    if (/^(iframe|frame)$/.test(el.localName) && (focused || point)) {
      const id = frameOf.get(el);
      if (id === undefined) return { error: "that part of the page is a frame Skiff has not reached yet; take a snapshot first", retry: 1 };
      const out = { ok: 1, frame: id };
      if (point) {
        const r = el.getBoundingClientRect();
        const s = style(el);
        out.x = point.x - (r.left + el.clientLeft + parseFloat(s.paddingLeft));
        out.y = point.y - (r.top + el.clientTop + parseFloat(s.paddingTop));
      }
      return out;
    }
    const out = { ok: 1, element: elementInfo(el) };
    const act = activation(el);
    if (act !== el) out.activates = elementInfo(act);
    const form = el.form || (el.closest && el.closest("form"));
    if (form) {
      // What Enter in it presses: implicitly in a text field (implicit), and, for Control+Enter
      // in a text area, what many pages bind to it.
      out.form = form.action || location.href;
      const b = defaultButton(form);
      out.enter = b ? elementInfo(b) : { role: "form", name: clean(form.getAttribute("aria-label") || form.getAttribute("name") || form.id || "", 80), tag: "form", origin: docOrigin(), frameUrl: location.href };
      if (b && b.getAttribute("formaction")) out.form = b.formAction;
      out.implicit = !!implicitSubmit(el);
    }
    return out;
  }
  // focusIs says whether the element of ref still has the focus (a key is about to go to it).
  function focusIs({ ref }) {
    const el = byRef(ref);
    const a = deepActive();
    const now = !a || a === document.documentElement ? document.body : a;
    const same = !!el && (el === now || (el === document.body && now === document.body));
    // Where the focus is now, with a ref to act on it (a key that moved it: Tab, an arrow in a
    // group of radios).
    const nowRef = !same && now && now !== document.body ? refOf(now) : "";
    return { ok: 1, same, now: now ? describe(now) : "nothing", nowRef };
  }

  // readable is the article as markdown (extract.js, with Readability and Turndown, injected
  // only for this: they are large).
  const readable = () => (globalThis.skiffExtract ? { ...globalThis.skiffExtract(), doc } : "__skiff_missing__");
  // pdfBytes is the PDF this tab shows at an address only its site's page can read (blob:, made
  // by the site's script: "View invoice"), in base64, at most max bytes; the worker's reader
  // cannot fetch such an address. A site that let the address go since has nothing left.
  const pdfBytes = async ({ max }) => {
    if (document.contentType !== "application/pdf" || location.protocol !== "blob:") return { ok: 1, why: "scheme" };
    let b;
    try {
      b = await (await fetch(location.href)).arrayBuffer();
    } catch {
      return { ok: 1, why: "revoked" };
    }
    if (b.byteLength > max) return { ok: 1, why: "size" };
    return { ok: 1, data: base64Of(new Uint8Array(b)) };
  };
  const selection = () => ({ ok: 1, selection: String(getSelection ? getSelection() : "").trim().slice(0, 8192) });

  // veil takes Skiff's chat on the page (ext/page/overlay.js) out of the picture while the
  // screenshot tool captures the tab, and puts it back after: a model is shown the page, not
  // Skiff's own chat covering part of it. Hiding waits for a frame drawn without it (bounded:
  // a tab that draws no frame is not waited on).
  async function veil({ on }) {
    const o = globalThis.__skiffOverlay;
    if (!o || !o.veil || !o.veil(!!on)) return { ok: 1, veiled: false };
    if (on) await Promise.race([new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))), new Promise((r) => setTimeout(r, 200))]);
    return { ok: 1, veiled: true };
  }
  // requests is what the page fetched since it loaded, from the browser's resource timing
  // (which needs no debugger and holds the past): each address, what asked for it (fetch,
  // xmlhttprequest, script, img, css…), its status where the browser may tell it (0: a
  // response from another site that did not allow it to be read, or none), how long it took
  // and its size. Without all, only what the page's scripts asked for, and what failed.
  function requests({ all }) {
    const entries = performance.getEntriesByType("resource");
    const nav = performance.getEntriesByType("navigation")[0];
    const out = [];
    for (const e of entries) {
      const asked = /^(fetch|xmlhttprequest|beacon|other)$/.test(e.initiatorType);
      const status = e.responseStatus || 0;
      if (!all && !asked && status < 400) continue;
      out.push({ url: e.name, kind: e.initiatorType, status, ms: Math.round(e.duration), size: e.encodedBodySize || 0, at: Math.round(e.startTime) });
    }
    return { ok: 1, total: entries.length, origin: Math.round(performance.timeOrigin), page: nav ? { url: nav.name, status: nav.responseStatus || 0, ms: Math.round(nav.duration) } : null, requests: out.slice(-300) };
  }

  // ---- files (upload_file) ----
  // fileInputOf is the file field el stands for: the field itself, the one its label is for,
  // or the one it holds (a drop zone's hidden field: react-dropzone, FilePond, Uppy), one for
  // files rather than folders first.
  function fileInputOf(el) {
    const isFile = (x) => x && x.localName === "input" && x.type === "file";
    if (isFile(el)) return el;
    if (isFile(controlOf(el))) return controlOf(el);
    const inside = [...el.querySelectorAll("input[type=file]"), ...(el.shadowRoot ? el.shadowRoot.querySelectorAll("input[type=file]") : [])];
    return inside.find((x) => !x.webkitdirectory && !x.disabled) || inside[0] || null;
  }
  function fileField({ target }) {
    const r = resolve(target);
    if (r.error) return r;
    const what = describe(r.el);
    const input = fileInputOf(r.el);
    if (!input) return { ok: 1, found: false, what };
    return { ok: 1, found: true, what, field: input === r.el ? what : `the file field of ${what}`, multiple: input.multiple, accept: input.accept || "", disabled: disabled(input) };
  }
  const base64Of = (u) => {
    if (u.toBase64) return u.toBase64();
    let s = "";
    for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const bytesOf = (b64) => {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64);
    const s = atob(b64);
    const u = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    return u;
  };
  const transfer = (files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([bytesOf(f.data || "")], f.name, { type: f.mime || "" }));
    return dt;
  };
  // setFiles gives the files to the field as the system's chooser does: the field holds them,
  // then input and change (what pages listen for). It says the names the field holds after.
  function setFiles({ target, files }) {
    const r = resolve(target);
    if (r.error) return r;
    const input = fileInputOf(r.el);
    if (!input) return { error: `${describe(r.el)} holds no file field any more` };
    input.files = transfer(files).files;
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
    return { ok: 1, names: [...(input.files || [])].map((f) => f.name) };
  }
  // dropFiles drops the files on the element as a drag from the computer does: dragenter,
  // dragover, then drop when the page took the dragover (it prevents its default to accept a
  // drop, as the browser's own drag and drop has it). A page that takes none is not dropped on.
  function dropFiles({ target, files }) {
    const r = resolve(target);
    if (r.error) return r;
    const el = r.el;
    const what = describe(el);
    const box = el.getBoundingClientRect();
    const at = { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
    const dt = transfer(files);
    const fire = (type) => {
      const ev = new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: dt, ...at });
      el.dispatchEvent(ev);
      return ev.defaultPrevented;
    };
    fire("dragenter");
    if (!fire("dragover")) {
      fire("dragleave");
      return { ok: 1, what, accepted: false };
    }
    fire("drop");
    return { ok: 1, what, accepted: true };
  }
  const api = { shotBox, extent, framesShown, pasteText, requests, addedSince, fileField, setFiles, dropFiles, stateFor, optionsOf, sliderOf, noteSaid, saidSince, busyNow, armDrag, dragged, domDrag, scrolled, settling, reveal, loadingNow, typedOn, veil, isChecked, readable, pdfBytes, selection, snapshot, unchanged, locate, armClick, clicked, setValue, domClick, domHover, focusForTyping, domType, domKey, fieldValue, selectOption, scroll, content, links, alike, find, check, settle, hello, knows, frameBox, info, target, focusIs };
  globalThis.skiffPage = {
    // What a person can see, for extract.js, which reads the article.
    hiddenReason: (el) => hiddenReason(el),
    textVisible: (t) => textVisible(t),
    resetStyles: () => (fresh()),
    // The ref an element got in a snapshot ("" when none), for tests and make bench to check
    // that what a person can act on is addressable.
    refFor: (el) => refs.byEl.get(el) || "",
    call(name, argsJSON) {
      const f = api[name];
      if (!f) return { error: `Skiff's page code has no ${name}` };
      fresh(); // what an earlier call learnt of the page's layout may have changed since
      return Promise.resolve()
        .then(() => f(JSON.parse(argsJSON || "{}") || {}))
        .catch((e) => ({ error: String((e && e.message) || e) }));
    },
  };
})();
