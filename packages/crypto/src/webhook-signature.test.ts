import { createHmac } from "node:crypto";
import { newWebhookSecret, verifyWebhookSignature, webhookSignature } from "./webhook-signature";

describe("webhook signatures", () => {
  const secret = "whsec_test";
  const body = '{"type":"session.refreshed"}';

  it("signs timestamp and body with HMAC-SHA256, as a receiver recomputes it", () => {
    const header = webhookSignature(secret, body, 1795000000);
    const expected = createHmac("sha256", secret).update(`1795000000.${body}`).digest("hex");
    expect(header).toBe(`t=1795000000,v1=${expected}`);
    expect(verifyWebhookSignature(secret, body, header, 300, 1795000000_000 + 60_000)).toBe(true);
  });

  it("refuses another secret, a changed body, an old timestamp and garbage", () => {
    const now = Date.now();
    const header = webhookSignature(secret, body);
    expect(verifyWebhookSignature("whsec_other", body, header, 300, now)).toBe(false);
    expect(verifyWebhookSignature(secret, `${body} `, header, 300, now)).toBe(false);
    expect(verifyWebhookSignature(secret, body, header, 300, now + 600_000)).toBe(false);
    expect(verifyWebhookSignature(secret, body, "v1=abc", 300, now)).toBe(false);
    expect(newWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});
