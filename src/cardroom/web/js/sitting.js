// Sitting down and the seat's own controls: the buy-in form, the waiting list's offer,
// sitting out and coming back, adding chips, leaving (and staying after all).

import { h, chips } from "./dom.js";

/** The buy-in form for `seat` of the table `t` (its controller). */
export function askBuyIn(t, seat) {
  const [low, high] = t.info.buy_in || [0, null];
  const amount = h("input#buyin-amount", { type: "number", min: low, max: high ?? undefined, value: high ?? low, inputMode: "numeric",
    "aria-describedby": t.info.reducing ? "buyin-reducing" : undefined });
  // Only a blind game has a big blind to post (RULEBOOK §10.3): not stud (antes and the
  // bring-in) nor Chinese poker; a mixed table may come to one.
  const blinds = t.view.mixed || !["stud", "chinese"].includes(t.family);
  const postNow = blinds ? h("input#buyin-post", { type: "checkbox", checked: true }) : null;
  const form = h("form.buyin", { "aria-label": "Buy in",
    onsubmit: async (e) => {
      e.preventDefault();
      const r = await t.send("join", { seat, amount: Number(amount.value), post_now: Boolean(postNow && postNow.checked) });
      if (r.type === "ok") {
        // The form goes: the focus goes to our seat's controls once they are drawn.
        t.focusSeat = true;
        form.remove();
        t.resync();
      }
    } },
  h("h2", { text: `Sit at seat ${seat + 1}` }),
  reducingHint(t),
  h("label", { for: "buyin-amount", text: `Buy-in (${chips(low)} to ${high === null ? "any" : chips(high)})` }), amount,
  postNow && h("span.opt", postNow, h("label", { for: "buyin-post", text: "Post the big blind now (play the next hand)" })),
  h("button.primary", { type: "submit", text: "Buy in" }),
  h("button", { type: "button", text: "Cancel", onclick: () => form.remove() }));
  const old = t.app.querySelector("form.buyin");
  if (old) old.remove();
  t.notice(""); // a refusal of the last try is not about this one
  t.regions.controls.prepend(form);
  amount.focus();
}

/** Why the form's minimum is above the table's own (RULEBOOK §10.2, "reducing": the
 *  snapshot's `info.reducing`), and until when, on the player's clock: the form said
 *  "Buy-in (30 to 40)" at a 20 to 40 table without a word why. */
function reducingHint(t) {
  const r = t.info.reducing;
  if (!r) return null;
  const until = new Date(Date.now() + (r.until - t.now()) * 1000);
  const at = until.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  return h("p#buyin-reducing.hint", { text: `You left this table with ${chips(r.chips)} chips: until ${at} you may not come back with less (no reducing).` });
}

/** Add chips: a whole number of chips, more than none (said here, not sent). */
function rebuy(t, value) {
  if (!/^[0-9]{1,15}$/.test(String(value).trim()) || Number(value) < 1) {
    t.notice("Add a whole number of chips, 1 or more.", true);
    return;
  }
  t.send("rebuy", { amount: Number(value) });
}

/** How long the seat offered is held for us still, in words ("for 42 s"): rounded up, as
 *  the turn's clock is (0.4 s left read "for 0 s" while the seat could still be taken). */
export function offerLeft(t, offer) {
  return `for ${Math.max(0, Math.ceil(offer.expires - t.now()))} s`;
}

/** What our own WaitlistLeft tells us, by its `reason` ("" when the page says it
 *  otherwise: a seat taken shows the seat). */
export function waitlistLeftWords(reason) {
  if (reason === "offer_expired") return "The seat held for you was passed on: the time to take it ran out, and you are off the waiting list.";
  if (reason === "left") return "You left the waiting list.";
  return "";
}

/** Leaving the waiting list (`waitlist` off): a seat offered is declined with it. */
function leaveList(t, text) {
  return h("button", { type: "button", text, onclick: async () => {
    const r = await t.send("waitlist", { on: false });
    if (r.type === "ok") t.notice("You left the waiting list.");
  } });
}

/** Not seated: the seat the waiting list holds for us (take it or decline it), our
 *  place on the list, the waiting list of a full table, or how to sit down. */
