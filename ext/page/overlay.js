// Skiff's chat on top of the page. The worker injects this file into a tab's top frame only
// when the user asks for the overlay (the shortcut, the context menu), so a page that never
// opens it pays nothing. Run again, it shows or hides the same overlay.
//
// What the page can reach: one element, <skiff-overlay>, whose closed shadow root holds a drag
// bar, a close button and an iframe of the extension's overlay.html. The chat runs in that
// frame, a chrome-extension: document the page can neither read nor script nor style; its CSP
// is the extension's, so a page's strict CSP or Trusted Types do not apply to it. Nothing here
// uses innerHTML. The host is a manual popover, so it sits in the top layer above any z-index
// and above a modal dialog the page opened (it moves into that dialog, which keeps it usable
// while the rest of the page is inert). Its place and size are kept per site.
(() => {
  const api = globalThis.__skiffOverlay;
  if (api) return api.toggle();

  const ext = chrome.runtime.getURL("");
  const key = "overlay:" + location.origin;
  const host = document.createElement("skiff-overlay");
  globalThis.__skiffOverlayHost = host; // skiff.js's readers skip it (by identity)
  const root = host.attachShadow({ mode: "closed" });

  // Inline styles through the CSSOM (never a <style> the page's CSP could refuse), !important
  // so the page's own rules for every element cannot reach in; px only (rem follows the page).
  const css = (el, props) => {
    for (const [k, v] of Object.entries(props)) el.style.setProperty(k, v, "important");
  };
  css(host, {
    all: "initial", position: "fixed", margin: "0", padding: "0", border: "0", inset: "auto",
    background: "transparent", overflow: "visible", width: "auto", height: "auto",
    "z-index": "2147483647", display: "none",
  });
  let open = false;

  // The frame's own page follows the system's light or dark scheme; its border and bar do too.
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const ink = dark
    ? { bg: "#111114", bar: "#1c1c22", line: "#33333f", text: "#e7e7ef", muted: "#a0a0b2" }
    : { bg: "#fff", bar: "#f3f4f6", line: "#c8ccd2", text: "#1d1f23", muted: "#444" };
  const frame = document.createElement("div");
  css(frame, {
    display: "flex", "flex-direction": "column", width: "100%", height: "100%", "box-sizing": "border-box",
    background: ink.bg, border: "1px solid " + ink.line, "border-radius": "10px", overflow: "hidden",
    "box-shadow": "0 8px 28px rgba(0,0,0,.28)", resize: "both", "min-width": "280px", "min-height": "240px",
    font: "13px system-ui, sans-serif", color: ink.text,
  });
  const bar = document.createElement("div");
  css(bar, {
    display: "flex", "align-items": "center", gap: "6px", padding: "4px 6px 4px 10px", cursor: "move",
    background: ink.bar, "border-bottom": "1px solid " + ink.line, "user-select": "none", flex: "none",
  });
  const title = document.createElement("span");
  title.textContent = "Skiff";
  css(title, { flex: "1", font: "600 13px system-ui, sans-serif", color: ink.text });
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "✕";
  close.title = chrome.i18n.getMessage("overlayClose"); // the browser's language, from ext/_locales
  close.setAttribute("aria-label", close.title);
  css(close, {
    all: "initial", cursor: "pointer", padding: "2px 8px", "border-radius": "6px", font: "14px system-ui, sans-serif",
    color: ink.muted,
  });
  bar.append(title, close);
  const iframe = document.createElement("iframe");
  iframe.src = chrome.runtime.getURL("panel/overlay.html");
  iframe.title = "Skiff";
  iframe.allow = "clipboard-write";
  css(iframe, { flex: "1", border: "0", width: "100%", "min-height": "0", background: ink.bg, display: "block" });
  frame.append(bar, iframe);
  root.append(frame);

  // Keys pressed on the bar or the close button stay here: the page's hotkeys must not fire.
  for (const type of ["keydown", "keyup", "keypress"]) root.addEventListener(type, (e) => e.stopPropagation());

  // Place and size: the last ones on this site, else the bottom right corner.
  const place = { x: -1, y: -1, w: 400, h: 540 };
  function apply() {
    const w = Math.min(place.w, innerWidth - 16), h = Math.min(place.h, innerHeight - 16);
    const x = place.x < 0 ? innerWidth - w - 16 : Math.max(0, Math.min(place.x, innerWidth - 60));
    const y = place.y < 0 ? innerHeight - h - 16 : Math.max(0, Math.min(place.y, innerHeight - 40));
    css(host, { left: x + "px", top: y + "px", width: w + "px", height: h + "px" });
  }
  let saving = 0;
  function save() {
    clearTimeout(saving);
    saving = setTimeout(() => chrome.storage.local.set({ [key]: place }).catch(() => {}), 300);
  }

  // Drag by the bar.
  bar.addEventListener("pointerdown", (e) => {
    if (e.target === close || e.button !== 0) return;
    const r = host.getBoundingClientRect();
    const dx = e.clientX - r.left, dy = e.clientY - r.top;
    bar.setPointerCapture(e.pointerId);
    const move = (m) => {
      place.x = Math.round(m.clientX - dx);
      place.y = Math.round(m.clientY - dy);
      apply();
    };
    const up = () => {
      bar.removeEventListener("pointermove", move);
      bar.removeEventListener("pointerup", up);
      save();
    };
    bar.addEventListener("pointermove", move);
    bar.addEventListener("pointerup", up);
  });
  // Resize by the frame's corner (CSS resize): the host follows the frame.
  new ResizeObserver(() => {
    if (!open || !frame.offsetWidth) return;
    const w = frame.offsetWidth, h = frame.offsetHeight;
    if (Math.abs(w - host.offsetWidth) < 2 && Math.abs(h - host.offsetHeight) < 2) return;
    const r = host.getBoundingClientRect();
    place.x = Math.round(r.left);
    place.y = Math.round(r.top);
    place.w = w;
    place.h = h;
    css(host, { width: w + "px", height: h + "px" });
    save();
  }).observe(frame);
  addEventListener("resize", () => host.isConnected && apply());

  // The top layer: a manual popover (no light dismiss), inside the topmost open modal dialog
  // when there is one, since a modal dialog makes everything outside it inert.
  host.popover = "manual";
  function topModal() {
    let m = null;
    for (const d of document.querySelectorAll("dialog[open]")) if (d.matches(":modal")) m = d;
    return m;
  }
  function mount() {
    // Not in <body>: a page that gives its body a shadow root or hides it keeps the overlay.
    const parent = topModal() || document.documentElement;
    if (host.parentNode !== parent) {
      // moveBefore keeps the frame's document (a plain move would reload the chat).
      if (host.isConnected && parent.moveBefore) parent.moveBefore(host, null);
      else parent.append(host);
    }
    if (!host.matches(":popover-open")) host.showPopover();
  }
  // A modal dialog the page opens (or closes) later: follow it.
  const watch = new MutationObserver(() => {
    if (open && host.isConnected && host.parentNode !== (topModal() || document.documentElement)) mount();
  });

  function show() {
    open = true;
    css(host, { display: "block", visibility: "visible" }); // visible: a veil left on by a cut screenshot
    mount();
    watch.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ["open"], childList: true });
    apply();
    iframe.focus();
    iframe.contentWindow && iframe.contentWindow.postMessage({ skiff: "focus" }, ext.slice(0, -1));
  }
  function hide() {
    watch.disconnect();
    if (host.matches(":popover-open")) host.hidePopover();
    css(host, { display: "none" });
    open = false;
  }
  close.addEventListener("click", hide);

  // The overlay's own page asks to close (Escape) or to go to the side panel. Only messages
  // from that frame count: the page cannot make a message come from it.
  addEventListener("message", (e) => {
    if (e.source !== iframe.contentWindow || e.origin + "/" !== ext) return;
    if (e.data && e.data.skiff === "close") hide();
  });

  globalThis.__skiffOverlay = {
    toggle() {
      if (!open || !host.isConnected) show();
      else hide();
      return open;
    },
    // veil hides the open overlay from a screenshot (skiff.js's veil), without closing it:
    // the chat and its place stay as they are. It says whether there was an overlay to hide.
    veil(on) {
      if (!open) return false;
      css(host, { visibility: on ? "hidden" : "visible" });
      return true;
    },
  };
  chrome.storage.local.get(key).then(
    (got) => {
      if (got && got[key]) Object.assign(place, got[key]);
      apply();
    },
    () => {},
  );
  show();
  return true;
})();
