// The WebSocket connection (/ws, protocol version 1): ids, answers, reconnects.
//
// Each client message gets a fresh id; send() resolves with the server's `ok` or
// `error` naming it. When the connection drops, the client says "reconnecting…",
// reconnects with growing pauses, and watches its tables again with the last
// sequence number seen, so the server sends what was missed (or a snapshot).

let counter = 0;
const freshId = () => `c${Date.now().toString(36)}-${(counter += 1)}`;

/** This browser's device id: random, made once and kept in localStorage, sent with
 *  each connection so the room can flag accounts that share a device (RULEBOOK
 *  §10.9, for review only). Without storage it is new for each page. */
export function deviceId() {
  const made = () => (crypto.randomUUID ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(""));
  try {
    let id = localStorage.getItem("cardroomDevice");
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(id || "")) {
      id = made();
      localStorage.setItem("cardroomDevice", id);
    }
    return id;
  } catch {
    return made();
  }
}

export class Connection {
  constructor() {
    this.ws = null;
    this.pending = new Map();
    this.listeners = new Set();
    this.watching = new Map(); // table id -> last seq seen
    this.hello = null;
    this.skew = 0; // the server's clock minus ours, seconds (see clockSample)
    this.state = "idle";
    this.retry = 0;
    this.stateListeners = new Set();
    this.closedByUs = false;
  }

  /** Connect (resolves with the hello, or null when the server says log in first). */
  open() {
    this.closedByUs = false;
    return new Promise((resolve) => {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${proto}//${location.host}/ws?device=${encodeURIComponent(deviceId())}`);
      this.ws = ws;
      let settled = false;
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === "hello" && !settled) {
          settled = true;
          this.hello = msg;
          this.clockSample(msg.server_time, true);
          this.retry = 0;
          this.setState("open");
          resolve(msg);
          this.rewatch();
          return;
        }
        this.receive(msg);
      };
      ws.onclose = (e) => {
        for (const [, done] of this.pending) done({ type: "error", code: "disconnected" });
        this.pending.clear();
        if (!settled) {
          settled = true;
          resolve(null);
        }
        // 4401: the server no longer knows the session (logged out, expired): trying
        // again cannot help, the player must log in.
        if (e.code === 4401) { this.setState("unauthorized"); return; }
        if (this.closedByUs) { this.setState("closed"); return; }
        this.setState("reconnecting");
        const pause = Math.min(5000, 250 * 2 ** this.retry);
        this.retry += 1;
        setTimeout(() => { if (!this.closedByUs) this.open(); }, pause);
      };
    });
  }

  setState(state) {
    this.state = state;
    for (const fn of this.stateListeners) fn(state);
  }

  /** Be told of each state ("open", "reconnecting", "unauthorized", "closed"). */
  listenState(fn) {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close();
  }

  /** Cut the connection as a network failure would (used by the reconnect test hook). */
  drop() {
    if (this.ws) this.ws.close(4000, "dropped");
  }

  /** Deadlines are on the server's clock, and ours may be off by any amount. Each
   *  `server_time` we receive was stamped before it travelled, so it measures the
   *  difference minus the trip: the largest sample is the closest (a message held up
   *  on the way never makes it worse). A new connection starts again (our clock may
   *  have been set meanwhile). */
  clockSample(serverTime, fresh = false) {
    if (typeof serverTime !== "number") return;
    const sample = serverTime - Date.now() / 1000;
    this.skew = fresh ? sample : Math.max(this.skew, sample);
  }

  receive(msg) {
    if (msg.type === "turn") this.clockSample(msg.server_time);
    if ((msg.type === "ok" || msg.type === "error") && msg.re && this.pending.has(msg.re)) {
      const done = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      done(msg);
    }
    if (msg.type === "events" && msg.events.length) {
      this.seen(msg.table, msg.events[msg.events.length - 1].seq);
    } else if (msg.type === "snapshot" || msg.type === "turn") {
      this.seen(msg.table, msg.seq);
    }
    for (const fn of this.listeners) fn(msg);
  }

  seen(table, seq) {
    if (this.watching.has(table) && seq > (this.watching.get(table) ?? -1)) {
      this.watching.set(table, seq);
    }
  }

  /** Send a client message; resolves with the answer (`ok` or `error`). */
  send(type, fields = {}) {
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        resolve({ type: "error", code: "disconnected", message: "not connected" });
        return;
      }
      const id = freshId();
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ v: 1, type, id, ...fields }));
    });
  }

  /** Watch a table (again): from `since` when given, else a fresh snapshot. */
  watch(table, since) {
    if (!this.watching.has(table)) this.watching.set(table, since ?? -1);
    const fields = { table };
    if (since !== undefined && since !== null && since >= 0) fields.since = since;
    return this.send("watch", fields);
  }

  unwatch(table) {
    this.watching.delete(table);
    return this.send("unwatch", { table });
  }

  rewatch() {
    for (const [table, seq] of this.watching) this.watch(table, seq >= 0 ? seq : undefined);
  }

  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
