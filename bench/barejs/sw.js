// Wake baseline: the least a worker can do to answer the panel's first message.
chrome.runtime.onConnect.addListener((port) => {
  port.onMessage.addListener((raw) => {
    const m = JSON.parse(raw);
    port.postMessage(JSON.stringify({ type: "reply", id: m.id, ok: true, result: "pong" }));
  });
});
