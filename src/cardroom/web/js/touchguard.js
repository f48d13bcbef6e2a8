// Taps aimed at what was there a moment before. The action area changes under a finger:
// the bar goes as an action is sent and the advance boxes or the seat's controls move up
// into its place; the next decision's bar comes where they were. On a phone the second
// tap of a double tap (or an impatient one) then ticked "Call any", sat the player out
// or left the table, and a tap as the bar came played the next decision unseen. So a
// touch's tap on the action area or the seat's controls within `ms` of such a change is
// dropped. Not a mouse's click, nor a key: they are aimed at what the page shows (and
// a key acts on the decision named on its button, whatever moved).

/** Longer than a double tap's two taps apart (Android's 300 ms), shorter than anyone
 *  takes to read a new decision. */
export const TAP_GUARD_MS = 400;

export class TapGuard {
  /** Guard the taps on `areas` (elements under `root`). */
  constructor(root, areas) {
    this.root = root;
    this.areas = areas;
    this.ms = TAP_GUARD_MS;
    this.shape = null;
    this.changed = -Infinity;
    this.pointer = "";
    this.down = (e) => { this.pointer = e.pointerType; };
    this.click = (e) => this.drop(e);
    root.addEventListener("pointerdown", this.down, true);
    root.addEventListener("click", this.click, true);
  }

  /** The action area now holds `shape` (what it offers: the decision, the advance
   *  boxes, nothing): a different one starts the guard. A discard chosen, an amount
   *  typed or a box ticked redraws the same decision, which moves nothing. */
  shown(shape) {
    const key = JSON.stringify(shape);
    if (key === this.shape) return;
    this.shape = key;
    this.changed = performance.now();
  }

  drop(e) {
    // A click from the keyboard (Enter, Space, the keys' `click()`) has no pointer: detail 0.
    const touch = (e.pointerType || this.pointer) === "touch" && e.detail > 0;
    if (!touch || performance.now() - this.changed >= this.ms) return;
    if (!this.areas.some((a) => a.contains(e.target))) return;
    e.preventDefault(); // a checkbox or its label is not ticked
    e.stopImmediatePropagation();
  }

  stop() {
    this.root.removeEventListener("pointerdown", this.down, true);
    this.root.removeEventListener("click", this.click, true);
  }
}
