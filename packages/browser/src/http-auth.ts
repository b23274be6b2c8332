import type { Page, Protocol } from "puppeteer-core";

/** The credentials a page answers an HTTP authentication challenge (Basic, Digest) of one origin with. */
export interface HttpAuthCredentials {
  origin: string;
  username: string;
  password: string;
}

/** What became of a page's HTTP authentication: a challenge came, it was answered, the site challenged again. */
export interface HttpAuthState {
  /** The origins whose documents answered 401 with a `WWW-Authenticate` challenge. */
  challenged: Set<string>;
  /** The credentials were given to it. */
  answered: boolean;
  /** It challenged again after they were given: the site refused them (the 401 page is shown). */
  refused: boolean;
}

const pages = new WeakMap<Page, { credentials: HttpAuthCredentials | null; state: HttpAuthState }>();

const entryOf = (page: Page) => {
  let entry = pages.get(page);
  if (!entry)
    pages.set(page, (entry = { credentials: null, state: { challenged: new Set(), answered: false, refused: false } }));
  return entry;
};

/**
 * The credentials this page gives an HTTP authentication challenge of `credentials.origin` (and of no other
 * origin), once: a second challenge after they were given is the site's refusal, and is cancelled (the browser
 * shows the 401 page). Null: every challenge is cancelled, as a headless browser does with no one to ask.
 */
export function answerHttpAuth(page: Page, credentials: HttpAuthCredentials | null): HttpAuthState {
  const entry = entryOf(page);
  entry.credentials = credentials;
  return entry.state;
}

/** How a page's guard answers `Fetch.authRequired` (see guardRequests, which intercepts main-frame documents). */
export function authAnswer(page: Page, event: Protocol.Fetch.AuthRequiredEvent): Protocol.Fetch.AuthChallengeResponse {
  // A proxy's challenge is the browser's own business (the egress proxy asks for none).
  if (event.authChallenge.source === "Proxy") return { response: "Default" };
  const entry = entryOf(page);
  let origin: string;
  try {
    origin = new URL(event.authChallenge.origin || event.request.url).origin;
  } catch {
    return { response: "CancelAuth" };
  }
  entry.state.challenged.add(origin);
  const mine = entry.credentials && entry.credentials.origin === origin;
  if (!mine || entry.state.answered) {
    if (mine) entry.state.refused = true;
    return { response: "CancelAuth" };
  }
  entry.state.answered = true;
  return {
    response: "ProvideCredentials",
    username: entry.credentials!.username,
    password: entry.credentials!.password,
  };
}
