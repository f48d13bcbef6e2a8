// One table: the view from the server's snapshots, kept current by its events.
//
// The snapshot (the seat's own projection) is the truth. Events are told in the
// log and the showdown panel as they come, and after a burst of them the table
// asks for a fresh snapshot (`watch` again), so what is drawn is always exactly
// what the server's projection says, own cards and legal actions included.

import { h, fill, patch, chips } from "./dom.js";
import { family, gameLabel } from "./families.js";
import { bankText, clockWarning, felt } from "./seats.js";
import { fitSeats, heldDown } from "./layout.js";
import { actionBar, advanceBox, advanceOffered, keyHandler } from "./actionbar.js";
import { BetWords, describe, nameLater, showdownPanel, chatBox, keepLine, logBox, reportBox, say, sayNewLines, scrollWhenShown } from "./tablelog.js";
import { HandRecorder } from "./handstore.js";
import { lastHandsBox } from "./history.js";
import { offers, sentence } from "./api.js";
import { sayOffers, watchOurLists } from "./offered.js";
import { judgedLine, refusedLine } from "./moderation.js";
import { chineseFelt, chipsMoved, ofcShowdown, placeBar, placement } from "./ofc.js";
import { askBuyIn, leftWords, offerLeft, seatControls, waitlistLeftWords } from "./sitting.js";
import { focusedKey, holdFocus, keepOnScreen, refocus, typedValues } from "./regions.js";
import { tableClosed } from "./closing.js";
import { tablePaused } from "./paused.js";
import { pageTitle, tableHeader } from "./tablehead.js";
import { sayTurn } from "./turnsaid.js";
import { TapGuard } from "./touchguard.js";
import { TABLE_ID } from "./ws.js";

/** What a seat shows of its last draw: at a flop game (Irish) a draw is a discard street,
 *  cards thrown and none dealt; else how many cards it drew. */
const drawShown = (flop, count) => (flop ? "discarded" : count);

const ADVANCE_NAMES = { check_fold: "Check/fold", check: "Check", call_any: "Call any", fold: "Fold" };
/** The events that start (the first) or end our seat's sitting out from the next hand. */
const SIT_OUT_NEXT = new Set(["SitOutRequested", "SatOut", "SatIn", "PlayerLeft"]);
/** What the player is told when the room drops their advance action, by its reason
 *  (none when they acted, withdrew it or left the hand). */
const ADVANCE_CLEARED = {
  used: (a) => `Your advance action was played: ${a}.`,
  bet_changed: (a) => `The bet changed: your advance action (${a}) was cleared.`,
  street: (a) => `A new street: your advance action (${a}) was cleared.`,
  stale: (a) => `Your advance action (${a}) no longer fits: act now.`,
};

/** An advance action in words ("Call 4", "Check/fold"). */
function advanceName(a) {
  return a.kind === "call" ? `Call ${chips(a.amount)}` : ADVANCE_NAMES[a.kind] || a.kind;
}

class TableController {
  constructor(app, ctx, id) {
    this.app = app;
    this.ctx = ctx;
    this.conn = ctx.conn;
    this.id = id;
    this.view = null;
    this.players = ctx.hello ? { [ctx.hello.player]: ctx.hello.alias } : {};
    this.info = {};
    this.turn = null;
    this.log = []; // the last lines (tablelog.js, keepLine)
    this.logLines = 0; // every line ever kept, so a trimmed log of the same length is drawn
    this.said = 0; // lines of the log said in the live region (tablelog.js, sayNewLines)
    this.betWords = new BetWords();
    this.chat = [];
    this.showdown = null;
    this.ups = new Map();
    this.seatPlayers = new Map();
    this.recorder = ctx.hello ? new HandRecorder(ctx.hello.alias, id) : null;
    this.drew = new Map();
    this.discards = new Set();
    this.discarding = false;
    this.signatures = {};
    this.lostFocus = {}; // by region: the control whose focus the region holds (update)
    this.resyncTimer = null;
    this.regions = {
      head: h("div.tablehead"),
      notice: h("p.message", { role: "alert", id: "table-notice" }),
      offered: h("p.message", { role: "alert", id: "table-offer" }), // at another table
      felt: h("div.feltwrap"),
      actions: h("div.actions"), // no live region: our turn is said once (turnsaid.js)
      controls: h("div.controls"),
      showdown: h("div.showdownwrap", { "aria-live": "polite" }),
      chat: h("div.chatwrap"),
      report: h("div.reportwrap"),
      log: h("div.logwrap"),
      last: h("div.lastwrap"),
      said: h("div#said.sr", { role: "log", "aria-live": "polite", "aria-label": "Moves at the table" }),
    };
    const r = this.regions;
    fill(app, h("div.tablepage", { "data-table": id },
      r.head, r.notice, r.offered, r.felt, r.actions, r.controls,
      h("div.side", r.showdown, r.last, r.chat, r.report, r.log), r.said));
    this.tapGuard = new TapGuard(app, [r.actions, r.controls]); // what moves as the bar comes and goes
  }

