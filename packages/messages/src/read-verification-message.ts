import { registrableDomain } from "@authsvc/egress";
/** A message as mail-in stores it, decrypted for the flow that waits for it. */
export interface VerificationMail {
  from: string;
  subject: string;
  text?: string;
  html?: string;
  receivedAt: Date;
}

const ENTITIES: Record<string, string> = { nbsp: " ", amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1]!.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The visible text of an HTML mail, one block per line (styles, scripts and comments dropped). */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(style|script|head)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/<(br|\/p|\/div|\/tr|\/li|\/h[1-6]|\/td|\/table)\b[^>]*>/gi, "\n")
      .replace(/<[^>]+>/g, " "),
  )
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

function bodyText(mail: VerificationMail): string {
  return [mail.subject, mail.text ?? (mail.html ? htmlToText(mail.html) : "")].join("\n");
}

// Words that sit next to a code, in the languages the engine reads.
const CODE_WORDS =
  /\b(code|codes|verification|verify|one[- ]time|otp|passcode|pin|security|sign[- ]in|login|bestätigungscode|sicherheitscode|anmeldecode|einmal|code de (vérification|sécurité|connexion)|código|codigo|verificación|verificação|codice|verifica|verificatiecode|inlogcode|eenmalige)\b/i;
// Numbers that are something else: money, dates, times, order and phone numbers, years.
const NOT_A_CODE = [
  /[$€£¥]\s?$/, // a price before it
  /#\s?$/, // an order or ticket number
  /\b(order|invoice|ticket|case|ref|reference|account|customer|bestellung|rechnung|commande|pedido|ordine|bestelling)\s*(no\.?|number|nr\.?|#)?\s*:?\s*$/i,
];

interface Candidate {
  code: string;
  score: number;
}

/**
 * The one-time code of a verification mail: 4 to 10 digits (or letters and digits, or capitals right
 * after a code word), the one nearest to words such as "code", "verification", "Bestätigungscode". Prices,
 * dates, times, years, phone and order numbers are not codes. Null when no candidate is near such words.
 */
export function extractCode(mail: VerificationMail): string | null {
  const lines = bodyText(mail).split("\n");
  const candidates: Candidate[] = [];
  lines.forEach((line, index) => {
    const near = (offset: number) => CODE_WORDS.test(lines[index + offset] ?? "");
    const proximity = CODE_WORDS.test(line) ? 3 : near(-1) || near(-2) ? 2 : near(1) ? 1 : 0;
    if (proximity === 0) return;
    const stripped = line.replace(/https?:\/\/\S+/g, " ");
    // "123 456" and "123-456" are one code when they stand alone in that shape.
    const token =
      /(?<![\w.,:/-])([A-Z0-9]{3,5})[ -]([A-Z0-9]{3,5})(?![\w.,:/-])|(?<![\w.,:/@-])([A-Za-z0-9]{4,10})(?![\w,:/@-]|\.\d)/g;
    for (const m of stripped.matchAll(token)) {
      // Groups of digits are one number ("804-117" is typed 804117); groups with letters are typed as shown
      // ("LFXH-VRKR": the site reads its own grouping back).
      const grouped = !m[3];
      const code = m[3] ?? (/[A-Za-z]/.test(`${m[1]}${m[2]}`) ? m[0] : `${m[1]}${m[2]}`);
      const before = stripped.slice(0, m.index);
      const after = stripped.slice(m.index! + m[0].length);
      if (NOT_A_CODE.some((re) => re.test(before))) continue;
      if (/^\s?(%|°|€|\$|usd|eur|kb|mb|gb|px)/i.test(after)) continue;
      const digits = /^\d+$/.test(code);
      const mixed = /\d/.test(code) && /[A-Za-z]/.test(code);
      const alone = /^\s*$/.test(stripped.replace(m[0], ""));
      // Capitals are a code after a code word and a colon, or in groups ("LFXH-VRKR") alone on a line beside
      // the mail's words about a code (a shouted word alone on a line is not one).
      const capitals =
        /^[A-Z]+(?:[ -][A-Z]+)?$/.test(code) &&
        ((/[:：]\s*$/.test(before) && CODE_WORDS.test(before)) || (alone && grouped && proximity >= 2));
      if (!digits && !(mixed && code === code.toUpperCase()) && !capitals) continue;
      if (digits && code.length === 4 && /^(19|20)\d\d$/.test(code) && !/[:：]\s*$/.test(before)) continue; // a year
      if (digits && /\d[/.-]\s*$/.test(before)) continue; // part of a date
      let score = proximity * 10;
      if (/[:：]\s*$/.test(before) || /^\s*$/.test(stripped.replace(m[0], ""))) score += 5; // "code: 123456", or alone on its line
      if (digits && code.length === 6) score += 2;
      candidates.push({ code, score });
    }
  });
  candidates.sort((a, b) => b.score - a.score);
  return candidates[0]?.code ?? null;
}

const LINK_WORDS =
  /sign[- _]?in|reset|set[-_]?pass|passw|log[- _]?in|verify|verif|confirm|magic|auth|token|activate|validate|anmeld|bestätig|best%C3%A4tig|confirmer|connexion|confirmar|acceder|iniciar|entrar|conferma|accedi|bevestig|inloggen/i;
const NOT_THE_LINK =
  /unsubscribe|abbestellen|d[ée]sabonner|desuscrib|cancelar-suscripci|disiscriv|uitschrijven|privacy|datenschutz|confidentialit|privacidad|terms|agb|impressum|help|support|preferences|settings|facebook|twitter|instagram|linkedin|youtube|report|not-me|wasnt-me/i;

/** The domain of a sender address (`Name <a@b>` or `a@b`); an address literal `a@[127.0.0.1]` gives its IP. */
export function senderDomain(from: string): string {
  return (/@([^>\s]+)/.exec(from)?.[1] ?? "").replace(/^\[(.*)\]$/, "$1");
}

export { registrableDomain };

/**
 * The sign-in link of a magic-link or confirmation mail: on the target site (its host or a subdomain of
 * its domain) when `siteHost` is known, and the one whose address or text says sign in, verify or
 * confirm — never unsubscribe, privacy or help links.
 */
export function extractLink(mail: VerificationMail, siteHost?: string): string | null {
  const links: Array<{ href: string; text: string; context?: string }> = [];
  for (const m of (mail.html ?? "").matchAll(/<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a>/gi)) {
    links.push({ href: decodeEntities(m[2]!.trim()), text: htmlToText(m[3]!) });
  }
  const url = /https?:\/\/[^\s<>"')\]]+/g;
  const lines = (mail.text ?? "").split("\n").filter((line) => line.trim());
  lines.forEach((line, i) => {
    // A plain-text link is introduced by its own line or the one before ("click the link below to confirm:").
    const context = `${i > 0 ? lines[i - 1]! : ""} ${line}`.replace(url, " ");
    for (const m of line.matchAll(url)) links.push({ href: m[0].replace(/[.,;]+$/, ""), text: "", context });
  });
  let best: { href: string; score: number } | null = null;
  for (const { href, text, context } of links) {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      continue;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") continue;
    const host = url.hostname.toLowerCase();
    if (siteHost && host !== siteHost.toLowerCase() && registrableDomain(host) !== registrableDomain(siteHost))
      continue;
    const said = `${url.pathname}${url.search} ${text}`;
    if (NOT_THE_LINK.test(said)) continue;
    let score = LINK_WORDS.test(url.pathname + url.search) ? 3 : 0;
    if (LINK_WORDS.test(text) || (context !== undefined && LINK_WORDS.test(context))) score += 2;
    if (/[?&](token|code|key|t|otp)=/i.test(url.search) || /\/[A-Za-z0-9_-]{20,}/.test(url.pathname)) score += 1;
    if (score > 0 && (!best || score > best.score)) best = { href: url.toString(), score };
  }
  return best?.href ?? null;
}

/**
 * The message a flow should read: the newest that arrived after it asked (`since`), preferring mail sent
 * from the target site's domain.
 */
export function pickMessage<T extends VerificationMail>(messages: T[], since: Date, siteHost?: string): T | null {
  const fresh = messages
    .filter((m) => m.receivedAt.getTime() >= since.getTime())
    .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime());
  if (siteHost) {
    const domain = registrableDomain(siteHost);
    const fromSite = fresh.find((m) => registrableDomain(senderDomain(m.from)) === domain);
    if (fromSite) return fromSite;
  }
  return fresh[0] ?? null;
}

// A line that gives a password: its word, then ":", "=", "is" or a quote, and the password itself.
const PASSWORD_LINE =
  /\b(?:password|passwort|kennwort|mot de passe|contrase[nñ]a|senha|wachtwoord)\b[^:：=\n]{0,40}?(?:[:：=]|\b(?:is|ist|est|es|[eé]|lautet) ?(?:now|jetzt|maintenant|ahora|agora)?\b[ \t]*[:：]?|(?=\s["'“‘`«„]))[ \t]*(.*)$/i;
// Codes, links and masked values are something else; so is a plain word ("is incorrect", "is: changed").
const NOT_A_PASSWORD_LINE = /\b(code|codes|otp|pin|passcode|token)\b/i;
const QUOTED = /^["'“‘`«„]([^"'”’`»“]{6,128})["'”’`»“]/;

/**
 * The password a site mailed (a generated or temporary one): the line that names a password and gives
 * one after ":" or "is" (or alone on the next line), quoted or not. Never a code, a link, a masked value
 * or a word of a sentence ("Your password is too short"); null when no line gives one.
 */
export function extractPassword(mail: VerificationMail): string | null {
  const lines = bodyText(mail)
    .split("\n")
    .map((l) => l.trim());
  for (const [index, line] of lines.entries()) {
    // A link's path may say "password" too ("/set-password?key=…"): links are never read here.
    const m = PASSWORD_LINE.exec(line.replace(/https?:\/\/\S+/g, " "));
    if (!m || NOT_A_PASSWORD_LINE.test(line)) continue;
    let rest = m[1]!.trim();
    // "Your temporary password:" with the password alone on the next line.
    if (!rest && /[:：]\s*$/.test(line)) rest = (lines.slice(index + 1).find((l) => l !== "") ?? "").trim();
    const quoted = QUOTED.exec(rest);
    const candidate = quoted ? quoted[1]! : rest.split(/\s+/)[0]!.replace(/[.,;!)]+$/, "");
    if (looksLikePassword(candidate)) return candidate;
  }
  return null;
}

/** Generated passwords mix classes: letters with digits or symbols, or both cases; never a URL or a mask. */
function looksLikePassword(token: string): boolean {
  if (token.length < 6 || token.length > 128 || /\s/.test(token)) return false;
  if (/:\/\/|^www\./i.test(token) || /^[*•●·xX]+$/.test(token) || /@[^@\s]+\.[a-z]{2,}$/i.test(token)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(token)).length;
  return classes >= 2 && !/^[A-Z][a-z]+[.,;!]?$/.test(token);
}

// A line that gives the account's login name: its word, ":" (or "="), and the name itself.
const LOGIN_LINE =
  /^\s*(?:login(?: name)?|user ?name|user|benutzername|anmeldename|nom d.utilisateur|identifiant|nombre de usuario|usuario|nome (?:de )?usu[aá]rio|nome utente|gebruikersnaam)\s*[:：=]\s*(.+)$/i;

/**
 * The login name a site assigned in the mail that gives the account's details ("Login    : Agent-x" beside
 * "Password : …"; "Username: agent"): the name it signs in with, which may not be what the form was given
 * (a wiki capitalizes it; some sites log in by username only). Null when no line gives one.
 */
export function extractLogin(mail: VerificationMail): string | null {
  for (const line of bodyText(mail).split("\n")) {
    const m = LOGIN_LINE.exec(line.replace(/https?:\/\/\S+/g, " "));
    if (!m) continue;
    const quoted = QUOTED.exec(m[1]!.trim());
    const name = quoted
      ? quoted[1]!
      : m[1]!
          .trim()
          .split(/\s+/)[0]!
          .replace(/[.,;!)]+$/, "");
    if (name.length >= 2 && name.length <= 128) return name;
  }
  return null;
}