function watcherControls(t) {
  const offer = t.view.offer;
  if (offer) {
    // The time left runs down (`offerLeft`, each tick) in a part of the status that is
    // not live: a screen reader says the sentence once, not every second of it, and
    // reads the time left now when the player goes to it.
    return h("p.message", { role: "status" }, `From the waiting list: seat ${offer.seat + 1} is held for you `,
      h("span.offer-left", { "aria-live": "off", text: offerLeft(t, offer) }), ". ",
      h("button.primary", { type: "button", text: `Take seat ${offer.seat + 1}`, onclick: () => askBuyIn(t, offer.seat) }),
      " ", leaveList(t, "Decline and leave the list"));
  }
  const list = t.view.waitlist || [];
  const place = t.ctx.hello ? list.indexOf(t.ctx.hello.player) + 1 : 0;
  if (place) {
    return h("p.hint", h("span", { text: `You are on the waiting list: place ${place} of ${list.length}. ` }),
      leaveList(t, "Leave the waiting list"));
  }
  // A seat held for the waiting list is not ours to take (the view's `held`): a table
  // whose every seat is taken or held is full, and its waiting list the way to a seat.
  const held = t.view.held || [];
  const full = t.view.seats.every((x, s) => x !== null || held.includes(s));
  return h("p.hint", full
    ? [h("span", { text: "The table is full. " }), h("button", { type: "button", text: "Join the waiting list", onclick: async () => {
      const r = await t.send("waitlist", { on: true });
      if (r.type === "ok") t.notice("You are on the waiting list: a seat will be offered to you.");
    } })]
    : "Watching. Choose an empty seat to sit down.");
}

/** Sitting out asked in a hand waits for its end (RULEBOOK §10.4): the seat says so
 *  and offers to keep playing (`t.sitOutNext`, from the room's SitOutRequested, or
 *  from the answer when the page had not seen that event: after a reload). */
async function sitOut(t) {
  const r = await t.send("sit_out");
  const me = t.me();
  const seat = t.view && me !== null && me !== undefined ? t.view.seats[me] : null;
  if (r.type === "ok" && t.view.hand && seat && seat.dealt_in && !seat.sitting_out) {
    t.sitOutNext = true;
    t.render();
  }
}

/** Missed blinds (the view's `owes`), in words: what "I'm back" waits for. */
const MISSED = {
  big_blind: "You owe the big blind: wait for it to reach you, or post it now.",
  big_and_dead_small: "You missed both blinds: wait for the big blind to reach you, or post both now (the small one dead).",
};

/** Sitting out: "I'm back", and when blinds were missed (RULEBOOK §10.4: wait for the
 *  big blind or post now) what was missed and "Post now" (`sit_in`'s `post_now`). */
function comeBack(t, seat) {
  // Ids: the focus stays on a button when the region is drawn again.
  const back = h("button#sit-toggle", { type: "button", text: "I'm back", onclick: () => t.send("sit_in") });
  if (!MISSED[seat.owes]) return back;
  return [h("span.hint", { text: MISSED[seat.owes] }), back, postNow(t)];
}

/** Waiting in the seat for the big blind (joined or back without posting), in words. */
const WAITING = {
  big_blind: "You wait for the big blind to reach you, or post it now.",
  big_and_dead_small: "You wait for the big blind to reach you, or post both blinds now (the small one dead).",
};

/** Posting asked (the view's `post_now`), the seat not dealt in yet. */
const POSTING = "You post at the next hand that may deal you in (no one posts between the blinds and the button).";

/** "Post now": be dealt in at the next hand, posting what is owed (`sit_in`'s `post_now`). */
function postNow(t) {
  return h("button#sit-post", { type: "button", text: "Post now", onclick: () => t.send("sit_in", { post_now: true }) });
}

function sitToggle(t, seat) {
  if (seat && seat.sitting_out) return comeBack(t, seat);
  if (t.sitOutNext) {
    return [h("span.hint", { text: "You will sit out from the next hand." }),
      h("button#sit-toggle", { type: "button", text: "Keep playing", onclick: () => t.send("sit_in") })];
  }
  const out = h("button#sit-toggle", { type: "button", text: "Sit out next hand", onclick: () => sitOut(t) });
  // Seated, waiting for the big blind to come round (not dealt in): it may still be posted now.
  if (seat && WAITING[seat.owes] && !seat.dealt_in && !seat.post_now) {
    return [h("span.hint", { text: WAITING[seat.owes] }), out, postNow(t)];
  }
  // Asked to post, and not dealt in yet: said, or a seat between the blinds and the
  // button, kept out until it has passed (RULEBOOK §10.3), waited without a word why.
  if (seat && WAITING[seat.owes] && !seat.dealt_in) return [h("span.hint", { text: POSTING }), out];
  return out;
}

