import { randomBytes } from "node:crypto";

export interface SiteAccount {
  username: string;
  /** The Acme ID email it is linked to (null: a local account only). */
  email: string | null;
  /** The Acme ID `sub` seen at the first sign-in; after that the link follows the sub, as real sites key it. */
  sub: string | null;
  /** A local password, when the account has one ("" = none). */
  password: string;
}

/** A relying-party site's own accounts, their links to Acme ID, and its sessions. */
export class SiteAccounts {
  private readonly accounts = new Map<string, SiteAccount>();
  private readonly sessions = new Map<string, string>();

  has(username: string): boolean {
    return this.accounts.has(username.toLowerCase());
  }

  /** Creates (or updates) an account; with `email`, linked to that Acme ID account. */
  upsert(username: string, email: string | null, password = ""): SiteAccount {
    const key = username.toLowerCase();
    const prior = this.accounts.get(key);
    const account = {
      username,
      email: email?.toLowerCase() ?? null,
      sub: prior?.email === email?.toLowerCase() ? (prior?.sub ?? null) : null,
      password,
    };
    this.accounts.set(key, account);
    return account;
  }

  /** The account linked to this provider identity: by sub once seen, else by its verified email (the first sign-in). */
  linkedTo(sub: string, email: string | undefined): SiteAccount | undefined {
    const all = [...this.accounts.values()];
    const found =
      all.find((a) => a.sub === sub) ??
      (email ? all.find((a) => a.sub === null && a.email === email.toLowerCase()) : undefined);
    if (found) found.sub = sub;
    return found;
  }

  checkPassword(username: string, password: string): SiteAccount | null {
    const account =
      this.accounts.get(username.trim().toLowerCase()) ??
      [...this.accounts.values()].find((a) => a.email === username.trim().toLowerCase());
    return account && account.password !== "" && account.password === password ? account : null;
  }

  list(): Array<{ username: string; email: string | null }> {
    return [...this.accounts.values()].map(({ username, email }) => ({ username, email }));
  }

  openSession(username: string): string {
    const token = randomBytes(24).toString("base64url");
    this.sessions.set(token, username);
    return token;
  }

  sessionAccount(token: string | undefined): SiteAccount | undefined {
    const username = token ? this.sessions.get(token) : undefined;
    return username ? this.accounts.get(username.toLowerCase()) : undefined;
  }

  endSession(token: string | undefined): void {
    if (token) this.sessions.delete(token);
  }
}
