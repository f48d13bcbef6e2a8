// The lobby (RULEBOOK §12): the server's table list (`GET /api/tables`) with its
// figures, the filters it offers, live updates (the list is read again every 4 s)
// and the waiting list of a full table.

import { get } from "./api.js";
import { h, fill, patch, chips } from "./dom.js";
import { sayOffers, watchOurLists } from "./offered.js";

const REFRESH_MS = 4000;
const COLUMNS = ["Table", "Game", "Stakes", "Seats", "Avg pot", "Hands/h", "Waiting", ""];
/** A structure in words; the server's label (its abbreviation) for any other. */
const STRUCTURE_WORDS = {
  no_limit: "No limit", pot_limit: "Pot limit", half_pot_limit: "Half-pot limit",
  fixed_limit: "Fixed limit", spread_limit: "Spread limit",
};

/** The filters: their choices come from the server's answer (every game and
 *  structure it can deal, whether or not a table of it is open). */
function filterBar(onChange) {
  const game = h("select", { id: "filter-game", name: "game" }, h("option", { value: "", text: "All games" }));
  const structure = h("select", { id: "filter-structure", name: "structure" }, h("option", { value: "", text: "All structures" }));
  const minStake = h("input", { id: "filter-min", type: "number", min: 0, inputMode: "numeric", placeholder: "any" });
  const maxStake = h("input", { id: "filter-max", type: "number", min: 0, inputMode: "numeric", placeholder: "any" });
  for (const el of [game, structure, minStake, maxStake]) el.addEventListener("change", onChange);
  const bar = h("form.filters", { role: "search", "aria-label": "Filter tables", onsubmit: (e) => e.preventDefault() },
    h("label", { for: "filter-game", text: "Game" }), game,
    h("label", { for: "filter-structure", text: "Structure" }), structure,
    h("label", { for: "filter-min", text: "Stakes from" }), minStake,
    h("label", { for: "filter-max", text: "to" }), maxStake);
  const values = () => ({ game: game.value, structure: structure.value, min: minStake.value, max: maxStake.value });
  const choose = (select, choices, words = {}) => {
    const all = select.options[0];
    const options = choices.map((c) => h("option", { value: c.value, text: words[c.value] || c.label }));
    if (select.options.length - 1 === options.length) return; // the server's list is the same
    const chosen = select.value;
    fill(select, all, options);
    select.value = chosen;
  };
  const offer = (answer) => {
    choose(game, answer.games || []);
    choose(structure, answer.structures || [], STRUCTURE_WORDS);
  };
  return { bar, values, offer };
}

function tableRow(row, waiting, join) {
  // Players waiting beside an empty seat: it is held for the first of them (RULEBOOK
  // §10.3), so the list is the way to a seat (a seat free all the same, every one
  // waiting holding one, has the list refused in the server's words: sit down).
  const full = row.max_seats > 0 && (row.seats_taken >= row.max_seats || row.waiting > 0);
  // Seated here (the server's `your_seat`): the way to the seat, never the waiting list.
  const seated = row.your_seat !== null && row.your_seat !== undefined;
  const open = h("a.button", { href: `#/table/${encodeURIComponent(row.table_id)}` },
    seated ? "Go to your seat" : full ? "Watch" : "Open", h("span.sr", { text: ` table ${row.name}` }));
  // On its list: joined from this page, or told by the server (`your_place`, which a
  // page opened afresh knows only from it).
  const place = row.your_place;
  const onList = waiting.has(row.table_id) || (place !== null && place !== undefined);
  const wait = seated ? null : full || onList
    ? h("button", { type: "button", disabled: onList, onclick: () => join(row) },
      onList ? "On the waiting list" : "Join waiting list", h("span.sr", { text: ` of ${row.name}` }),
      place ? ` (place ${place})` : null)
    : null;
  // data-label: the column's name, said before each figure where the rows are cards (a
  // phone: the CSS's ::before).
  const cell = (label, ...content) => h("td", { "data-label": label }, content);
  return h("tr", { "data-table": row.table_id },
    h("th", { scope: "row" }, h("span.name", { text: row.name }),
      row.current_game ? h("small", { text: ` now ${row.current_game}` }) : null),
    h("td", h("span.badge", { text: row.badge }), row.money === "real" ? h("span.badge.real", { text: "real money" }) : null),
    cell(COLUMNS[2], row.stakes),
    cell(COLUMNS[3], `${row.seats_taken}/${row.max_seats}`),
    cell(COLUMNS[4], row.average_pot ? chips(row.average_pot) : "–"), // no hand yet: no average
    cell(COLUMNS[5], String(row.hands_per_hour)),
    cell(COLUMNS[6], String(row.waiting)),
    h("td.rowbuttons", h("div.rowactions", open, wait)));
}

