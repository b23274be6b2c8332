import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Encodes bytes as base62 (big-endian number), keeping every bit of entropy. */
export function toBase62(bytes: Uint8Array): string {
  let n = BigInt("0x" + (Buffer.from(bytes).toString("hex") || "0"));
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), "0");
}

export function randomBase62(byteCount: number): string {
  return toBase62(randomBytes(byteCount));
}

/** Prefixed, unguessable row ids such as `cred_…` and `job_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}
