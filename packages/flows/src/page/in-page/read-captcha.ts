import { ANOTHER_IMAGE, ASKS_WHAT_IS_SHOWN } from "@authsvc/contracts/src/words/captcha-words";
import type { CaptchaMode, CaptchaProvider, CaptchaReading, CaptchaWidget } from "../../captcha/read-captcha";
import { pageKit, type SelectorPath } from "./kit";

/**
 * Runs in the page (bundled with its imports, see bundle.ts): the CAPTCHA widgets a frame shows, the way
 * their scripts draw them (drawn at all counts, off screen too). Elements are named like readFrame names
 * them, one selector per document.
 */
export function readCaptcha(): CaptchaReading {
  const kit = pageKit();
  const { shown } = kit;
  const providerOf = (text: string): CaptchaProvider | null =>
    /hcaptcha/i.test(text)
      ? "hcaptcha"
      : /turnstile|challenges\.cloudflare/i.test(text)
        ? "turnstile"
        : /recaptcha/i.test(text)
          ? "recaptcha"
          : null;
  const widgets: CaptchaWidget[] = [];
  const counted = new Set<Element>();

  for (const el of document.querySelectorAll(
    ".g-recaptcha, .h-captcha, .cf-turnstile, .grecaptcha-badge, [data-sitekey]",
  )) {
    const provider =
      providerOf(el.className.toString()) ?? providerOf(el.querySelector("iframe")?.src ?? "") ?? "recaptcha";
    const siteKey = el.getAttribute("data-sitekey");
    let mode: CaptchaMode;
    if (provider === "turnstile") mode = "managed";
    // A widget bound to the submit button, marked invisible, or the v3 badge runs when the form is sent.
    else if (
      el.getAttribute("data-size") === "invisible" ||
      el.matches("button, input, .grecaptcha-badge") ||
      el.closest(".grecaptcha-badge") ||
      !shown(el)
    )
      mode = "invisible";
    else mode = "checkbox";
    widgets.push({ provider, mode, siteKey });
    for (const frame of el.querySelectorAll("iframe")) counted.add(frame);
  }
  for (const frame of document.querySelectorAll("iframe")) {
    const provider = providerOf(`${frame.src} ${frame.title}`);
    if (!provider || counted.has(frame) || !shown(frame)) continue;
    // The image or puzzle a checkbox (or an invisible widget that did not trust the browser) opens.
    if (provider === "turnstile") widgets.push({ provider, mode: "managed", siteKey: null });
    else if (/bframe|challenge/i.test(`${frame.src} ${frame.title}`))
      widgets.push({ provider, mode: "challenge", siteKey: null });
    else if (!/size=invisible/.test(frame.src)) widgets.push({ provider, mode: "checkbox", siteKey: null });
  }
  // A distorted-text CAPTCHA: a field that asks for the characters of an image.
  let prompt = "";
  for (const input of document.querySelectorAll("input")) {
    if (!/^(text|)$/.test(input.type) || !shown(input)) continue;
    if (/captcha/i.test(`${input.name} ${input.id} ${input.placeholder} ${input.getAttribute("aria-label") ?? ""}`)) {
      widgets.push({ provider: "image", mode: "challenge", siteKey: null, filled: input.value.trim() !== "" });
      prompt ||=
        (input.labels?.[0]?.textContent ?? "").trim() || input.placeholder || (input.getAttribute("aria-label") ?? "");
    }
  }
  // The same challenge by its shape, whatever it is named (many sites never say "captcha"): a field that asks
  // for what a picture (or a recording) shows, beside an image, a canvas or an audio, or a "new image" control.
  for (const input of document.querySelectorAll("input, textarea")) {
    const field = input as HTMLInputElement;
    if (
      !/^(text|textarea|)$/.test(field.type) ||
      !shown(field) ||
      /captcha/i.test(`${field.name} ${field.id} ${field.placeholder} ${field.getAttribute("aria-label") ?? ""}`)
    )
      continue;
    const around =
      field.parentElement && kit.text(field.parentElement).length <= 300 ? kit.text(field.parentElement) : "";
    const asks = `${kit.describe(field)} ${around}`;
    if (!ASKS_WHAT_IS_SHOWN.test(asks)) continue;
    let scope: Element | null = field.form;
    for (let n = field.parentElement, up = 0; !scope && n && up < 3; n = n.parentElement, up++)
      if (n.querySelector("img, canvas, svg, audio")) scope = n;
    const media =
      !!scope &&
      [...scope.querySelectorAll("img, canvas, svg, audio")].some((m) => m instanceof HTMLAudioElement || shown(m));
    const another =
      !!scope &&
      [...scope.querySelectorAll("a, button, [role=button], input[type=button]")].some((c) =>
        ANOTHER_IMAGE.test(`${kit.controlText(c)} ${c.getAttribute("title") ?? ""}`),
      );
    if (!media && !another) continue;
    widgets.push({ provider: "image", mode: "challenge", siteKey: null, filled: field.value.trim() !== "" });
    prompt ||= kit.labelTexts(field)[0] || field.placeholder || asks;
  }
  // Inside a challenge's own frame (reCAPTCHA's bframe, hCaptcha's challenge): what it asks.
  if (window !== window.top && providerOf(location.href) && /bframe|challenge/i.test(location.href))
    prompt ||= (document.body?.innerText ?? "").trim();

  // Inside a widget's own frame (reCAPTCHA's anchor, hCaptcha's checkbox): the box a person clicks.
  let checkbox: SelectorPath | null = null;
  let checked = false;
  if (window !== window.top && providerOf(location.href)) {
    const box = [
      ...document.querySelectorAll("#recaptcha-anchor, #checkbox, [role=checkbox], input[type=checkbox]"),
    ].find(shown);
    if (box) {
      checkbox = [
        box.id
          ? `#${CSS.escape(box.id)}`
          : box instanceof HTMLInputElement
            ? "input[type=checkbox]"
            : "[role=checkbox]",
      ];
      checked = box.getAttribute("aria-checked") === "true" || (box instanceof HTMLInputElement && box.checked);
    }
  }
  const token = [
    ...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
      "[name=g-recaptcha-response], [name=h-captcha-response], [name=cf-turnstile-response]",
    ),
  ].some((field) => field.value.length > 0);
  return { widgets, checkbox, checked, token, prompt: prompt.replace(/\s+/g, " ").slice(0, 300) };
}
