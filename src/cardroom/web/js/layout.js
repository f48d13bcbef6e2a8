// The seats fitted to the felt: as large as they can be (up to their full size) with no
// two of them, nor a seat and the board, over each other, however many seats the table
// has and however small the window. Nine or ten seats of full size do not fit around a
// laptop's felt: they are made smaller (their font, and everything in em with it)
// rather than laid over each other. Measured in the page, since a seat's box depends on
// what it holds (the alias, its tags, seven stud cards, the bet, the clock).

const SMALLEST = 0.6; // below this the aliases and cards can no longer be read
const STEP = 0.02;
const SAMPLES = 720; // points along the path the seats are spread on
const SQUARENESS = 3; // 2: an ellipse; more: a squarer oval, room for the board

/** A point of the path at parameter `t` (a superellipse with half-axes `a` and `b`). */
function pathPoint(t, a, b) {
  const bend = (v) => Math.sign(v) * Math.abs(v) ** (2 / SQUARENESS);
  return [a * bend(Math.cos(t)), b * bend(Math.sin(t))];
}

/** `n` seat centres (from the felt's centre), the first at the bottom, going clockwise.
 *  They are equally far apart counted in seat widths across and seat heights down (a
 *  box of `w` by `h`): on a wide felt the seats at the ends of the oval are then not
 *  stacked closer than the ones along its top and bottom, as equal angles would. */
function spread(n, a, b, w, h) {
  const points = [];
  const walked = [0];
  for (let s = 0; s <= SAMPLES; s++) {
    points.push(pathPoint(Math.PI / 2 + (2 * Math.PI * s) / SAMPLES, a, b));
    if (s) {
      const [[x0, y0], [x1, y1]] = [points[s - 1], points[s]];
      walked.push(walked[s - 1] + Math.hypot((x1 - x0) / w, (y1 - y0) / h));
    }
  }
  const out = [];
  let j = 0;
  for (let i = 0; i < n; i++) {
    while (walked[j] < (walked[SAMPLES] * i) / n) j++;
    out.push(points[j]);
  }
  return out;
}

function overlap(p, q) {
  return p.left < q.left + q.w - 0.5 && q.left < p.left + p.w - 0.5
    && p.top < q.top + q.h - 0.5 && q.top < p.top + p.h - 0.5;
}

/** Each seat's box at `scale` (`sizes` measured at full size), and whether they all
 *  stay apart and off the board. `spot(s)`: where seat `s` goes on the path (ours at
 *  the bottom). */
function boxesAt(scale, felt, sizes, board, spot) {
  const w = Math.max(...sizes.map((s) => s.w)) * scale;
  const h = Math.max(...sizes.map((s) => s.h)) * scale;
  const centres = spread(sizes.length, Math.max(0, felt.w - w) / 2, Math.max(0, felt.h - h) / 2, w, h);
  const clamp = (v, room) => Math.min(Math.max(v, 0), Math.max(room, 0));
  const boxes = sizes.map((size, s) => {
    const [bw, bh] = [size.w * scale, size.h * scale];
    const [x, y] = centres[spot(s)];
    return { left: clamp(felt.w / 2 + x - bw / 2, felt.w - bw), top: clamp(felt.h / 2 + y - bh / 2, felt.h - bh), w: bw, h: bh };
  });
  const all = [...boxes, { left: (felt.w - board.w) / 2, top: (felt.h - board.h) / 2, ...board }];
  return { scale, boxes, apart: !all.some((p, i) => all.slice(i + 1).some((q) => overlap(p, q))) };
}

/** The largest scale from `from` down at which the seats stay apart (the smallest when
 *  none does). */
function bestFit(felt, sizes, board, spot, from = 1) {
  for (let scale = from; scale > SMALLEST; scale -= STEP) {
    const fit = boxesAt(scale, felt, sizes, board, spot);
    if (fit.apart) return fit;
  }
  return boxesAt(SMALLEST, felt, sizes, board, spot);
}

const measure = (seats, scale) => seats.map((s) => ({ w: s.offsetWidth / scale, h: s.offsetHeight / scale }));

