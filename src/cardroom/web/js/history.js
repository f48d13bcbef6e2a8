// Hand history and replayer: one's recent hands, stepped action by action, with the
// PHH download, read from the server's hand-history API when it has one.

import { get, offers } from "./api.js";
import { h, fill } from "./dom.js";
import { cardRow } from "./cards.js";
import { describe } from "./tablelog.js";

function replayer(app, hand) {
  const events = hand.events || [];
  let step = 0;
  const out = h("ol.loglines", { "aria-live": "polite" });
  const board = h("div.replayboard");
  const counter = h("span", { role: "status" });
  const show = () => {
    fill(out, events.slice(0, step).map((e) => h("li", { text: describe(e, (p) => p) || e.type })));
    const cards = events.slice(0, step).filter((e) => e.type === "BoardDealt").flatMap((e) => e.cards);
    fill(board, cardRow(cards, null, "Board"));
    counter.textContent = `Step ${step} of ${events.length}`;
  };
  const id = hand.id ?? hand.hand_id;
  fill(app, h("h1", { text: `Hand ${id}` }),
    h("div.replaycontrols",
      h("button", { type: "button", text: "⏮ Start", onclick: () => { step = 0; show(); } }),
      h("button", { type: "button", text: "◀ Back", onclick: () => { step = Math.max(0, step - 1); show(); } }),
      h("button", { type: "button", text: "Next ▶", onclick: () => { step = Math.min(events.length, step + 1); show(); } }),
      h("button", { type: "button", text: "End ⏭", onclick: () => { step = events.length; show(); } }),
      counter,
      h("a.button", { href: `/api/hands/${encodeURIComponent(id)}/phh`, download: `hand-${id}.phh`, text: "Download PHH" })),
    board, out, h("p", h("a", { href: "#/history", text: "All my hands" })));
  show();
}

/** The history screen: the list of one's hands, or one hand's replayer. */
export async function historyScreen(app, ctx, arg) {
  fill(app, h("h1", { text: "Hand history" }), h("p", { text: "Loading…" }));
  if (!(await offers("/api/hands"))) {
    fill(app, h("h1", { text: "Hand history" }), h("p.message", { role: "status", text: "This server does not offer hand histories yet." }));
    return null;
  }
  if (arg) {
    const r = await get(`/api/hands/${encodeURIComponent(arg)}`);
    if (r.status === 200 && r.body) { replayer(app, r.body); return null; }
    fill(app, h("h1", { text: "Hand history" }), h("p.message.error", { role: "alert", text: `This hand could not be read (${r.status}).` }));
    return null;
  }
  const r = await get("/api/hands");
  if (r.status !== 200 || !r.body) {
    fill(app, h("h1", { text: "Hand history" }),
      h("p.message", { role: "status", text: r.status === 404 ? "This server does not offer hand histories yet." : `Hand histories could not be read (${r.status}).` }));
    return null;
  }
  const hands = Array.isArray(r.body) ? r.body : r.body.hands || [];
  fill(app, h("h1", { text: "Hand history" }),
    hands.length ? h("ul.hands", hands.map((x) => {
      const id = x.id ?? x.hand_id;
      return h("li", h("a", { href: `#/history/${encodeURIComponent(id)}`, text: `${x.table ?? ""} hand #${x.hand_no ?? id}` }), " ",
        h("a", { href: `/api/hands/${encodeURIComponent(id)}/phh`, download: `hand-${id}.phh`, text: "PHH" }));
    })) : h("p", { text: "No hands yet. Play a hand and it will be listed here." }));
  return null;
}
