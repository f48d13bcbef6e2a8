// The WebSocket connection (/ws, protocol version 1): ids, answers, reconnects.
//
// Each client message gets a fresh id; send() resolves with the server's `ok` or
// `error` naming it. When the connection drops, the client says "reconnecting…",
// reconnects with growing pauses, and watches its tables again with the last
// sequence number seen, so the server sends what was missed (or a snapshot).
//
// A network that goes away often leaves the socket "open" for minutes, and what is
// sent meanwhile waits in it, to arrive late. So a quiet connection is pinged, and one
// that has said nothing for HEARD_WITHIN_MS, its ping unanswered, is taken as lost at
// once: the page says "reconnecting" and holds its controls, and what waited in the old
// socket is dropped with it (never played late on a later turn).

import { ServerClock } from "./serverclock.js";

/** A table's id as the protocol has it (`protocol.TABLE_ID`): letters, digits, `-`, `_`, at most 40. */
export const TABLE_ID = /^[A-Za-z0-9_-]{1,40}$/;

const PING_AFTER_MS = 5000;
const HEARD_WITHIN_MS = 12000;
/** A ping is given this long to be answered, however long the connection was quiet
 *  before it: a background tab's timers may run once a minute (Chromium's intensive
 *  throttling, after 5 minutes hidden), and a quiet connection's silence was then the
 *  page's own (it had not asked), not the network's. */
const ANSWER_WITHIN_MS = PING_AFTER_MS;

/** Milliseconds on a clock that setting this computer's clock does not move (its NTP,
 *  its owner): the page's start on the wall clock, run on by the monotonic one. Read
 *  from the wall clock, a turn's countdown jumped to 0 (or on for as long) when the
 *  clock was set during it, and a silent connection went unnoticed after a step back. */
const steadyMs = () => performance.timeOrigin + performance.now();

