// Sanctions in words (RULEBOOK §10.7, §10.9): what each one stops and until when, in
// the player's own time zone. The server gives ends as ISO 8601 UTC instants; the
// account screen showed them so ("until 2026-12-08T06:32:47.099746Z"), and a banned
// player's login said only "wrong alias or password".

/** "15 May, 21:55" (the player's own time zone). */
export const when = (date) => date.toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

const KINDS = {
  chat_ban: "Banned from chat",
  freeze: "Account frozen (no buy-ins, top-ups, transfers or withdrawals)",
  ban: "Account banned",
};

/** "until 15 May, 21:55" or "until an operator lifts it" (`end`: ISO text or null). */
export function untilWords(end) {
  return end ? `until ${when(new Date(end))}` : "until an operator lifts it";
}

/** One sanction of /api/me: "Banned from chat until 15 May, 21:55 (advertising at nl1: www.)". */
export function sanctionLine(s) {
  const why = s.reason ? ` (${s.reason})` : "";
  return `${KINDS[s.kind] || s.kind} ${untilWords(s.ends_at)}${why}`;
}

/** A login refused `account_banned` (the right password): "Your account is banned until
 *  15 May, 21:55: <the operator's reason>." */
export function bannedLogin(body) {
  const why = body.reason ? `: ${body.reason}` : "";
  return `Your account is banned ${untilWords(body.until)}${why}.`;
}
