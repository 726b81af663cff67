// Runs in every page's main world before the page's own scripts (a manifest content script at
// document_start). alert, confirm and prompt block the page until someone answers, and then
// nothing else can run there, not even Skiff's tools. So, just before a dialog opens, this
// says so to ext/page/dialog.js (Skiff's isolated world), which tells the worker: a tool
// waiting on this page can then report the dialog instead of waiting for ever. The dialog
// itself opens as usual, and what it returns is returned unchanged.
(() => {
  const say = (detail) => document.dispatchEvent(new CustomEvent("__skiff_dialog", { detail: JSON.stringify(detail) }));
  for (const type of ["alert", "confirm", "prompt"]) {
    const original = window[type];
    if (typeof original !== "function") continue;
    const wrapped = {
      [type](message, defaultPrompt) {
        say({ open: true, type, message: String(message === undefined ? "" : message).slice(0, 2000), defaultPrompt: type === "prompt" ? String(defaultPrompt === undefined ? "" : defaultPrompt).slice(0, 500) : "" });
        try {
          return original.apply(this, arguments);
        } finally {
          say({ open: false, type });
        }
      },
    }[type];
    window[type] = wrapped;
  }
})();