// Ids must be unique per account across its connections (the server answers an id it
// has seen, from any of them, as a replay): a random part of this page's own, so two
// tabs (or a phone and a laptop) never share one, then the time, so a reload does not.
const PAGE = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("");
let counter = 0;
const freshId = () => `c${PAGE}${Date.now().toString(36)}-${(counter += 1)}`;

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
    // table id -> the run of the server (hello.run) that seq was seen on: sent with it,
    // so a server restored from a backup that never stored it sends a snapshot instead.
    this.seenOn = new Map();
    this.hello = null;
    // The client's release of the first server met, and whether a later hello named
    // another: the server was updated under this page, whose modules are the old
    // release's for as long as it stays open (a reload gets the new ones).
    this.release = null;
    this.outdated = false;
    this.clock = new ServerClock(); // the server's clock minus ours, each connection's own
    this.state = "idle";
    this.retry = 0;
    this.stateListeners = new Set();
    this.closedByUs = false;
    this.heard = steadyMs();
    this.heartbeat = null;
    this.pingAt = null; // when the last ping went (steadyMs), until a new connection
    this.greeted = false;
    this.opened = steadyMs();
    this.unsettled = () => {};
    this.again = null; // the next try after a lost connection, once its pause is over
    // A phone back from a tunnel or from the background tries at once, not after the
    // pause its failed tries grew to (up to 5 s more of "reconnecting", a turn's clock
    // running).
    const now = () => { if (this.again && !document.hidden) this.tryNow(); };
    addEventListener("online", now);
    document.addEventListener("visibilitychange", now);
  }

  /** Connect again now, the pause after the last failed try cut short. */
  tryNow() {
    clearTimeout(this.again);
    this.again = null;
    if (!this.closedByUs) this.open();
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
        this.heard = steadyMs();
        const msg = JSON.parse(e.data);
        if (msg.type === "hello" && !settled) {
          settled = true;
          this.greeted = true;
          this.hello = msg;
          if (msg.release) {
            if (this.release === null) this.release = msg.release;
            else if (msg.release !== this.release) this.outdated = true;
          }
          // A new connection measures again (the line may have changed, or this
          // computer slept).
          this.clock = new ServerClock(this.clock);
          this.clock.heard(msg.server_time, steadyMs() / 1000);
          this.measure();
          this.retry = 0;
          this.setState("open");
          resolve(msg);
          this.rewatch();
          return;
        }
        this.receive(msg);
      };
      // Until the hello, `open()` is still waiting: a connection lost first says null.
      this.unsettled = () => {
        if (!settled) {
          settled = true;
          resolve(null);
        }
      };
      ws.onclose = (e) => this.lost(ws, e.code);
      this.heard = this.opened = steadyMs();
      this.greeted = false;
      this.pingAt = null;
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => this.beat(ws), 1000);
    });
  }

  /** Ping a quiet connection; take one that has said nothing for too long, not even to
   *  its ping, as lost (a new one that has not said hello in that time too: until then
   *  it is not ours). A beat that comes late (a background tab's timer) pings first: the
   *  connection was quiet for as long, but nobody had asked it anything. */
  beat(ws) {
    if (ws !== this.ws) return;
    const now = steadyMs();
    if (!this.greeted) { // connecting, or waiting for the hello
      if (now - this.opened > HEARD_WITHIN_MS) this.lost(ws, 4000);
      return;
    }
    this.measure(); // a measure gone stale (this computer slept) is taken again
    const quiet = now - this.heard;
    const asked = this.pingAt !== null && this.heard < this.pingAt; // unanswered so far
    if (asked && quiet > HEARD_WITHIN_MS && now - this.pingAt > ANSWER_WITHIN_MS) this.lost(ws, 4000);
    else if (quiet > PING_AFTER_MS && !asked) {
      this.pingAt = now;
      this.ping();
    }
  }

  /** The connection `ws` ended (`code`: its close code): every answer awaited is
   *  "disconnected", and a new connection is made unless we closed it or the session
   *  ended. A socket taken as lost is closed and forgotten at once, so what waits in
   *  it is never sent. */
  lost(ws, code) {
    if (ws !== this.ws) return; // an older socket, already replaced
    ws.onclose = null;
    ws.onmessage = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(4000, "lost");
    this.ws = null;
    clearInterval(this.heartbeat);
    for (const [, done] of this.pending) done({ type: "error", code: "disconnected" });
    this.pending.clear();
    this.unsettled();
    // 4401: the server no longer knows the session (logged out, expired): trying
    // again cannot help, the player must log in.
    if (code === 4401) { this.setState("unauthorized"); return; }
    // 4403: the account was banned (its sessions with it): trying again said
    // "reconnecting", then "Your session has ended", the player never told why.
    if (code === 4403) { this.setState("banned"); return; }
    if (this.closedByUs) { this.setState("closed"); return; }
    this.setState("reconnecting");
    const pause = Math.min(5000, 250 * 2 ** this.retry);
    this.retry += 1;
    this.again = setTimeout(() => this.tryNow(), pause);
  }

  setState(state) {
    this.state = state;
    for (const fn of this.stateListeners) fn(state);
  }

  /** Be told of each state ("open", "reconnecting", "unauthorized", "banned", "closed"). */
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
    if (this.ws) this.lost(this.ws, 4000);
  }

  /** Ping to measure the server's clock from above (serverclock.js), when it wants it:
   *  once a connection, and again when the measure went stale. */
  measure() {
    if (!this.clock.wanted()) return;
    this.clock.asked = true;
    this.ping();
  }

  /** Ping; its answer measures the server's clock from above too. */
  ping() {
    const clock = this.clock;
    const sent = steadyMs() / 1000;
    this.send("ping").then((r) => clock.answered(r.detail && r.detail.server_time, sent, steadyMs() / 1000));
  }

  /** Now on the server's clock as an action sent now would reach it, seconds (deadlines
   *  and offers are on it: a countdown from here says what an action still has). */
  serverNow() { return steadyMs() / 1000 + this.clock.offset(); }

  receive(msg) {
    if (msg.type === "turn") this.clock.heard(msg.server_time, steadyMs() / 1000);
    // A table closed for good is not watched again after a reconnect (one the server
    // stopped with comes back with it: it is).
    if (msg.type === "table_closed" && msg.reason !== "server_stopping") this.watching.delete(msg.table);
    if ((msg.type === "ok" || msg.type === "error") && msg.re && this.pending.has(msg.re)) {
      const done = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      done(msg);
    }
    if (msg.type === "events" && msg.events.length) {
      this.seen(msg.table, msg.events[msg.events.length - 1].seq);
    } else if (msg.type === "snapshot") {
      // The whole table as of its seq: what we held before (of a server restored from a
      // backup, a higher seq the record never held) is forgotten.
      this.seen(msg.table, msg.seq, true);
    } else if (msg.type === "turn") {
      this.seen(msg.table, msg.seq);
    }
    for (const fn of this.listeners) fn(msg);
  }

  seen(table, seq, exact = false) {
    if (this.watching.has(table) && (exact || seq > (this.watching.get(table) ?? -1))) {
      this.watching.set(table, seq);
      if (this.hello && this.hello.run) this.seenOn.set(table, this.hello.run);
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
    if (since !== undefined && since !== null && since >= 0) {
      fields.since = since;
      if (this.seenOn.has(table)) fields.run = this.seenOn.get(table);
    }
    return this.send("watch", fields);
  }

  unwatch(table) {
    this.watching.delete(table);
    this.seenOn.delete(table);
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
