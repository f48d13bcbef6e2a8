// The server's clock as this page knows it: deadlines and offers are on it, and this
// computer's clock may be off by any amount (minutes, hours, another day).
//
// Every `server_time` the server sends was stamped before it travelled, so the server's
// clock minus ours, read when it arrives, is the offset less the trip down: a bound from
// below. A ping's answer stamped on its way back, less our clock when the ping left, is
// the offset plus the trip up: a bound from above, and the one a countdown needs. A
// clock counted from the lower bound showed what the server had left after the news
// reached us: on a line of 1 s each way, "2s" left only 0.5-0.9 s to act, and a click
// there arrived too late. From the upper bound a countdown says the time an action
// sent now still has to reach the server. A new connection (the line may have changed)
// measures its own, and until it is answered goes on from the last one's.

/** The offset of one connection's server clock to this page's steady clock (seconds). */
export class ServerClock {
  /** `before`: the last connection's clock (its upper bound serves until this one's). */
  constructor(before = null) {
    this.low = null; // the largest (server clock - ours) seen on arrival
    this.high = null; // the smallest (server clock - ours when a ping left)
    this.asked = false; // a ping to measure the upper bound went (once a connection)
    // Counted from the hello's lower bound, the first round trip of a reconnection on
    // a line of 0.75 s each way showed 1.5 s more than an action had.
    this.carried = before && (before.high ?? before.carried);
  }

  /** A message stamped `serverTime` arrived now (`nowSeconds`, our steady clock). */
  heard(serverTime, nowSeconds) {
    if (typeof serverTime !== "number") return;
    const sample = serverTime - nowSeconds;
    this.low = this.low === null ? sample : Math.max(this.low, sample);
    // Above the upper bound: the bound is stale (this computer slept, and its steady
    // clock with it): measured again.
    if (this.high !== null && this.low > this.high) {
      this.high = null;
      this.asked = false;
    }
    if (this.carried !== null && this.low > this.carried) this.carried = null;
  }

  /** A ping sent at `sentSeconds` was answered now (`nowSeconds`), stamped `serverTime`
   *  (none: a server that does not stamp it, asked no more). */
  answered(serverTime, sentSeconds, nowSeconds) {
    if (typeof serverTime !== "number") return;
    const bound = serverTime - sentSeconds;
    this.high = this.high === null ? bound : Math.min(this.high, bound);
    this.heard(serverTime, nowSeconds);
  }

  /** Whether a ping should measure the upper bound now (once, until it goes stale). */
  wanted() { return !this.asked; }

  /** The offset to use: the upper bound once measured (or the last connection's, until
   *  then), else the lower one, else none. */
  offset() { return this.high ?? this.carried ?? this.low ?? 0; }
}
