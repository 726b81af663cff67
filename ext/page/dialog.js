// Skiff's isolated world, in every frame from document_start: relays what dialog-main.js says
// about dialogs to the worker. The page can send the same event itself, so the core treats a
// report as a hint: it only reports a dialog when the page also stops answering.
document.addEventListener("__skiff_dialog", (e) => {
  let d;
  try {
    d = JSON.parse(e.detail);
  } catch {
    return;
  }
  if (typeof d !== "object" || d === null) return;
  chrome.runtime.sendMessage({ type: "page.dialog", open: !!d.open, dialog: String(d.type || ""), message: String(d.message || ""), defaultPrompt: String(d.defaultPrompt || ""), url: location.href }).catch(() => {});
});
