// Rules pages per family (RULEBOOK §2, §6-§9): hand rankings with example cards.

import { h, fill } from "./dom.js";
import { cardRow } from "./cards.js";

const HIGH = [
  ["Straight flush", "As Ks Qs Js Ts", "Five in sequence, one suit (the royal flush is the top one)."],
  ["Four of a kind", "9c 9d 9h 9s Kd", "Quads; the kicker breaks ties."],
  ["Full house", "Qh Qd Qc 7s 7h", "Trips and a pair."],
  ["Flush", "Kd Td 8d 6d 3d", "Five of one suit."],
  ["Straight", "9s 8h 7d 6c 5s", "Five in sequence; ace low only in A-2-3-4-5."],
  ["Three of a kind", "7c 7d 7s Kh 2d", "Trips."],
  ["Two pair", "Jh Jc 4s 4d Ac", ""],
  ["One pair", "Th Tc As 8d 3c", ""],
  ["High card", "Ah Qd 9c 6s 3h", "Kickers break every tie; equal hands split."],
];
const SHORT = (order) => [
  HIGH[0], HIGH[1],
  ["Flush", "Kd Td 8d 7d 6d", "A flush beats a full house in Short Deck."],
  ["Full house", "Qh Qd Qc 7s 7h", ""],
  ...(order === "trips"
    ? [["Three of a kind", "7c 7d 7s Kh 6d", "Under this order, trips beat a straight."], ["Straight", "9s 8h 7d 6c As", "A-6-7-8-9 is the lowest straight."]]
    : [["Straight", "9s 8h 7d 6c As", "A-6-7-8-9 is the lowest straight; a straight beats trips (default)."], ["Three of a kind", "7c 7d 7s Kh 6d", ""]]),
  HIGH[6], HIGH[7], ["High card", "Ah Qd 9c 7s 6h", "36 cards: the twos to fives are removed."],
];
const LOW_A5 = [
  ["5-4-3-2-A (the wheel)", "5s 4h 3d 2c Ah", "The best low. Aces are low; straights and flushes do not count."],
  ["6-4-3-2-A", "6d 4s 3h 2c Ac", ""],
  ["7-5-4-3-2", "7h 5c 4d 3s 2h", "Compare the highest card first, then the next."],
  ["8-7-6-5-4", "8s 7d 6c 5h 4s", "The worst hand that still qualifies for an 8-or-better low (Hi-Lo)."],
  ["Pairs are bad", "Kh Kd 7c 4s 2h", "A pair loses to any five different ranks."],
];
const LOW_27 = [
  ["7-5-4-3-2 (the number one)", "7h 5c 4d 3s 2h", "Best hand, different suits. Aces are high."],
  ["7-6-4-3-2", "7d 6s 4h 3c 2d", ""],
  ["8-5-4-3-2", "8c 5h 4s 3d 2c", ""],
  ["A-5-4-3-2 is ace high", "Ah 5c 4d 3s 2h", "Not a straight, and ace-high is a poor low."],
  ["Straights and flushes count against you", "8h 7h 6h 5h 4h", "This is a straight flush: a very bad low."],
];
const BADUGI = [
  ["Four-card badugi", "4c 3d 2h As", "Four cards, all ranks and suits different: the best is A-2-3-4."],
  ["Lower top card wins", "7c 5d 3h 2s", "Between badugis, the lower highest card wins, then the next."],
  ["Three-card hand", "Ac 2c 3d 4h", "Two clubs: one of them counts, the lower, so the hand is 4-3-A. Any four-card badugi beats it."],
  ["Two-card hand", "Kc Kd 5c 5d", "More cards always beats fewer; suits never rank."],
];
const SECTIONS = {
  high: { title: "Hand rankings (high)", rows: HIGH, text: ["Hold'em: the best five of your two cards and the five on the board (playing the board is allowed).", "Stud: the best five of seven.", "Irish: four hole cards; after the flop's betting each player throws two away (nothing replaces them), then it plays as Hold'em."] },
  "short-deck": { title: "Short Deck hand rankings", rows: SHORT("straight"), extra: { title: "Short Deck, trips beat a straight (table option)", rows: SHORT("trips") }, text: ["Short Deck (6+ Hold'em) uses 36 cards, antes and a button blind.", "Two orders exist; the table's rules say which one it plays."] },
  omaha: { title: "Omaha rules", rows: HIGH, text: ["Omaha: four hole cards (PLO5 and Courchevel: five; six-card Omaha: six).", "You must use exactly two of your hole cards and exactly three of the board.", "Courchevel: one flop card is shown before the first betting round.", "Pot limit is the default: the largest raise makes your bet the size of the pot."] },
  "hi-lo": { title: "Hi-Lo rules (8 or better)", rows: HIGH, low: LOW_A5, text: ["The pot splits between the best high hand and the best qualifying low.", "A low qualifies with five different ranks, all eight or lower (ace low).", "No qualifying low: the high hand takes it all. One player may win both halves (scoop).", "The odd chip goes to the high half.", "Omaha Hi-Lo: two hole cards and three board cards for each half, which may be different cards.", "Big O: Omaha Hi-Lo with five hole cards."] },
  stud: { title: "Stud rules", rows: HIGH, text: ["Seven-Card Stud: two cards down and one up (the door card); 4th to 6th street up; 7th down.", "The lowest door card brings in on 3rd street (Razz: the highest); from 4th street the best showing hand acts first (Razz: the lowest).", "Best five of seven.", "Eight players: if the deck cannot give every player still in a 7th card, one community card is dealt face up; it is every player's 7th card.", "Soko (five-card stud): one card down and one up, then three more up, a betting round after each; the highest card brings in (ties: spades, hearts, diamonds, clubs). A four-flush beats a four-straight, and both beat one pair but lose to two pair."] },
  draw: { title: "Draw rules", rows: HIGH, text: ["Five-card Draw: five cards down, a betting round, one draw of 0 to 5 cards, a last betting round.", "Triple draw: four betting rounds around three draws. On a draw, click the cards to throw away (or Tab to each and press Enter), then \"Discard N and draw\" (key D); with none chosen it is \"Stand pat\", keeping them all.", "Everyone sees how many cards each player drew.", "If the deck runs out, the muck (discards, burned cards and folded hands, never your own discards of this draw) is shuffled into a new deck.", "A player who times out on a draw stands pat and may not bet or raise in the next betting round."] },
  "low-a5": { title: "Ace-to-five low (Razz, A-5 Triple Draw)", rows: LOW_A5, text: ["Aces are low; straights and flushes are ignored; no qualifier in Razz and A-5 draw."] },
  "low-27": { title: "Deuce-to-seven low (2-7 Triple Draw, 2-7 Single Draw)", rows: LOW_27, text: ["Aces are high; straights and flushes count."] },
  badugi: { title: "Badugi", rows: BADUGI, text: ["Four cards, three draws. Use the largest group of cards with all ranks and all suits different."] },
  chinese: {
    title: "Chinese poker and OFC: scoring and royalties", rows: HIGH,
    text: ["Three rows: top 3 cards, middle 5, bottom 5. The bottom must be at least as strong as the middle and the middle as the top, or the hand is fouled.",
      "The top row counts only trips, pairs and high cards.",
      "Against each opponent: 1 unit per row won, 3 more for winning all three (scoop: 6). Royalties are added.",
      "A fouled hand loses 6 plus the opponent's royalties and scores no royalties.",
      "Royalties — bottom: straight 2, flush 4, full house 6, quads 10, straight flush 15, royal 25. Middle: trips 2, straight 4, flush 8, full house 12, quads 20, straight flush 30, royal 50. Top: 66 = 1 up to AA = 9; 222 = 10 up to AAA = 22.",
      "Fantasyland: a hand that is not fouled with queens or better on top; the next hand is dealt all at once. Stay with trips on top or quads or better on the bottom.",
      "Open Face Chinese (OFC): 5 cards, then 8 rounds of one card, each placed face up at once; placed cards never move.",
      "Pineapple OFC: 5 cards, then 4 rounds of 3: place 2, discard 1 face down. Fantasyland deals 14 cards (set 13).",
      "OFC Turbo: 5 cards, then 2 rounds of 4, all placed. Progressive Pineapple: Fantasyland by the top row: QQ 14 cards, KK 15, AA 16, trips 17; staying gives 14.",
      "Pineapple 2-7: the middle row is a 2-7 low no stronger than 10-high, and the bottom must beat the top. Middle royalties: 9-high 1, 8-high 2, 7-high 4, 7-5-4-3-2 8.",
      "Classic Chinese poker: 13 cards at once, set face down; when time runs out the cards are placed for you.",
      "Points are paid in chips at the table's value of a point, with each opponent apart; nobody loses more than the chips on the table.",
      "A player who cannot pay all he owes pays his opponents one after another, starting from the player left of the button, each in full before the next.",
      "Fantasyland is for the very next hand: a player not dealt in to it (sitting out, away, short of chips or gone) loses it."] },
};

