// One seat open in two tabs of this browser: each says "hello" on a channel named for the
// room and seat token, the other answers "here", and both show a banner (`store.twoTabs`)
// until one says "bye" as its page goes away. Local play holds every seat on one page: no
// channel.

/** The seat's announcer: call it each time the page takes a seat. */
export function watchTabs(store) {
  const tabId = Math.random().toString(36).slice(2);
  let channel = null;
  window.addEventListener("pagehide", () => channel?.postMessage({ type: "bye", from: tabId }));
  return function announce() {
    channel?.close();
    channel = null;
    store.twoTabs = false;
    if (!("BroadcastChannel" in window) || store.session.mode === "local") return;
    channel = new BroadcastChannel(`rummy:${store.session.room}:${store.session.token}`);
    const mine = channel;
    mine.onmessage = (ev) => {
      const msg = ev.data || {};
      if (msg.from === tabId) return;
      if (msg.type === "hello") mine.postMessage({ type: "here", from: tabId });
      if (msg.type === "hello" || msg.type === "here") store.update({ twoTabs: true });
      if (msg.type === "bye") store.update({ twoTabs: false });
    };
    mine.postMessage({ type: "hello", from: tabId });
  };
}
