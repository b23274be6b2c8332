/**
 * What one frame shows, read the way a person reads a login page. It runs inside the page (Puppeteer
 * serializes it), so it is one self-contained function: no imports, no helpers from outside.
 *
 * Elements are named by a selector path: one CSS selector per document or open shadow root on the way
 * down, so the flow can act on them now and replay them on the next login (learned flows).
 */
export type SelectorPath = string[];

export interface FrameReading {
  /** The password field of the best login form, if one is shown. */
  password: SelectorPath | null;
  /** The username or email field that belongs with it, or the only field of a username-first step. */
  identifier: SelectorPath | null;
  /** The identifier field already holds the caller's identifier (two-step forms keep it). */
  identifierFilled: boolean;
  submit: SelectorPath | null;
  remember: SelectorPath | null;
  /** A "Log in" link or button that leads to the form (landing page, modal). */
  opener: SelectorPath | null;
  /** The accept button of a cookie-consent banner that is shown. */
  consent: SelectorPath | null;
  /** The "yes" of a "Stay signed in?" / "Remember this device?" question. */
  interstitial: SelectorPath | null;
  /** A sign-out control or account menu: signs of a signed-in page. */
  signedIn: SelectorPath | null;
  /** A CAPTCHA a person must answer (a checkbox or a challenge; invisible ones run by themselves when the
   * form is sent). Set by scanPage from readCaptchaInPage. */
  captcha: boolean;
  otpPrompt: boolean;
  /** The one-time-code field, or one box per digit in order. */
  otp: SelectorPath[];
  /** The control that sends the code. */
  otpSubmit: SelectorPath | null;
  /** The page says it sent an email or a link to confirm the sign-in. */
  confirmByEmail: boolean;
  /** The frame's visible text (the start of it), for refusals that are not marked up as alerts. */
  text: string;
  /** Visible messages (alerts, error texts). */
  messages: string[];
  /** The browser's own complaint about a filled login field (a username in a field that wants an email). */
  validation: string | null;
  storage: string;
  url: string;
  /** Where each `additionalFields` key goes: an input, select or textarea matched by name, id, label or placeholder. */
  extras: Record<string, SelectorPath | null>;
}