  /** Now on the server's clock (deadlines and offers are on it). */
  now() { return this.conn.serverNow(); }
  me() { return this.view ? this.view.you : null; }

  /** Our seat, known from the seating events even before the next snapshot. */
  mySeat() {
    const me = this.me();
    if (me !== null && me !== undefined) return me;
    for (const [s, p] of this.seatPlayers) if (this.ctx.hello && p === this.ctx.hello.player) return s;
    return null;
  }
  name(player) { return this.players[player] || "A new player"; }
  /** `name` for a log line: a player whose alias is not known yet is named when drawn. */
  logName(player) { return this.players[player] || nameLater(player); }
  seatName(s, name = (p) => this.name(p)) {
    const seat = this.view && this.view.seats[s];
    if (seat) return name(seat.player);
    return this.seatPlayers.has(s) ? name(this.seatPlayers.get(s)) : `Seat ${s + 1}`;
  }

  /** The legal actions when it is our turn (the snapshot's, else the turn message's). */
  legal() {
    const hand = this.view && this.view.hand;
    if (!hand || this.me() === null || this.me() === undefined) return null;
    if (this.family === "chinese") return null; // a placement, not a poker action: ofc.js
    // Not while our last action is on its way, nor once the turn has moved on (the
    // TurnStarted event comes before the next snapshot).
    if (this.waiting) return null;
    if (this.view.turn && this.view.turn.seat !== this.me()) return null;
    if (hand.legal) return hand.legal;
    if (this.turn && this.turn.seat === this.me() && hand.actor === this.me()) return this.turn.legal;
    return null;
  }

  onMessage(msg) {
    if (msg.table !== this.id) return;
    if (msg.type === "snapshot") {
      this.stale = false;
      const wasSeated = this.me() !== null && this.me() !== undefined;
      this.view = msg.view;
      const mine = msg.view.you === null || msg.view.you === undefined ? null : msg.view.seats[msg.view.you];
      this.sitOutNext = Boolean(mine && mine.sit_out_next); // a reload keeps what was asked
      if (mine && mine.leaving) this.leaving = true; // asked before a reload: still going
      if (wasSeated && (msg.view.you === null || msg.view.you === undefined)) {
        // Gone, and the page did not see how (PlayerLeft, said by leftWords: a server
        // restarted): say so. A player who asked to leave stays "leaving" through the
        // snapshots of the hand he finishes, until the seat is gone.
        if (!this.leaving && !this.departed) this.notice("You are no longer seated (the table closed or the server restarted): your chips are back in your account.");
        this.leaving = false;
        this.departed = false;
      }
      Object.assign(this.players, msg.players);
      this.betWords.sync(msg.view);
      this.syncDraws(msg.view.hand);
      this.info = msg.info || this.info;
      this.render();
    } else if (msg.type === "turn") {
      this.turn = msg;
      if (this.late) { this.late = false; this.notice(""); }
      this.render();
      this.resync();
    } else if (msg.type === "events") {
      for (const { event } of msg.events) this.onEvent(event);
      this.resync();
      this.render();
    } else if (msg.type === "chat") {
      this.chat.push({ alias: msg.alias, text: msg.text });
      this.renderSide();
    } else if (msg.type === "table_closed") tableClosed(this, msg);
    else if (msg.type === "table_paused") tablePaused(this, msg);
  }

