import type { WebhookEvent } from "./types";

export type WebhookVerificationFailure =
  "missing_signature" | "malformed_signature" | "stale_timestamp" | "signature_mismatch" | "invalid_payload";

/** A webhook delivery that must not be trusted; `reason` says why. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export interface VerifyWebhookOptions {
  /** How far the signature's timestamp may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time in ms (tests). */
  now?: number;
}

/**
 * Checks `X-Authsvc-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` over the raw body
 * (the bytes as received, before any JSON parsing) and returns the event. Web Crypto only, so it runs in
 * Node, Deno, Bun and edge runtimes.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  if (!signatureHeader) throw new WebhookVerificationError("missing_signature", "No X-Authsvc-Signature header.");
  const parts = signatureHeader.split(",").map((p) => p.trim().split("="));
  const t = parts.find(([k]) => k === "t")?.[1];
  const given = parts.filter(([k, v]) => k === "v1" && v && /^[0-9a-f]{64}$/i.test(v)).map(([, v]) => v!.toLowerCase());
  if (!t || !/^\d+$/.test(t) || given.length === 0)
    throw new WebhookVerificationError("malformed_signature", "X-Authsvc-Signature is not t=<seconds>,v1=<hex>.");
  const now = options.now ?? Date.now();
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now / 1000 - Number(t)) > tolerance) {
    throw new WebhookVerificationError(
      "stale_timestamp",
      `The signature's timestamp is more than ${tolerance} s from now (a replay, or a clock off).`,
    );
  }
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const expected = await hmacSha256Hex(secret, `${t}.${body}`);
  // Every candidate is compared in full, so the time taken says nothing about where a guess went wrong.
  let matched = false;
  for (const candidate of given) matched = constantTimeEqual(candidate, expected) || matched;
  if (!matched)
    throw new WebhookVerificationError(
      "signature_mismatch",
      "The signature does not match the body under this secret.",
    );
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The signed body is not JSON.");
  }
}

async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
