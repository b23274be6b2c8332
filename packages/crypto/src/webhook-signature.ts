import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A webhook's signing secret: `whsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/**
 * `X-Authsvc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, the scheme Stripe made
 * common: the timestamp is signed with the body, so a receiver can refuse old replays.
 */
export function webhookSignature(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** What a receiver does: recompute, compare in constant time, and refuse signatures older than `toleranceS`. */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string,
  toleranceS = 300,
  now = Date.now(),
): boolean {
  const t = Number(/(?:^|,)t=(\d+)/.exec(header)?.[1]);
  const given = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!Number.isFinite(t) || !given || Math.abs(now / 1000 - t) > toleranceS) return false;
  const expected = Buffer.from(webhookSignature(secret, body, t).split("v1=")[1]!, "hex");
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}
