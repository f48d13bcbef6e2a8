// The seats around the table: alias, stack, bet, cards, button, all-in, sitting out,
// leaving after the hand, whose turn with its countdown and time bank.

import { h, chips } from "./dom.js";
import { card, cardAction, cardRow } from "./cards.js";
import { family, studUps } from "./families.js";

/** Where seat `i` of `n` sits around the felt, with `me` at the bottom: how far across
 *  and down it (%). The seat's box is moved back by as much of its own size (`.seat`'s
 *  --x and --y in the CSS), so it stays inside the felt wherever it sits, however many
 *  cards it holds: at 2% its left edge is near the felt's, at 98% its right edge. The
 *  oval is made squarer (the 0.7 power), so the seats near the corners leave the middle
 *  to the board. Only a first guess: once drawn, layout.js's fitSeats measures the
 *  seats and places and sizes them so that none runs into another (nine or ten seats
 *  placed here do, at any window size). */
function place(i, n, me) {
  const shift = me === null || me === undefined ? 0 : me;
  const angle = Math.PI / 2 + (2 * Math.PI * (i - shift)) / n;
  const out = (v) => 50 + 48 * Math.sign(v) * Math.abs(v) ** 0.7;
  return { left: out(Math.cos(angle)), top: out(Math.sin(angle)) };
}

function seatCards(t, s, handSeat) {
  const cards = handSeat ? handSeat.cards : [];
  if (!cards || !cards.length) return null;
  // The up cards the HoleDealt events said, when the page saw the hand dealt; else (a
  // reload mid-hand) the usual pattern, never the streets seen since counted from the
  // first card.
  const seen = t.upsHand === t.view.hand_no ? t.ups.get(s) : null;
  const ups = t.family === "stud" ? (seen || studUps(cards.length)) : null;
  const selectable = t.discarding && s === t.view.you;
  const row = h("span.cards", { role: "group", "aria-label": s === t.view.you ? "Your cards" : "Cards" });
  cards.forEach((c, i) => {
    const el = card(c, { up: ups ? ups[i] : false, selected: selectable && t.discards.has(c) });
    if (selectable) {
      const btn = h("button.card-pick", {
        type: "button", "aria-pressed": String(t.discards.has(c)),
        "aria-label": cardAction("Discard", c),
        onclick: () => t.toggleDiscard(c),
      }, el);
      row.append(btn);
    } else row.append(el);
  });
  return row;
}

/** The countdown of seat `s` when it is to act (the table's tick keeps it current).
 *  `shared`: the seat is on the turn's clock though the turn names another seat (classic
 *  Chinese poker: all set at once, on one clock from the deal); once that clock has run
 *  out and the turn's time bank runs, such a seat's own time bank comes next. */
export function clock(t, s, shared = false) {
  const turn = t.view.turn;
  if (!turn || (turn.seat !== s && !shared)) return null;
  if (turn.seat !== s && turn.bank) return h("span.clock", { text: "Time bank next" });
  const left = Math.max(0, turn.deadline - t.now());
  return h("span.clock", { role: "timer", "data-running": "", "aria-label": `${Math.ceil(left)} seconds to act` },
    turn.bank ? h("span.bank", { text: "time bank " }) : null,
    h("span.secs", { text: `${Math.ceil(left)}s` }));
}

/** Our clock is a timer, which a screen reader never reads out by itself: below this
 *  many seconds the player is told once (a sighted one sees the countdown). */
export const LOW_SECONDS = 10;

/** What to say of our clock now, once per deadline (`t.clockSaid` remembers), or null:
 *  the time bank starting ("Your time bank is running: 30 seconds left."), then the
 *  last seconds ("10 seconds left to act."). `ours`: it is our turn (or our cards to
 *  set on the shared clock of classic Chinese poker). */
export function clockWarning(t, ours) {
  const turn = t.view && t.view.turn;
  if (!turn || !ours) return null;
  const left = Math.ceil(turn.deadline - t.now());
  const said = t.clockSaid || {};
  if (left <= 0 || said.deadline !== turn.deadline) t.clockSaid = { deadline: turn.deadline };
  if (left <= 0) return null;
  if (turn.bank && !t.clockSaid.bank) {
    t.clockSaid.bank = true;
    if (left <= LOW_SECONDS) t.clockSaid.low = true;
    return `Your time bank is running: ${left} seconds left.`;
  }
  if (left <= LOW_SECONDS && !t.clockSaid.low) {
    t.clockSaid.low = true;
    return `${left} second${left === 1 ? "" : "s"} left to act.`;
  }
  return null;
}

/** What our time bank shows: what is left, counting down while it runs on our turn. */
export function bankText(t, s, seat) {
  const turn = t.view.turn;
  const running = turn && turn.seat === s && turn.bank;
  const left = running ? Math.max(0, turn.deadline - t.now()) : seat.time_bank;
  return `Time bank ${Math.ceil(left)}s${running ? " (running)" : ""}`;
}

/** Our own time bank (the table's tick keeps it current while it runs). */
export function timeBank(t, s, seat) {
  return h("small.timebank", { text: bankText(t, s, seat) });
}

/** The seat stands up when the hand ends (its player asked to leave in it, or the room
 *  stands him up: the view's public `leaving`, never why): said to everyone, the seat
 *  being empty next hand. */
export function leavingTag() {
  return h("span.tag.leaving", { text: "Leaving after this hand" });
}