  /** Each seat's last draw from a snapshot of the hand (a page loaded mid-hand saw no
   *  Drew event); between hands (no hand) the counts stay until the next one starts. */
  syncDraws(hand) {
    if (!hand || !hand.seats) return;
    this.drew.clear();
    for (const s of hand.seats) {
      if (s && s.drew !== null && s.drew !== undefined) this.drew.set(s.seat, drawShown(family(hand.game) === "flop", s.drew));
    }
  }

  onEvent(e) {
    // At a flop game a draw is a discard street (Irish): cards thrown, none dealt.
    const discardStreet = e.type === "Drew" && this.family === "flop";
    const logName = (p) => this.logName(p);
    const line = describe(e, logName, (s) => this.seatName(s, logName), discardStreet, this.betWords);
    this.betWords.see(e);
    if (line) keepLine(this, line);
    if (e.type === "PlayerSeated") this.seatPlayers.set(e.seat, e.player);
    // Off the waiting list: a seat offered that lapsed is said (the page said we wait).
    if (e.type === "WaitlistLeft" && this.ctx.hello && e.player === this.ctx.hello.player) {
      this.notice(waitlistLeftWords(e.reason), e.reason === "offer_expired");
    }
    if (e.type === "PlayerLeft" && this.ctx.hello && e.player === this.ctx.hello.player) {
      this.departed = true;
      this.leftEvent = e; // its chips are said again if the table closes (closing.js)
      this.notice(leftWords(e), e.reason !== "left");
    }
    if (this.recorder) {
      // A hand's game is its HandStarted's: the last snapshot may be of the hand before.
      const label = e.type === "HandStarted" && e.game ? gameLabel(this.view, e) : this.view && this.view.game ? this.view.game.label : "";
      this.recorder.add(e, (s) => this.seatName(s), this.mySeat(), label);
    }
    if (e.type === "HandStarted") {
      this.noteGame(e);
      this.ups.clear();
      this.drew.clear();
      this.discards.clear();
    }
    if (e.type === "HandDealt") {
      this.pendingShowdown = { handNo: e.hand_no, shown: new Map(), awards: [] };
      this.upsHand = e.hand_no; // its HoleDealt follow: which cards are up is known (seats.js)
    }
    if (e.type === "HoleDealt") this.ups.set(e.seat, [...(this.ups.get(e.seat) || []), ...e.up]);
    if (e.type === "Drew") {
      this.drew.set(e.seat, drawShown(discardStreet, e.count));
      if (e.seat === this.me()) this.discards.clear();
    }
    if (e.type === "TurnStarted" && this.view) {
      const same = this.view.turn && this.view.turn.seat === e.seat && this.view.turn.deadline <= e.deadline && e.bank;
      this.view.turn = { seat: e.seat, deadline: e.deadline, bank: e.bank };
      // A new turn makes the last snapshot's legal actions stale (the time bank
      // starting on the same turn does not): they come again with the turn message
      // or the next snapshot.
      if (!same && this.view.hand) delete this.view.hand.legal;
      if (e.seat !== this.me() || !same) this.turn = null;
    }
    if (e.type === "Acted" && e.seat === this.me()) this.turn = null;
    // Sitting out asked in a hand waits until the seat sits out, comes back or goes.
    if (SIT_OUT_NEXT.has(e.type) && e.seat === this.me()) this.sitOutNext = e.type === "SitOutRequested";
    if (e.type === "AutoMuckSet" && this.view && e.seat === this.me()) this.view.auto_muck = e.on;
    // Leaving after the hand, or not after all: the seat's marker follows at once.
    const seatNow = this.view && this.view.seats[e.seat];
    if ((e.type === "LeaveRequested" || e.type === "LeaveCancelled") && seatNow) {
      seatNow.leaving = e.type === "LeaveRequested";
      if (!seatNow.leaving && e.seat === this.me()) this.leaving = false; // stayed (any tab)
    }
    if (e.type === "TimeBankChanged" && this.view && this.view.seats[e.seat]) {
      this.view.seats[e.seat].time_bank = e.seconds; // what is left, or a refill
    }
    if (e.type === "CardsPlaced" && e.seat === this.me()) {
      this.turn = null;
      if (this.view && this.view.hand) this.view.hand.options = null;
    }
    if (e.type === "HandSettled") {
      // The stacks before the settlement (nothing moves in a Chinese hand before it).
      const before = {};
      for (const seat of (this.view && this.view.seats) || []) if (seat) before[seat.seat] = seat.stack;
      this.chineseResult = { handNo: this.view && this.view.hand_no, results: e.results, before };
    }
    const settled = this.chineseResult;
    if (e.type === "HandFinished" && settled && settled.before && !settled.moved) {
      settled.moved = chipsMoved(settled.before, e.stacks); // what the table stakes let move
    }
    if (e.type === "TimedOut" && e.seat === this.me()) {
      this.notice(this.family === "chinese" ? "You ran out of time: your cards were placed for you."
        : "You ran out of time: your hand was folded (or checked).");
    }
    if (!this.pendingShowdown && this.view && (e.type === "Shown" || e.type === "PotAwarded")) {
      // A hand the page did not see dealt (a reload mid-hand) ends in a showdown too.
      this.pendingShowdown = { handNo: this.view.hand_no, shown: new Map(), awards: [] };
    }
    const sd = this.pendingShowdown;
    if (sd && e.type === "Shown") sd.shown.set(e.seat, e.cards);
    if (sd && e.type === "PotAwarded") sd.awards.push(e);
    if (sd && (e.type === "HandEnded" || e.type === "HandFinished") && (sd.shown.size || sd.awards.length)) {
      this.showdown = sd;
    }
    if (e.type === "HandFinished") this.turn = null;
    if (e.type === "HandFinished" || e.type === "HandVoided") this.handsOver = (this.handsOver || 0) + 1; // saved: lastHandsBox
    // The pre-selected action follows the events too: a clear can come before the
    // snapshot that would have shown the action set.
    if (e.type === "AdvanceSet" && e.seat === this.me() && this.view) {
      this.view.advance = { kind: e.kind, amount: e.amount, street: e.street, bet: e.bet };
    }
    if (e.type === "AdvanceCleared" && e.seat === this.me()) {
      const said = ADVANCE_CLEARED[e.reason];
      const set = this.view && this.view.advance;
      if (said && set) this.notice(said(advanceName(set)));
      if (this.view) this.view.advance = null;
    }
  }

