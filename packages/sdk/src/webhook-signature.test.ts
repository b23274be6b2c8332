import { webhookSignature } from "@authsvc/crypto";
import { verifyWebhook, WebhookVerificationError } from "./webhook-signature";

// Signed by the service's own signer, so the SDK is checked against what deliveries really carry.
const secret = "whsec_test-secret";
const body = JSON.stringify({
  id: "evt_1",
  type: "session.refreshed",
  createdAt: "2026-01-01T00:00:00Z",
  orgId: "org_1",
  data: { credentialId: "cred_1" },
});
const now = 1_800_000_000_000;
const t = now / 1000;

async function reason(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return (err as WebhookVerificationError).reason;
}

describe("verifyWebhook", () => {
  it("returns the event of a delivery signed with the secret, from text or bytes", async () => {
    const header = webhookSignature(secret, body, t);
    await expect(verifyWebhook(body, header, secret, { now })).resolves.toEqual(JSON.parse(body));
    await expect(verifyWebhook(new TextEncoder().encode(body), header, secret, { now })).resolves.toMatchObject({
      id: "evt_1",
    });
  });

  it("refuses another secret, a changed body, a stale or future timestamp, and a missing or malformed header", async () => {
    const header = webhookSignature(secret, body, t);
    expect(await reason(verifyWebhook(body, header, "whsec_other", { now }))).toBe("signature_mismatch");
    expect(await reason(verifyWebhook(body.replace("cred_1", "cred_2"), header, secret, { now }))).toBe(
      "signature_mismatch",
    );
    expect(await reason(verifyWebhook(body, webhookSignature(secret, body, t - 301), secret, { now }))).toBe(
      "stale_timestamp",
    );
    expect(await reason(verifyWebhook(body, webhookSignature(secret, body, t + 301), secret, { now }))).toBe(
      "stale_timestamp",
    );
    await expect(verifyWebhook(body, webhookSignature(secret, body, t - 299), secret, { now })).resolves.toBeDefined();
    expect(await reason(verifyWebhook(body, undefined, secret, { now }))).toBe("missing_signature");
    expect(await reason(verifyWebhook(body, "v1=abc", secret, { now }))).toBe("malformed_signature");
    expect(await reason(verifyWebhook(body, `t=${t}`, secret, { now }))).toBe("malformed_signature");
  });

  it("accepts any one matching v1 among several (a secret being rotated)", async () => {
    const good = webhookSignature(secret, body, t).split(",")[1];
    await expect(verifyWebhook(body, `t=${t},v1=${"0".repeat(64)},${good}`, secret, { now })).resolves.toMatchObject({
      id: "evt_1",
    });
  });

  it("says so when a signed body is not JSON, and never echoes the secret", async () => {
    const err = await verifyWebhook("not json", webhookSignature(secret, "not json", t), secret, { now }).catch(
      (e: Error) => e,
    );
    expect((err as WebhookVerificationError).reason).toBe("invalid_payload");
    const mismatch = await verifyWebhook(body, webhookSignature(secret, body, t), "whsec_other", { now }).catch(
      (e: Error) => e,
    );
    expect((mismatch as Error).message).not.toContain("whsec_");
  });
});
