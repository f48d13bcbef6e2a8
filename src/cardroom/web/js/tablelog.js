// What happened at the table, in words: the action log, the showdown (cards shown,
// the winning hands named hi and lo) and the chat.

import { h, chips } from "./dom.js";
import { cardRow, cardsLater, cardWords, dealtLine } from "./cards.js";
import { describeChinese } from "./ofc.js";
import { family } from "./families.js";

const SHARE = { all: "", high: " (high)", low: " (low)", hi: " (high)", lo: " (low)" };

/** Follows a hand's betting so that a raise is told as a player says it: "bets N" when
 *  nobody has bet on the street yet (the live blinds are the bet preflop; antes are
 *  not), "completes to N" when it makes a stud bring-in (or the bring-in seat's own
 *  opening) a full bet, else "raises to N". `see` every event after describing it. */
export class BetWords {
  constructor() {
    this.level = "none"; // "none", "bring_in" (a bring-in below a full bet) or "bet"
    this.bringInDue = false; // stud's 3rd street, the bring-in seat not acted yet
    this.studRules = null; // {bringIn, fullBet} of a stud hand, else null
    this.handNo = null;
  }

  /** True when a raise now makes a stud bring-in (standing, or due from the raiser)
   *  a full bet: a completion, in the log and on the action bar. */
  completing() {
    return this.level === "bring_in" || (this.level === "none" && this.bringInDue);
  }

  /** The verb and amount of a raise to `to`. */
  raise(to) {
    if (this.level === "bet") return `raises to ${chips(to)}`;
    if (this.completing()) return `completes to ${chips(to)}`;
    return `bets ${chips(to)}`;
  }

  see(e) {
    if (e.type === "HandDealt") this.handNo = e.hand_no;
    if (e.type === "HandStarted") {
      this.level = "none";
      this.bringInDue = false;
      this.studRules = family(e.game) === "stud" ? studRules(e.table) : null;
    } else if (e.type === "Posted" && e.live) this.level = "bet";
    else if (e.type === "StreetStarted") {
      if (e.index > 0) this.level = "none";
      this.bringInDue = e.index === 0 && !!this.studRules && this.studRules.bringIn > 0;
    } else if (e.type === "Acted" && e.kind === "bring_in") {
      this.bringInDue = false;
      this.level = this.studRules && e.to >= this.studRules.fullBet ? "bet" : "bring_in";
    } else if (e.type === "Acted" && e.kind === "raise") {
      this.bringInDue = false;
      this.level = "bet";
    }
  }

  /** Take the betting from a snapshot when this hand's start was not seen (the page
   *  opened or came back in the middle of it). */
  sync(view) {
    const hand = view && view.hand;
    if (!hand || typeof hand.current_bet !== "number" || view.hand_no === this.handNo) return;
    this.handNo = view.hand_no;
    this.studRules = family(hand.game) === "stud" ? studRules(hand.table) : null;
    const full = this.studRules ? this.studRules.fullBet : 1;
    this.level = hand.current_bet <= 0 ? "none" : hand.current_bet < full ? "bring_in" : "bet";
    this.bringInDue = false;
  }
}

/** A stud hand's bring-in and full first bet, from its configuration. */
function studRules(table) {
  const stakes = (table && table.stakes) || {};
  const fullBet = stakes.small_bet ?? stakes.big_blind ?? 0;
  const bringIn = stakes.bring_in ?? Math.floor(fullBet / 2);
  return { bringIn, fullBet };
}

/** Which pot a share or the rake came from, when the hand had side pots (`several`). */
export function fromPot(pot, several) {
  return !several ? "" : pot ? ` from side pot ${pot}` : " from the main pot";
}

/** A sentence for one event, or null for the events not worth a line. `discardStreet`:
 *  a Drew replaces nothing (Irish); another seat's count of cards thrown is not told.
 *  `bets`: the hand's BetWords (a raise is then told as a bet or a completion when it
 *  is one); `several`: the hand had side pots, so each share and the rake name their pot. */
