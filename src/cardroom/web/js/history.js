// Hand history and replayer: one's recent hands, stepped action by action. The
// hands come from the server's hand-history API when its OpenAPI document lists
// one (with the PHH download), else from the hands this browser saw at the table.

import { get, offers } from "./api.js";
import { h, fill, chips } from "./dom.js";
import { cardRow } from "./cards.js";
import { BetWords, describe, named } from "./tablelog.js";
import { savedHands } from "./handstore.js";
import { TABLE_ID } from "./ws.js";

const LAST_HANDS = 5;

/** Whether `arg` names a hand of the server's history: "<table>/<hand number>". */
function handName(arg) {
  const [table, number, ...more] = arg.split("/");
  return !more.length && TABLE_ID.test(table) && /^[0-9]{1,19}$/.test(number || "");
}

const ROWS = ["top", "middle", "bottom"];

/** The table after the first `step` events of a hand: seats, board, pot, log (its
 *  lines as shown), and `said`, the last step's line as a screen reader says it (its
 *  cards by name), or "" when that event has no line. */
export function replayState(hand, step) {
  const seats = new Map();
  const board = [];
  const log = [];
  let said = "";
  let pot = 0;
  const seat = (s) => {
    if (!seats.has(s)) seats.set(s, { name: hand.names[s] || `Seat ${s + 1}`, stack: 0, bet: 0, cards: [], ups: [], folded: false, won: 0 });
    return seats.get(s);
  };
  const name = (s) => hand.names[s] || `Seat ${s + 1}`;
  const bets = new BetWords();
  const several = hand.events.some((e) => (e.type === "PotAwarded" || e.type === "RakeTaken") && e.pot > 0);
  for (const e of hand.events.slice(0, step)) {
    const line = describe(e, (p) => p, name, false, bets, several);
    bets.see(e);
    if (line) log.push(named(line, (p) => p));
    said = line ? named(line, (p) => p, true) : "";
    if (e.type === "HandStarted") (e.stacks || []).forEach((st, s) => { if (st !== null) seat(s).stack = st; });
    if (e.type === "Posted" || e.type === "Acted") {
      const x = seat(e.seat);
      const add = e.amount || 0;
      if (e.kind === "fold") x.folded = true;
      x.stack -= add;
      x.bet += add;
      pot += add;
    }
    if (e.type === "UncalledReturned") { seat(e.seat).stack += e.amount; pot -= e.amount; }
    if (e.type === "BettingClosed") for (const x of seats.values()) x.bet = 0;
    if (e.type === "HoleDealt") {
      // Stud: which cards everyone saw (ours too, ringed as at the table).
      seat(e.seat).cards.push(...e.cards);
      seat(e.seat).ups.push(...(e.up || e.cards.map(() => false)));
    }
    if (e.type === "Drew" && e.dealt) {
      const x = seat(e.seat);
      x.cards = x.cards.filter((c) => !e.discarded.includes(c)).concat(e.dealt);
    }
    if (e.type === "BoardDealt") board.push(...e.cards);
    if (e.type === "Shown") seat(e.seat).cards = [...e.cards];
    if (e.type === "RakeTaken") pot -= e.amount; // the house's: out of the pot, in no stack
    if (e.type === "PotAwarded") { seat(e.seat).stack += e.amount; seat(e.seat).won += e.amount; pot -= e.amount; }
    // Chinese poker: the cards placed face up, top row first; the rows at the showdown;
    // the stacks after the settlement (a Chinese HandStarted carries none).
    if (e.type === "CardsPlaced") for (const r of ROWS) if (Array.isArray(e[r])) seat(e.seat).cards.push(...e[r]);
    if (e.type === "HandSettled") for (const r of e.results) { seat(r.seat).cards = ROWS.flatMap((row) => r[row]); seat(r.seat).won = r.chips; }
    if (e.type === "HandFinished") for (const [s, st] of e.stacks) seat(s).stack = st;
  }
  return { seats: [...seats.entries()].sort((a, b) => a[0] - b[0]), board, log, said, pot: Math.max(0, pot) };
}

