import { parseTotpSecret, totpCode, type TotpSpec } from "@authsvc/crypto";
import { randomBytes } from "node:crypto";
import type { SiteMail } from "./outbox";

/**
 * How a site's mail to an address fares: `late` is held back, as a slow mail host holds a message, until
 * the test releases it (`releaseHeld`), once the flow's wait has run out: late by a state, not a clock.
 */
export type Delivery = "ok" | "expired" | "lost" | "late";

/** The fixture sites' own user database, sessions and a count of every login attempt (per site and user). */
export class Accounts {
  private readonly users = new Map<string, string>();
  private readonly sessions = new Map<string, string>();
  private readonly attempts = new Map<string, number>();

  private readonly locked = new Set<string>();
  private readonly totpSecrets = new Map<string, TotpSpec>();
  private readonly deliveries = new Map<string, Delivery>();
  private readonly held = new Map<string, Array<{ mail: SiteMail; send: () => Promise<void> }>>();
  private readonly pushes = new Map<string, { username: string; approved: boolean }>();

  addUser(
    username: string,
    password: string,
    options: { locked?: boolean; totpSecret?: string; delivery?: Delivery } = {},
  ): void {
    this.users.set(username, password);
    if (options.locked) this.locked.add(username);
    else this.locked.delete(username);
    if (options.totpSecret) this.totpSecrets.set(username, parseTotpSecret(options.totpSecret));
    // A delivery set for the address before its account existed (one about to sign up) stays.
    this.deliveries.set(username, options.delivery ?? this.deliveries.get(username) ?? "ok");
  }

  /** How the sites' mail and SMS reach an address that has no account yet (one about to sign up). */
  setDelivery(username: string, delivery: Delivery): void {
    this.deliveries.set(username, delivery);
  }

  /** Keeps back a send to a `late` address until `releaseHeld`. */
  hold(address: string, mail: SiteMail, send: () => Promise<void>): void {
    this.held.set(address, [...(this.held.get(address) ?? []), { mail, send }]);
  }

  /** The mail held back for a `late` address, oldest first. */
  heldFor(address: string): SiteMail[] {
    return (this.held.get(address) ?? []).map((h) => h.mail);
  }

  /** A push sent to the user's phone, under the login's ticket (see the push-approval case). */
  sendPush(ticket: string, username: string): void {
    this.pushes.set(ticket, { username, approved: false });
  }

  pushOf(ticket: string): { username: string; approved: boolean } | undefined {
    return this.pushes.get(ticket);
  }

  endPush(ticket: string): void {
    this.pushes.delete(ticket);
  }

  /** The phone: approves every push waiting for the user; how many. */
  approvePush(username: string): number {
    let approved = 0;
    for (const push of this.pushes.values()) {
      if (push.username === username && !push.approved) {
        push.approved = true;
        approved++;
      }
    }
    return approved;
  }

  /** Sends what was held for the address (from now on its mail goes at once); how many were held. */
  async releaseHeld(address: string): Promise<number> {
    const sends = this.held.get(address) ?? [];
    this.held.delete(address);
    this.deliveries.set(address, "ok");
    for (const { send } of sends) await send().catch(() => undefined);
    return sends.length;
  }

  hasUser(username: string): boolean {
    return this.users.has(username);
  }

  /**
   * How the sites' codes and links reach this user: `ok`; `expired` (sent, but the site takes it as
   * expired); `lost` (never arrives).
   */
  deliveryFor(username: string): Delivery {
    return this.deliveries.get(username) ?? "ok";
  }

  /** Whether the user has an authenticator (a TOTP secret). */
  hasTotp(username: string): boolean {
    return this.totpSecrets.has(username);
  }

  /** Whether a code is the user's current TOTP code (or the one before or after, as sites allow). */
  checkTotp(username: string, code: string): boolean {
    const spec = this.totpSecrets.get(username);
    if (!spec) return false;
    return [-1, 0, 1].some((step) => totpCode(spec, Date.now() + step * spec.period * 1000) === code);
  }

  /** Counts the attempt, then checks the account: a locked one is refused whatever the password. */
  check(site: string, username: string, password: string): "ok" | "wrong" | "locked" {
    this.noteAttempt(site, username);
    if (this.locked.has(username)) return "locked";
    // A passwordless user (codes and links only) has no password anyone could type.
    return password !== "" && this.users.get(username) === password ? "ok" : "wrong";
  }

  /** The newest user with this password: a site-password gate has one password at a time, the last one set. */
  userWithPassword(password: string): string | undefined {
    let found: string | undefined;
    for (const [username, pw] of this.users) if (pw === password && password !== "") found = username;
    return found;
  }

  /** Counts a login attempt that has no password (a code or link was asked for). */
  noteAttempt(site: string, username: string): void {
    const key = `${site}\n${username}`;
    this.attempts.set(key, (this.attempts.get(key) ?? 0) + 1);
  }

  attempt(site: string, username: string, password: string): boolean {
    return this.check(site, username, password) === "ok";
  }

  attemptsFor(username: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, n] of this.attempts) {
      const [site, user] = key.split("\n");
      if (user === username) out[site!] = n;
    }
    return out;
  }

  openSession(username: string): string {
    const token = randomBytes(24).toString("base64url");
    this.sessions.set(token, username);
    return token;
  }

  sessionUser(token: string | undefined): string | undefined {
    return token ? this.sessions.get(token) : undefined;
  }

  /** Ends every session of a user, as a site does when its sessions time out or it signs everyone out. */
  endSessionsOf(username: string): number {
    let ended = 0;
    for (const [token, user] of this.sessions) {
      if (user === username) {
        this.sessions.delete(token);
        ended++;
      }
    }
    return ended;
  }

  endSession(token: string | undefined): void {
    if (token) this.sessions.delete(token);
  }
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function page(title: string, body: string, script = ""): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto}label{display:block;margin:.5rem 0}
.error{color:#b00020}</style></head><body>${body}${script ? `<script>${script}</script>` : ""}</body></html>`;
}
