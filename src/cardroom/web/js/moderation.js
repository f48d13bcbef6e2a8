// The chat moderation (RULEBOOK §10.7) in words: why a line was not sent, and how
// long a chat ban lasts. The server refuses a line with `chat_refused` and its
// verdict code as the message; an offence (a link, foul language) also bans the
// account from chat, and the ban's end is read from /api/me.

import { get, offers } from "./api.js";
import { when } from "./sanctions.js";

const WHY = {
  card_talk: "talk about your cards is not allowed during a hand",
  advertising: "links and the names of other card rooms are not allowed in chat",
  foul_language: "offensive language is not allowed in chat",
  rate_limited: "too many messages at once, wait a moment",
  empty: "there was nothing to send",
  banned: "you are banned from chat",
};
/** Verdicts that are offences: each brings a chat ban. */
const OFFENCES = new Set(["advertising", "foul_language"]);

/** The chat ban in force: its length and end in words ({length: "24 hours", until:
 *  "15 May, 21:55"}; until: "an operator lifts it" for a ban without end), or null. */
async function chatBan() {
  if (!(await offers("/api/me"))) return null;
  const r = await get("/api/me").catch(() => null);
  const bans = ((r && r.body && r.body.sanctions) || []).filter((s) => s.kind === "chat_ban" || s.kind === "ban");
  if (!bans.length) return null;
  if (bans.some((s) => !s.ends_at)) return { length: "", until: "an operator lifts it" };
  const last = bans.reduce((a, b) => (Date.parse(b.ends_at) > Date.parse(a.ends_at) ? b : a));
  const end = new Date(last.ends_at);
  // Its length is from its start, both the server's times: read against this computer's
  // clock, a 24-hour ban was "for 22 hours" on a clock two hours fast.
  const hours = Math.round((end - Date.parse(last.starts_at)) / 3_600_000);
  const length = hours >= 48 && hours % 24 === 0 ? `${hours / 24} days` : hours > 1 ? `${hours} hours` : "";
  return { length, until: when(end) };
}

/** "You are banned from chat for 24 hours, until 15 May, 21:55." */
async function banSentence() {
  const ban = await chatBan();
  if (!ban) return "You are banned from chat.";
  return `You are banned from chat${ban.length ? ` for ${ban.length},` : ""} until ${ban.until}.`;
}

/** What the chat says when the server refused a line (`verdict`: its code). */
export async function refusedLine(verdict) {
  if (verdict === "banned") {
    const ban = await chatBan();
    return `Not sent: you are banned from chat${ban ? ` until ${ban.until}` : ""}.`;
  }
  const line = `Not sent: ${WHY[verdict] || verdict}.`;
  return OFFENCES.has(verdict) ? `${line} ${await banSentence()}` : line;
}

/** What the chat says of a line sent but judged: foul words masked, and the ban. */
export async function judgedLine(verdict) {
  return OFFENCES.has(verdict) ? `Offensive words were masked. ${await banSentence()}` : null;
}