/** The lobby screen; returns its cleanup (stops the live updates). */
export function lobbyScreen(app, ctx) {
  const status = h("p.message", { role: "status", id: "lobby-status" });
  const offerNote = h("p.message", { role: "alert", id: "lobby-offer" });
  const body = h("tbody");
  const { bar, values, offer } = filterBar(() => load());
  const table = h("table.lobby", { "aria-describedby": "lobby-status" },
    h("caption", { text: "Tables" }),
    h("thead", h("tr", COLUMNS.map((t) => h("th", { scope: "col", text: t })))),
    body);
  fill(app, h("h1", { text: "Lobby" }), offerNote, bar, h("div.scroll", table), status);

  // The tables whose waiting list we joined (here, or at the table: the page goes on
  // watching them): the seat the room offers us (SeatOffered) is told here with a link
  // to take it.
  const waiting = new Set(); // joined from here: the row's button says so
  const off = sayOffers(ctx, offerNote);
  async function join(row) {
    const r = await ctx.conn.send("waitlist", { table: row.table_id, on: true });
    if (r.type === "ok") {
      waiting.add(row.table_id);
      ctx.conn.watch(row.table_id);
      status.textContent = `You are on the waiting list of ${row.name}.`;
    } else status.textContent = `Waiting list of ${row.name}: ${r.message || r.code}`;
    load();
  }

  let live = true;
  let busy = false;
  let again = false;
  async function load() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      await refresh();
    } finally {
      busy = false;
    }
    if (again && live) { again = false; load(); }
  }
  /** The rows say nothing while the filters and the list disagree. */
  const noRows = (text) => patch(body, h("tr", h("td", { colSpan: 8, text })));
  async function refresh() {
    const f = values();
    const q = new URLSearchParams();
    if (f.game) q.set("game", f.game);
    if (f.structure) q.set("structure", f.structure);
    for (const [name, value] of [["min_stake", f.min], ["max_stake", f.max]]) {
      if (!value) continue;
      if (!/^[0-9]{1,15}$/.test(value)) { // the server takes whole chips, 0 or more
        noRows("No table listed.");
        status.textContent = "Stakes are whole numbers of chips, 0 or more.";
        return;
      }
      q.set(name, value);
    }
    const r = await get(`/api/tables?${q}`).catch(() => ({ status: 0, body: null }));
    if (!live) return;
    if (r.status === 400 && r.body) { // a filter the server refused: its reason
      noRows("No table listed.");
      status.textContent = `Filter refused: ${r.body.message || r.body.code}`;
      return;
    }
    if (r.status !== 200 || !r.body) {
      status.textContent = "The table list could not be read; retrying.";
      return;
    }
    offer(r.body);
    const rows = r.body.tables || [];
    watchOurLists(ctx, rows);
    // Patched, not rebuilt: a click on a row's button survives the live update.
    patch(body, rows.length ? rows.map((row) => tableRow(row, waiting, join))
      : h("tr", h("td", { colSpan: 8, text: "No table matches these filters." })));
    const count = `${rows.length} table${rows.length === 1 ? "" : "s"}.`;
    // Written when it changes only: the status is a live region, and the same words
    // written again every 4 s were said again every 4 s.
    if (!/^(You are|Waiting list)/.test(status.textContent) && status.textContent !== count) {
      status.textContent = count;
    }
  }
  load();
  const timer = setInterval(load, REFRESH_MS);
  return () => { live = false; off(); clearInterval(timer); };
}