export function readFrameInPage(identifier: string, extraKeys: string[]): Omit<FrameReading, "captcha"> {
  const words = {
    user: /user|login|e-?mail|identifier|account|benutzer|nutzer|anmeldename|courriel|identifiant|utilisateur|usuario|correo|usu[aá]rio|utente|gebruiker/i,
    password: /pass|pwd|kennwort|passwort|contrase[nñ]a|mot.?de.?passe|senha|parola.?d|wachtwoord/i,
    search: /search|query|suche|recherche|buscar|pesquis|cerca|zoek/i,
    // Site-specific identifiers: customer, member, contract or account numbers and IDs.
    accountNumber: /\b(id|no|nr|num|number|lid)\b|nummer|n[uú]mero|n[º°]|customer|client|member|contract|kunde|mitglied|vertrag|contrat|adh[ée]rent|socio|contrato|cliente|klant/i,
    newsletter: /newsletter|subscribe|abonnieren|abonner|suscrib|inscrever|iscriviti|nieuwsbrief/i,
    signup: /sign ?up|register|create (an |your )?account|registrieren|konto erstellen|s.inscrire|cr[ée]er un compte|reg[ií]str|crear cuenta|criar conta|crea(re)? (un )?account|registreren|account aanmaken/i,
    submit: /log ?in|sign ?in|continue|next|submit|anmelden|einloggen|weiter|connexion|se connecter|continuer|suivant|iniciar|entrar|acceder|continuar|siguiente|pr[oó]ximo|accedi|entra|continua|avanti|inloggen|doorgaan|volgende/i,
    next: /continue|next|weiter|fortfahren|suivant|continuer|siguiente|continuar|pr[oó]ximo|avan[cç]ar|avanti|continua|volgende|doorgaan|verder/i,
    notSubmit: /sign ?up|register|forgot|reset|create|show|hide|google|facebook|apple|microsoft|github|sso|passkey|cancel|back/i,
    opener: /^(log ?in|sign ?in|login|log ?on|my account|anmelden|einloggen|connexion|se connecter|iniciar ses[ií]on|entrar|acceder|accedi|inloggen|aanmelden)\b/i,
    remember: /remember|keep me|stay signed|angemeldet bleiben|merken|souvenir|rester connect|recordar|mantener|lembrar|manter|ricorda|onthoud|ingelogd blijven/i,
    consentBox: /cookie|consent|gdpr|privacy|datenschutz|cmp/i,
    consentYes: /^(accept|agree|allow|got it|ok|okay|i agree|alle akzeptieren|akzeptieren|zustimmen|accepter|tout accepter|j.accepte|aceptar|aceitar|accetta|accetto|accepteren|alles accepteren)/i,
    interstitial: /stay signed in|keep me signed in|remember (this|my) (device|browser|computer)|trust this (device|browser)|angemeldet bleiben|ger[aä]t (merken|vertrauen)|rester connect|faire confiance|mantener la sesi[oó]n|recordar (este )?dispositivo|manter (a )?sess|lembrar (este )?dispositivo|rimanere connesso|ricorda (questo )?dispositivo|ingelogd blijven|apparaat onthouden/i,
    yes: /^(yes|continue|trust|remember|stay signed in|ja|oui|s[ií]|sim|doorgaan|weiter|continuer|continuar|continua)\b/i,
    signOut: /log ?out|sign ?out|abmelden|ausloggen|d[ée]connexion|se d[ée]connecter|cerrar sesi[oó]n|salir|sair|esci|disconnetti|uitloggen|afmelden/i,
    accountMenu: /account[-_ ]?menu|user[-_ ]?menu|profile[-_ ]?menu|avatar/i,
    confirmByEmail: /check your (e-?mail|inbox)|we(?:.ve| have)? (just )?(sent|emailed) (you )?(an? )?([a-z-]+ )?(e-?mail|link|code)|confirm (this|your) (device|sign.?in|login)|verify (it.s you|your identity)|pr[uü]fen sie ihr(e)? (e-?mail|postfach)|v[ée]rifiez votre (bo[iî]te|e-?mail)|revisa tu correo|verifique (o )?seu e-?mail|controlla la tua (e-?mail|posta)|controleer je (e-?mail|inbox)/i,
    otp: /one.?time|verification code|security code|authenticat|two.?factor|2fa|2-step|mfa|otp|best[aä]tigungscode|code de (v[ée]rification|s[ée]curit[ée])|c[oó]digo de (verificaci[oó]n|seguridad|verifica[cç][aã]o)|codice di verifica|verificatiecode/i,
  };

  // Every element of the document and of open shadow roots, in document (flat tree) order.
  const all: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll("*")) {
      all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);

  const visible = (el: Element): boolean => {
    if (!el.isConnected) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) return false;
    if (r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return false; // moved off screen: a honeypot
    return el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  // An empty read-only field is an anti-autofill trick (read-only until focused); a filled one is shown, not asked.
  const fillable = (el: HTMLInputElement) => visible(el) && !el.disabled && (!el.readOnly || el.value === "");
  const text = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim();
  // An image button or a link around an image says what it does in its alt text.
  const controlText = (el: Element) =>
    [text(el), (el as HTMLInputElement).value, el.getAttribute("aria-label"), el.getAttribute("title"), el.getAttribute("alt"), el.querySelector("img[alt]")?.getAttribute("alt")]
      .filter((t) => typeof t === "string" && t.length > 0)
      .join(" ")
      .slice(0, 200);
  const describe = (el: Element): string => {
    const input = el as HTMLInputElement;
    const parts = [input.name, input.id, input.getAttribute("placeholder"), el.getAttribute("aria-label"), el.getAttribute("title")];
    for (const label of input.labels ?? []) parts.push(text(label));
    for (const id of (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean)) {
      const label = (el.getRootNode() as Document | ShadowRoot).getElementById?.(id);
      if (label) parts.push(text(label));
    }
    return parts.filter(Boolean).join(" ");
  };
  // The form of a field, or the closest container that holds a whole login form (div-based apps).
  const formOf = (el: Element): Element | null => (el as HTMLInputElement).form ?? el.closest("form");
  const contextText = (el: Element): string => {
    const scope = formOf(el) ?? el.parentElement?.parentElement ?? el.parentElement;
    return scope ? text(scope).slice(0, 600) : "";
  };

  const selectorIn = (el: Element, root: Document | ShadowRoot): string => {
    const unique = (sel: string) => {
      try {
        const found = root.querySelectorAll(sel);
        return found.length === 1 && found[0] === el;
      } catch {
        return false;
      }
    };
    const tag = el.tagName.toLowerCase();
    if (el.id && !/\d{3,}|^:r/.test(el.id) && unique(`#${CSS.escape(el.id)}`)) return `#${CSS.escape(el.id)}`;
    const name = el.getAttribute("name");
    if (name && unique(`${tag}[name="${CSS.escape(name)}"]`)) return `${tag}[name="${CSS.escape(name)}"]`;
    // Child positions from the root down ("@0.1.2"): unique by construction, if brittle.
    const steps: number[] = [];
    for (let n: Element | null = el; n && n.parentNode; n = n.parentElement) {
      steps.unshift([...n.parentNode.children].indexOf(n));
      if (n.parentNode === root) break;
    }
    return `@${steps.join(".")}`;
  };
  const pathOf = (el: Element | null): SelectorPath | null => {
    if (!el) return null;
    const path: string[] = [];
    let node: Element = el;
    for (;;) {
      const root = node.getRootNode() as Document | ShadowRoot;
      path.unshift(selectorIn(node, root));
      if (root instanceof ShadowRoot) node = root.host;
      else break;
    }
    return path;
  };
  const best = <T extends Element>(items: T[], score: (el: T) => number, min = 1): T | null => {
    let top: T | null = null;
    let topScore = min - 1;
    for (const el of items) {
      const s = score(el);
      if (s > topScore) {
        top = el;
        topScore = s;
      }
    }
    return top;
  };

  const inputs = all.filter((el): el is HTMLInputElement => el instanceof HTMLInputElement);
  const clickables = all.filter(
    (el) =>
      el instanceof HTMLButtonElement ||
      (el instanceof HTMLInputElement && ["submit", "button", "image"].includes(el.type)) ||
      el.getAttribute("role") === "button" ||
      el instanceof HTMLAnchorElement,
  );

  // One box per digit: four to ten one-character fields.
  const digitBoxes = inputs.filter((el) => el.maxLength === 1 && ["text", "tel", "number", ""].includes(el.type) && fillable(el));
  const otpBoxes = digitBoxes.length >= 4 && digitBoxes.length <= 10 ? digitBoxes : [];
  const isOtp = (el: HTMLInputElement) =>
    el.autocomplete === "one-time-code" ||
    otpBoxes.includes(el) ||
    (/otp|totp|mfa|2fa|verification|code/i.test(`${el.name} ${el.id}`) && el.type !== "password");
  const passwordCandidates = inputs.filter(
    (el) =>
      fillable(el) &&
      (el.type === "password" ||
        // A password shown as text by its "show" toggle still is the password field.
        (["text", ""].includes(el.type) && (/current-password/.test(el.autocomplete) || words.password.test(`${el.name} ${el.id}`)))),
  );
  const password = best(passwordCandidates, (el) => {
    let s = 10;
    if (/current-password/.test(el.autocomplete)) s += 5;
    if (/new-password/.test(el.autocomplete)) s -= 6;
    const form = formOf(el);
    const siblings = form ? [...form.querySelectorAll("input")].filter((i) => i.type === "password" && fillable(i)) : [];
    if (siblings.length > 1) s -= 4; // password + confirmation: a signup form
    if (words.signup.test(contextText(el)) && !words.submit.test(contextText(el))) s -= 3;
    return s;
  });

  // Account and contract numbers come in search, telephone and number fields too.
  const textual = inputs.filter(
    (el) =>
      fillable(el) &&
      ["text", "email", "tel", "search", "number", ""].includes(el.type) &&
      el !== password &&
      !passwordCandidates.includes(el) &&
      !isOtp(el) &&
      el.getAttribute("role") !== "searchbox",
  );
  const byPhone = /^\+?[0-9][0-9 ()-]{6,}$/.test(identifier);
  const identifierScore = (el: HTMLInputElement, anchor: Element | null): number => {
    const desc = describe(el);
    let s = 0;
    if (/\b(username|email)\b/.test(el.autocomplete)) s += 6;
    if (el.type === "email") s += 3;
    // A login by phone number (SMS codes): the phone field is the identifier.
    if (byPhone && (/\btel\b/.test(el.autocomplete) || el.type === "tel")) s += 6;
    if (words.user.test(desc)) s += 4;
    else if (words.accountNumber.test(desc)) s += 2;
    if (words.search.test(desc)) s -= 10;
    else if (el.type === "search") s -= 3;
    if (words.newsletter.test(`${desc} ${contextText(el)}`)) s -= 8;
    if (el.autocomplete === "off" && el.tabIndex < 0) s -= 10; // a trap for bots
    if (anchor) {
      const sameForm = formOf(el) === formOf(anchor);
      if (formOf(anchor)) s += sameForm ? 3 : -6;
      if (el.compareDocumentPosition(anchor) & Node.DOCUMENT_POSITION_FOLLOWING) s += 1;
    }
    return s;
  };
  let identifierEl: HTMLInputElement | null = null;
  if (password) {
    // The closest fillable text field before the password wins a tie: that is where people put it.
    const before = textual.filter((el) => el.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING);
    const closest = before[before.length - 1];
    const score = (el: HTMLInputElement) => identifierScore(el, password) + (el === closest ? 2 : 0);
    // A field of the password's own form, before it, beats any field of another form, whatever its words.
    const form = formOf(password);
    const ownForm = form ? before.filter((el) => formOf(el) === form) : [];
    identifierEl = best(ownForm, score, 1) ?? best(textual, score, 1);
  } else {
    // Without a password field, a field that says it wants a username or email starts a login; so does
    // one that hints at it (a word, type=email) when it is the only text field beside a Next/Continue control.
    identifierEl = best(textual, (el) => identifierScore(el, null), 6);
    const hinted = identifierEl ? null : best(textual, (el) => identifierScore(el, null), 3);
    let scope: Element | null = hinted && formOf(hinted);
    for (let up = 0, n = hinted?.parentElement ?? null; !scope && n && up < 4; up++, n = n.parentElement) {
      if (clickables.some((c) => n!.contains(c) && visible(c))) scope = n;
    }
    const lone = !!scope && textual.filter((el) => scope!.contains(el)).length === 1;
    if (lone && clickables.some((c) => scope!.contains(c) && visible(c) && words.next.test(controlText(c)) && !words.notSubmit.test(controlText(c)))) {
      identifierEl = hinted;
    }
  }
  const anchor: Element | null = password ?? identifierEl;

  let submit: Element | null = null;
  let remember: Element | null = null;
  if (anchor) {
    const form = formOf(anchor);
    const inScope = (el: Element) => (form ? formOf(el) === form || form.contains(el) : true);
    // Styled text that acts as the button: short words, a click handler or a pointer, nothing clickable inside.
    const styledText = all.filter(
      (el) =>
        !clickables.includes(el) &&
        !(el instanceof HTMLLabelElement) &&
        el.childElementCount <= 2 &&
        (el.textContent ?? "").length <= 60 &&
        inScope(el) &&
        words.submit.test(text(el)) &&
        !el.querySelector("a, button, input, select, textarea, [role=button]") &&
        (el.hasAttribute("onclick") || el.hasAttribute("tabindex") || getComputedStyle(el).cursor === "pointer") &&
        visible(el),
    );
    submit = best([...clickables.filter((el) => visible(el) && inScope(el)), ...styledText], (el) => {
      const t = controlText(el);
      // ASP.NET names its buttons in id and name ("ctl00$Main$btnLogin") and may show only an image.
      const named = `${el.id} ${el.getAttribute("name") ?? ""}`;
      const postback = el instanceof HTMLAnchorElement && /^javascript:/i.test(el.getAttribute("href") ?? "");
      let s = 0;
      if (["submit", "image"].includes((el as HTMLButtonElement).type) && !(el instanceof HTMLAnchorElement) && el.tagName !== "DIV") s += 3;
      if (words.submit.test(t)) s += 4;
      else if (words.submit.test(named)) s += 3;
      if (words.notSubmit.test(t) || words.notSubmit.test(named)) s -= 8;
      if (el instanceof HTMLAnchorElement && !(el.getAttribute("role") === "button") && !postback) s -= 2;
      if (anchor.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) s += 1;
      else s -= 3;
      if (!form) {
        // Without a form, the control must sit near the fields, not in the page's header.
        const a = anchor.getBoundingClientRect();
        const b = el.getBoundingClientRect();
        if (Math.abs(b.top - a.top) > 400) s -= 6;
      }
      return s;
    }, 2);
    const box = best(
      inputs.filter((el) => el.type === "checkbox" && !el.disabled && !el.checked && inScope(el)),
      (el) => (words.remember.test(describe(el)) ? 1 : 0),
      1,
    );
    // A styled checkbox hides its input and shows its label: a person clicks the label.
    const label = box && !visible(box) ? [...(box.labels ?? [])].find(visible) : undefined;
    remember = box && visible(box) ? box : (label ?? null);
  }

  const shownTexts = (el: Element) => visible(el) && text(el).length > 0;
  let consent: Element | null = null;
  const consentBoxes = all.filter((el) => {
    const marker = `${el.id} ${typeof el.className === "string" ? el.className : ""} ${el.getAttribute("aria-label") ?? ""}`;
    return words.consentBox.test(marker) && visible(el);
  });
  for (const box of consentBoxes) {
    consent = best(
      clickables.filter((el) => box.contains(el) && visible(el)),
      (el) => (words.consentYes.test(controlText(el)) ? 2 : 0),
      1,
    );
    if (consent) break;
  }

  const opener = anchor
    ? null
    : best(
        clickables.filter((el) => visible(el)),
        (el) => {
          const t = controlText(el);
          if (t.length > 40 || !words.opener.test(t) || words.notSubmit.test(t)) return 0;
          return el instanceof HTMLAnchorElement ? 2 : 3;
        },
        1,
      );

  // What is shown, not what the DOM holds (scripts, templates, hidden forms).
  const pageText = (document.body?.innerText ?? "").replace(/[ \t]+/g, " ").slice(0, 3000);
  // A question page has no password field at all, not even a disabled one (a form waiting on its request).
  const anyPassword = inputs.some((el) => el.type === "password" && visible(el));
  const interstitial =
    !anyPassword && words.interstitial.test(pageText)
      ? best(clickables.filter((el) => visible(el)), (el) => (words.yes.test(controlText(el)) ? 2 : 0), 1)
      : null;

  const signedIn =
    all.find((el) => (el instanceof HTMLAnchorElement || el instanceof HTMLButtonElement || el.getAttribute("role") === "menuitem") &&
      visible(el) && (words.signOut.test(controlText(el)) || /logout|signout|log_out|sign_out/i.test(el.getAttribute("href") ?? ""))) ??
    all.find((el) => visible(el) && words.accountMenu.test(`${el.id} ${el.getAttribute("aria-label") ?? ""} ${el.getAttribute("data-testid") ?? ""}`)) ??
    null;

  const otpSingle = inputs.find((el) => fillable(el) && isOtp(el) && !otpBoxes.includes(el)) ?? null;
  const otpFields: HTMLInputElement[] = otpBoxes.length ? otpBoxes : otpSingle ? [otpSingle] : [];
  const otpPrompt = otpFields.length > 0 && (words.otp.test(pageText) || otpBoxes.length > 0 || otpFields[0]!.autocomplete === "one-time-code");
  const otpForm = otpFields[0] ? formOf(otpFields[0]) : null;
  const otpSubmit = otpPrompt
    ? best(clickables.filter((el) => visible(el) && (!otpForm || otpForm.contains(el))), (el) => {
        const t = controlText(el);
        let s = (el as HTMLButtonElement).type === "submit" ? 2 : 0;
        if (words.submit.test(t) || /verify|confirm|submit|best[aä]tig|v[ée]rifi|verific|bevestig|conferma/i.test(t)) s += 3;
        if (words.notSubmit.test(t) || /resend|another|erneut|renvoyer|reenviar|reinviar|opnieuw/i.test(t)) s -= 8;
        return s;
      }, 2)
    : null;

  const messageEls = all.filter(
    (el) =>
      el.matches('[role="alert"], [aria-live="assertive"], [aria-live="polite"], .error, .alert, .invalid-feedback, .notice, [class*="error" i], [id*="error" i]') &&
      shownTexts(el),
  );
  const messages = [...new Set(messageEls.map((el) => text(el).slice(0, 300)))];

  let storage = "";
  try {
    storage = Object.keys(localStorage).sort().map((k) => `${k}=${localStorage.getItem(k)}`).join("&");
  } catch {
    storage = "";
  }
  // additionalFields: an exact name, id, label or placeholder first, then one that contains the key.
  const norm = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const extraFields = all.filter(
    (el): el is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement =>
      el !== identifierEl &&
      el !== password &&
      ((el instanceof HTMLInputElement && !["hidden", "password", "submit", "button", "image"].includes(el.type)) ||
        el instanceof HTMLSelectElement ||
        el instanceof HTMLTextAreaElement) &&
      visible(el),
  );
  const extras: Record<string, SelectorPath | null> = {};
  for (const key of extraKeys) {
    const wanted = norm(key);
    const field = best(extraFields, (el) => {
      const names = [el.name, el.id, el.getAttribute("placeholder") ?? "", el.getAttribute("aria-label") ?? ""];
      for (const label of el.labels ?? []) names.push(text(label));
      const normalized = names.filter(Boolean).map(norm);
      if (normalized.includes(wanted)) return 3;
      return wanted.length >= 3 && normalized.some((n) => n.includes(wanted)) ? 1 : 0;
    });
    extras[key] = pathOf(field);
  }

  // The browser's own validation message can quote the value; say what is wrong in our words instead.
  const invalid = [identifierEl, password].find((el) => el && el.value !== "" && !el.validity.valid);
  const validation = !invalid
    ? null
    : invalid.validity.typeMismatch
      ? `the field wants ${invalid.type === "email" ? "an email address" : `a value of type ${invalid.type}`}`
      : invalid.validity.patternMismatch
        ? "the value does not match the field's pattern"
        : invalid.validity.tooShort || invalid.validity.tooLong
          ? "the value's length is outside what the field allows"
          : "the field does not accept the value";
  return {
    password: pathOf(password),
    identifier: pathOf(identifierEl),
    identifierFilled: !!identifierEl && identifier.length > 0 && identifierEl.value === identifier,
    submit: pathOf(submit),
    remember: pathOf(remember),
    opener: pathOf(opener),
    consent: pathOf(consent),
    interstitial: pathOf(interstitial),
    signedIn: pathOf(signedIn),
    otpPrompt,
    otp: otpPrompt ? otpFields.map((el) => pathOf(el)!) : [],
    otpSubmit: pathOf(otpSubmit),
    confirmByEmail: !anyPassword && words.confirmByEmail.test(pageText),
    text: pageText,
    messages,
    validation,
    storage,
    url: location.href,
    extras,
  };
}

/** Runs in the page: the element a selector path names, or null. */
export function resolvePathInPage(path: SelectorPath): Element | null {
  let root: Document | ShadowRoot = document;
  let el: Element | null = null;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    if (segment.startsWith("@")) {
      let node: Element | undefined;
      let parent: ParentNode = root;
      for (const index of segment.slice(1).split(".").map(Number)) {
        node = parent.children[index];
        if (!node) return null;
        parent = node;
      }
      el = node ?? null;
    } else {
      el = root.querySelector(segment);
    }
    if (!el) return null;
    if (i < path.length - 1) {
      if (!el.shadowRoot) return null;
      root = el.shadowRoot;
    }
  }
  return el;
}