function rankingTable(title, rows) {
  return h("section.rankings", h("h2", { text: title }),
    h("ol", rows.map(([name, cards, note]) => h("li",
      h("span.rankname", { text: name }), cardRow(cards.split(" "), null, `${name}: ${cards}`),
      note ? h("small", { text: note }) : null))));
}

/** Each rule option a table may set away from its default (RULEBOOK: shown to players),
 *  in words, by the option's name and value. */
const OPTION_WORDS = {
  burn_cards: (v) => (v ? "burn cards" : "no burn cards"),
  max_raises: (v) => `a bet and ${v} raises a round`,
  heads_up_uncapped: (v) => (v ? "no raise cap heads-up" : "the raise cap heads-up too"),
  incomplete_raise_rule: (v) => (v === "half" ? "an all-in of half a raise or more reopens the betting"
    : "an all-in short of a full raise does not reopen the betting"),
  short_deck_trips_beat_straight: (v) => (v ? "trips beat a straight" : "a straight beats trips"),
  hi_lo: (v) => (v ? "hi-lo, 8 or better" : "high only"),
  straddle_raise: (v) => `a raise over a straddle adds at least the ${v === "big_blind" ? "big blind" : "straddle"}`,
  fourth_street_pair: (v) => ({ big: "an open pair on 4th street makes it the big bet",
    option: "an open pair on 4th street: the bettor chooses the small or big bet",
    small: "an open pair on 4th street changes nothing" })[v],
  bring_in_by_position: (v) => (v ? "bring-in ties go to the player closest to the dealer's left"
    : "bring-in ties go by suit"),
  stud_order_ties: (v) => (v === "suit" ? "equal showing hands act by the suit of the highest card"
    : "equal showing hands act from the button's left"),
  community_card_betting: (v) => (v ? "a betting round after a shared 7th-street card"
    : "no betting round after a shared 7th-street card"),
};

