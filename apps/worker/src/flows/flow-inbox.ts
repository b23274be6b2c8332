import type { InboxRef } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import type { Inbox, InboxMessage } from "@authsvc/flows";
import type { InboxEvents } from "@authsvc/queue";

const RECHECK_MS = 5000;

/**
 * A flow's view of one of the org's inboxes: messages from Postgres (decrypted here, in the worker), and
 * wake-ups from Redis pub/sub. It subscribes before it reads, so a message stored in between still wakes it.
 */
export interface InboxWatchers {
  /** The flow starts waiting for a message. */
  waiting: () => void;
  /** A wait ended with messages. */
  received: () => void;
}

export function flowInbox(
  db: Database,
  events: InboxEvents,
  orgId: string,
  ref: InboxRef,
  watchers?: InboxWatchers,
): Inbox {
  const where = ref.kind === "email" ? { mailboxId: ref.mailboxId } : { phoneNumberId: ref.phoneNumberId };
  const inboxId = ref.kind === "email" ? ref.mailboxId : ref.phoneNumberId;
  // A tagged address (agent+shop@) reads only mail sent to that tag: logins to two sites that share a
  // mailbox under different tags never take each other's codes.
  const forwarded = ref.kind === "email" && ref.forwarded === true;
  const recipient =
    ref.kind === "email" && !forwarded && ref.address.split("@")[0]!.includes("+") ? ref.address : undefined;
  // The forwarding inbox holds mail of every address the org forwards: read only this address's.
  const originalRecipient = forwarded ? ref.address : undefined;
  return {
    kind: ref.kind,
    address: ref.kind === "email" ? ref.address : ref.number,
    forwarded,
    mark: () => db.inboundMessages.now(),
    async wait(since: Date, seen: ReadonlySet<string>, ms: number): Promise<InboxMessage[]> {
      const until = Date.now() + ms;
      // Told as the wait begins, even when the message is there already: the flow asked the inbox for it.
      watchers?.waiting();
      const watch = await events.watch(inboxId);
      try {
        for (;;) {
          const fresh = await db.inboundMessages.since(orgId, where, since, {
            except: [...seen],
            recipient,
            originalRecipient,
          });
          if (fresh.length > 0) {
            watchers?.received();
            return fresh;
          }
          const left = until - Date.now();
          if (left <= 0) return [];
          // Woken by pub/sub; the database is read again now and then anyway, in case a wake-up was lost
          // (a publish that failed, a subscriber that reconnected).
          await watch.next(Math.min(left, RECHECK_MS));
        }
      } finally {
        await watch.close();
      }
    },
  };
}