  /** A line in the log when a hand of a mixed table starts another game than the last
   *  (the layout follows the next snapshot's game). */
  noteGame(e) {
    const v = this.view;
    if (!v || !v.mixed) return;
    const key = `${e.game}/${e.structure}`;
    if (this.handGame && key !== this.handGame) {
      keepLine(this, `The game changes to ${gameLabel(v, e)}.`);
    }
    this.handGame = key;
  }

  /** Ask for a fresh snapshot soon (many events in a burst make one request). */
  resync() {
    this.stale = true;
    if (this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      if (!this.left) this.conn.watch(this.id); // not for a table the page has left
    }, 120);
  }

  /** The page leaves the table: no snapshot is asked for it any more. */
  leave() {
    this.left = true;
    clearTimeout(this.resyncTimer);
    this.resyncTimer = null;
  }

  notice(text, isError = false) {
    this.regions.notice.textContent = text;
    this.regions.notice.classList.toggle("error", isError);
  }

  /** A refusal of the server, in its words as a sentence. */
  refused(r) { this.notice(sentence(r.message || r.code), true); }

  /** Send a table message; a refusal is said in the notice (`quiet`: the caller says it). */
  async send(type, fields = {}, quiet = false) {
    const r = await this.conn.send(type, { table: this.id, ...fields });
    if (quiet) return r;
    if (r.type === "error") this.refused(r);
    else this.notice("");
    return r;
  }

  /** The aliases one may report: the other players seated here. */
  reportable() {
    const me = this.ctx.hello && this.ctx.hello.player;
    if (!this.view || !me) return [];
    return this.view.seats.filter((s) => s && s.player !== me).map((s) => this.name(s.player)).sort();
  }

  /** Report a player at this table for review (RULEBOOK §10.7). */
  async report(alias, reason, note) {
    const r = await this.send("report", { player: alias, reason, note }, true);
    if (r.type === "ok") this.notice(`Your report on ${alias} was recorded: an operator will review it.`);
    else if (r.code === "bad_report" && /you reported this player here lately/i.test(r.message)) {
      this.notice(`You reported ${alias} here lately: once every 10 minutes.`, true);
    } else if (r.code === "bad_report") this.notice(`${alias} cannot be reported here.`, true);
    else this.refused(r);
    return r;
  }

  act(kind, amount) {
    const fields = { kind };
    if (amount !== undefined) fields.amount = amount;
    this.acting("act", fields);
  }

  /** Send an action once: the bar goes away until the server has answered. It names
   *  the last event seen (`turn`): an action the hand moved past on its way (a late
   *  or repeated click) is refused `stale_turn`, never played on a later decision. */
  async acting(type, fields) {
    this.turn = null;
    this.waiting = true;
    this.render();
    const seen = this.conn.watching.get(this.id);
    if (typeof seen === "number" && seen >= 0) fields = { ...fields, turn: seen };
    try {
      const r = await this.send(type, fields, true);
      if (r.type === "error" && LATE.includes(r.code)) {
        // The clock ran out, or this account acted from another window first.
        this.notice("Too late: the hand had moved on (your time ran out, or you acted in another window), so this action was not played.", true);
        this.late = true; // cleared at the next turn
      } else if (r.code === "disconnected") {
        // The answer was lost with the connection: the action may have been played.
        // Nothing is sent again; the table, back, shows whether it is still our turn.
        this.notice("The connection was lost as your action was sent: it may not have reached the table. When the table is back, act again if it is still your turn.", true);
        this.late = true;
      } else if (r.type === "error") this.refused(r);
      else this.notice("");
    } finally {
      this.waiting = false;
      this.resync();
    }
  }

  toggleDiscard(c) {
    const legal = this.legal();
    if (this.discards.has(c)) this.discards.delete(c);
    else if (!legal || this.discards.size < legal.draw) this.discards.add(c);
    this.render();
  }

  draw() {
    const cards = [...this.discards];
    this.acting("act", { kind: "draw", cards });
  }

  /** Pre-select an action (``call``: of ``amount``); when the turn came first
   *  (``your_turn``), tell the player to act now and fetch the turn. */
  async advance(kind, amount) {
    const fields = { kind: kind || null };
    if (kind === "call") fields.amount = amount;
    const seen = this.conn.watching.get(this.id); // late (a new street or hand): refused
    if (typeof seen === "number" && seen >= 0) fields.turn = seen;
    const r = await this.send("advance", fields);
    if (r.type !== "error") return;
    // Refused: nothing changed, so the boxes show the view's choice again.
    delete this.signatures.actions;
    this.render();
    if (r.code === "your_turn") {
      this.notice("It is your turn: act now.");
      this.resync();
    }
  }
  /** Say a chat line; a refusal (or a ban for what was said) is told once, in the chat. */
  async say(text) {
    const r = await this.send("chat", { text }, true);
    let said = null;
    if (r.type === "error") said = r.code === "chat_refused" ? await refusedLine(r.message) : `Not sent: ${r.message || r.code}.`;
    else if (r.detail && r.detail.verdict) said = await judgedLine(r.detail.verdict);
    if (said) this.chat.push({ system: true, text: said });
    this.renderSide();
  }

  askBuyIn(seat) { askBuyIn(this, seat); }

  /** Draw what changed (regions whose content signature changed are rebuilt). */
  render() {
    if (!this.view || this.gone) return; // gone: the table closed (closing.js)
    this.family = family(this.view.game && this.view.game.game);
    const legal = this.legal();
    this.discarding = !!(legal && (legal.actions || []).includes("draw"));
    if (!this.discarding && this.discards.size) this.discards.clear();
    const r = this.regions;
    this.update("head", [this.view.table, this.view.game, this.view.next_game, this.view.last_game, !this.view.hand,
      this.view.hand_no, this.view.hands_left], () => tableHeader(this.view));
    r.felt.className = `feltwrap family-${this.family}`;
    if (this.family === "chinese") {
      const key = [this.view, this.ofc && [...this.ofc.where], this.ofc && this.ofc.picked, this.waiting, this.turn && this.turn.seq];
      this.update("felt", key, () => chineseFelt(this));
      this.update("actions", key, () => placeBar(this));
      const asked = placement(this);
      sayTurn(this, r.said, r.actions.querySelector(".placebar"), asked && asked.cards, asked);
    } else {
      // Patched, not rebuilt: bots send several messages a second, and a button
      // replaced between mouse-down and mouse-up loses the click (and the focus);
      // not even patched while a pointer is pressed on it (layout.js, heldDown).
      if (!heldDown(r.felt, () => this.render())) {
        const focus = focusedKey(r.felt);
        const held = r.felt.contains(document.activeElement); // a card to discard, drawn
        patch(r.felt, felt(this));
        fitSeats(r.felt.querySelector(".felt"), this.view.you);
        if (focus && !r.felt.contains(document.activeElement)) refocus(r.felt, focus, false);
        if (held) holdFocus(r.felt);
      }
      this.update("actions", [legal, [...this.discards], advanceOffered(this), this.view.hand && this.view.hand.current_bet, this.view.advance, this.me(),
        this.view.hand && this.view.hand.seats[this.me()] && this.view.hand.seats[this.me()].in_hand],
      () => actionBar(this) || advanceBox(this));
      this.keepBar(r.actions.querySelector(".actionbar"));
      sayTurn(this, r.said, r.actions.querySelector(".actionbar"), legal);
    }
    this.tapGuard.shown([r.actions.firstElementChild?.className, legal, this.family === "chinese" && this.ofc?.key]);
    document.title = pageTitle(this.view, Boolean(r.actions.querySelector(".actionbar, .placebar")));
    const mySeat = this.me() !== null && this.me() !== undefined ? this.view.seats[this.me()] : null;
    this.update("controls", [this.me(), mySeat && mySeat.sitting_out, mySeat && mySeat.stack, mySeat && mySeat.dealt_in, mySeat && mySeat.owes, mySeat && mySeat.post_now, mySeat && mySeat.leaving, this.view.auto_muck, this.sitOutNext, this.view.offer,
      this.view.seats.every((x) => x !== null), (this.view.waitlist || []).join(), (this.view.held || []).join()], () => seatControls(this), true);
    if (this.focusSeat && mySeat) {
      this.focusSeat = false;
      const first = r.controls.querySelector(".seatcontrols button");
      if (first) first.focus();
    }
    this.renderSide();
  }

  /** While the connection is down (reconnecting, or the session ended) nothing we
   *  click could reach the table: every control is disabled (keys too: they click
   *  buttons), and enabled again once connected. */
  holdWhileOffline() {
    const offline = this.conn.state !== "open";
    for (const el of this.app.querySelectorAll(".tablepage button, .tablepage input, .tablepage select")) {
      if (offline && !el.disabled) {
        el.disabled = true;
        el.dataset.offline = "";
      } else if (!offline && "offline" in el.dataset) {
        el.disabled = false;
        delete el.dataset.offline;
      }
    }
  }

  renderSide() {
    if (this.family === "chinese") this.update("showdown", [this.chineseResult && this.chineseResult.handNo], () => ofcShowdown(this));
    else this.update("showdown", [this.showdown && this.showdown.handNo, this.showdown && this.showdown.awards.length], () => showdownPanel(this));
    this.update("chat", [this.chat.length], () => chatBox(this));
    this.update("report", this.reportable(), () => reportBox(this));
    this.update("log", [this.logLines, Object.keys(this.players).length], () => logBox(this));
    sayNewLines(this, this.regions.said);
    if (this.recorder) this.update("last", [this.handsOver, this.serverHands], () => lastHandsBox(this.ctx.hello.alias, this.id, this.serverHands));
    this.holdWhileOffline();
  }

  /** Keep the action bar, each drawing of it, on the screen while it is shown (one
   *  drawn again within a frame of the first was never scrolled into view). */
  keepBar(bar) {
    if (bar === this.barKept) return;
    if (this.barWatch) this.barWatch.disconnect();
    this.barKept = bar;
    this.barWatch = bar ? keepOnScreen(bar, this.app.querySelector(".tablepage")) : null;
  }

  update(region, key, build, keepForm = false) {
    const sig = JSON.stringify(key);
    if (this.signatures[region] === sig) return;
    this.signatures[region] = sig;
    const el = this.regions[region];
    const form = keepForm ? el.querySelector("form.buyin") : null;
    const focus = focusedKey(el);
    // A control gone with an earlier rebuild, the region holding the focus since (an
    // advance box: the boxes go and come back with every move of the others).
    const lost = document.activeElement === el ? this.lostFocus[region] : null;
    const held = el.contains(document.activeElement); // the region itself, focused, too
    const typed = typedValues(el); // what the player is typing survives the rebuild
    const opened = [...el.querySelectorAll("details[open]")].map((d) => d.className);
    fill(el, build());
    for (const d of el.querySelectorAll("details")) if (opened.includes(d.className)) d.open = true;
    if (form) el.prepend(form);
    for (const [id, value] of typed) {
      const again = el.querySelector(`#${CSS.escape(id)}`);
      if (!again) continue;
      if (again.tagName === "SELECT" && ![...again.options].some((o) => o.value === value)) continue;
      again.value = value;
      again.dispatchEvent(new Event("input")); // what follows from it (the raise button's words)
    }
    // Never the action bar's first button in its place: that is Fold, and a keyboard
    // player's next Space (meant for an advance box gone as his turn came) folded.
    if (focus) refocus(el, focus, region !== "actions");
    else if (lost) refocus(el, lost, false);
    if (held) holdFocus(el);
    if (document.activeElement === el) this.lostFocus[region] = focus || lost;
    else delete this.lostFocus[region];
  }

  tick() {
    for (const el of this.app.querySelectorAll(".seat .clock[data-running]")) { // .ofc-seat too
      const turn = this.view && this.view.turn;
      if (!turn) continue;
      const left = Math.max(0, Math.ceil(turn.deadline - this.now()));
      el.querySelector(".secs").textContent = `${left}s`;
      el.setAttribute("aria-label", `${left} seconds to act`);
    }
    const offer = this.view && this.view.offer;
    if (offer) for (const el of this.regions.controls.querySelectorAll(".offer-left")) el.textContent = offerLeft(this, offer);
    const me = this.me();
    const seat = this.view && me !== null && me !== undefined ? this.view.seats[me] : null;
    if (!seat) return;
    const warning = clockWarning(this, this.family === "chinese" ? placement(this) : this.legal());
    if (warning) say(this.regions.said, warning);
    for (const el of this.app.querySelectorAll(".seat.mine .timebank")) el.textContent = bankText(this, me, seat);
  }
}