export function describe(e, name, seatName = (s) => `Seat ${s + 1}`, discardStreet = false, bets = null, several = false) {
  const S = (s) => seatName(s);
  switch (e.type) {
    case "PlayerSeated": return `${name(e.player)} sits down with ${chips(e.stack)}.`;
    case "PlayerLeft": return `${name(e.player)} leaves the table.`;
    case "LeaveRequested": return `${S(e.seat)} leaves after this hand.`;
    case "LeaveCancelled": return `${S(e.seat)} stays.`;
    case "SatOut": return `${S(e.seat)} sits out.`;
    case "SatIn": return `${S(e.seat)} is back.`;
    case "ChipsAdded": return `${S(e.seat)} adds ${chips(e.amount)}.`;
    case "HandDealt": return `Hand #${e.hand_no} begins.`;
    case "Posted": return `${S(e.seat)} posts ${e.what.replace(/_/g, " ")} ${chips(e.amount)}.`;
    case "Acted": {
      const verb = { fold: "folds", check: "checks", call: `calls ${chips(e.amount)}`, raise: bets ? bets.raise(e.to) : `raises to ${chips(e.to)}`, bring_in: `brings in for ${chips(e.amount)}` }[e.kind] || e.kind;
      return `${S(e.seat)} ${verb}${e.all_in ? " and is all-in" : ""}.`;
    }
    case "Drew":
      if (discardStreet) return `${S(e.seat)} discards${e.discarded ? ` ${cardsLater(e.discarded)}` : ""}.`;
      // The cards drawn are the drawer's alone (the others' event has the count only).
      return `${S(e.seat)} ${e.count === 0 ? "stands pat" : `draws ${e.count}`}.${e.dealt && e.dealt.length ? ` New cards: ${cardsLater(e.dealt)}.` : ""}`;
    // What a seat sees dealt: its own cards, and the others' face-up ones (stud); a
    // sighted player sees them on the felt, a screen reader hears them here.
    case "HoleDealt": return dealtLine(S(e.seat), e.cards, e.up);
    // Stud's card for all when the deck cannot give each player a 7th (RULEBOOK §6.4): a
    // "Board:" line alone left a stud player wondering where the cards came from.
    case "BoardDealt": return bets && bets.studRules ? `Community card, every player's 7th card: ${cardsLater(e.cards)}.` : `Board: ${cardsLater(e.cards)}.`;
    // The deck ran out (a draw, §6.7): a live dealer says so; its cards are nobody's to see.
    case "StubReshuffled": return `The deck has run out: ${e.count} cards of the muck are shuffled into a new deck.`;
    // Stud's streets and the draws have no board line to mark them: said by name.
    // Flop games have their "Board:" line, and the first street is the deal.
    case "StreetStarted": return e.index > 0 && /(street|draw)$/.test(e.name) ? `${e.name[0].toUpperCase()}${e.name.slice(1)}.` : null;
    case "TimedOut": return `${S(e.seat)} ran out of time${e.disconnected ? " (disconnected)" : ""}.`;
    case "UncalledReturned": return `${chips(e.amount)} uncalled returned to ${S(e.seat)}.`;
    case "Shown": return `${S(e.seat)} shows ${cardsLater(e.cards)}.`;
    case "Mucked": return `${S(e.seat)} mucks.`;
    // Real money: the house's share, taken before the pot is awarded (RULEBOOK §10.8), so
    // the pot shown and what its winner is paid differ by it.
    case "RakeTaken": return `Rake ${chips(e.amount)}${fromPot(e.pot, several)}.`;
    case "PotAwarded": return `${S(e.seat)} wins ${chips(e.amount)}${SHARE[e.share] ?? ""}${fromPot(e.pot, several)}${e.hand ? ` with ${e.hand}` : ""}.`;
    case "HandCancelled": return "The hand is cancelled; stacks are restored.";
    case "HandVoided": return "The hand is void.";
    case "DisconnectAllInUsed": // how many used today: sent to the player's own seat only
      return `${S(e.seat)} is all-in by disconnection${e.used_today == null ? "" : ` (${e.used_today} used today)`}.`;
    case "SeatOffered": return `A seat is offered to ${name(e.player)}.`;
    case "WaitlistJoined": return `${name(e.player)} joins the waiting list.`;
    default: return describeChinese(e, S);
  }
}

/** The showdown of the last hand: who showed what, who won which share with what. */
export function showdownPanel(t) {
  const sd = t.showdown;
  if (!sd || (!sd.shown.size && !sd.awards.length)) return null;
  const seatName = (s) => {
    const seat = t.view.seats[s];
    return seat ? t.players[seat.player] || seat.player : `Seat ${s + 1}`;
  };
  // With side pots, which pot each award is (RULEBOOK §12): the felt no longer shows them.
  const several = sd.awards.some((a) => a.pot > 0);
  return h("section.showdown", { "aria-label": "Showdown" },
    h("h2", { text: `${sd.shown.size ? "Showdown" : "Last hand"}, hand #${sd.handNo ?? ""}` }),
    h("ul", [...sd.shown].map(([s, cards]) => h("li", h("span", { text: `${seatName(s)} shows ` }), cardRow(cards, null, `${seatName(s)}'s cards`)))),
    h("ul.winners", sd.awards.map((a) => h("li.winner",
      h("span", { text: `${seatName(a.seat)} wins ${chips(a.amount)}${SHARE[a.share] ?? ""}${fromPot(a.pot, several)}${a.hand ? ` with ${a.hand}` : ""}` }),
      a.cards && a.cards.length ? cardRow(a.cards, null, "winning hand") : null))));
}

/** Scroll `list` (the chat's, the log's: rebuilt at each line) to its last line once it
 *  is on the page; not while the tab is hidden. A scroll set in a tab that draws no
 *  frames keeps its list alive until the next frame: a background table's log piled up
 *  detached lists, some 3,000 DOM nodes a minute at a busy table, until the tab was
 *  shown again. The tab shown scrolls them then (`scrollWhenShown`). */
function scrollToEnd(list) {
  setTimeout(() => { if (!document.hidden) list.scrollTop = list.scrollHeight; }, 0);
}

