// Chinese poker tables (OFC, Pineapple, Turbo, Progressive, 2-7, classic): each
// player's three rows, the cards to place this street, the discard, Fantasyland,
// and the showdown's fouls, royalties and points.
//
// Placing: pick a card (click, or Tab to it and Enter/Space; or drag it), then a row
// (its button, or drop the card on it). Staged cards wait in the rows, outlined, until
// "Place cards" sends them; a staged card clicked goes back. Keys (never while typing,
// through the action bar's key handler): T, M, B put the picked card in the top, middle
// or bottom row, X discards it, P places.

import { h, chips } from "./dom.js";
import { card, cardAction, cardName, cardRow, cardsLater, dealtLine } from "./cards.js";
import { clock, leavingTag, sitHere, timeBank } from "./seats.js";

export const ROWS = ["top", "middle", "bottom"];
const SIZES = { top: 3, middle: 5, bottom: 5 };
const ROW_NAMES = { top: "Top", middle: "Middle", bottom: "Bottom", discard: "Discard" };

/** What we are asked to place now: {cards, place, discard, free}, or null. */
export function placement(t) {
  const hand = t.view && t.view.hand;
  const me = t.me();
  if (!hand || !hand.players || me === null || me === undefined || t.waiting) return null;
  const mine = hand.players.find((p) => p.seat === me);
  if (hand.options && mine && Array.isArray(mine.pending) && mine.pending.length) {
    return { cards: mine.pending, ...hand.options };
  }
  const turn = t.turn;
  if (turn && turn.seat === me && turn.legal && (turn.legal.actions || []).includes("place")) {
    return { cards: turn.cards, ...turn.legal };
  }
  return null;
}

/** The staging of the cards to place (reset when the cards change). */
function staging(t, asked) {
  const key = asked ? asked.cards.join(" ") : "";
  if (!t.ofc || t.ofc.key !== key) t.ofc = { key, where: new Map(), picked: null };
  return t.ofc;
}

function stagedIn(st, row) {
  return [...st.where].filter(([, r]) => r === row).map(([c]) => c);
}

/** Room left in a row (or the discard) for the cards being placed. */
function room(asked, st, row) {
  const limit = row === "discard" ? asked.discard : asked.free[row];
  return limit - stagedIn(st, row).length;
}

/** Put the picked (or given) card in `row`, if it has room. */
export function stage(t, row, c) {
  const asked = placement(t);
  if (!asked) return;
  const st = staging(t, asked);
  const chosen = c || st.picked || asked.cards.find((x) => !st.where.has(x));
  if (!chosen || room(asked, st, row) <= 0) return;
  st.where.set(chosen, row);
  st.picked = asked.cards.find((x) => !st.where.has(x)) || null;
  t.render();
}

function unstage(t, c) {
  if (!t.ofc) return;
  t.ofc.where.delete(c);
  t.ofc.picked = c;
  t.render();
}

function pick(t, c) {
  if (!t.ofc) return;
  t.ofc.picked = t.ofc.picked === c ? null : c;
  t.render();
}

function ready(asked, st) {
  const placed = ROWS.reduce((n, r) => n + stagedIn(st, r).length, 0);
  return placed === asked.place && stagedIn(st, "discard").length === asked.discard;
}

/** Send the staged placement. */
export function submit(t) {
  const asked = placement(t);
  if (!asked) return;
  const st = staging(t, asked);
  if (!ready(asked, st)) return;
  const fields = {};
  for (const r of [...ROWS, "discard"]) fields[r] = stagedIn(st, r);
  t.ofc = null;
  t.acting("place", fields);
}

function slots(count) {
  return Array.from({ length: Math.max(0, count) }, () => h("span.slot", { "aria-hidden": "true" }));
}

/** One row of a player: placed cards, staged ones (ours), face-down ones, empty slots. */
function rowEl(t, p, row, asked, st) {
  const placed = p.rows[row] || [];
  const staged = asked && p.seat === t.me() ? stagedIn(st, row) : [];
  const faceDown = Math.max(0, Math.min(p.face_down - ROWS.slice(0, ROWS.indexOf(row)).reduce((n, r) => n + SIZES[r], 0), SIZES[row] - placed.length));
  const label = `${ROW_NAMES[row]} row${p.seat === t.me() ? "" : ` of ${t.seatName(p.seat)}`}`;
  const el = h(`div.ofc-row.row-${row}`, { role: "group", "aria-label": label, "data-row": row },
    h("span.rowname", { text: ROW_NAMES[row] }),
    placed.map((c) => card(c)),
    Array.from({ length: faceDown }, () => card(null)),
    staged.map((c) => h("button.card-pick.staged", { type: "button", "aria-label": cardAction("Take back", c), onclick: () => unstage(t, c) }, card(c))),
    slots(SIZES[row] - placed.length - faceDown - staged.length));
  if (asked && p.seat === t.me()) dropTarget(t, el, row);
  return el;
}

