// What survives a region of the table page being drawn again: the focused control,
// what the player is typing; and the action bar scrolled into view.

/** What identifies the focused control of `el` across a rebuild (its key or name). */
export function focusedKey(el) {
  const f = document.activeElement;
  if (!f || f === document.body || !el.contains(f)) return null;
  const key = f.getAttribute("data-key");
  if (key) return `[data-key="${CSS.escape(key)}"]`;
  if (f.id) return `#${CSS.escape(f.id)}`;
  const label = f.getAttribute("aria-label");
  return label ? `[aria-label="${CSS.escape(label)}"]` : null;
}

/** The values of the text boxes and choices of `el` that have an id (a draft chat
 *  line, a report being written), to put back after `el` is rebuilt. */
export function typedValues(el) {
  return [...el.querySelectorAll("input[id]:not([type=checkbox]), select[id]")]
    .filter((x) => x.value !== x.defaultValue || x.tagName === "SELECT")
    .map((x) => [x.id, x.value]);
}

/** Focus again, after a rebuild, the control that had it (or, when `anyButton`, the
 *  region's first button: a seat's controls replace each other; never in the action
 *  bar, whose first button is Fold). */
export function refocus(el, selector, anyButton = true) {
  const again = el.querySelector(selector) || (anyButton ? el.querySelector("button:not([disabled])") : null);
  if (again) again.focus();
}

/** Keep the focus in `el` when the control that had it went with a rebuild (our action
 *  sent: the bar replaced by nothing, or by the advance checkboxes): the region itself
 *  takes it, so the next Tab goes on from there, not from the top of the page. */
export function holdFocus(el) {
  if (el.contains(document.activeElement)) return;
  if (!el.hasAttribute("tabindex")) el.tabIndex = -1;
  el.focus({ preventScroll: true });
}

/** Scroll just enough for the whole of `el` (the action bar, as our turn comes) to be on
 *  the screen when it runs below the screen's edge (a laptop's 768 px: the raise button
 *  on a second line), never past its top. Not on a phone, where the board comes first
 *  and the seats' list would scroll it away. */
export function onScreen(el) {
  if (!el.isConnected || matchMedia("(max-width: 43.75em)").matches) return;
  const r = el.getBoundingClientRect();
  if (r.bottom > innerHeight && r.top > 0) window.scrollBy(0, Math.min(r.bottom - innerHeight, r.top));
}

/** Keep `el` (the action bar) on the screen while it is shown: `onScreen` as it comes
 *  and again whenever it or `page` changes size (a line said over the table, the chat
 *  or the log growing beside it, the bar itself growing: each moved it down after it
 *  was scrolled into view once). Returns the watch, to `disconnect` when the bar goes. */
export function keepOnScreen(el, page) {
  const watch = new ResizeObserver(() => (el.isConnected ? onScreen(el) : watch.disconnect()));
  watch.observe(el);
  watch.observe(page);
  return watch;
}
