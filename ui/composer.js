// The message box: Enter sends (with the page, when attached), Shift+Enter is a new line, Stop
// stops the reply. A message that cannot be sent stays in the box.
import { $, banner } from "./dom.js";
import { call } from "./connection.js";
import { state } from "./state.js";
import { showSession } from "./chat.js";
import { refreshSessions } from "./history.js";
import { pageForSend, afterSend } from "./page.js";

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = $("input").value;
  if (!text.trim()) return;
  $("input").value = "";
  try {
    const page = await pageForSend();
    await call("chat.send", { sessionId: state.active ? state.active.id : "", text, page });
    afterSend();
  } catch (err) {
    $("input").value = text; // nothing is lost
    banner(err.message);
  }
});

$("input").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});

$("stop").addEventListener("click", () => state.active && call("chat.stop", { sessionId: state.active.id }));

export async function newChat() {
  try {
    showSession(await call("session.new"));
    await refreshSessions();
  } catch (err) {
    banner(err.message);
  }
}