/** Adding chips: offered up to the table's maximum (RULEBOOK §10.2: `info.max_stack`,
 *  not the buy-in range, which the reducing rule may raise), the box filled with what
 *  tops the stack up to it (the room refuses a stack above it); at the maximum or above
 *  it (won chips), said instead. Only between hands: a seat dealt into the hand in progress sees the box held
 *  (the room refuses it there; sitting out, chips may be added). */
function rebuyBox(t, seat) {
  const [low] = t.info.buy_in || [0, null];
  const high = t.info.max_stack ?? null;
  const room = high === null || !seat ? null : high - seat.stack;
  // Won chips may take a stack past the maximum (it caps what is added, not what is won).
  if (room !== null && room < 0) return h("span.rebuy.hint", { text: `Your stack is above the table's maximum (${chips(high)}): no chips may be added.` });
  if (room === 0) return h("span.rebuy.hint", { text: `Your stack is at the table's maximum (${chips(high)}).` });
  const held = Boolean(seat && seat.dealt_in);
  const amount = h("input#rebuy-amount", { type: "number", min: 1, max: room ?? undefined, inputMode: "numeric", value: room ?? low, disabled: held });
  const label = held ? "Add between hands" : room === null ? "Add chips" : `Add up to ${chips(room)}`;
  return h("span.rebuy", h("label", { for: "rebuy-amount", text: label }), amount,
    h("button#rebuy", { type: "button", text: "Rebuy", disabled: held, onclick: () => rebuy(t, amount.value) }));
}

/** "Auto-muck losing hands" (RULEBOOK §7, on by default): off, our losing hands are
 *  shown at the showdown, from the next hand dealt. Not at a Chinese poker table, where
 *  every hand is set face up. */
function autoMuckBox(t) {
  const box = h("input#auto-muck", { type: "checkbox", checked: t.view.auto_muck !== false,
    onchange: async () => {
      const r = await t.send("auto_muck", { on: box.checked });
      if (r.type === "ok") t.notice(box.checked ? "Your losing hands will be mucked from the next hand." : "Your losing hands will be shown from the next hand.");
      else box.checked = !box.checked;
    } });
  return h("span.opt", box, h("label", { for: "auto-muck", text: "Auto-muck losing hands" }));
}

/** Leaving asked in a hand waits for its end (the view's `leaving`, after a reload too):
 *  until then the player may change his mind, "Stay" (`stay`; the room refuses it when
 *  the leave is its own). The same id as "Leave table": the focus stays on the button. */
function stayControls(t) {
  return h("div.seatcontrols", { role: "group", "aria-label": "Your seat" },
    h("span.hint", { text: "You will leave the table after this hand; until then your turns are played as if your time ran out." }),
    h("button#leave", { type: "button", text: "Stay", onclick: async () => {
      const r = await t.send("stay");
      if (r.type === "ok") t.leaving = false;
    } }));
}

/** The controls under the table: ours when seated, else a watcher's. */
export function seatControls(t) {
  const me = t.me();
  if (me === null || me === undefined) return watcherControls(t);
  const seat = t.view.seats[me];
  if (seat && seat.leaving) return stayControls(t);
  return h("div.seatcontrols", { role: "group", "aria-label": "Your seat" },
    sitToggle(t, seat),
    rebuyBox(t, seat),
    h("button#leave.leave", { type: "button", text: "Leave table", onclick: async () => {
      t.leaving = true;
      const r = await t.send("leave", {}, true);
      // Out of a hand the seat goes at once, its PlayerLeft (leftWords) before this answer.
      const gone = t.departed || t.me() === null || t.me() === undefined;
      if (r.type === "error") {
        t.leaving = false;
        t.refused(r);
      } else if (!gone) t.notice("You will leave the table after this hand; until then your turns are played as if your time ran out.");
    } }),
    // An option last: the buttons keep one line (a laptop's width), the option may wrap.
    t.family === "chinese" ? null : autoMuckBox(t));
}

/** Why a seat went (PlayerLeft's `reason`), in words. */
const LEFT_WORDS = {
  left: "You left the table",
  sat_out_too_long: "You sat out longer than this table allows, so your seat was given up",
  table_closed: "The table closed",
  frozen: "Your account is frozen, so your seat was given up",
  banned: "Your account is banned, so your seat was given up",
};

/** What our own PlayerLeft tells us: how the seat went and where its chips are. */
export function leftWords(e) {
  const why = LEFT_WORDS[e.reason] || "You are no longer seated";
  return `${why}: ${e.cashed_out ? `your ${chips(e.cashed_out)} chips are back in your account.` : "you had no chips left on the table."}`;
}