/** The fit, checked at the scale it gives: a box does not always shrink with its font
 *  (an alias and its tags that filled a line may wrap onto two at a smaller size), so
 *  the seats are measured again there, and the search goes on below while they meet. */
function checkedFit(el, seats, felt, board, spot) {
  let fit = bestFit(felt, measure(seats, 1), board, spot);
  for (let tries = 0; tries < 3 && fit.scale < 1; tries++) {
    el.style.setProperty("--seat-scale", fit.scale.toFixed(3));
    const sizes = measure(seats, fit.scale);
    const there = boxesAt(fit.scale, felt, sizes, board, spot);
    if (there.apart || fit.scale <= SMALLEST) return there;
    fit = bestFit(felt, sizes, board, spot, fit.scale - STEP);
  }
  return fit;
}

/** Fit the seats of `el` (a `.felt` laid out as an oval; a phone's list of seats is
 *  left alone). `me`: our seat, drawn at the bottom. The seats are measured at full
 *  size, then given their scale and places: a place is said as a share of the room
 *  left beside the box (`.seat`'s --x and --y), so a box a pixel larger than measured
 *  still stays inside the felt. */
export function fitSeats(el, me) {
  const seats = [...el.querySelectorAll(":scope > .seat")];
  el.style.removeProperty("--seat-scale");
  if (!seats.length || getComputedStyle(seats[0]).position !== "absolute") return;
  const felt = { w: el.clientWidth, h: el.clientHeight };
  const centre = el.querySelector(":scope > .centre");
  const board = centre ? { w: centre.offsetWidth, h: centre.offsetHeight } : { w: 0, h: 0 };
  const shift = me === null || me === undefined ? 0 : me;
  const fit = checkedFit(el, seats, felt, board, (s) => (s - shift + seats.length) % seats.length);
  el.style.setProperty("--seat-scale", fit.scale.toFixed(3));
  seats.forEach((seat, s) => {
    const box = fit.boxes[s];
    const across = felt.w > box.w ? (100 * box.left) / (felt.w - box.w) : 50;
    const down = felt.h > box.h ? (100 * box.top) / (felt.h - box.h) : 50;
    seat.style.left = `${across.toFixed(2)}%`;
    seat.style.top = `${down.toFixed(2)}%`;
    seat.style.setProperty("--x", across.toFixed(2));
    seat.style.setProperty("--y", down.toFixed(2));
  });
  watch(el, me);
}
// A felt fitted once is fitted again when its size changes (the window's), between
// the table's redraws; the felt is kept across redraws, so it is watched once.
const watched = new WeakMap();
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (!target.isConnected) resized.unobserve(target);
    else fitSeats(target, watched.get(target));
  }
});

function watch(el, me) {
  if (!watched.has(el)) resized.observe(el);
  watched.set(el, me);
}

// A click is a press and a release on the same button. While bots play, the table is
// redrawn several times a second, and a seat sitting down or going broke refits every
// seat: a felt with a pointer pressed on it is redrawn once the pointer is released,
// so "Sit here" neither moves from under the pointer nor loses the click.
// A press longer than any click is drawn over all the same, so a release the page
// never heard of cannot freeze the table.
const LONGEST_PRESS_MS = 5000;
const pressed = new WeakMap(); // felt -> when the pointer was pressed on it
const guarded = new WeakSet();
const pending = new WeakMap();

function guard(el) {
  if (guarded.has(el)) return;
  guarded.add(el);
  el.addEventListener("pointerdown", () => {
    pressed.set(el, performance.now());
    const up = () => {
      window.removeEventListener("pointerup", up, true);
      window.removeEventListener("pointercancel", up, true);
      pressed.delete(el);
      const later = pending.get(el);
      pending.delete(el);
      if (later && el.isConnected) later();
    };
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
  });
}

/** Whether a pointer is pressed on `el` (a felt): then `later` runs once it is released
 *  (the last one given), instead of the caller's redrawing `el` now. */
export function heldDown(el, later) {
  guard(el);
  const since = pressed.get(el);
  if (since === undefined || performance.now() - since > LONGEST_PRESS_MS) return false;
  pending.set(el, later);
  return true;
}