/** The answers to an action that arrived after its decision was over. */
const LATE = ["stale_turn", "not_in_hand", "not_your_turn", "hand_over"];

/** The table screen; returns its cleanup (unwatch, stop timers and keys). */
export async function tableScreen(app, ctx, id) {
  const t = new TableController(app, ctx, id);
  window.cardroomTable = t;
  const off = ctx.conn.listen((msg) => t.onMessage(msg));
  // A seat offered at another table is said here too (its list may be from before a
  // reload: watched again).
  const offOffers = sayOffers(ctx, t.regions.offered, id);
  watchOurLists(ctx);
  const keys = keyHandler(app);
  document.addEventListener("keydown", keys);
  const timer = setInterval(() => t.tick(), 250);
  const offState = ctx.conn.listenState(() => t.holdWhileOffline());
  const offShown = scrollWhenShown(app);
  t.serverHands = await offers("/api/hands"); // the last hands' replayer reads the server's
  // An id no table can have is not asked for: the server's refusal of it is its
  // schema's words ("Expected `str` matching regex ... at `$.table`"), and it was
  // watched again at every reconnection.
  const r = TABLE_ID.test(id) ? await ctx.conn.watch(id) : { type: "error", code: "no_such_table" };
  if (r.type === "error" && r.code === "no_such_table") t.notice(`There is no table "${id}".`, true);
  else if (r.type === "error") t.refused(r);
  return () => {
    t.leave();
    t.tapGuard.stop();
    off();
    offOffers();
    offState();
    offShown();
    clearInterval(timer);
    document.removeEventListener("keydown", keys);
    document.title = "cardroom"; // the other screens' (index.html's)
    // Seated, or on its waiting list (the seat offered is told in the lobby), the page
    // goes on watching the table.
    const seated = t.view && t.me() !== null && t.me() !== undefined;
    const waiting = t.view && ctx.hello && (t.view.waitlist || []).includes(ctx.hello.player);
    if (ctx.conn.watching.has(id) && !seated && !waiting) ctx.conn.unwatch(id);
  };
}
