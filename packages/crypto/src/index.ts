export { newId, randomBase62, toBase62 } from "./base62";
export { parseKeyRing, type KeyRing } from "./key-ring";
export { Envelope, DecryptionError, rowAad } from "./envelope";
export {
  mintApiKey,
  hashApiKey,
  apiKeyMatches,
  apiKeyLookupPrefix,
  API_KEY_PREFIX,
  type MintedApiKey,
} from "./api-key";
export { fingerprint } from "./fingerprint";
export { parseTotpSecret, totpCode, freshTotpCode, newTotpSecret, TotpSecretError, type TotpSpec } from "./totp";
export { twilioSignature, twilioSignatureMatches } from "./twilio-signature";
export { newWebhookSecret, webhookSignature, verifyWebhookSignature } from "./webhook-signature";