/** An empty seat's content: "Sit here" when we may sit (not seated yet), its name
 *  starting with what it shows ("label in name", WCAG 2.5.3: a voice user says "Sit
 *  here"), "Sit here: seat 3"; "Seat 3 held for the waiting list" when the room holds
 *  it for another player (the view's `held`, RULEBOOK §10.3: he alone may take it);
 *  else "Seat 3 empty". */
export function sitHere(t, s) {
  const ours = t.view.offer && t.view.offer.seat === s;
  if (!ours && (t.view.held || []).includes(s)) return h("span", { text: `Seat ${s + 1} held for the waiting list` });
  if (t.me() !== null && t.me() !== undefined) return h("span", { text: `Seat ${s + 1} empty` });
  return h("button", { type: "button", text: "Sit here", "aria-label": `Sit here: seat ${s + 1}`, onclick: () => t.askBuyIn(s) });
}

/** Whether the dealer button is at seat ``s`` (the hand's, else the table's last). */
function hasButton(t, s) {
  const hand = t.view.hand;
  return t.view.button === s || Boolean(hand && hand.button === s);
}

/** The dealer button's badge. */
function dealerBadge() {
  return h("span.dealer", { title: "Dealer button" }, h("span", { "aria-hidden": "true", text: "D" }), h("span.sr", { text: "dealer button" }));
}

/** One seat: empty (with "Sit here" when we may, and the button when it is dead here)
 *  or taken. */
function seatEl(t, s, n) {
  const seat = t.view.seats[s];
  const hand = t.view.hand;
  const pos = place(s, n, t.view.you);
  const [x, y] = [pos.left.toFixed(1), pos.top.toFixed(1)];
  const style = { left: `${x}%`, top: `${y}%`, "--x": x, "--y": y };
  if (!seat) {  // a dead button may lie here (§10.4): shown, or no button is shown at all
    return h("div.seat.empty", { style, "data-seat": s }, sitHere(t, s), hasButton(t, s) ? dealerBadge() : null);
  }
  const hs = hand ? hand.seats[s] : null;
  const alias = t.players[seat.player] || seat.player;
  const mine = s === t.view.you;
  const cls = ["seat"];
  if (mine) cls.push("mine");
  if (t.view.turn && t.view.turn.seat === s) cls.push("turn");
  if (hs && !hs.in_hand) cls.push("folded");
  const badges = [];
  if (hasButton(t, s)) badges.push(dealerBadge());
  if (hs && hs.all_in) badges.push(h("span.tag.allin", { text: "All-in" }));
  if (seat.sitting_out) badges.push(h("span.tag", { text: "Sitting out" }));
  if (!seat.connected) badges.push(h("span.tag", { text: "Disconnected" }));
  if (seat.leaving) badges.push(leavingTag());
  if (hand && hs && !hs.in_hand && seat.dealt_in) badges.push(h("span.tag", { text: "Folded" }));
  // Seated since the deal (or back from sitting out): no cards, and why.
  if (hand && !seat.dealt_in && !seat.sitting_out) badges.push(h("span.tag", { text: "Waiting", title: "Dealt in from a later hand" }));
  const drew = t.drew.get(s);
  const drewText = drew === "discarded" ? "Discarded" : drew === 0 ? "Stood pat" : `Drew ${drew}`;
  if (drew !== undefined) badges.push(h("span.tag.drew", { text: drewText }));
  const stack = hs ? hs.stack : seat.stack;
  return h(`div.${cls.join(".")}`, { style, "data-seat": s, role: "group", "aria-label": `Seat ${s + 1}: ${alias}${mine ? " (you)" : ""}` },
    h("div.who", h("span.alias", { text: alias }), badges),
    h("div.stack", h("span.sr", { text: "stack " }), h("span.chips", { text: chips(stack) })),
    seatCards(t, s, hs),
    hs && hs.bet ? h("div.bet", h("span.sr", { text: "bet " }), chips(hs.bet)) : null,
    clock(t, s),
    mine ? timeBank(t, s, seat) : null);
}

/** The felt: seats, board, pots. */
export function felt(t) {
  const n = t.view.seats.length;
  const hand = t.view.hand;
  // Stud's community card (§6.4, the deck ran short) is named: a lone card in the middle
  // of a stud table otherwise looked like a card dealt astray.
  const shared = hand && hand.board.length && family(hand.game) === "stud";
  const board = !hand || !hand.board.length ? h("span.cards.empty-board")
    : shared ? h("div.community", h("small", { text: "Community card" }), cardRow(hand.board, null, "Community card, every player's 7th card"))
    : cardRow(hand.board, null, "Board");
  const pots = [];
  if (hand) {
    hand.pots.forEach((p, i) => pots.push(h("span.pot", { text: `${i === 0 ? "Pot" : `Side pot ${i}`}: ${chips(p.amount)}` })));
    const bets = hand.seats.reduce((a, x) => a + (x ? x.bet : 0), 0);
    if (bets) pots.push(h("span.pot.bets", { text: `Bets: ${chips(bets)}` }));
  }
  return h("div.felt", { role: "region", "aria-label": "Table" },
    h("div.centre", board, h("div.pots", { "aria-live": "off" }, pots),
      hand ? h("div.street", { text: hand.street ? hand.street.replace(/_/g, " ") : "" }) : null),
    Array.from({ length: n }, (_, s) => seatEl(t, s, n)));
}
