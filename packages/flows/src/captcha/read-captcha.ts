import { bundled } from "../page/in-page/bundled";
import { READ_CAPTCHA_SOURCE } from "../page/in-page/generated/read-captcha-source";
import type { SelectorPath } from "../page/in-page/kit";
import { readCaptcha } from "../page/in-page/read-captcha";

export type CaptchaProvider = "recaptcha" | "hcaptcha" | "turnstile" | "image";

/**
 * How a CAPTCHA takes part in the login: `invisible` runs by itself when the form is sent (reCAPTCHA v3
 * and invisible v2, hCaptcha invisible); `managed` runs by itself on the page and leaves a token
 * (Cloudflare Turnstile); `checkbox` waits for a click; `challenge` asks a person (images, a puzzle,
 * distorted text).
 */
export type CaptchaMode = "invisible" | "managed" | "checkbox" | "challenge";

export interface CaptchaWidget {
  provider: CaptchaProvider;
  mode: CaptchaMode;
  siteKey: string | null;
  /** A distorted-text challenge's field holds an answer. */
  filled?: boolean;
}

export interface CaptchaReading {
  widgets: CaptchaWidget[];
  /** Inside a widget's own frame: the "I'm not a robot" box. */
  checkbox: SelectorPath | null;
  checked: boolean;
  /** A response field (g-recaptcha-response, h-captcha-response, cf-turnstile-response) holds a token. */
  token: boolean;
  /** What a challenge says to the person, in the site's (or the provider's) words: a field's label, a challenge frame's text. */
  prompt: string;
}

/** Whether a frame shows a CAPTCHA a person must answer: a checkbox or a challenge, not an invisible one. */
export const captchaBlocks = (reading: CaptchaReading) =>
  reading.widgets.some((w) => w.mode === "checkbox" || w.mode === "challenge");

/** The CAPTCHA widgets a frame shows (see in-page/read-captcha.ts), as Puppeteer evaluates it. */
export const readCaptchaInPage = bundled(readCaptcha, READ_CAPTCHA_SOURCE);

/**
 * Runs in the page: does what a widget does when it is passed: puts the solver's token in its response
 * fields (created in the form when missing) and closes its challenge. The widget's callback is not
 * called: it may send the form, and the engine sends the form itself, once, after marking the submit.
 */
export function enterCaptchaTokenInPage(provider: CaptchaProvider, token: string): void {
  const names =
    provider === "hcaptcha"
      ? ["h-captcha-response", "g-recaptcha-response"]
      : provider === "turnstile"
        ? ["cf-turnstile-response"]
        : ["g-recaptcha-response"];
  const widget = document.querySelector(".g-recaptcha, .h-captcha, .cf-turnstile, [data-sitekey]");
  const form =
    widget?.closest("form") ??
    document.querySelector("form:has(input[type=password])") ??
    document.querySelector("form");
  for (const name of names) {
    const fields = [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)];
    if (fields.length === 0 && form) {
      const field = document.createElement("textarea");
      field.name = name;
      field.style.display = "none";
      form.append(field);
      fields.push(field);
    }
    for (const field of fields) field.value = token;
  }
  for (const frame of document.querySelectorAll("iframe")) {
    if (
      /captcha|turnstile/i.test(`${frame.src} ${frame.title}`) &&
      /bframe|challenge/i.test(`${frame.src} ${frame.title}`)
    )
      frame.style.visibility = "hidden";
  }
}