function dropTarget(t, el, row) {
  el.addEventListener("dragover", (e) => e.preventDefault());
  el.addEventListener("drop", (e) => {
    e.preventDefault();
    stage(t, row, e.dataTransfer.getData("text/plain"));
  });
}

function tags(t, s, p) {
  const out = [];
  if (t.view.button === s) out.push(h("span.dealer", { title: "Dealer button" }, h("span", { "aria-hidden": "true", text: "D" }), h("span.sr", { text: "dealer button" })));
  if (p && p.in_fantasyland) out.push(h("span.tag.fantasy", { text: "Fantasyland" }));
  const next = t.view.chinese && t.view.chinese.fantasyland;
  if (next && next[s] && !(p && p.in_fantasyland && t.view.hand && !t.view.hand.finished)) {
    out.push(h("span.tag.fantasy", { text: `Fantasyland next (${next[s]} cards)` }));
  }
  return out;
}

/** One seat of the Chinese table. */
function seatEl(t, s) {
  const seat = t.view.seats[s];
  if (!seat) {
    return h("div.seat.ofc-seat.empty", { "data-seat": s }, sitHere(t, s));
  }
  const hand = t.view.hand;
  const p = hand && hand.players ? hand.players.find((x) => x.seat === s) : null;
  const mine = s === t.me();
  const asked = mine ? placement(t) : null;
  const st = asked ? staging(t, asked) : null;
  // Everyone still to place is on the clock: one seat at a time, or all at once from
  // the deal in classic (RULEBOOK §8; the hand's `to_act`, the turn naming the first).
  const setting = !!(hand && !hand.finished && (hand.to_act || []).includes(s));
  const cls = ["seat", "ofc-seat"];
  if (mine) cls.push("mine");
  if (t.view.turn && (t.view.turn.seat === s || setting)) cls.push("turn");
  const alias = t.players[seat.player] || seat.player;
  const badges = tags(t, s, p);
  if (seat.sitting_out) badges.push(h("span.tag", { text: "Sitting out" }));
  if (!seat.connected) badges.push(h("span.tag", { text: "Disconnected" }));
  if (seat.leaving) badges.push(leavingTag());
  const waiting = p && !mine && typeof p.pending === "number" && p.pending ? h("small.pending", { text: `${p.pending} card${p.pending > 1 ? "s" : ""} to place` }) : null;
  const discards = p && (Array.isArray(p.discards) ? p.discards.length : p.discards);
  return h(`div.${cls.join(".")}`, { "data-seat": s, role: "group", "aria-label": `Seat ${s + 1}: ${alias}${mine ? " (you)" : ""}` },
    h("div.who", h("span.alias", { text: alias }), badges),
    h("div.stack", h("span.sr", { text: "stack " }), h("span.chips", { text: chips(seat.stack) })),
    p ? h("div.ofc-rows", ROWS.map((r) => rowEl(t, p, r, asked, st))) : null,
    waiting,
    discards ? h("small.discards", { text: `Discarded: ${Array.isArray(p.discards) ? p.discards.join(" ") : discards}` }) : null,
    clock(t, s, setting),
    mine ? timeBank(t, s, seat) : null);
}

/** The felt of a Chinese table: every seat with its rows. */
export function chineseFelt(t) {
  const hand = t.view.hand;
  const info = t.view.chinese || {};
  const street = hand ? (hand.finished ? "Showdown" : `Street ${hand.street + 1}`) : "Between hands";
  return h("div.felt.ofc", { role: "region", "aria-label": "Table" },
    h("div.centre", h("div.ofc-info", { text: `${hand ? `${hand.name} · ` : ""}${street} · ${chips(info.point_value)} a point` })),
    t.view.seats.map((_, s) => seatEl(t, s)));
}

