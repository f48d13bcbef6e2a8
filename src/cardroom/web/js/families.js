// Which layout a game takes, and the rules page it links to.

const STUD = new Set(["stud", "stud_hi_lo", "razz", "soko"]);
const DRAW = new Set(["five_card_draw", "triple_draw_27", "triple_draw_a5", "single_draw_27", "badugi"]);
const HI_LO = new Set(["omaha_hi_lo", "courchevel_hi_lo", "stud_hi_lo", "big_o"]);
const CHINESE = new Set(["chinese", "classic", "ofc", "pineapple", "turbo", "progressive", "pineapple27"]);

/** "flop", "stud", "draw" or "chinese". */
export function family(game) {
  if (STUD.has(game)) return "stud";
  if (DRAW.has(game)) return "draw";
  if (CHINESE.has(game)) return "chinese";
  return "flop";
}

/** The rules page of a game (#/rules/<page>). */
export function rulesPage(game) {
  if (game === "short_deck") return "short-deck";
  if (game === "razz" || game === "triple_draw_a5") return "low-a5";
  if (game === "triple_draw_27" || game === "single_draw_27") return "low-27";
  if (game === "badugi") return "badugi";
  if (HI_LO.has(game)) return "hi-lo";
  if (game && (game.startsWith("omaha") || game.startsWith("plo") || game.startsWith("courchevel"))) return "omaha";
  if (STUD.has(game)) return "stud";
  if (DRAW.has(game)) return "draw";
  if (CHINESE.has(game)) return "chinese";
  return "high";
}

/** Whether up cards of a stud seat are known: the usual 7-card pattern (down, down,
 *  up x4, down) when the dealing events were not seen (after a reload). */
export function studUps(count) {
  return Array.from({ length: count }, (_, i) => i >= 2 && i <= 5);
}

/** The rules link of a table, named as RULEBOOK §12 names it. */
const LINK_NAMES = {
  omaha: "View Omaha rules", "hi-lo": "View Hi-Lo rules", stud: "View Stud rules",
  draw: "View draw rules", chinese: "View Chinese poker scoring and royalties",
};

/** {page, label} of the rules link for `game` ("View hand rankings" for the ranking pages). */
export function rulesLink(game) {
  const page = rulesPage(game);
  return { page, label: LINK_NAMES[page] || "View hand rankings" };
}

/** Every rules link of `game`: its own page, then its family's when its own is about its
 *  hands only (Razz's low rankings, the Hi-Lo split, the 2-7, A-5 and Badugi rankings):
 *  the stud page says how a stud hand is dealt and who acts first, the draw page how the
 *  draws go and what a timeout on a draw costs. `rules` (the view's `game.rules`): a
 *  table's `hi_lo` adds the Hi-Lo page (Courchevel Hi-Lo) or takes it away. */
export function rulesLinks(game, rules) {
  const first = rulesLink(game);
  const kind = family(game);
  const more = (kind === "stud" || kind === "draw") && first.page !== kind;
  const links = more ? [first, { page: kind, label: LINK_NAMES[kind] }] : [first];
  // The table's hi_lo option (§6.3: Courchevel Hi-Lo; a Hi-Lo game for high only).
  const hiLo = rules ? rules.hi_lo : undefined;
  const split = links.some((l) => l.page === "hi-lo");
  if (hiLo === true && !split) return [...links, { page: "hi-lo", label: LINK_NAMES["hi-lo"] }];
  if (hiLo === false && split) {
    const rest = links.filter((l) => l.page !== "hi-lo");
    return rest.length ? rest : [{ page: "omaha", label: LINK_NAMES.omaha }];
  }
  return links;
}

/** The name of the game a hand's HandStarted event names (`e.game`, `e.structure`), from
 *  the games the table's view knows (the one played, the next, the last); else its id. */
export function gameLabel(view, e) {
  const known = view && [view.game, view.next_game, view.last_game].find((g) => g && g.game === e.game && g.structure === e.structure);
  return known ? known.label : e.game;
}
