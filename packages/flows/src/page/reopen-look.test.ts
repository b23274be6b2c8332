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

it.each<[string, Partial<ReopenSight> | null, ReopenSoFar, boolean, Look | null, ReopenSoFar]>([
  [
    "a page that could not be scanned: looked at again",
    null,
    { quiet: 1, offered: 0 },
    false,
    null,
    { quiet: 1, offered: 0 },
  ],
  [
    "a frame not readable proves nothing and keeps the count",
    { readable: false },
    { quiet: 1, offered: 0 },
    false,
    null,
    { quiet: 1, offered: 0 },
  ],
  ["a login form", { form: true }, REOPEN_START, false, "form", REOPEN_START],
  ["the account", { account: true }, REOPEN_START, false, "account", REOPEN_START],
  ["sent on, settled once: looked at again", { movedAway: true }, REOPEN_START, false, null, { quiet: 1, offered: 0 }],
  [
    "sent on, settled on a second look",
    { movedAway: true },
    { quiet: 1, offered: 0 },
    false,
    "elsewhere",
    { quiet: 2, offered: 0 },
  ],
  [
    "a page still loading starts the count again",
    { movedAway: true, parsed: false },
    { quiet: 1, offered: 0 },
    false,
    null,
    { quiet: 0, offered: 0 },
  ],
  [
    "at the address, settled, nothing shown: waited out",
    {},
    { quiet: 1, offered: 0 },
    false,
    null,
    { quiet: 2, offered: 0 },
  ],
  [
    "a sign-out control held, settled two looks: not yet",
    { signOutHeld: true },
    { quiet: 1, offered: 0 },
    false,
    null,
    { quiet: 2, offered: 0 },
  ],
  [
    "a sign-out control held, settled three looks",
    { signOutHeld: true },
    { quiet: 2, offered: 0 },
    false,
    "nothing+",
    { quiet: 3, offered: 0 },
  ],
  [
    "a 'Log in' offer to the session counts no quiet",
    { offersSignIn: true },
    { quiet: 1, offered: 0 },
    false,
    null,
    { quiet: 0, offered: 0 },
  ],
  [
    "a 'Log in' offer to a visitor, once: looked at again",
    { offersSignIn: true },
    REOPEN_START,
    true,
    null,
    { quiet: 0, offered: 1 },
  ],
  [
    "a 'Log in' offer to a visitor on a second look: asked to sign in",
    { offersSignIn: true },
    { quiet: 0, offered: 1 },
    true,
    "form",
    { quiet: 0, offered: 2 },
  ],
  [
    "a 'Log in' offer on a page still loading counts nothing",
    { offersSignIn: true, parsed: false },
    { quiet: 0, offered: 1 },
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
