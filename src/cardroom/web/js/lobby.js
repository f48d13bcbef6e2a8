// The lobby (RULEBOOK §12): the table list with its figures, filters, live updates
// (the list is read again every few seconds) and the waiting list.

import { get, offers } from "./api.js";
import { h, fill, chips } from "./dom.js";

const STRUCTURES = { no_limit: "NL", pot_limit: "PL", fixed_limit: "FL", spread_limit: "SL" };
const GAMES = [
  ["holdem", "Texas Hold'em"], ["short_deck", "Short Deck Hold'em"], ["omaha", "Omaha"],
  ["plo5", "Omaha 5-Card"], ["omaha_hi_lo", "Omaha Hi-Lo"], ["courchevel", "Courchevel"],
  ["courchevel_hi_lo", "Courchevel Hi-Lo"], ["stud", "Seven-Card Stud"], ["stud_hi_lo", "Stud Hi-Lo"],
  ["razz", "Razz"], ["soko", "Soko"], ["five_card_draw", "Five-card Draw"],
  ["triple_draw_27", "2-7 Triple Draw"], ["triple_draw_a5", "A-5 Triple Draw"],
  ["single_draw_27", "2-7 Single Draw"], ["badugi", "Badugi"], ["classic", "Chinese Poker"],
  ["ofc", "Open Face Chinese"], ["pineapple", "Pineapple OFC"], ["turbo", "OFC Turbo"],
  ["progressive", "Progressive Pineapple OFC"], ["pineapple27", "Pineapple 2-7 OFC"],
  ["CUSTOM_MIXED", "Mixed (custom)"], ["HORSE", "HORSE"], ["8-Game", "8-Game"],
];
const TITLES = Object.fromEntries(GAMES);

/** One lobby row in one shape, whichever fields the server's list gives. */
export function normalise(row) {
  const id = row.table_id ?? row.table ?? row.id;
  const structures = row.structures ?? (row.structure ? [row.structure] : []);
  const badge = row.badge ?? `${structures.map((s) => STRUCTURES[s] || s).join("/")} ${TITLES[row.game] || row.game}`.trim();
  return {
    id,
    name: row.name ?? id,
    badge,
    game: row.game,
    structures,
    stakes: row.stakes ?? (row.buy_in ? `buy-in ${row.buy_in[0]}–${row.buy_in[1] ?? "any"}` : ""),
    level: row.stake_level ?? null,
    seated: row.seats_taken ?? row.seated ?? 0,
    seats: row.max_seats ?? row.seats ?? 0,
    waiting: row.waiting ?? 0,
    averagePot: row.average_pot ?? null,
    handsPerHour: row.hands_per_hour ?? null,
    current: row.current_game ?? "",
    money: row.real_money === true || row.currency === "real" ? "real" : "play",
  };
}

function filterBar(onChange) {
  const game = h("select", { id: "filter-game", name: "game" },
    h("option", { value: "", text: "All games" }),
    GAMES.map(([v, t]) => h("option", { value: v, text: t })));
  const structure = h("select", { id: "filter-structure", name: "structure" },
    h("option", { value: "", text: "All structures" }),
    Object.entries({ no_limit: "No limit", pot_limit: "Pot limit", fixed_limit: "Fixed limit", spread_limit: "Spread limit" })
      .map(([v, t]) => h("option", { value: v, text: t })));
  const minStake = h("input", { id: "filter-min", type: "number", min: 0, inputMode: "numeric", placeholder: "any" });
  const maxStake = h("input", { id: "filter-max", type: "number", min: 0, inputMode: "numeric", placeholder: "any" });
  for (const el of [game, structure, minStake, maxStake]) el.addEventListener("change", onChange);
  const bar = h("form.filters", { role: "search", "aria-label": "Filter tables", onsubmit: (e) => e.preventDefault() },
    h("label", { for: "filter-game", text: "Game" }), game,
    h("label", { for: "filter-structure", text: "Structure" }), structure,
    h("label", { for: "filter-min", text: "Stakes from" }), minStake,
    h("label", { for: "filter-max", text: "to" }), maxStake);
  const values = () => ({ game: game.value, structure: structure.value, min: minStake.value, max: maxStake.value });
  return { bar, values };
}

/** Rows the server did not filter (an older list without filters) are filtered here. */
function keep(row, f) {
  if (f.game && row.game !== f.game) return false;
  if (f.structure && !row.structures.includes(f.structure)) return false;
  if (row.level !== null && f.min !== "" && row.level < Number(f.min)) return false;
  if (row.level !== null && f.max !== "" && row.level > Number(f.max)) return false;
  return true;
}

function tableRow(row, ctx, status) {
  const full = row.seats > 0 && row.seated >= row.seats;
  const open = h("a.button", { href: `#/table/${encodeURIComponent(row.id)}` },
    full ? "Watch" : "Open", h("span.sr", { text: ` table ${row.name}` }));
  const wait = full
    ? h("button", { type: "button",
      onclick: async (e) => {
        const button = e.currentTarget;
        const r = await ctx.conn.send("waitlist", { table: row.id, on: true });
        status.textContent = r.type === "ok" ? `You are on the waiting list of ${row.name}.` : `Waiting list: ${r.message || r.code}`;
        button.disabled = r.type === "ok";
      } }, "Join waiting list", h("span.sr", { text: ` of ${row.name}` }))
    : null;
  return h("tr", { "data-table": row.id },
    h("th", { scope: "row" }, h("span.name", { text: row.name }),
      row.current ? h("small", { text: ` now ${row.current}` }) : null),
    h("td", h("span.badge", { text: row.badge }), row.money === "real" ? h("span.badge.real", { text: "real money" }) : null),
    h("td", { text: row.stakes }),
    h("td", { text: `${row.seated}/${row.seats}` }),
    h("td", { text: row.averagePot === null ? "–" : chips(row.averagePot) }),
    h("td", { text: row.handsPerHour === null ? "–" : String(row.handsPerHour) }),
    h("td", { text: String(row.waiting) }),
    h("td.actions", open, wait));
}

