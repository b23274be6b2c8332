import { randomBytes } from "node:crypto";
import { AddressTakenError, type Database } from "@authsvc/db";
import { ApiError } from "../http/api-error";

/** A prefix and 12 random base-36 characters: about 62 bits, unguessable by a site that saw another address. */
function randomLocalPart(prefix = "agent"): string {
  const n = randomBytes(8).readBigUInt64BE();
  return `${prefix}-${n.toString(36).padStart(13, "0").slice(-12)}`;
}

/**
 * A new mailbox of the org: the chosen local part, or a random one (retried on the unlikely collision).
 * A chosen address that is taken, now or before, is the caller's to change (409).
 */
export async function allocateMailbox(
  db: Database,
  orgId: string,
  mailDomain: string,
  options: { localPart?: string; label?: string } = {},
) {
  for (let attempt = 0; ; attempt++) {
    const address = `${(options.localPart ?? randomLocalPart()).toLowerCase()}@${mailDomain}`;
    try {
      return await db.mailboxes.create(orgId, address, options.label);
    } catch (err) {
      if (!(err instanceof AddressTakenError)) throw err;
      // Deleted addresses stay taken, so nobody receives mail meant for their first owner.
      if (options.localPart || attempt >= 2)
        throw new ApiError("conflict", `The address ${address} is taken (or was used before).`);
    }
  }
}

/**
 * The org's forwarding inbox, created on first use with a random address (the address is the only thing
 * that keeps strangers' mail out of it). Two first requests at once end with the same one.
 */
export async function forwardingMailbox(db: Database, orgId: string, mailDomain: string) {
  const existing = await db.mailboxes.forwardingOf(orgId);
  if (existing) return existing;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.mailboxes.create(orgId, `${randomLocalPart("fwd")}@${mailDomain}`, "forwarding", true);
    } catch (err) {
      if (!(err instanceof AddressTakenError)) throw err;
      // The org's one live forwarding inbox was created meanwhile, or (unlikely) the random address was taken.
      const created = await db.mailboxes.forwardingOf(orgId);
      if (created) return created;
      if (attempt >= 2) throw err;
    }
  }
}
