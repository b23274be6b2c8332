import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Twilio's webhook signature (X-Twilio-Signature): base64 HMAC-SHA1, keyed with the account's auth token,
 * of the full URL Twilio called followed by every POST parameter, sorted by name, as name + value.
 * Written here (six lines) rather than pulling in the whole Twilio SDK for one function.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string | string[]>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name]!;
    for (const v of Array.isArray(value) ? [...value].sort() : [value]) data += name + v;
  }
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

export function twilioSignatureMatches(
  authToken: string,
  url: string,
  params: Record<string, string | string[]>,
  signature: string,
): boolean {
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
