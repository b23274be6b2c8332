import { createHash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "./base62";

export const API_KEY_PREFIX = "pk_";
const SECRET_BYTES = 32;
// How many characters after `pk_` are public: enough to be unique, far too few to guess the rest.
const LOOKUP_CHARS = 12;
const API_KEY_SHAPE = /^pk_[0-9A-Za-z]{43}$/;

export interface MintedApiKey {
  /** The whole key; shown to its owner once and never stored. */
  key: string;
  /** Public lookup part, stored in clear. */
  prefix: string;
  /** sha256 of the whole key, hex. */
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function mintApiKey(): MintedApiKey {
  const key = API_KEY_PREFIX + randomBase62(SECRET_BYTES);
  return { key, prefix: apiKeyLookupPrefix(key)!, hash: hashApiKey(key) };
}

/** The public prefix of a well-formed key, or null when the string cannot be one of our keys. */
export function apiKeyLookupPrefix(key: string): string | null {
  return API_KEY_SHAPE.test(key) ? key.slice(0, API_KEY_PREFIX.length + LOOKUP_CHARS) : null;
}

/** Constant-time comparison of a presented key against a stored hash. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
