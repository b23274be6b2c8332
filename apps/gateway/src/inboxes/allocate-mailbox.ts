import { randomBytes } from "node:crypto";
import { AddressTakenError, type Database } from "@authsvc/db";
import { ApiError } from "../http/api-error";

/** `agent-` and 12 random base-36 characters: about 62 bits, unguessable by a site that saw another address. */
function randomLocalPart(): string {
  const n = randomBytes(8).readBigUInt64BE();
  return `agent-${n.toString(36).padStart(13, "0").slice(-12)}`;
}

/**
 * A new mailbox of the org: the chosen local part, or a random one (retried on the unlikely collision).
 * A chosen address that is taken, now or before, is the caller's to change (409).
 */
export async function allocateMailbox(db: Database, orgId: string, mailDomain: string, options: { localPart?: string; label?: string } = {}) {
  for (let attempt = 0; ; attempt++) {
    const address = `${(options.localPart ?? randomLocalPart()).toLowerCase()}@${mailDomain}`;
    try {
      return await db.mailboxes.create(orgId, address, options.label);
    } catch (err) {
      if (!(err instanceof AddressTakenError)) throw err;
      // Deleted addresses stay taken, so nobody receives mail meant for their first owner.
      if (options.localPart || attempt >= 2) throw new ApiError("conflict", `The address ${address} is taken (or was used before).`);
    }
  }
}
