import { parseTotpSecret, totpCode, type TotpSpec } from "@authsvc/crypto";
import { randomBytes } from "node:crypto";

/** A relying party registered with a provider fixture. */
export interface OAuthClient {
  id: string;
  secret: string;
  name: string;
  /** The GitHub organization or user that owns the app ("by <owner>"). */
  owner: string;
  redirectUris: string[];
}

/** What the control surface and the seeds add: GitHub users also have a login. */
export interface ProviderUserInput {
  email: string;
  password: string;
  login?: string;
  name?: string;
  totpSecret?: string;
  /** Google: refused with "Couldn't sign you in" after the identifier (true) or only after the password. */
  blocked?: boolean | "identifier" | "password";
}

export interface ProviderUser {
  /** Google: the email; GitHub: the login. */
  id: string;
  email: string;
  name: string;
  password: string;
  totp?: TotpSpec;
  blocked?: "identifier" | "password";
}

export type CodeRedemption =
  { ok: true; user: ProviderUser; scope: string } | { ok: false; error: "invalid_client" | "invalid_grant" };

export const token = () => randomBytes(18).toString("base64url");

/**
 * One provider fixture's state: users, the passwords typed for them, browser sessions, the apps each user
 * authorized, and authorization codes (single-use, bound to client and redirect URI, short-lived).
 */
export class ProviderStore {
  readonly clients = new Map<string, OAuthClient>();
  private readonly users = new Map<string, ProviderUser>();
  private readonly submissions = new Map<string, string[]>();
  private readonly sessions = new Map<string, string[]>();
  private readonly grants = new Set<string>();
  private readonly codes = new Map<
    string,
    { userId: string; clientId: string; redirectUri: string; scope: string; until: number }
  >();

  constructor(private readonly idOf: (input: ProviderUserInput) => string) {}

  addClient(client: OAuthClient): void {
    this.clients.set(client.id, client);
  }

  addUser(input: ProviderUserInput): ProviderUser {
    const id = this.idOf(input);
    const blocked = input.blocked === true ? "identifier" : input.blocked || undefined;
    const user: ProviderUser = {
      id,
      email: input.email,
      name: input.name ?? id.split("@")[0]!,
      password: input.password,
      blocked,
    };
    if (input.totpSecret) user.totp = parseTotpSecret(input.totpSecret);
    this.users.set(id.toLowerCase(), user);
    return user;
  }

  /** A user by id or email, any case, as sign-in forms accept either. */
  find(identifier: string): ProviderUser | undefined {
    const key = identifier.trim().toLowerCase();
    return this.users.get(key) ?? [...this.users.values()].find((u) => u.email.toLowerCase() === key);
  }

  /** Every password typed for a user (or for an unknown identifier), in order: tests see what was tried. */
  notePassword(identifier: string, password: string): void {
    const key = (this.find(identifier)?.id ?? identifier.trim()).toLowerCase();
    this.submissions.set(key, [...(this.submissions.get(key) ?? []), password]);
  }

  passwordsFor(identifier: string): string[] {
    return this.submissions.get((this.find(identifier)?.id ?? identifier.trim()).toLowerCase()) ?? [];
  }

  /** The current TOTP code, or the one before or after, as both providers allow for clock drift. */
  checkTotp(user: ProviderUser, code: string): boolean {
    const spec = user.totp;
    return (
      !!spec &&
      [-1, 0, 1].some((step) => totpCode(spec, Date.now() + step * spec.period * 1000) === code.replace(/\s/g, ""))
    );
  }

  /** Adds a signed-in account to a browser session (a new one when `session` is unknown); returns its token. */
  signIn(session: string | undefined, userId: string): string {
    const existing = session ? this.sessions.get(session) : undefined;
    const id = existing ? session! : token();
    this.sessions.set(id, [...new Set([...(existing ?? []), userId])]);
    return id;
  }

  /** The accounts signed in on a browser session, oldest first. */
  sessionUsers(session: string | undefined): ProviderUser[] {
    const ids = session ? (this.sessions.get(session) ?? []) : [];
    return ids.map((id) => this.find(id)).filter((u): u is ProviderUser => !!u);
  }

  granted(userId: string, clientId: string): boolean {
    return this.grants.has(`${userId}\n${clientId}`);
  }

  grant(userId: string, clientId: string): void {
    this.grants.add(`${userId}\n${clientId}`);
  }

  /** The redirect back to the relying party with a fresh code (valid for ten minutes, once). */
  issueCode(
    user: ProviderUser,
    clientId: string,
    redirectUri: string,
    scope: string,
    state: string,
    extra: Record<string, string> = {},
  ): string {
    const code = token();
    this.codes.set(code, { userId: user.id, clientId, redirectUri, scope, until: Date.now() + 600_000 });
    const url = new URL(redirectUri);
    url.searchParams.set("code", code);
    if (state) url.searchParams.set("state", state);
    for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
    return url.toString();
  }

  redeemCode(code: string, clientId: string, clientSecret: string, redirectUri: string | undefined): CodeRedemption {
    const client = this.clients.get(clientId);
    if (!client || client.secret !== clientSecret) return { ok: false, error: "invalid_client" };
    const issued = this.codes.get(code);
    this.codes.delete(code); // single use, whatever the outcome
    if (!issued || issued.until < Date.now() || issued.clientId !== clientId)
      return { ok: false, error: "invalid_grant" };
    if (redirectUri !== undefined && redirectUri !== issued.redirectUri) return { ok: false, error: "invalid_grant" };
    const user = this.find(issued.userId);
    return user ? { ok: true, user, scope: issued.scope } : { ok: false, error: "invalid_grant" };
  }
}