/** A table's rule options set away from their defaults (the view's `game.rules`) in words,
 *  "Table rules: no burn cards · a bet and 5 raises a round"; null when none is set. */
export function tableRules(rules) {
  const set = Object.entries(rules || {});
  if (!set.length) return null;
  const words = set.map(([k, v]) => (OPTION_WORDS[k] && OPTION_WORDS[k](v)) || `${k}: ${v}`);
  return `Table rules: ${words.join(" · ")}`;
}

/** The room's terms of a table (the view's `terms`, and `game.disconnect_protection`) in
 *  words: "30 s to act + a 30 s time bank · cut off: 30 s to come back, then check or
 *  fold · sitting out: removed after 10 min · chat in English"; null without terms.
 *  A Chinese poker table (the view's `chinese`) says its own clock and timeout (§8):
 *  "120 s to set your hand" (classic), "25 s a street (90 s to set a Fantasyland
 *  hand)", and the table places the cards of a player out of time. */
export function tableTerms(view) {
  const t = view && view.terms;
  if (!t) return null;
  const g = (view.game || {});
  const chinese = view.chinese;
  let away = g.disconnect_protection
    ? `then check, all in for what is in (${t.disconnect_allins_per_day} a day) or fold`
    : "then check or fold";
  let clock = `${t.action_seconds} s to act`;
  if (chinese) {
    away = "then your cards are placed for you";
    clock = chinese.variant === "classic"
      ? `${chinese.set_seconds} s to set your hand`
      : `${t.action_seconds} s a street (${chinese.set_seconds} s to set a Fantasyland hand)`;
  }
  return [
    `${clock}${bankWords(t.time_bank)}`,
    `cut off: ${t.reconnect_seconds} s to come back, ${away}`,
    `sitting out: removed after ${t.sit_out_minutes} min`,
    `chat in ${languageName(t.language)}`,
  ].join(" · ");
}

