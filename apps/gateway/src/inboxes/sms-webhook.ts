import { Router, urlencoded } from "express";
import type { Config } from "@authsvc/config";
import { E164 } from "@authsvc/contracts";
import { twilioSignatureMatches } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";
import type { Logger } from "@authsvc/logging";
import { notifyInbox, type RedisClient } from "@authsvc/queue";
import { ApiError } from "../http/api-error";

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * POST /v1/inbound/sms: Twilio's incoming-message webhook. Twilio signs each call with the account's auth
 * token (X-Twilio-Signature), which is the only authentication: no API key. The `To` number picks the
 * organization; the message is stored encrypted and waiting flows are woken. Answers empty TwiML (no reply SMS).
 */
export function smsWebhook(config: Config, db: Database, redis: RedisClient, log: Logger): Router {
  const r = Router();
  r.post("/inbound/sms", urlencoded({ extended: false, limit: 64 * 1024, parameterLimit: 100 }), async (req, res) => {
    const token = config.sms.twilioAuthToken;
    if (!token) throw new ApiError("service_unavailable", "The SMS webhook is not configured (TWILIO_AUTH_TOKEN).");
    if (!req.is("application/x-www-form-urlencoded")) {
      throw new ApiError("unsupported_media_type", "Twilio posts application/x-www-form-urlencoded.");
    }
    const params = (req.body ?? {}) as Record<string, string | string[]>;
    // Twilio signs the URL it was configured with; behind a proxy that is SMS_WEBHOOK_URL (or X-Forwarded-*).
    const url = config.sms.webhookUrl ?? `${req.protocol}://${req.get("host")}${req.originalUrl}`;
    if (!twilioSignatureMatches(token, url, params, req.get("x-twilio-signature") ?? "")) {
      log.warn({ requestId: res.locals.requestId }, "SMS webhook call with a wrong signature");
      throw new ApiError("unauthorized", "X-Twilio-Signature does not match this request.");
    }
    const field = (name: string) => (typeof params[name] === "string" ? (params[name] as string) : "");
    const to = field("To");
    if (!new RegExp(E164).test(to)) throw ApiError.invalid([{ field: "/To", message: "must be an E.164 number" }]);
    const phone = await db.phoneNumbers.findByNumber(to);
    if (!phone) throw new ApiError("not_found", "No organization has registered this number.");
    // Twilio retries a delivery, and a captured signed request can be replayed: each MessageSid counts once,
    // or an old code could be read by a login waiting now.
    const sid = field("MessageSid") || field("SmsSid");
    if (sid && (await redis.set(`${config.redis.prefix}:sms-seen:${sid}`, "1", "EX", 7 * 86_400, "NX")) !== "OK") {
      res.status(200).type("text/xml").send(EMPTY_TWIML);
      return;
    }
    const stored = await db.inboundMessages
      .store(phone.orgId, { phoneNumberId: phone.id }, to, {
        from: field("From"),
        subject: "",
        text: field("Body"),
        html: "",
      })
      .catch(async (err: unknown) => {
        // Not stored: Twilio's retry must not be taken for a replay.
        if (sid) await redis.del(`${config.redis.prefix}:sms-seen:${sid}`).catch(() => undefined);
        throw err;
      });
    log.info(
      { requestId: res.locals.requestId, orgId: phone.orgId, phoneNumberId: phone.id, messageId: stored.id },
      "SMS stored",
    );
    await notifyInbox(redis, config.redis.prefix, phone.id, stored.id).catch((err: unknown) =>
      log.warn({ err: String(err) }, "waiting flows not notified"),
    );
    res.status(200).type("text/xml").send(EMPTY_TWIML);
  });
  return r;
}
