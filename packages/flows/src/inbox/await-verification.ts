import { LoginFlowError } from "../flow-error";
import {
  extractCode,
  extractLink,
  extractLogin,
  extractPassword,
  registrableDomain,
  senderDomain,
  type VerificationMail,
} from "@authsvc/messages";

/** How long a flow waits for the site's message in our mailbox or phone number, unless the request says. */
export const INBOX_WAIT_MS = 120_000;

/** A message of one of our inboxes, decrypted for the flow that waits for it. */
export interface InboxMessage extends VerificationMail {
  id: string;
  /**
   * The domains the message proved it came from, as mail-in checked them for a forwarding inbox: a DKIM
   * signature that verifies, or a trusted forwarder's ARC seal vouching for one. Absent: not checked.
   */
  authenticated?: { dkim: string[]; arc: string[] } | null;
}

/**
 * One of the service's own inboxes, as a flow sees it: a mailbox on our mail domain or a phone number.
 * The worker implements it over Postgres (messages) and Redis pub/sub (wake-ups); flows stay free of both.
 */
export interface Inbox {
  kind: "email" | "sms";
  /** The address or number, for messages to the caller (never a secret). */
  address: string;
  /**
   * The org's forwarding inbox, read for the caller's own `address`: it holds whatever the caller's mail
   * host forwards, and anyone can write a `From:`, so only mail the site's domain signed counts (DKIM, or
   * a trusted forwarder's ARC seal), for codes and links alike.
   */
  forwarded?: boolean;
  /** The inbox's clock now: messages that arrive from this moment on answer what the flow asks next. */
  mark(): Promise<Date>;
  /**
   * Messages that arrived at or after `since` and are not in `seen`, oldest first. Waits up to `ms` for
   * the first one (woken by the inbox, not by polling); [] when none came.
   */
  wait(since: Date, seen: ReadonlySet<string>, ms: number): Promise<InboxMessage[]>;
}

export type Wanted = "code" | "link";

/** What a signup without a password field gets by mail: the password the site made, or a link (to set one). */
export type AccountMail = { password: string; login?: string } | { link: string };

/** What the message is for, in the words of a timeout: a sign-in (login) or a confirmation (signup). */
export type Purpose = "sign-in" | "confirmation";

const describe = (inbox: Inbox, wanted: Wanted, purpose: Purpose) =>
  `${inbox.kind === "email" ? "email" : "SMS"} with a ${purpose} ${wanted === "code" ? "code" : "link"}`;

/**
 * Waits for the site's message in our inbox and reads the code or link out of it. Only messages that
 * arrived after `since` (when the flow asked the site to send one) count; mail from the site's domain is
 * read first. Messages without a code or link (a welcome mail) are passed over and the wait goes on.
 * Ends in `timeout` naming what it waited for; that is never retried, since asking again sends another code.
 */
export function awaitVerification(
  inbox: Inbox,
  wanted: Wanted,
  since: Date,
  siteHost: string,
  waitMs: number,
  purpose: Purpose = "sign-in",
): Promise<string> {
  const read = (m: VerificationMail) => (wanted === "code" ? extractCode(m) : extractLink(m, siteHost));
  return awaitMessage(
    inbox,
    read,
    since,
    siteHost,
    waitMs,
    describe(inbox, wanted, purpose),
    `the ${purpose} ${wanted}`,
  );
}

/**
 * Waits for the mail of a signup whose form asked for no password: the password the site generated
 * ("Your temporary password is: …"), else its link (to set a password, or to confirm). Ends like
 * `awaitVerification`.
 */
export function awaitAccountMail(inbox: Inbox, since: Date, siteHost: string, waitMs: number): Promise<AccountMail> {
  const read = (m: VerificationMail): AccountMail | null => {
    const password = extractPassword(m);
    // The name the site assigned in the same mail is the one the account signs in with.
    const login = password ? extractLogin(m) : null;
    if (password) return login ? { password, login } : { password };
    const link = extractLink(m, siteHost);
    return link ? { link } : null;
  };
  return awaitMessage(
    inbox,
    read,
    since,
    siteHost,
    waitMs,
    "email with the account's password or a link to set it",
    "the password or its link",
  );
}

/**
 * Reads the newest fresh messages first, the site's own before others. In a forwarding inbox a message
 * counts only when the site's domain authenticated it (`signedBy`): a forged `From:` with a code, a
 * password or a sign-in link on the site's host would otherwise answer for the site, and a forged link
 * signs the agent in to someone else's account. Mail sent to our own mailboxes directly is read whoever
 * sent it (the address went to this site alone); its links must still be on the site's host.
 */
async function awaitMessage<T>(
  inbox: Inbox,
  read: (m: VerificationMail) => T | null,
  since: Date,
  siteHost: string,
  waitMs: number,
  what: string,
  waitingFor: string,
): Promise<T> {
  const until = Date.now() + waitMs;
  const seen = new Set<string>();
  const siteDomain = registrableDomain(siteHost);
  const fromSite = (m: InboxMessage) => registrableDomain(senderDomain(m.from)) === siteDomain;
  let unauthenticated = 0;
  for (;;) {
    const left = until - Date.now();
    if (left <= 0) break;
    const fresh = (await inbox.wait(since, seen, left)).filter(
      (m) => !seen.has(m.id) && m.receivedAt.getTime() >= since.getTime(),
    );
    for (const m of fresh) seen.add(m.id);
    // Newest first, the site's own mail before any other.
    const ordered = fresh.sort(
      (a, b) => Number(fromSite(b)) - Number(fromSite(a)) || b.receivedAt.getTime() - a.receivedAt.getTime(),
    );
    for (const message of ordered) {
      if (inbox.forwarded && !signedBy(message, siteDomain)) {
        unauthenticated++;
        continue;
      }
      const found = read(message);
      if (found) return found;
    }
  }
  // Mail that came but held nothing for this site is said apart from no mail at all: a caller (and whoever
  // reads the job) then looks at what the site sent, not at whether mail reaches us.
  const unsigned = unauthenticated
    ? ` (${unauthenticated} not signed by ${siteDomain}: DKIM or a trusted forwarder's ARC seal)`
    : "";
  const passedOver =
    seen.size === 0
      ? ""
      : `; ${seen.size === 1 ? "1 other message" : `${seen.size} other messages`} came, none with it${unsigned}`;
  throw new LoginFlowError(
    "timeout",
    `no ${what} arrived at ${inbox.address} within ${+(waitMs / 1000).toFixed(1)} s (waiting for ${waitingFor}${passedOver})`,
    { retryable: false },
  );
}

/** Whether a domain under the site's registrable domain authenticated the message (relaxed alignment, as DMARC's). */
function signedBy(message: InboxMessage, siteDomain: string): boolean {
  const domains = [...(message.authenticated?.dkim ?? []), ...(message.authenticated?.arc ?? [])];
  return domains.some((d) => registrableDomain(d) === siteDomain);
}