/** When the tab is shown again, the chat and the log of `root` go to their last lines
 *  (not scrolled while it was hidden: scrollToEnd). Returns the listener's removal. */
export function scrollWhenShown(root) {
  const shown = () => {
    if (document.hidden) return;
    for (const list of root.querySelectorAll(".chatlines, .loglines")) list.scrollTop = list.scrollHeight;
  };
  document.addEventListener("visibilitychange", shown);
  return () => document.removeEventListener("visibilitychange", shown);
}

/** The chat box: lines and a field to say something. */
export function chatBox(t) {
  const list = h("ol.chatlines", { "aria-live": "polite", "aria-label": "Chat messages", tabindex: "0" },
    t.chat.map((c) => h("li", { className: c.system ? "system" : "" }, c.alias ? h("b", { text: `${c.alias}: ` }) : null, c.text)));
  const input = h("input#chat-input", { type: "text", maxLength: 500, autocomplete: "off", placeholder: "Say something" });
  const form = h("form.chatform", {
    onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) t.say(input.value.trim()); input.value = ""; },
  }, h("label.sr", { for: "chat-input", text: "Chat message" }), input, h("button", { type: "submit", text: "Send" }));
  scrollToEnd(list);
  return h("section.chat", { "aria-label": "Chat" }, h("h2", { text: "Chat" }), list, form);
}

const REPORT_REASONS = { coffee_housing: "Coffee-housing", collusion: "Collusion", chat_abuse: "Chat abuse", other: "Other" };

/** The report button (RULEBOOK §10.7): a complaint against a player here, for review. */
export function reportBox(t) {
  const players = t.reportable();
  if (!players.length) return null;
  const who = h("select#report-player", {}, players.map((a) => h("option", { value: a, text: a })));
  const why = h("select#report-reason", {}, Object.entries(REPORT_REASONS).map(([v, text]) => h("option", { value: v, text })));
  const note = h("input#report-note", { type: "text", maxLength: 500, placeholder: "What happened (optional)" });
  const form = h("form.reportform", {
    onsubmit: async (e) => {
      e.preventDefault();
      const r = await t.report(who.value, why.value, note.value.trim());
      if (r.type === "ok") note.value = "";
    },
  },
  h("label", { for: "report-player", text: "Player" }), who,
  h("label", { for: "report-reason", text: "Reason" }), why,
  h("label", { for: "report-note", text: "Note" }), note,
  h("button", { type: "submit", text: "Report" }));
  return h("details.report", h("summary", { text: "Report a player" }), form);
}

/** The last lines of the action log. */
/** A player in a log line whose alias the page does not know yet (a player who just sat
 *  down: the next snapshot brings it); `named` puts the alias in when the log is drawn. */
export function nameLater(player) { return `\u0001${player}\u0002`; }

/** `line` with every player put by `nameLater` named by `name`, and its cards
 *  (`cardsLater`) as codes to show, or by name to say (`spoken`, cards.js `cardWords`). */
export function named(line, name, spoken = false) {
  return cardWords(line.replace(/\u0001([^\u0002]*)\u0002/g, (_, player) => name(player)), spoken);
}

const SAID_KEPT = 5;

/** Say each new line of the log once, in `region` (a polite live region, visually
 *  hidden): the log itself is rebuilt at every event, so it cannot be a live region,
 *  and a screen reader heard nothing of the others' moves. Lines are added, never
 *  replaced (only additions are announced); the last few are kept. */
export function sayNewLines(t, region) {
  const fresh = t.log.slice(t.said || 0);
  t.said = t.log.length;
  for (const line of fresh) say(region, named(line, (p) => t.name(p), true));
}

/** Say `text` once in `region` (the table's `#said`), keeping its last few lines. */
export function say(region, text) {
  region.append(h("p", { text }));
  while (region.children.length > SAID_KEPT) region.firstElementChild.remove();
}

/** The log keeps between `LOG_KEPT` and twice as many lines: a page left at a table all day would hold
 *  every line of every hand (2,300 in 32 minutes at a fast table), and only the last 40
 *  are shown. Trimmed back to `LOG_KEPT` in one go, not a line at a time. */
const LOG_KEPT = 400;

/** Add `line` to the table's log (`t.log`), forgetting the oldest past `LOG_KEPT`; the
 *  count of lines said (`t.said`) follows what was forgotten. */
export function keepLine(t, line) {
  t.log.push(line);
  t.logLines = (t.logLines || 0) + 1;
  if (t.log.length > 2 * LOG_KEPT) {
    const gone = t.log.length - LOG_KEPT;
    t.log.splice(0, gone);
    t.said = Math.max(0, (t.said || 0) - gone);
  }
}

export function logBox(t) {
  const lines = t.log.slice(-40).map((line) => h("li", { text: named(line, (p) => t.name(p)) }));
  const list = h("ol.loglines", { tabindex: "0", "aria-label": "Hand log" }, lines);
  scrollToEnd(list);
  return h("section.log", { "aria-label": "Hand log" }, h("h2", { text: "Log" }), list);
}
