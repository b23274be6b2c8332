import { captureState, type HTTPRequest, type HTTPResponse, type Page } from "@authsvc/browser";
import type { CapturedSession, Cookie } from "@authsvc/contracts";
import { Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import type { FlowOptions, PasswordLoginInput } from "../login/password-login";
import { PageWatch } from "../page/page-watch";
import { readJar } from "../page/session-evidence";
import { performStep } from "../page/steps";
import { buttonScore, findProviderButton } from "./provider-button";
import { readSignInControlsInPage } from "./read-oauth-page";
import { readFrames } from "../page/scan-page";
import { ProviderCookies } from "./provider-cookies";
import { providerModule, type ProviderModule } from "./provider-modules";
import { type ProviderWindow, signInAtProvider } from "./provider-sign-in";
import { awaitSiteSignedIn, snapshotSite } from "./site-return";
import { finishSiteSignup, type OAuthSignupDetails } from "./site-signup";
import { scanSignup } from "../signup/signup-scan";

// A control that only says "Log in": a page that shows it is a page for visitors.
const LOG_IN =
  /^(log ?in|sign ?in|login|log ?on|anmelden|einloggen|connexion|se connecter|iniciar ses[ií]on|entrar|accedi|inloggen)$/i;
// How long the provider's button may take to open the provider (a popup, or a navigation off the site).
const LEAVE_WAIT_MS = 8000;

export interface OAuthLoginInput {
  /** The site's login (or signup) page, where its "Continue with …" button is. */
  loginUrl: string;
  /** `google`, `github`, an issuer URL or a button's label (see providerModule). */
  provider: string;
  /** The provider account: its identifier and password, and how to answer its second factor. */
  account: Omit<PasswordLoginInput, "loginUrl" | "additionalFields" | "code">;
  /** The provider's cookies kept from an earlier login with this account: signed in there already, the password stays unsent. */
  providerCookies?: Cookie[];
  /** A signup: what the site may still ask once the provider vouched for the account (a username, a name, its terms). */
  signup?: OAuthSignupDetails;
}

export interface OAuthLoginResult {
  /** The site's session and the provider's cookies, with the origins of both. */
  session: CapturedSession;
  /** The provider's cookies now, to keep for the next login with this account. */
  providerCookies: Cookie[];
  /** Whether the password was typed at the provider (false: its kept session was enough). */
  passwordSent: boolean;
  /** A signup: the username the site took on its own form, when it asked for one. */
  username: string | null;
  /** Where the account signs in through the provider next time: the login page (a signup page's "Log in" link), origin + path. */
  loginPage: string;
}

/**
 * Signs in on a site with a provider account: find the site's button for the provider, follow the
 * provider in the same tab or a popup, sign the account in there (or reuse its kept session), grant the
 * site access, and wait until the site shows it signed the account in.
 */
export async function oauthLogin(page: Page, input: OAuthLoginInput, options: FlowOptions): Promise<OAuthLoginResult> {
  const deadline = new Deadline(options.timeoutMs);
  const step = options.onStep ?? (() => undefined);
  const module = providerModule(input.provider);
  const site = new URL(input.loginUrl);
  const siteHost = site.host.toLowerCase();
  const context = page.browserContext();
  // Hosts the browser showed pages of while away from the site: the provider's (its sign-in, consent, chooser).
  const providerHosts = new Set<string>();
  const providerCookies = new ProviderCookies(siteHost, (host) => module.servesSignIn(host) || providerHosts.has(host));
  await providerCookies.bringIn(context, input.providerCookies ?? []);
  providerCookies.follow(page);
  const watch = await PageWatch.attach(page, options.guard, input.loginUrl);

  // Whether the tab left the site since the button was pressed (redirects included: a kept session may bounce straight back).
  let pressed = false;
  let leftSite = false;
  // The first host off the site the provider took the browser to: its sign-in host, even on the site's own domain.
  let firstOffSite = "";
  const offSite = (url: string) => {
    const host = hostOf(url);
    if (host === "" || host === siteHost) return false;
    if (!firstOffSite) firstOffSite = host;
    return true;
  };
  page.on("request", (request: HTTPRequest) => {
    if (pressed && request.isNavigationRequest() && request.frame() === page.mainFrame() && offSite(request.url()))
      leftSite = true;
  });
  // A page is back on the site on the site's host, or on another host of its domain that is not where the provider signs in.
  const onSite = (url: string) => {
    const host = hostOf(url);
    return host === siteHost || (sameDomain(host, siteHost) && !module.servesSignIn(host) && host !== firstOffSite);
  };
  // Back on the site only once the tab shows a page of the site again after it left: until the provider's
  // page commits, the tab still shows the login page the button was on.
  let backOnSite = false;
  const away = (url: string) => {
    const host = hostOf(url);
    if (host && !onSite(url)) providerHosts.add(host);
  };
  page.on("framenavigated", (frame) => {
    if (frame !== page.mainFrame() || !leftSite) return;
    backOnSite = onSite(frame.url());
    away(frame.url());
  });
  // The popup's first request off the site (to the provider): what the site sets after it is the answer.
  let popupGone = false;
  let popup: { page: Page; watch: PageWatch } | null = null;
  const popups: Array<{ page: Page; watch: PageWatch }> = [];
  page.on("popup", (opened) => {
    if (!opened || !pressed || popup) return;
    providerCookies.follow(opened);
    opened.on("response", (response) => outbound?.(response));
    opened.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === opened.mainFrame() && offSite(request.url()))
        popupGone = true;
    });
    opened.on("framenavigated", (frame) => {
      if (frame === opened.mainFrame()) away(frame.url());
    });
    void PageWatch.attach(opened, options.guard, opened.url() || input.loginUrl).then(
      (popupWatch) => {
        popup = { page: opened, watch: popupWatch };
        popups.push(popup);
      },
      () => undefined,
    );
  });

  step("open login page");
  await watch.open(input.loginUrl, deadline, "login page");
  // The jar as the page loaded: what changes in it before the button is pressed changes on its own.
  const earlier = await readJar(page.browserContext()).catch(() => null);
  const button = await findProviderButton(page, module, deadline, step);
  // A signup page's "Log in" link: where the new account signs in through the provider next time.
  const loginLink = input.signup
    ? ((await scanSignup(page).catch(() => [])).find((s) => s.key === "main")?.reading.loginLink ?? null)
    : null;
  const before = await snapshotSite(page, providerCookies, { earlier, reissued: watch.reissuedCookies() });
  // What the site sets on the way out to the provider, in the tab or the popup, is no session.
  const outbound = (response: HTTPResponse) => {
    if (hostOf(response.url()) !== siteHost || leftSite || popupGone) return;
    for (const line of (response.headers()["set-cookie"] ?? "").split("\n")) {
      const pair = line.split(";")[0]?.trim();
      if (pair) before.outbound.add(pair);
    }
  };
  page.on("response", outbound);
  step(`press "${button.control.text}"`);
  pressed = true;
  const values = { identifier: "", password: "", additionalFields: {} };
  if (
    !(await performStep(
      page,
      { action: "click", purpose: "opener", frame: button.frame, path: button.control.path },
      values,
    ).catch(() => false))
  ) {
    throw new LoginFlowError("form_not_found", `the ${module.name} button could not be pressed`);
  }
  const until = Date.now() + Math.min(LEAVE_WAIT_MS, deadline.remaining());
  while (!popup && !leftSite && Date.now() < until) await sleep(100);
  if (!popup && !leftSite)
    throw new LoginFlowError(
      "form_not_found",
      `the ${module.name} button opened neither ${module.name}'s page nor a window`,
    );
  step(popup ? `${module.name} opened in a popup` : `${module.name} opened in the tab`);

  let popupLeft = false;
  const window: ProviderWindow = {
    page: () => (popup && !popup.page.isClosed() ? popup.page : page),
    watch: () => (popup && !popup.page.isClosed() ? popup.watch : watch),
    returned: () => {
      if (!popup) return backOnSite && onSite(page.url());
      if (popup.page.isClosed()) return true;
      // A popup opens on the site's own /auth/… address first; it is back once it went to the provider and returned.
      if (offSite(popup.page.url())) popupLeft = true;
      return popupLeft && onSite(popup.page.url());
    },
    onProvider: () => onProvider(hostOf(window.page().url()), siteHost, module),
  };
  const { passwordSent } = await signInAtProvider(
    window,
    module,
    { ...input.account, loginUrl: input.loginUrl },
    options,
    deadline,
  );
  step(`back on the site from ${module.name}; read verdict`);
  options.onMilestone?.("verifying");
  const finished = input.signup
    ? await finishSiteSignup(page, watch, input.signup, input.account.identifier, options, deadline)
    : null;
  const offersSignIn = async () =>
    (await readFrames(page, readSignInControlsInPage)).some(({ reading }) =>
      reading.some((c) => buttonScore(c, module) >= 2 || LOG_IN.test(c.text.trim())),
    );
  await awaitSiteSignedIn(
    page,
    watch,
    before,
    providerCookies,
    module.name,
    offersSignIn,
    deadline,
    finished ? "signup_rejected" : "account_not_linked",
  );
  // What the caller does in the signed-in site before its state is captured (adding a passkey).
  await options.afterSignIn?.(page, watch, deadline);

  step("capture session");
  const visited = new Set([...watch.visited, ...popups.flatMap((p) => [...p.watch.visited])]);
  const documents = new Set([...watch.documentOrigins, ...popups.flatMap((p) => [...p.watch.documentOrigins])]);
  const session = await captureState(context, page, visited, documents);
  return {
    session,
    providerCookies: session.cookies.filter((c) => providerCookies.owns(c)),
    passwordSent,
    username: finished?.username ?? null,
    loginPage: pageOnly(loginLink ?? input.loginUrl),
  };
}

const pageOnly = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

const hostOf = (url: string): string => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
};

/** Two hosts of one site: the same registrable name (a rough one: the last two labels, three under a short second-level one like co.uk). */
function sameDomain(a: string, b: string): boolean {
  const base = (host: string) => {
    const name = host.replace(/:\d+$/, "");
    if (/^[\d.]+$/.test(name) || name.startsWith("[") || !name.includes(".")) return host;
    const labels = name.split(".");
    const n = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3 ? 3 : 2;
    return labels.slice(-n).join(".");
  };
  return a !== "" && base(a) === base(b);
}

/**
 * Whether the provider account's password may go to a page on `host`: a provider known by host only on
 * its hosts; one known by its button's label on wherever that button led, except the site itself.
 */
function onProvider(host: string, siteHost: string, module: ProviderModule): boolean {
  if (module.servesSignIn(host)) return true;
  return module.id === "oidc" && module.label !== null && host !== "" && host !== siteHost;
}
