// The hands this browser saw, kept in localStorage (per account) for the replayer
// when the server offers no hand-history endpoint. Each hand: its table, number,
// the events as our seat saw them, and who sat where.

const LIMIT = 30;
const key = (alias) => `cardroom.hands.${alias}`;

/** The saved hands of `alias`, newest first. */
export function savedHands(alias) {
  try {
    return JSON.parse(localStorage.getItem(key(alias)) || "[]");
  } catch {
    return [];
  }
}

/** Keep one finished hand (the oldest drop off beyond LIMIT). */
export function saveHand(alias, hand) {
  const hands = savedHands(alias).filter((x) => x.id !== hand.id);
  hands.unshift(hand);
  try {
    localStorage.setItem(key(alias), JSON.stringify(hands.slice(0, LIMIT)));
  } catch {
    // A full storage only loses the replayer's copy; the game goes on.
  }
}

/** Forget the saved hands of `alias` (at log-out: they hold our hole cards, folded ones
 *  too, and the next person at a shared browser must not read them). */
export function forgetHands(alias) {
  try {
    localStorage.removeItem(key(alias));
  } catch {
    // No storage to clear.
  }
}

/** Follows a table's events and saves each hand when it ends. */
export class HandRecorder {
  constructor(alias, table) {
    this.alias = alias;
    this.table = table;
    this.current = null;
  }

  /** `seatName(s)` names a seat now; `me` is our seat; `gameLabel` the game's name (at
   *  HandStarted: the game of this hand). */
  add(event, seatName, me, gameLabel) {
    if (event.type === "HandDealt") {
      this.current = { id: `${this.table}-${event.hand_no}`, table: this.table, hand_no: event.hand_no,
        at: Date.now(), game: gameLabel, me, dealt: event.dealt, names: {}, events: [] };
    }
    const hand = this.current;
    if (!hand) return;
    hand.events.push(event);
    if (event.type === "HandStarted" && gameLabel) hand.game = gameLabel; // the game dealt
    if (hand.me === null || hand.me === undefined) hand.me = me;
    for (const s of [event.seat, ...(event.dealt || [])]) {
      if (typeof s === "number" && !(s in hand.names)) hand.names[s] = seatName(s);
    }
    if (event.type === "HandStarted") {
      (event.stacks || []).forEach((st, s) => { if (st !== null && !(s in hand.names)) hand.names[s] = seatName(s); });
    }
    if (event.type === "HandFinished" || event.type === "HandVoided") {
      // Only the hands we were dealt into are ours to replay.
      if (hand.dealt.includes(hand.me)) saveHand(this.alias, hand);
      this.current = null;
    }
  }
}