/** The placement bar: the cards to place, the rows to put them in, Place. */
export function placeBar(t) {
  const asked = placement(t);
  if (!asked) return null;
  const st = staging(t, asked);
  if (!st.picked || st.where.has(st.picked)) st.picked = asked.cards.find((c) => !st.where.has(c)) || null;
  const left = asked.cards.filter((c) => !st.where.has(c));
  const hand = h("span.cards.to-place", { role: "group", "aria-label": "Your cards to place" },
    left.map((c) => {
      const btn = h("button.card-pick", {
        type: "button", "aria-pressed": String(st.picked === c), "aria-label": cardAction("Pick", c),
        draggable: "true", onclick: () => pick(t, c),
      }, card(c, { selected: st.picked === c }));
      btn.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", c); st.picked = c; });
      return btn;
    }));
  const targets = [...ROWS, ...(asked.discard ? ["discard"] : [])].map((r) => {
    const n = room(asked, st, r);
    const btn = h("button.row-target", {
      type: "button", disabled: n <= 0 || !left.length, "data-key": r === "discard" ? "x" : r[0],
      "aria-keyshortcuts": r === "discard" ? "X" : r[0].toUpperCase(),
      text: r === "discard" ? `Discard (${n})` : `${ROW_NAMES[r]} (${n} free)`, onclick: () => stage(t, r),
    });
    if (r === "discard") dropTarget(t, btn, r);
    return btn;
  });
  const staged = stagedIn(st, "discard");
  const what = asked.discard ? `Place ${asked.place}, discard ${asked.discard}` : `Place ${asked.place} card${asked.place > 1 ? "s" : ""}`;
  return h("div.actionbar.placebar", { role: "group", "aria-label": "Place your cards" },
    h("strong", { text: `${what}:` }), hand,
    h("span.row-targets", targets),
    staged.length ? h("span.discarding", h("span", { text: "Discarding " }), staged.map((c) => h("button.card-pick.staged", { type: "button", "aria-label": cardAction("Take back", c), onclick: () => unstage(t, c) }, card(c)))) : null,
    h("button.primary", { type: "button", text: "Place cards", disabled: !ready(asked, st), "data-key": "p", "aria-keyshortcuts": "P", onclick: () => submit(t) }),
    h("button", { type: "button", text: "Clear", onclick: () => { t.ofc = null; t.render(); } }));
}

function royaltiesText(r) {
  const parts = ROWS.filter((row) => (r.royalties || {})[row]).map((row) => `${row} ${r.royalties[row]}`);
  return parts.length ? `royalties ${parts.join(", ")}` : "no royalties";
}

/** Each seat's chips won or lost in a settled hand: its stack after (a HandFinished's
 *  `stacks`, [seat, chips] pairs) less its stack before (`before`, seat -> chips). The
 *  scoring's chips are points times the point's value; a loser who could not cover pays
 *  only his table chips, so what moved is read from the stacks. */
export function chipsMoved(before, stacks) {
  const moved = {};
  for (const [seat, after] of stacks) if (before[seat] !== undefined) moved[seat] = after - before[seat];
  return moved;
}

/** The showdown of the last Chinese hand: rows, fouls, royalties, points and chips. */
export function ofcShowdown(t) {
  const sd = t.chineseResult;
  if (!sd) return null;
  const name = (s) => t.seatName(s);
  const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
  const money = (r) => {
    const moved = sd.moved && sd.moved[r.seat];
    if (moved === undefined || moved === r.chips) return `${signed(r.chips)} chips`;
    return `${signed(r.chips)} chips scored, ${signed(moved)} paid: table stakes`;
  };
  return h("section.showdown.ofc-showdown", { "aria-label": "Showdown" },
    h("h2", { text: `Showdown, hand #${sd.handNo ?? ""}` }),
    h("ul", sd.results.map((r) => h("li", { className: r.fouled ? "fouled" : "" },
      h("div.verdict", h("strong", { text: `${name(r.seat)}: ${signed(r.points)} points (${money(r)})` }),
        h("span", { text: r.fouled ? " · Fouled" : ` · ${royaltiesText(r)}` }),
        r.fantasyland_next ? h("span.tag.fantasy", { text: `Fantasyland next (${r.fantasyland_next} cards)` }) : null),
      h("div.ofc-rows", ROWS.map((row) => cardRow(r[row], null, `${name(r.seat)}'s ${row} row`)))))));
}

/** A sentence for a Chinese hand's event (or null). */
export function describeChinese(e, seatName) {
  if (e.type === "CardsPlaced") {
    const n = ROWS.reduce((a, r) => a + (Array.isArray(e[r]) ? e[r].length : e[r] || 0), 0);
    // Which cards went where, when they are face up: what the others see on the felt
    // (a screen reader heard only "places 1 card"); classic's and Fantasyland's are
    // face down until the showdown, counted.
    const where = ROWS.filter((r) => Array.isArray(e[r]) && e[r].length).map((r) => `${r} ${cardsLater(e[r])}`);
    return `${seatName(e.seat)} places ${n} card${n === 1 ? "" : "s"}${where.length ? `: ${where.join(", ")}` : ""}.`;
  }
  // One's own cards to place (the others' are a count).
  if (e.type === "CardsDealt" && Array.isArray(e.cards)) return dealtLine(seatName(e.seat), e.cards, null);
  if (e.type === "HandSettled") {
    return e.results.map((r) => `${seatName(r.seat)} ${r.points >= 0 ? "+" : ""}${r.points}${r.fouled ? " (fouled)" : ""}`).join(", ") + ".";
  }
  return null;
}
