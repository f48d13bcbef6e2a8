// A table the room cannot store (the server's `table_paused`: a full disk, the database
// refusing writes): everyone at it is told why it stands still, not only the player whose
// action was refused ("The change could not be stored"); the others saw no word why.

/** What the page says while the table is paused. */
export const PAUSED_WORDS = "The table is paused: the room cannot store its moves; play resumes by itself.";

/** Say that the table `t` is paused, or take the words away once it plays on (`msg`: the
 *  `table_paused` message); another notice shown meanwhile is left as it is. */
export function tablePaused(t, msg) {
  if (msg.paused) t.notice(PAUSED_WORDS);
  else if (t.regions.notice.textContent === PAUSED_WORDS) t.notice("");
}
