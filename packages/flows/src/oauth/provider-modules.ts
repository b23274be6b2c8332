import type { LearnedFlow } from "../login/learned-flow";

/**
 * What the OAuth flow knows of a provider before it opens the site: how its button reads, which hosts
 * serve its sign-in pages, and the sign-in steps its pages take. The steps are replayed first, each as
 * soon as its element is there; where the provider's page differs, the detection engine takes over, as it
 * does for a site whose learned flow no longer fits.
 */
export interface ProviderModule {
  /** `google`, `github`, or `oidc` for every other OpenID provider. */
  id: "google" | "github" | "oidc";
  /** How the caller and our messages name it ("Google", "Acme ID", "https://id.acme.test"). */
  name: string;
  /** Words that name the provider on a site's button or link ("Continue with Google"). Null: unknown. */
  label: RegExp | null;
  /** Whether a page on this host (host[:port]) is the provider's own sign-in page. */
  servesSignIn: (host: string) => boolean;
  /** The provider's own sign-in steps (identifier, password, submit), by its stable element names. */
  steps: LearnedFlow | null;
}

const step = (action: "type" | "click", what: string, path: string) =>
  action === "type"
    ? { action: "type" as const, value: what as "identifier" | "password", frame: "main", path: [path] }
    : { action: "click" as const, purpose: what as "next" | "submit", frame: "main", path: [path] };

/** Google: the email on one page, Next; the password on the next, Next. Its hosts are accounts.google.com and the country variants. */
const GOOGLE: ProviderModule = {
  id: "google",
  name: "Google",
  label: /\bgoogle\b/i,
  servesSignIn: (host) => /^accounts\.google\.[a-z.]+(:\d+)?$/i.test(host),
  steps: {
    version: 1,
    steps: [
      step("type", "identifier", "#identifierId"),
      step("click", "next", "#identifierNext button"),
      step("type", "password", 'input[name="Passwd"]'),
      step("click", "submit", "#passwordNext button"),
    ],
    signedIn: null,
  },
};

/** GitHub: login and password on one page, "Sign in". */
const GITHUB: ProviderModule = {
  id: "github",
  name: "GitHub",
  label: /\bgit ?hub\b/i,
  servesSignIn: (host) => /^github\.com(:\d+)?$/i.test(host),
  steps: {
    version: 1,
    steps: [
      step("type", "identifier", "#login_field"),
      step("type", "password", "#password"),
      step("click", "submit", 'input[name="commit"]'),
    ],
    signedIn: null,
  },
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The module for a provider as the request names it: `google`, `github`, an issuer URL (its host serves
 * the sign-in; Google's and GitHub's issuers get their own modules), or the label on the site's button.
 */
export function providerModule(provider: string): ProviderModule {
  const named = provider.trim();
  if (named === "google") return GOOGLE;
  if (named === "github") return GITHUB;
  let issuer: URL | null;
  try {
    issuer = /^https?:\/\//i.test(named) ? new URL(named) : null;
  } catch {
    issuer = null;
  }
  if (issuer) {
    if (GOOGLE.servesSignIn(issuer.host)) return GOOGLE;
    if (GITHUB.servesSignIn(issuer.host)) return GITHUB;
    const issuerHost = issuer.host.toLowerCase();
    return {
      id: "oidc",
      name: named,
      label: null,
      servesSignIn: (host) => host.toLowerCase() === issuerHost,
      steps: null,
    };
  }
  if (/^google$/i.test(named)) return GOOGLE;
  if (/^git ?hub$/i.test(named)) return GITHUB;
  // A label: its words, in order, with any spacing or punctuation between them ("Acme ID", "acme-id").
  const words = named
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(escape);
  const label = new RegExp(`(^|[^\\p{L}\\p{N}])${words.join("[^\\p{L}\\p{N}]*")}($|[^\\p{L}\\p{N}])`, "iu");
  // Its pages are on whatever host its button leads to: learned when the flow gets there.
  return { id: "oidc", name: named, label, servesSignIn: () => false, steps: null };
}

/** Providers a site's button may name that are not the one asked for: a button naming one of them is never ours. */
export const OTHER_PROVIDERS =
  /\b(google|git ?hub|apple|microsoft|facebook|twitter|linkedin|gitlab|bitbucket|slack|discord|amazon|yahoo)\b/i;