// The tables a fresh `cardroom serve` opens (server/tables_file.py DEFAULT_TABLES). Used
// only while the server lists no tables over HTTP: each is looked at through the
// WebSocket (`watch`, then `unwatch`), so the lobby still shows what is open.
const DEFAULT_TABLES = ["holdem-nl-1", "omaha-pl-1", "stud-fl-1", "razz-fl-1", "triple-27-1", "short-deck-1", "horse-1", "ofc-1"];

function snapshotOf(ctx, id) {
  return new Promise((resolve) => {
    const off = ctx.conn.listen((m) => {
      if (m.type === "snapshot" && m.table === id) { off(); resolve(m); }
    });
    ctx.conn.send("watch", { table: id }).then((r) => { if (r.type === "error") { off(); resolve(null); } });
  });
}

/** Lobby rows read from the tables' own snapshots (the protocol only). */
async function probeTables(ctx) {
  const rows = [];
  for (const id of DEFAULT_TABLES) {
    const snap = await snapshotOf(ctx, id);
    if (!snap) continue;
    const v = snap.view;
    // Never stop watching a table we sit at (that would count as a disconnect).
    if ((v.you === null || v.you === undefined) && !ctx.conn.watching.has(id)) ctx.conn.send("unwatch", { table: id });
    const [low, high] = (snap.info && snap.info.buy_in) || [null, null];
    rows.push({
      table_id: id, badge: v.mixed || (v.game && v.game.label), game: v.game && v.game.game,
      structures: v.game ? [v.game.structure] : [], stakes: low === null ? "" : `buy-in ${low}–${high ?? "any"}`,
      seats_taken: v.seats.filter((x) => x !== null).length, max_seats: v.seats.length,
      waiting: (v.waitlist || []).length, current_game: v.mixed && v.game ? v.game.label : "",
      real_money: v.currency === "real",
    });
  }
  return rows;
}

function openByName() {
  const name = h("input#open-name", { type: "text", pattern: "[A-Za-z0-9_-]+", required: true });
  return h("form.opentable", { onsubmit: (e) => { e.preventDefault(); location.hash = `#/table/${encodeURIComponent(name.value)}`; } },
    h("label", { for: "open-name", text: "Table name" }), " ", name, " ", h("button", { type: "submit", text: "Open" }));
}

/** The lobby screen; returns its cleanup (stops the live updates). */
export function lobbyScreen(app, ctx) {
  const status = h("p.message", { role: "status", id: "lobby-status" });
  const body = h("tbody");
  const { bar, values } = filterBar(() => load());
  const table = h("table.lobby", { "aria-describedby": "lobby-status" },
    h("caption", { text: "Tables" }),
    h("thead", h("tr", ["Table", "Game", "Stakes", "Seats", "Avg pot", "Hands/h", "Waiting", ""]
      .map((t) => h("th", { scope: "col", text: t })))),
    body);
  fill(app, h("h1", { text: "Lobby" }), bar, h("div.scroll", table), status);

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
  async function refresh() {
    const listed = await offers("/api/tables");
    if (!live) return;
    const f = values();
    if (!listed) {
      const rows = (await probeTables(ctx)).map(normalise).filter((row) => keep(row, f));
      if (!live) return;
      fill(body, rows.map((row) => tableRow(row, ctx, status)));
      if (!rows.length) body.append(h("tr", h("td", { colSpan: 8, text: "No table matches these filters." })));
      if (!status.textContent.startsWith("You are")) status.textContent = `${rows.length} table${rows.length === 1 ? "" : "s"} (read from the tables themselves; average pot and hands per hour need the server's table list).`;
      if (!app.querySelector("form.opentable")) app.append(openByName());
      return;
    }
    const q = new URLSearchParams();
    if (f.game) q.set("game", f.game);
    if (f.structure) q.set("structure", f.structure);
    if (f.min) q.set("min_stake", f.min);
    if (f.max) q.set("max_stake", f.max);
    const r = await get(`/api/tables?${q}`).catch(() => ({ status: 0, body: null }));
    if (!live) return;
    if (r.status !== 200 || !r.body) {
      status.textContent = r.status === 404 ? "This server has no table list yet." : "The table list could not be read; retrying.";
      return;
    }
    const list = Array.isArray(r.body) ? r.body : r.body.tables || [];
    const rows = list.map(normalise).filter((row) => keep(row, f));
    fill(body, rows.map((row) => tableRow(row, ctx, status)));
    if (!rows.length) body.append(h("tr", h("td", { colSpan: 8, text: "No table matches these filters." })));
    if (!status.textContent.startsWith("You are")) status.textContent = `${rows.length} table${rows.length === 1 ? "" : "s"}.`;
  }
  load();
  const timer = setInterval(load, 4000);
  return () => { live = false; clearInterval(timer); };
}
