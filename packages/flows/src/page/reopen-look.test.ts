import { WATCH_TIMING } from "./watch-timing";
import { type Look, readReopen, REOPEN_START, type ReopenSight, type ReopenSoFar, reopenTimeUp } from "./reopen-look";

// What one look at the login page opened again in a second tab makes of it, a row a rule: the sight, what
// the looks before saw, whether the tab is a visitor's, the look (null: look again) and what the next starts from.
const SETTLED: ReopenSight = {
  readable: true,
  form: false,
  account: false,
  parsed: true,
  offersSignIn: false,
  signOutHeld: false,
  movedAway: false,
  now: 10_000,
};
const NOW = SETTLED.now;
const PAUSE = WATCH_TIMING.lookEveryMs;
const quietSince = (at: number): ReopenSoFar => ({ quietAt: at, offeredAt: null });
const offeredSince = (at: number): ReopenSoFar => ({ quietAt: null, offeredAt: at });
const QUIET_A_PAUSE = quietSince(NOW - PAUSE);

it.each<[string, Partial<ReopenSight> | null, ReopenSoFar, boolean, Look | null, ReopenSoFar]>([
  ["a page that could not be scanned: looked at again", null, QUIET_A_PAUSE, false, null, QUIET_A_PAUSE],
  [
    "a frame not readable proves nothing and keeps the time",
    { readable: false },
    QUIET_A_PAUSE,
    false,
    null,
    QUIET_A_PAUSE,
  ],
  ["a login form", { form: true }, REOPEN_START, false, "form", REOPEN_START],
  ["the account", { account: true }, REOPEN_START, false, "account", REOPEN_START],
  ["sent on, settled once: looked at again", { movedAway: true }, REOPEN_START, false, null, quietSince(NOW)],
  ["sent on, settled a pause later", { movedAway: true }, QUIET_A_PAUSE, false, "elsewhere", QUIET_A_PAUSE],
  [
    "sent on, a second look woken at once: not yet",
    { movedAway: true },
    quietSince(NOW - 10),
    false,
    null,
    quietSince(NOW - 10),
  ],
  [
    "a page still loading starts the time again",
    { movedAway: true, parsed: false },
    QUIET_A_PAUSE,
    false,
    null,
    REOPEN_START,
  ],
  ["at the address, settled, nothing shown: waited out", {}, QUIET_A_PAUSE, false, null, QUIET_A_PAUSE],
  [
    "a sign-out control held, settled one pause: not yet",
    { signOutHeld: true },
    QUIET_A_PAUSE,
    false,
    null,
    QUIET_A_PAUSE,
  ],
  [
    "a sign-out control held, settled two pauses",
    { signOutHeld: true },
    quietSince(NOW - 2 * PAUSE),
    false,
    "nothing+",
    quietSince(NOW - 2 * PAUSE),
  ],
  ["a 'Log in' offer to the session is not quiet", { offersSignIn: true }, QUIET_A_PAUSE, false, null, REOPEN_START],
  [
    "a 'Log in' offer to a visitor, once: looked at again",
    { offersSignIn: true },
    REOPEN_START,
    true,
    null,
    offeredSince(NOW),
  ],
  [
    "a 'Log in' offer to a visitor a pause later: asked to sign in",
    { offersSignIn: true },
    offeredSince(NOW - PAUSE),
    true,
    "form",
    offeredSince(NOW - PAUSE),
  ],
  [
    "a 'Log in' offer to a visitor, a second look woken at once: not yet",
    { offersSignIn: true },
    offeredSince(NOW - 10),
    true,
    null,
    offeredSince(NOW - 10),
  ],
  [
    "a 'Log in' offer on a page still loading counts nothing",
    { offersSignIn: true, parsed: false },
    offeredSince(NOW - PAUSE),
    true,
    null,
    REOPEN_START,
  ],
])("%s", (_, sight, so, visitor, look, after) => {
  const read = readReopen(sight && { ...SETTLED, ...sight }, so, visitor);
  expect(read.look).toBe(look);
  expect(read.so).toEqual(after);
});

it.each<[string, Partial<ReopenSight> | null, Look]>([
  ["nothing read at all", null, "unreadable"],
  ["a frame never readable", { readable: false }, "unreadable"],
  ["only a 'Log in' control after the wait is a form", { offersSignIn: true }, "form"],
  ["a sign-out control held in the page", { signOutHeld: true }, "nothing+"],
  ["neither a form nor the account", {}, "nothing"],
])("once the wait is over: %s", (_, sight, look) => {
  expect(reopenTimeUp(sight && { ...SETTLED, ...sight })).toBe(look);
});
