import { text, type EnvVars } from "./env-var";

/** Services outside: Twilio's SMS webhook, a CAPTCHA solving service. */
export const INTEGRATIONS_VARS = {
  TWILIO_AUTH_TOKEN: {
    type: "string",
    minLength: 8,
    description: text(
      "Twilio's auth token, to check `X-Twilio-Signature` on `POST /v1/inbound/sms`. Unset: the webhook",
      "answers 503 and stores nothing.",
    ),
  },
  SMS_WEBHOOK_URL: {
    type: "string",
    pattern: "^https?://",
    description: text(
      "The exact public URL configured in Twilio for incoming SMS (Twilio signs that URL). Unset: the URL",
      "the gateway was called at (with `TRUST_PROXY` for the scheme and host behind a proxy).",
    ),
  },
  CAPTCHA_SOLVER: {
    type: "string",
    enum: ["off", "2captcha"],
    default: "off",
    description: text(
      "A CAPTCHA solving service the worker may ask when a login form shows a challenge (an image puzzle, a",
      "checkbox that opens one). `off`: such a login ends in `captcha_blocked` before anything is sent.",
      "`2captcha`: any service that speaks 2captcha's `in.php`/`res.php` API (several providers serve it);",
      "reCAPTCHA, hCaptcha and Turnstile widgets with a site key are sent to it, and its token is put into",
      "the form.",
    ),
  },
  CAPTCHA_SOLVER_URL: {
    type: "string",
    pattern: "^https?://[^\\s]+$",
    default: "https://2captcha.com",
    description: "Base URL of that API. Must be `https` in production (the key goes with every request).",
  },
  CAPTCHA_SOLVER_KEY: {
    type: "string",
    minLength: 8,
    description: text(
      "The service's API key; required when `CAPTCHA_SOLVER` is not `off`. A secret: redacted in logs,",
      "never in an error message.",
    ),
  },
} as const satisfies EnvVars;