function replayer(app, hand, phh) {
  const total = hand.events.length;
  let step = 0;
  const view = h("div.replay");
  const counter = h("span.stepcount");
  // Said at each step, with the step's own line: a screen reader stepping with Next
  // heard only "Step 3 of 40", what happened being in the list further down the page.
  const stepSaid = h("span.sr.stepsaid", { role: "status" });
  const show = () => {
    const st = replayState(hand, step);
    fill(view,
      h("div.replayboard", h("span", { text: "Board " }), cardRow(st.board, null, "Board"), h("span.pot", { text: ` Pot: ${chips(st.pot)}` })),
      h("table.replayseats", h("caption.sr", { text: "Seats" }),
        h("thead", h("tr", ["Seat", "Player", "Stack", "Bet", "Cards"].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", st.seats.map(([s, x]) => h("tr", { className: x.folded ? "folded" : "" },
          h("td", { text: String(s + 1) }), h("th", { scope: "row", text: x.name + (s === hand.me ? " (you)" : "") }),
          h("td", { text: chips(x.stack) }), h("td", { text: x.bet ? chips(x.bet) : "" }),
          h("td", cardRow(x.cards, x.ups, `${x.name}'s cards`)))))),
      h("ol.loglines", { tabindex: "0", "aria-label": "Actions so far" }, st.log.map((l) => h("li", { text: l }))));
    counter.textContent = `Step ${step} of ${total}`;
    stepSaid.textContent = `Step ${step} of ${total}${st.said ? `: ${st.said}` : ""}`;
  };
  const go = (n) => { step = Math.max(0, Math.min(total, n)); show(); };
  fill(app, h("h1", { text: `${hand.table} hand #${hand.hand_no}${hand.game ? ` · ${hand.game}` : ""}` }),
    h("div.replaycontrols", { role: "group", "aria-label": "Replay" },
      h("button", { type: "button", text: "Start", onclick: () => go(0) }),
      h("button", { type: "button", text: "◀ Back", onclick: () => go(step - 1) }),
      h("button", { type: "button", text: "Next ▶", onclick: () => go(step + 1) }),
      h("button", { type: "button", text: "End", onclick: () => go(total) }),
      counter, stepSaid,
      phh ? h("a.button", { href: phh, download: `${hand.id}.phh`, text: "Download PHH" })
        : hand.phhNote ? h("span.hint.nophh", { text: `No PHH: ${hand.phhNote}` }) : null),
    view, h("p", h("a", { href: "#/history", text: "All my hands" })));
  show();
}

/** When a hand was dealt, in the player's own time zone, its day too: "7 Dec, 19:44:39"
 *  (the time alone, "7:44:39 PM", told nothing of a hand days old). */
const dealtWhen = (at) => new Date(at).toLocaleString("en-GB",
  { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** The history screen: the list of one's hands, or one hand's replayer. */
export async function historyScreen(app, ctx, arg) {
  const server = await offers("/api/hands");
  let hands = savedHands(ctx.hello.alias);
  if (server) {
    // The server's records: `table/hand_no` names a hand; the PHH text comes inline;
    // `players` names who sat where (seat -> alias).
    // Only a hand is asked for: the argument went into the path as written, and its ".."
    // walked out of /api/hands/ (#/history/..%2F..%2Fapi%2Fme asked for /api/me, with
    // the player's cookie, and drew the answer as a hand). Anything else is no hand of
    // the server's (this browser's own hands are still looked for below).
    const asked = !arg ? "/api/hands" : handName(arg) ? `/api/hands/${arg}` : null;
    const r = asked ? await get(asked) : { status: 404, body: null };
    const fromServer = (x) => ({ id: `${x.table_id}/${x.hand_no}`, table: x.table_id, hand_no: x.hand_no, me: x.seat,
      names: x.players || {}, events: x.events || [], game: "", at: Date.parse(x.dealt_at) || Date.now(), phh: x.phh, phhNote: x.phh_note || "" });
    if (r.status === 200 && r.body && arg) {
      const hand = fromServer(r.body);
      const phh = hand.phh ? URL.createObjectURL(new Blob([hand.phh], { type: "text/plain" })) : null;
      replayer(app, hand, phh);
      return null;
    }
    if (r.status === 200 && r.body && r.body.hands) hands = r.body.hands.map(fromServer);
  }
  if (arg) {
    const hand = hands.find((x) => x.id === arg);
    if (hand) { replayer(app, hand, null); return null; }
    fill(app, h("h1", { text: "Hand history" }), h("p.message.error", { role: "alert", text: "This hand is not in your history." }));
    return null;
  }
  fill(app, h("h1", { text: "Hand history" }),
    h("p.hint", { text: server ? "Your hands, as your seat saw them." : "The hands you played in this browser (PHH download needs the server's hand-history service)." }),
    hands.length
      ? h("ul.hands", hands.map((x) => h("li",
        h("a", { href: `#/history/${x.id.split("/").map(encodeURIComponent).join("/")}`, text: `${x.table} hand #${x.hand_no}` }),
        h("span", { text: ` ${x.game || ""} · ${dealtWhen(x.at)}` }))))
      : h("p", { text: "No hands yet. Play a hand and it will be listed here." }));
  return null;
}

/** The last hands we played at `table` (this browser's record, newest first), each a
 *  link to its replayer: the server's record when it keeps one (`server`), else ours. */
export function lastHandsBox(alias, table, server) {
  const hands = savedHands(alias).filter((x) => x.table === table).slice(0, LAST_HANDS);
  if (!hands.length) return null;
  const enc = encodeURIComponent;
  return h("section.lasthands", { "aria-labelledby": "last-hands-title" },
    h("h2#last-hands-title", { text: "Your last hands here" }),
    h("ul", hands.map((x) => h("li",
      h("a", { href: server ? `#/history/${enc(table)}/${x.hand_no}` : `#/history/${enc(x.id)}`, text: `Hand #${x.hand_no}` }),
      x.game ? h("span", { text: ` · ${x.game}` }) : null))));
}