/** The rake a hand of `game` pays (the view's `game.rake`, RULEBOOK §10.8) in words: "Rake:
 *  5 every 100 of the pot (1 every 20 under 200), at most 75 with 2 players, 200 with 3-4,
 *  400 with 5 or more; none unless the flop is dealt"; null where no rake is taken. */
export function tableRake(game) {
  const r = game && game.rake;
  if (!r) return null;
  const small = r.small_pot_below ? ` (${r.small_per} every ${r.small_unit} under ${r.small_pot_below})` : "";
  let low = 2; // a hand deals at least two players
  const caps = r.caps.length === 1 ? [`${r.caps[0][1]}`] : r.caps.map(([most, cap], i) => {
    const who = i === r.caps.length - 1 ? `${low} or more` : low >= most ? `${most}` : `${low}-${most}`;
    low = most + 1;
    return `${cap} with ${who}${i === 0 ? " players" : ""}`;
  });
  // No flop, no drop: the server names the game's street (its rake street, one place).
  return `Rake: ${r.per} every ${r.unit} of the pot${small}, at most ${caps.join(", ")}; none unless the ${r.street} is dealt`;
}


/** The time bank after the clock: " + a 30 s time bank"; one that starts empty says how
 *  it fills (" + a time bank of 10 s every 10 hands"); none, " (no time bank)". */
function bankWords(bank) {
  if (bank.start > 0) return ` + a ${bank.start} s time bank`;
  if (bank.refill > 0 && bank.max > 0) {
    return ` + a time bank of ${bank.refill} s every ${bank.every === 1 ? "hand" : `${bank.every} hands`}`;
  }
  return " (no time bank)";
}

/** A language tag's English name ("el" -> "Greek"), the tag itself when not known. */
function languageName(tag) {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(tag) || tag;
  } catch (e) {
    return tag;
  }
}

/** The rules page `page` (or the index of pages). */
export function rulesScreen(app, page) {
  const s = Object.hasOwn(SECTIONS, page) ? SECTIONS[page] : null; // not `#/rules/constructor`
  const index = h("nav.rulesindex", { "aria-label": "Rules pages" },
    h("ul", Object.entries(SECTIONS).map(([k, v]) => h("li", h("a", { href: `#/rules/${k}`, text: v.title })))));
  if (!s) {
    fill(app, h("h1", { text: "Rules" }), index);
    return null;
  }
  fill(app, h("article.rules",
    h("h1", { text: s.title }),
    h("ul.ruletext", s.text.map((t) => h("li", { text: t }))),
    rankingTable(s.low ? "High hands" : "View hand rankings", s.rows),
    s.low ? rankingTable("Low hands (ace-to-five, 8 or better)", s.low) : null,
    s.extra ? rankingTable(s.extra.title, s.extra.rows) : null,
    h("p", h("button.link", { type: "button", text: "Back", onclick: () => history.back() }))), index);
  return null;
}
