import { createHmac, randomInt } from "node:crypto";

/** A TOTP generator as the site set it up: RFC 6238, with the site's digits, period and hash. */
export interface TotpSpec {
  /** Base32, normalized: upper case, no spaces, dashes or padding. */
  secret: string;
  digits: number;
  period: number;
  algorithm: "sha1" | "sha256" | "sha512";
}

export class TotpSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TotpSecretError";
  }
}

// Sites hand out 80-bit secrets (16 base32 characters, GitHub among them): that is our minimum.
const BASE32 = /^[A-Z2-7]+$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(secret: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of secret) {
    value = (value << 5) | ALPHABET.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

function normalizeSecret(raw: string): string {
  const secret = raw.replace(/[\s-]/g, "").replace(/=+$/, "").toUpperCase();
  if (!BASE32.test(secret)) throw new TotpSecretError("is not a base32 secret or an otpauth://totp/ URI");
  if (secret.length < 16) throw new TotpSecretError("is too short for a TOTP secret (at least 16 base32 characters)");
  return secret;
}

/**
 * Reads a TOTP secret as callers have it: the base32 string a site shows under its QR code (any case,
 * with spaces or dashes), or the whole `otpauth://totp/…` URI, whose digits, period and algorithm win.
 */
export function parseTotpSecret(input: string): TotpSpec {
  const text = input.trim();
  if (!/^otpauth:/i.test(text)) return { secret: normalizeSecret(text), digits: 6, period: 30, algorithm: "sha1" };
  let uri: URL;
  try {
    uri = new URL(text);
  } catch {
    throw new TotpSecretError("is not a valid otpauth URI");
  }
  if (uri.host.toLowerCase() !== "totp")
    throw new TotpSecretError(`is an otpauth URI for ${uri.host.toUpperCase() || "nothing"}; only TOTP is supported`);
  const secret = uri.searchParams.get("secret");
  if (!secret) throw new TotpSecretError("is an otpauth URI without a secret");
  const algorithm = (uri.searchParams.get("algorithm") ?? "sha1").toLowerCase();
  if (algorithm !== "sha1" && algorithm !== "sha256" && algorithm !== "sha512")
    throw new TotpSecretError(`uses an unknown algorithm ${algorithm}`);
  const digits = Number(uri.searchParams.get("digits") ?? 6);
  const period = Number(uri.searchParams.get("period") ?? 30);
  if (![6, 7, 8].includes(digits)) throw new TotpSecretError("asks for a digit count other than 6, 7 or 8");
  if (!Number.isInteger(period) || period < 10 || period > 300)
    throw new TotpSecretError("has a period outside 10-300 seconds");
  return { secret: normalizeSecret(secret), digits, period, algorithm };
}

/** A random 160-bit secret in base32, as a site would hand one out (for fixtures and tests). */
export function newTotpSecret(): string {
  return Array.from({ length: 32 }, () => ALPHABET[randomInt(32)]).join("");
}

/** The code of the time window that holds `atMs` (RFC 6238 over RFC 4226's dynamic truncation). */
export function totpCode(spec: TotpSpec, atMs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / spec.period)));
  const mac = createHmac(spec.algorithm, base32Decode(spec.secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** spec.digits).padStart(spec.digits, "0");
}

/**
 * A code generated just in time: when the current window ends within `minValidMs` (the code would
 * expire while it is typed and sent), waits for the next window first.
 */
export async function freshTotpCode(
  spec: TotpSpec,
  minValidMs = 5000,
  clock: { now(): number; sleep(ms: number): Promise<void> } = {
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  },
): Promise<string> {
  const periodMs = spec.period * 1000;
  const left = periodMs - (clock.now() % periodMs);
  if (left < minValidMs) await clock.sleep(left + 50);
  return totpCode(spec, clock.now());
}
