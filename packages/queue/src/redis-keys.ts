/**
 * Where the service's keys live on a Redis Cluster. A key's hash slot comes from the first `{…}` part of its
 * name (its hash tag), so keys that one Lua call or MULTI touches share a tag, and keys that are used alone
 * carry none, so that they spread over the cluster's nodes:
 * - a BullMQ queue, with its concurrency gate (`queuePrefix`): BullMQ's scripts touch every key of a queue, and
 *   the gate's script an organization's and a site's sets together. Each queue has a tag of its own (BullMQ's
 *   advice), so the auth, webhook and maintenance queues and each region's may sit on different nodes;
 * - an organization's rate limit, API-key revocation mark and cached sessions (`orgKey`): one script takes a
 *   token, checks the mark and reads the session;
 * - everything else (single-flight claims, idempotency keys, job event streams, worker regions, login limits of
 *   the dashboard): one key per call, no tag. Pub/sub channels are not keys: a cluster delivers every message
 *   to the subscribers of every node.
 * On one server the tags are only characters of the names: the same names serve both.
 */

/** The BullMQ prefix of queue `queue` (its keys are `<prefix>:{<queue>}:<queue>:…`). */
export function queuePrefix(prefix: string, queue: string): string {
  return `${prefix}:{${queue}}`;
}

/** The service's prefix a queue prefix was made from (`queuePrefix`'s inverse), for keys that live beside a queue's connection. */
export function prefixOfQueue(queue: { opts: { prefix?: string } }): string {
  const prefix = queue.opts.prefix ?? "bull";
  return prefix.replace(/:\{[^}]*\}$/, "");
}

/** A key of organization `orgId`, in the slot of every other key of that organization. */
export function orgKey(prefix: string, orgId: string, ...rest: string[]): string {
  return [`${prefix}:{org:${orgId}}`, ...rest].join(":");
}
