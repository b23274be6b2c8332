/**
 * What one frame shows, read the way a person reads a login page (see FrameReading). It runs inside the
 * page: bundled with what it imports into one function's source (see bundle.ts), so it imports the kit
 * like any module.
 */
import type { FrameReading, SelectorPath } from "../read-page";
import { type FormField, pageKit } from "./kit";

export function readFrame(
  identifier: string,
  extraKeys: string[],
  signOut: { labels: string; address: string },
  stepWords: { approval: string; question: string; chooser: string; verify: string; terms: string },
  methodWords: { password: string; otherWay: string },
): Omit<FrameReading, "captcha"> {
  const kit = pageKit();
  const { visible, text, controlText, describe, formOf, pathOf, best } = kit;
  const words = {
    user: /user|login|e-?mail|identifier|account|benutzer|nutzer|anmeldename|courriel|identifiant|utilisateur|usuario|correo|usu[aá]rio|utente|gebruiker/i,
    password: /pass|pwd|kennwort|passwort|contrase[nñ]a|mot.?de.?passe|senha|parola.?d|wachtwoord/i,
    search: /search|query|suche|recherche|buscar|pesquis|cerca|zoek/i,
    // Site-specific identifiers: customer, member, contract or account numbers and IDs.
    accountNumber:
      /\b(id|no|nr|num|number|lid)\b|nummer|n[uú]mero|n[º°]|customer|client|member|contract|kunde|mitglied|vertrag|contrat|adh[ée]rent|socio|contrato|cliente|klant/i,
    newsletter: /newsletter|subscribe|abonnieren|abonner|suscrib|inscrever|iscriviti|nieuwsbrief/i,
    signup:
      /sign ?up|register|create (an |your )?account|registrieren|konto erstellen|s.inscrire|cr[ée]er un compte|reg[ií]str|crear cuenta|criar conta|crea(re)? (un )?account|registreren|account aanmaken/i,
    submit:
      /log ?in|sign ?in|continue|next|submit|anmelden|einloggen|weiter|connexion|se connecter|continuer|suivant|iniciar|entrar|acceder|continuar|siguiente|pr[oó]ximo|accedi|entra|continua|avanti|inloggen|doorgaan|volgende/i,
    next: /continue|next|weiter|fortfahren|suivant|continuer|siguiente|continuar|pr[oó]ximo|avan[cç]ar|avanti|continua|volgende|doorgaan|verder/i,
    notSubmit:
      /sign ?up|register|forgot|reset|create|show|hide|google|facebook|apple|microsoft|github|sso|passkey|cancel|back/i,
    opener:
      /^(log ?in|sign ?in|login|log ?on|my account|anmelden|einloggen|connexion|se connecter|iniciar ses[ií]on|entrar|acceder|accedi|inloggen|aanmelden)\b/i,
    remember:
      /remember|keep me|stay signed|angemeldet bleiben|merken|souvenir|rester connect|recordar|mantener|lembrar|manter|ricorda|onthoud|ingelogd blijven/i,
    interstitial:
      /stay signed in|keep me signed in|remember (this|my) (device|browser|computer)|trust this (device|browser)|angemeldet bleiben|ger[aä]t (merken|vertrauen)|rester connect|faire confiance|mantener la sesi[oó]n|recordar (este )?dispositivo|manter (a )?sess|lembrar (este )?dispositivo|rimanere connesso|ricorda (questo )?dispositivo|ingelogd blijven|apparaat onthouden/i,
    yes: /^(yes|continue|trust|remember|stay signed in|ja|oui|s[ií]|sim|doorgaan|weiter|continuer|continuar|continua)\b/i,
    confirmByEmail:
      /check your (e-?mail|inbox)|we(?:.ve| have)? (just )?(sent|emailed) (you )?(an? )?([a-z-]+ )?(e-?mail|link|code)|confirm (this|your) (device|sign.?in|login)|verify (it.s you|your identity)|pr[uü]fen sie ihr(e)? (e-?mail|postfach)|v[ée]rifiez votre (bo[iî]te|e-?mail)|revisa tu correo|verifique (o )?seu e-?mail|controlla la tua (e-?mail|posta)|controleer je (e-?mail|inbox)/i,
    otp: /one.?time|verification code|security code|authenticat|two.?factor|2fa|2-step|mfa|otp|best[aä]tigungscode|code de (v[ée]rification|s[ée]curit[ée])|c[oó]digo de (verificaci[oó]n|seguridad|verifica[cç][aã]o)|codice di verifica|verificatiecode/i,
  };

  const all = kit.elements();
  // An empty read-only field is an anti-autofill trick (read-only until focused); a filled one is shown, not asked.
  const fillable = (el: HTMLInputElement) => visible(el) && !el.disabled && (!el.readOnly || el.value === "");
  const contextText = (el: Element): string => {
    const scope = formOf(el) ?? el.parentElement?.parentElement ?? el.parentElement;
    return scope ? text(scope).slice(0, 600) : "";
  };

  const inputs = all.filter((el): el is HTMLInputElement => el instanceof HTMLInputElement);
  const clickables = all.filter((el) => kit.isControl(el));
  // What is shown, not what the DOM holds (scripts, templates, hidden forms).
  const shownText = document.body?.innerText ?? "";
  const pageText = shownText.replace(/[ \t]+/g, " ").slice(0, 3000);
  // A security question's field (often a password field): it says so, or it is an "Answer" field on a page that does.
  const questionWords = new RegExp(stepWords.question, "i");
  const isQuestion = (el: HTMLInputElement) =>
    ["text", "password", ""].includes(el.type) &&
    (questionWords.test(describe(el)) ||
      (/\banswer\b|antwort|r[ée]ponse|respuesta|resposta|risposta|antwoord/i.test(describe(el)) &&
        questionWords.test(pageText)));

  // One box per digit: four to ten one-character fields.
  const digitBoxes = inputs.filter(
    (el) => el.maxLength === 1 && ["text", "tel", "number", ""].includes(el.type) && fillable(el),
  );
  const otpBoxes = digitBoxes.length >= 4 && digitBoxes.length <= 10 ? digitBoxes : [];
  // Named like a code, unless it names the user ("codeUtilisateur", "user code": a bank's identifier).
  const isOtp = (el: HTMLInputElement) =>
    el.autocomplete === "one-time-code" ||
    otpBoxes.includes(el) ||
    (/otp|totp|mfa|2fa|verification|code/i.test(`${el.name} ${el.id}`) &&
      el.type !== "password" &&
      !words.user.test(`${el.name} ${el.id}`)) ||
    // Labelled as one ("OTP Token", "2FA code", "Authentication code"), whatever its name.
    (["text", "tel", "number", ""].includes(el.type) &&
      /\b(otp|totp|mfa|2fa)\b|one.?time|two.?factor|authenticat\w* code|verification code|security code/i.test(
        describe(el),
      ) &&
      !words.user.test(describe(el)));
  const passwordCandidates = inputs.filter(
    (el) =>
      fillable(el) &&
      !isQuestion(el) &&
      (el.type === "password" ||
        // A password shown as text by its "show" toggle still is the password field.
        (["text", ""].includes(el.type) &&
          (/current-password/.test(el.autocomplete) || words.password.test(`${el.name} ${el.id}`)))),
  );
  const bestPassword = best(passwordCandidates, (el) => {
    let s = 10;
    if (/current-password/.test(el.autocomplete)) s += 5;
    if (/new-password/.test(el.autocomplete)) s -= 6;
    const form = formOf(el);
    const siblings = form
      ? [...form.querySelectorAll("input")].filter((i) => i.type === "password" && fillable(i))
      : [];
    if (siblings.length > 1) s -= 4; // password + confirmation: a signup form
    if (words.signup.test(contextText(el)) && !words.submit.test(contextText(el))) s -= 3;
    return s;
  });
  // A signed-in page's "set a new password" field (a profile page right after the login) is no login form:
  // only beside a sign-out control (an account-menu look-alike, an anonymous avatar, is on login pages too).
  const signedIn = kit.signedInSign(all, signOut);
  const signOutShown = !!signedIn && kit.isSignOut(signedIn, signOut);
  const password = bestPassword && /new-password/.test(bestPassword.autocomplete) && signOutShown ? null : bestPassword;

  // Account and contract numbers come in search, telephone and number fields too.
  const textual = inputs.filter(
    (el) =>
      fillable(el) &&
      ["text", "email", "tel", "search", "number", ""].includes(el.type) &&
      el !== password &&
      !passwordCandidates.includes(el) &&
      !isOtp(el) &&
      !isQuestion(el) &&
      el.getAttribute("role") !== "searchbox",
  );
  const byPhone = /^\+?[0-9][0-9 ()-]{6,}$/.test(identifier);
  // Fields the request's additionalFields name are theirs: the username goes in none of them.
  const claimed = new Set(
    extraKeys
      .map((key) =>
        kit.fieldFor(
          key,
          all.filter((el): el is FormField => el !== password && kit.isFormField(el)),
        ),
      )
      .filter(Boolean),
  );
  // A field whose own rules the username breaks is not where it goes: a pattern (HTML or ASP.NET's
  // data-val-regex-pattern), a maximum length, digits only (inputmode numeric, type tel or number).
  const refuses = (el: HTMLInputElement): boolean => {
    if (!identifier) return false;
    for (const pattern of [el.getAttribute("pattern"), el.getAttribute("data-val-regex-pattern")]) {
      if (!pattern) continue;
      try {
        if (!new RegExp(`^(?:${pattern})$`, "u").test(identifier)) return true;
      } catch {
        // A pattern the browser cannot read either: no rule.
      }
    }
    if (el.maxLength > 0 && identifier.length > el.maxLength) return true;
    const digitsOnly =
      ["numeric", "decimal", "tel"].includes(el.inputMode) || el.type === "tel" || el.type === "number";
    return digitsOnly && /\p{L}/u.test(identifier);
  };
  // What says a field is the username's: its type, its autocomplete, its words (name, label, placeholder);
  // for a phone number, a field marked for one (type=tel alone is every digits field's type).
  const decisive = (el: HTMLInputElement): boolean =>
    /\b(username|email)\b/.test(el.autocomplete) ||
    el.type === "email" ||
    words.user.test(describe(el)) ||
    (byPhone && /\btel\b/.test(el.autocomplete));
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
  let ambiguous: HTMLInputElement[] = [];
  if (password) {
    // A field whose rules the username breaks is ruled out, unless every field of its kind is (then the site decides).
    const fitting = (fields: HTMLInputElement[]) =>
      fields.some((el) => !refuses(el)) ? fields.filter((el) => !refuses(el)) : fields;
    const form = formOf(password);
    const open = textual.filter((el) => !claimed.has(el));
    const isBefore = (el: HTMLInputElement) =>
      !!(el.compareDocumentPosition(password) & Node.DOCUMENT_POSITION_FOLLOWING);
    // A field of the password's own form, before it, beats any field of another form, whatever its words.
    const ownForm = form ? fitting(open.filter((el) => isBefore(el) && formOf(el) === form)) : [];
    const pool = fitting(open);
    const before = pool.filter(isBefore);
    // The closest fillable text field before the password wins a tie: that is where people put it.
    const closest = before[before.length - 1];
    const score = (el: HTMLInputElement) => identifierScore(el, password) + (el === closest ? 2 : 0);
    identifierEl = best(ownForm, score, 1) ?? best(pool, score, 1);
    if (identifier) {
      // Never a silent guess. The visible, empty fields before the password in its form (a search box, a
      // newsletter field or a bot trap aside): the one a field's own marks decide, or the only one there
      // (whatever its score: a "user code" field with no word we read), else the login is ambiguous.
      const shown = (form ? ownForm : before).filter(
        (el) => (el.value === "" || el.value === identifier) && identifierScore(el, password) > -3,
      );
      const deciding = shown.filter(decisive);
      if (deciding.length === 1) identifierEl = deciding[0]!;
      else if (deciding.length > 1) {
        const ranked = deciding.map((el) => ({ el, s: score(el) })).sort((a, b) => b.s - a.s);
        if (ranked[0]!.s === ranked[1]!.s) ambiguous = deciding;
        else identifierEl = ranked[0]!.el;
      } else if (shown.length === 1) identifierEl = shown[0]!;
      else if (shown.length > 1) ambiguous = shown;
      if (ambiguous.length > 0) identifierEl = null;
    }
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
    if (
      lone &&
      clickables.some(
        (c) =>
          scope!.contains(c) && visible(c) && words.next.test(controlText(c)) && !words.notSubmit.test(controlText(c)),
      )
    ) {
      identifierEl = hinted;
    }
    // A first step asks for the username (beside a field or two at most: a remembered name, a region); a
    // form of many fields (a signed-in profile's email among names, a website, a biography) is no sign-in step.
    const stepForm = identifierEl && formOf(identifierEl);
    if (
      stepForm &&
      [...stepForm.querySelectorAll("input, textarea, select")].filter(
        (el) =>
          !/^(hidden|submit|button|image|reset|checkbox|radio|file)$/.test((el as HTMLInputElement).type) &&
          visible(el),
      ).length >= 4
    ) {
      identifierEl = null;
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
    submit = best(
      [...clickables.filter((el) => visible(el) && inScope(el)), ...styledText],
      (el) => {
        const t = controlText(el);
        // ASP.NET names its buttons in id and name ("ctl00$Main$btnLogin") and may show only an image.
        const named = `${el.id} ${el.getAttribute("name") ?? ""}`;
        const postback = el instanceof HTMLAnchorElement && /^javascript:/i.test(el.getAttribute("href") ?? "");
        let s = 0;
        if (
          ["submit", "image"].includes((el as HTMLButtonElement).type) &&
          !(el instanceof HTMLAnchorElement) &&
          el.tagName !== "DIV"
        )
          s += 3;
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
      },
      2,
    );
    const box = best(
      inputs.filter((el) => el.type === "checkbox" && !el.disabled && !el.checked && inScope(el)),
      (el) => (words.remember.test(describe(el)) ? 1 : 0),
      1,
    );
    // A styled checkbox hides its input and shows its label: a person clicks the label.
    const label = box && !visible(box) ? [...(box.labels ?? [])].find(visible) : undefined;
    remember = box && visible(box) ? box : (label ?? null);
  }

  const consent = kit.consentButton(all, clickables);

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

  // A question page has no password field at all, not even a disabled one (a form waiting on its request).
  const anyPassword = inputs.some((el) => el.type === "password" && visible(el) && !isQuestion(el));

  // The page offers its own method first and the password behind a control: the one that names the
  // password, else the one to the other methods. Not a "Forgot your password?" link.
  const passwordMethod = new RegExp(methodWords.password, "i");
  const otherWay = new RegExp(methodWords.otherWay, "i");
  const notMethod =
    /forgot|reset|change|vergessen|zur[uü]cksetzen|oubli|r[ée]initialiser|olvid|restablecer|esquec|redefinir|dimenticat|reimposta|vergeten|herstellen|忘|잊/i;
  const methodControl =
    anyPassword || identifierEl
      ? null
      : best(
          clickables.filter((el) => visible(el)),
          (el) => {
            const t = controlText(el);
            if (t.length > 60 || notMethod.test(t)) return 0;
            return passwordMethod.test(t) ? 3 : otherWay.test(t) ? 1 : 0;
          },
          1,
        );
  const otherMethod = methodControl
    ? { path: pathOf(methodControl)!, password: passwordMethod.test(controlText(methodControl)) }
    : null;
  const interstitial =
    !anyPassword && words.interstitial.test(pageText)
      ? best(
          clickables.filter((el) => visible(el)),
          (el) => (words.yes.test(controlText(el)) ? 2 : 0),
          1,
        )
      : null;

  const otpSingle = inputs.find((el) => fillable(el) && isOtp(el) && !otpBoxes.includes(el)) ?? null;
  const otpFields: HTMLInputElement[] = otpBoxes.length ? otpBoxes : otpSingle ? [otpSingle] : [];
  const otpPrompt =
    otpFields.length > 0 &&
    (words.otp.test(pageText) || otpBoxes.length > 0 || otpFields[0]!.autocomplete === "one-time-code");
  const otpForm = otpFields[0] ? formOf(otpFields[0]) : null;
  // A code field of the password's own form (after the password, or in it without a <form> nearby).
  const codeBeside = password
    ? (inputs.find(
        (el) =>
          fillable(el) &&
          isOtp(el) &&
          !otpBoxes.includes(el) &&
          el !== password &&
          (formOf(password)
            ? formOf(el) === formOf(password)
            : !!(password.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)),
      ) ?? null)
    : null;
  const otpSubmit = otpPrompt
    ? best(
        clickables.filter((el) => visible(el) && (!otpForm || otpForm.contains(el))),
        (el) => {
          const t = controlText(el);
          let s = (el as HTMLButtonElement).type === "submit" ? 2 : 0;
          if (words.submit.test(t) || /verify|confirm|submit|best[aä]tig|v[ée]rifi|verific|bevestig|conferma/i.test(t))
            s += 3;
          if (words.notSubmit.test(t) || /resend|another|erneut|renvoyer|reenviar|reinviar|opnieuw/i.test(t)) s -= 8;
          return s;
        },
        2,
      )
    : null;

  // The controls that send a step's field: its form's, by their words; never one that leaves the step.
  const sendsStep = (field: Element) => {
    const form = formOf(field);
    return best(
      clickables.filter((el) => visible(el) && (!form || form.contains(el))),
      (el) => {
        const t = controlText(el);
        let s = (el as HTMLButtonElement).type === "submit" ? 2 : 0;
        if (words.submit.test(t) || /verify|confirm|submit|best[aä]tig|v[ée]rifi|verific|bevestig|conferma/i.test(t))
          s += 3;
        if (words.notSubmit.test(t) || /resend|another|erneut|renvoyer|reenviar|reinviar|opnieuw/i.test(t)) s -= 8;
        return s;
      },
      2,
    );
  };
  // A signed-in page's "change your security question" form is no step of the sign-in.
  const questionField =
    !password && !otpPrompt && !signedIn ? (inputs.find((el) => fillable(el) && isQuestion(el)) ?? null) : null;
  const question = questionField
    ? {
        field: pathOf(questionField)!,
        submit: pathOf(sendsStep(questionField)),
        prompt: (formOf(questionField) ? text(formOf(questionField)!) : contextText(questionField)).slice(0, 600),
      }
    : null;

  // What a control shows (a button's value attribute is not shown).
  const shownLabel = (el: Element) =>
    ((el as HTMLElement).innerText ?? "").replace(/\s+/g, " ").trim() || controlText(el).trim();
  // A chooser: the account, profile or organization to go on as, one radio or one control each.
  let chooser: FrameReading["chooser"] = null;
  const chooserWords = new RegExp(stepWords.chooser, "i");
  if (!anyPassword && !otpPrompt && !questionField && !signedIn && chooserWords.test(pageText)) {
    const heading = all.find(
      (el) =>
        /^(H[1-6]|LEGEND|P|LABEL|DIV|SPAN)$/.test(el.tagName) &&
        el.childElementCount <= 2 &&
        visible(el) &&
        chooserWords.test(text(el)),
    );
    const skip = new RegExp(
      `${signOut.labels}|help|privacy|terms|cookie|forgot|cancel|back|hilfe|datenschutz|aide|ayuda|ajuda|aiuto`,
      "i",
    );
    const radios = inputs.filter(
      (el) => el.type === "radio" && !el.disabled && (visible(el) || [...(el.labels ?? [])].some(visible)),
    );
    let options: Array<{ label: string; path: SelectorPath; radio: boolean }>;
    let submit: SelectorPath | null = null;
    if (radios.length >= 2) {
      options = radios.map((el) => {
        const label = [...(el.labels ?? [])].find(visible);
        return {
          label: (kit.labelTexts(el)[0] ?? el.value).trim().slice(0, 120),
          path: pathOf(visible(el) ? el : (label ?? el))!,
          radio: true,
        };
      });
      submit = pathOf(sendsStep(radios[0]!));
    } else {
      // The controls after the words, in the nearest block that holds two or more of them.
      let scope: Element | null = heading?.parentElement ?? null;
      const after = (el: Element) =>
        !heading || !!(heading.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
      const choices = (root: Element) =>
        clickables.filter(
          (el) =>
            root.contains(el) &&
            visible(el) &&
            after(el) &&
            controlText(el).length > 0 &&
            controlText(el).length <= 120 &&
            !skip.test(controlText(el)),
        );
      while (scope && choices(scope).length < 2) scope = scope.parentElement;
      const found = scope ? choices(scope) : [];
      // The options are the controls of one list (the accounts); a link beside it ("Use another sign-in") is not one.
      const groups = new Map<Element | null, Element[]>();
      for (const el of found) {
        const group = el.closest("ul, ol, [role=list], [role=listbox], [role=radiogroup], [role=menu], table");
        groups.set(group, [...(groups.get(group) ?? []), el]);
      }
      const listed = [...groups.entries()]
        .filter(([group, els]) => group && els.length >= 2)
        .sort((a, b) => b[1].length - a[1].length)[0]?.[1];
      options = (listed ?? found).map((el) => ({
        label: shownLabel(el).slice(0, 120),
        path: pathOf(el)!,
        radio: false,
      }));
    }
    const labels = new Set(options.map((o) => o.label));
    if (options.length >= 2 && options.length <= 20 && labels.size === options.length && !labels.has("")) {
      chooser = { prompt: (heading ? text(heading) : pageText).slice(0, 300), options, submit };
    }
  }

  // The nearest block around an element that says the step's words: what a person reads as its question.
  const wordsAround = (el: Element, pattern: RegExp): string => {
    for (let n: Element | null = el, up = 0; n && up < 8; n = n.parentElement, up++) {
      if (pattern.test(text(n))) return text(n);
    }
    return contextText(el);
  };
  // A heading or short block that says the step's words, and the block it heads (what a person reads).
  const saying = (pattern: RegExp) =>
    all.find(
      (el) =>
        /^(H[1-6]|LEGEND|P|LABEL|DIV|SPAN)$/.test(el.tagName) &&
        el.childElementCount <= 2 &&
        visible(el) &&
        pattern.test(text(el)),
    );
  const headed = (heading: Element): string => {
    for (let n = heading.parentElement; n; n = n.parentElement)
      if (text(n).length > text(heading).length) return text(n);
    return text(heading);
  };

  // "Verify it's you": the detail it asks for goes in its one text field; without one, it waits for the person elsewhere.
  let verify: FrameReading["verify"] = null;
  const verifyWords = new RegExp(stepWords.verify, "i");
  if (!anyPassword && !otpPrompt && !questionField && !chooser && !signedIn && verifyWords.test(pageText)) {
    const field =
      inputs.find(
        (el) =>
          fillable(el) &&
          ["text", "email", "tel", "number", ""].includes(el.type) &&
          !isOtp(el) &&
          el.getAttribute("role") !== "searchbox",
      ) ?? null;
    const heading = saying(verifyWords);
    verify = {
      prompt: (field ? wordsAround(field, verifyWords) : heading ? headed(heading) : pageText).slice(0, 600),
      field: pathOf(field),
      submit: field ? pathOf(sendsStep(field)) : null,
    };
  }

  // Terms to accept before the sign-in goes on: the page's accept and decline controls. A page that shows the
  // account (a sign-out control) may hold the sign-in this way too: its session leads only to this page.
  let terms: FrameReading["terms"] = null;
  const termsWords = new RegExp(stepWords.terms, "i");
  if (!anyPassword && !otpPrompt && !questionField && termsWords.test(pageText)) {
    const acceptWords =
      /^(i )?(accept|agree|continue)\b|^(akzeptieren|zustimmen|einverstanden|weiter|accepter|j.accepte|continuer|aceptar|acepto|continuar|aceitar|aceito|accetta|accetto|continua|accepteren|akkoord|doorgaan)/i;
    const declineWords = new RegExp(
      `^(decline|reject|cancel|no,? thanks|not now|ablehnen|abbrechen|refuser|annuler|rechazar|cancelar|recusar|rifiuta|annulla|weigeren|annuleren)|^(${signOut.labels})`,
      "i",
    );
    const answers = clickables.filter(
      (el) =>
        visible(el) &&
        shownLabel(el).length > 0 &&
        shownLabel(el).length <= 60 &&
        !/cookie/i.test(shownLabel(el)) &&
        (acceptWords.test(shownLabel(el)) || declineWords.test(shownLabel(el))),
    );
    const options = answers.map((el) => ({
      label: shownLabel(el).slice(0, 120),
      path: pathOf(el)!,
      accept: acceptWords.test(shownLabel(el)),
    }));
    const accepting = answers.find((el) => acceptWords.test(shownLabel(el)));
    if (accepting && new Set(options.map((o) => o.label)).size === options.length) {
      const form = formOf(accepting);
      const box = inputs.find(
        (el) =>
          el.type === "checkbox" &&
          !el.disabled &&
          !el.checked &&
          (!form || form.contains(el)) &&
          (visible(el) || [...(el.labels ?? [])].some(visible)),
      );
      const boxLabel = box && !visible(box) ? [...(box.labels ?? [])].find(visible) : undefined;
      const heading = saying(termsWords);
      terms = {
        prompt: (heading ? headed(heading) : pageText).slice(0, 600),
        options,
        agree: pathOf(box && visible(box) ? box : (boxLabel ?? null)),
      };
    }
  }

  const extraFields = all.filter(
    (el): el is FormField => el !== identifierEl && el !== password && kit.isFormField(el),
  );
  const extras = Object.fromEntries(extraKeys.map((key) => [key, pathOf(kit.fieldFor(key, extraFields))]));
  const invalid = [identifierEl, password].find((el) => el && el.value !== "" && !el.validity.valid);
  return {
    password: pathOf(password),
    identifier: pathOf(identifierEl),
    identifierFilled: !!identifierEl && identifier.length > 0 && identifierEl.value === identifier,
    submit: pathOf(submit),
    remember: pathOf(remember),
    opener: pathOf(opener),
    otherMethod,
    consent: pathOf(consent),
    interstitial: pathOf(interstitial),
    signedIn: pathOf(signedIn),
    signOutHeld: !!signedIn || all.some((el) => kit.isSignOut(el, signOut)),
    // As a whole word, and only a name no page says by chance ("admin" in "Contact your admin" is not the account).
    nameShown:
      (identifier.length >= 6 || /[\d@._-]/.test(identifier)) &&
      identifier.length >= 3 &&
      new RegExp(
        `(^|[^\\p{L}\\p{N}])${identifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`,
        "iu",
      ).test(shownText),
    otpPrompt,
    otp: otpPrompt ? otpFields.map((el) => pathOf(el)!) : [],
    otpSubmit: pathOf(otpSubmit),
    codeBeside: pathOf(codeBeside),
    confirmByEmail: !anyPassword && words.confirmByEmail.test(pageText),
    // A page that shows an account (a sign-out control) is signed in, whatever it says of approvals.
    approvalPrompt: !anyPassword && !otpPrompt && !signedIn && new RegExp(stepWords.approval, "i").test(pageText),
    question,
    chooser,
    verify,
    terms,
    text: pageText,
    messages: kit.messages(all),
    validation: invalid ? kit.validation(invalid, null) : null,
    storage: kit.storage(),
    url: location.href,
    extras,
    ambiguous: ambiguous.map((el) => ({
      label: (kit.labelTexts(el)[0] ?? el.getAttribute("placeholder") ?? el.getAttribute("aria-label") ?? "").slice(
        0,
        80,
      ),
      name: el.name || el.id,
    })),
  };
}
