import { inPage, type PageKit, type SelectorPath } from "../page/in-page/kit";

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

/**
 * Runs in the page with the in-page kit: the CAPTCHA widgets a frame shows, the way their scripts draw
 * them (drawn at all counts, off screen too). Elements are named like readFrameInPage names them, one
 * selector per document.
 */
export const readCaptchaInPage = inPage(function readCaptchaInPage(kit: PageKit): CaptchaReading {
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
  const asksWhatIsShown =
    /\b(type|enter|copy|write|retype|solve)\b[^.!?]{0,40}\b(characters|letters|text|code|words?|numbers|digits|symbols|sum|answer)\b[^.!?]{0,40}\b(image|picture|shown|above|below|you see|you hear|audio)\b|\b(characters|letters|text|code|words?|numbers|digits)\b (in|from|on|of) the (image|picture|audio|recording)\b|what you (see|hear)\b|zeichen (im|aus dem|auf dem) bild|caract[eè]res (de|dans|sur) l.image|caracteres (de|en) la imagen|caracteres (da|na) imagem|caratteri (dell|nell).immagine|tekens (in|uit|op) de afbeelding/i;
  const anotherOne =
    /\b(new|another|other|refresh|reload|change)\b[^.!?]{0,10}\b(image|picture|code|challenge)\b|\blisten\b|\baudio\b|neues bild|nouvelle image|otra imagen|nova imagem|nuova immagine|nieuwe afbeelding/i;
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
    if (!asksWhatIsShown.test(asks)) continue;
    let scope: Element | null = field.form;
    for (let n = field.parentElement, up = 0; !scope && n && up < 3; n = n.parentElement, up++)
      if (n.querySelector("img, canvas, svg, audio")) scope = n;
    const media =
      !!scope &&
      [...scope.querySelectorAll("img, canvas, svg, audio")].some((m) => m instanceof HTMLAudioElement || shown(m));
    const another =
      !!scope &&
      [...scope.querySelectorAll("a, button, [role=button], input[type=button]")].some((c) =>
        anotherOne.test(`${kit.controlText(c)} ${c.getAttribute("title") ?? ""}`),
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
});

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
