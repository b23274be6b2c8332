import type { LoginFailureCode } from "../job-failure-codes";
import { wordsOf } from "./login-words";

// The site's words: en, de, fr, es, pt, it and nl here, every other language from login-words.ts.
// "Disabled", "deactivated", "suspended" and "blocked" only of the account, the user or the sign-in ("some
// extended features have been deactivated", on phpMyAdmin's signed-in page, is no lock).
const LOCKED = new RegExp(
  `\\blocked\\b|\\b(account|user|login|log.?in|sign.?in|profile|member(ship)?|you)\\b[^.!?]{0,40}\\b(suspended|disabled|deactivated|blocked)\\b|\\b(suspended|disabled|deactivated|blocked) (account|user)\\b|too many|gesperrt|zu viele|verrouill|bloqu|trop de tentatives|demasiados|muitas tentativas|bloccat|troppi tentativi|geblokkeerd|te veel|${wordsOf("locked")}`,
  "i",
);
const CAPTCHA = new RegExp(
  [
    "captcha|not a robot|verify (that )?you are (a )?human|kein roboter|pas un robot|no soy un robot|n[aã]o sou um rob[oô]|non sono un robot|geen robot",
    // A distorted-text image's answer refused: "The characters you typed did not match the image."
    "\\bcharacters\\b.{0,40}\\b(image|picture)\\b|\\b(text|code) (in|from|on) the (image|picture)\\b|verification image",
    // Or without naming the image: "The characters did not match." (a password is not "characters").
    "\\b(characters|letters|symbols)\\b[^.!?]{0,30}\\b(did(n.t| not)|do(n.t| not)|does(n.t| not)) match",
    "zeichen (im|aus dem) bild|caract[eè]res de l.image|caracteres de la imagen",
  ].join("|"),
  "i",
);
const CREDENTIALS_REFUSED = new RegExp(
  [
    // en
    "invalid|incorrect|wrong|not recogni[sz]ed|(do|does|did)(n.t| not) match|enter (the|a) (correct|valid)|(is|are|was|were)(n.t| not) (correct|valid|right)",
    "unknown (user|account|e-?mail|login)|there is no (user|account)|no (such )?(user|account)( was)? (found|exists|with|for|matching|registered|associated)",
    "(couldn.t|could not|cannot|can.t|unable to) find (an |your |that |this )?(account|user)",
    "(user|account|e-?mail|username)\\b[^.!?]{0,40}(not found|does(n.t| not) exist|not registered)",
    // de
    "ung[uü]ltig|falsch|nicht (korrekt|richtig)|fehlerhaft|stimm(t|en) nicht|unbekannte[rs]? (benutzer|nutzer|e-mail|konto)",
    "(benutzer|nutzer|konto|e-mail)[^.!?]{0,40}(nicht gefunden|existiert nicht|unbekannt)|kein (konto|benutzer)[^.!?]{0,30}(gefunden|vorhanden)",
    // fr
    "invalide|erron|ne correspond(ent)? pas|pas (correct|valide)|mauvais (mot de passe|identifiant)",
    "(compte|utilisateur|identifiant|adresse)[^.!?]{0,40}(introuvable|inconnu|n.existe pas)|aucun (compte|utilisateur)[^.!?]{0,30}(trouv|correspond|associ|enregistr)",
    // es
    "inv[aá]lid|no (es|son) (correct|v[aá]lid)|no v[aá]lid|err[oó]ne|no coincide|equivocad|(usuario|correo|cuenta) desconocid",
    "(usuario|cuenta|correo)[^.!?]{0,40}(no encontrad|no existe)|ning[uú]na? (usuario|cuenta)[^.!?]{0,30}(encontr|coincid|asociad|registrad)",
    // pt
    "incorret|errad|n[aã]o (confere|corresponde|coincide)|(usu[aá]rio|conta|e-?mail)[^.!?]{0,40}(n[aã]o encontrad|n[aã]o existe|n[aã]o cadastrad)",
    "nenhuma? (conta|usu[aá]rio)[^.!?]{0,30}(encontrad|associad|cadastrad)",
    // it
    "non valid|non corrett|errat|non corrispond|(utente|account|e-?mail)[^.!?]{0,40}(non trovat|non esiste|sconosciut)|nessun (account|utente)[^.!?]{0,30}(trovat|associat|registrat)",
    // nl
    "onjuist|ongeldig|verkeerd|klopt niet|kloppen niet|niet (correct|juist|herkend)|(gebruiker|account|e-?mail)[^.!?]{0,40}(niet gevonden|bestaat niet|onbekend)|geen account[^.!?]{0,30}(gevonden|gekoppeld)",
    wordsOf("credentials"),
  ].join("|"),
  "i",
);
// The site's risk check refused the attempt (the browser, the address, the device), not the credentials.
const RISK_WALL = new RegExp(
  [
    "(couldn.t|could not|cannot|can.t|unable to) verify (this|your) (sign.?in|log.?in|login|request|identity|attempt)",
    "unusual (activity|traffic|sign.?in|log.?in|login)|suspicious (activity|traffic|sign.?in|log.?in|login|request)|automated (requests|traffic|queries|access)",
    "(from|on|with) (your|a) (usual|known|trusted|recogni[sz]ed|familiar) (device|browser|computer|location|network)",
    "(sign.?in|log.?in|login|request|access)( attempt)? (was |has been )?(blocked|declined|rejected|denied) (for|due to|because of) (security|your security|suspicious|unusual)",
    "ungew[oö]hnliche aktivit[aä]t|verd[aä]chtige aktivit[aä]t|activit[ée] (inhabituelle|suspecte)|actividad (inusual|sospechosa)|atividade (incomum|suspeita)|attivit[aà] (insolita|sospetta)|ongebruikelijke activiteit",
  ].join("|"),
  "i",
);
// The account itself locked (not one attempt blocked), or locked by the number of attempts.
const ACCOUNT_LOCKED =
  /(account|konto|compte|cuenta|conta|profil)[^.!?]{0,40}(locked|suspended|disabled|deactivated|blocked|gesperrt|verrouill|bloqu|bloccat|geblokkeerd)|too many|zu viele|trop de tentatives|demasiados|muitas tentativas|troppi tentativi|te veel/i;
// A code or link the site no longer takes ("expires in 24 hours" is not one: French needs its accent).
export const EXPIRED =
  /expired|no longer valid|already (been )?used|invalid (sign.?in )?(link|code|token)|abgelaufen|nicht mehr g[uü]ltig|expir(é|ée|és|ées)(?![a-z])|plus valide|caducad|expirad|scadut|verlopen/i;
// The login failed, without saying why.
const REFUSAL = new RegExp(
  `failed|denied|try again|did(n.t| not) work|hat nicht funktioniert|n.a pas fonctionn|no funcion[oó]|n[aã]o funcionou|non ha funzionato|werkte niet|not allowed|unable to (sign|log) ?in|could(n.t| not) (sign|log) (you )?in|(attempts?|tries) (remaining|left)|remaining attempts|fehlgeschlagen|[ée]chec|[ée]chou[ée]|fall[oó]|fallid|falhou|non riuscito|mislukt|${wordsOf("failed")}`,
  "i",
);
// The site failed, not the credentials ("Something went wrong", "Your session expired").
const SITE_FAULT = new RegExp(
  [
    "went wrong|server error|internal error|unexpected error|an error (has )?occurred|(service|temporarily) unavailable|try again later|(session|page) (has )?(expired|timed out)|(invalid |missing )?(csrf|xsrf|authenticity) token( mismatch| (is )?(invalid|missing|expired))?",
    "schiefgelaufen|schiefgegangen|fehler ist aufgetreten|sp[aä]ter (noch einmal|erneut)|sitzung (ist )?abgelaufen|vor[uü]bergehend nicht verf[uü]gbar",
    "erreur (s.est produite|est survenue|inattendue)|r[ée]essa[yi]ez plus tard|r[ée]essayer plus tard|session (a )?expir|temporairement indisponible",
    "algo sali[oó] mal|(se produjo|ha ocurrido) un error|m[aá]s tarde|sesi[oó]n (ha )?(caducado|expirado)|no disponible temporalmente",
    "algo deu errado|ocorreu um erro|mais tarde|sess[aã]o (expirou|expirada)|temporariamente indispon[ií]vel",
    "qualcosa [eè] andato storto|si [eè] verificato un errore|pi[uù] tardi|sessione scaduta|temporaneamente non disponibile",
    "er is iets (mis)?gegaan( mis)?|er is een fout opgetreden|probeer het later|sessie (is )?verlopen|tijdelijk niet beschikbaar",
  ].join("|"),
  "i",
);
// A warning before a lock ("4 attempts left before your account is locked") is not the lock itself.
const LOCK_WARNING =
  /(will|may|could) be (temporarily )?(locked|blocked|suspended|disabled)|before (your |the )?account (is|gets) (locked|blocked)|wird (\S+ )?gesperrt|sera (\S+ )?(verrouill|bloqu)|ser[aá] (\S+ )?bloquead|sar[aà] (\S+ )?bloccat|wordt (\S+ )?geblokkeerd/i;
// Other things a page says are disabled or blocked.
const NOT_THE_ACCOUNT = /\b(cookies?|javascript|pop-?ups?|ad.?blockers?|notifications?)\b[^.!?\n]{0,40}/i;
// What a refusal written as plain text speaks of: the login, the account, its fields, the attempt.
const LOGIN_SUBJECT = new RegExp(
  [
    "pass(word|code|phrase)|user|e-?mail|log ?in|sign.?in|credential|account|identifier|attempt|captcha|robot|human|\\bcode\\b|\\blink\\b",
    "passwort|kennwort|benutzer|nutzer|anmeld|zugangsdaten|konto|versuch",
    "mot de passe|identifiant|utilisateur|connexion|compte|courriel|adresse|tentative",
    "contrase|usuario|correo|credencial|cuenta|sesi[oó]n|acceso|intento",
    "senha|usu[aá]rio|credencia|conta|acesso",
    "utente|credenzial|accesso|tentativ",
    "wachtwoord|gebruiker|inlog|aanmeld|poging",
    wordsOf("subject"),
  ].join("|"),
  "i",
);

const without = (text: string, words: RegExp) => text.replace(new RegExp(words.source, "gi"), " ");

type Refusal = "locked" | "captcha" | "risk" | "credentials" | "refused" | "fault";

function refusalOf(message: string): Refusal | null {
  const said = without(message, NOT_THE_ACCOUNT);
  // A CAPTCHA asked for after too many attempts is solved, not waited out.
  if (CAPTCHA.test(said)) return "captcha";
  // A risk check's wall ("We couldn't verify this sign-in… from your usual device", "this sign-in was
  // blocked") is no wrong password, and no locked account unless it says the account is.
  const risk = RISK_WALL.test(said);
  if (LOCKED.test(without(said, LOCK_WARNING)) && (!risk || ACCOUNT_LOCKED.test(said))) return "locked";
  if (risk) return "risk";
  const judged = without(said, SITE_FAULT);
  if (CREDENTIALS_REFUSED.test(judged)) return "credentials";
  // A failure the site explains by its own fault ("Login failed: an unexpected error occurred") is that.
  if (SITE_FAULT.test(said)) return "fault";
  return REFUSAL.test(judged) || LOCK_WARNING.test(said) ? "refused" : null;
}

const CODES: Record<Refusal, LoginFailureCode> = {
  locked: "account_locked",
  captcha: "captcha_blocked",
  risk: "login_blocked",
  credentials: "invalid_credentials",
  refused: "login_unconfirmed",
  fault: "login_unconfirmed",
};

/**
 * The code a message of the site stands for, or null when it is not a refusal. `login_unconfirmed`:
 * the login failed without saying why ("Login failed"), or the site itself failed.
 */
export function refusalCode(message: string): LoginFailureCode | null {
  const refusal = refusalOf(message);
  return refusal ? CODES[refusal] : null;
}

/** The message says the site failed ("Something went wrong"), not that it refused the credentials. */
export const siteFault = (message: string): boolean => refusalOf(message) === "fault";

/** Plain text (no alert markup) counts as a refusal only when it speaks of the login, the account or its fields. */
export const speaksOfLogin = (text: string): boolean => LOGIN_SUBJECT.test(text);

// What a site says when its form came without a field's value ("Error: The password field is empty.",
// "Login cannot be blank", "Please enter your password"): about the form as it was sent, never about the
// credentials. Asked only of words shown beside a login form that is still there.
const EMPTY_FIELD = new RegExp(
  [
    "\\b(field|password|pass ?phrase|username|user ?name|e-?mail( address)?|login|user ?id)\\b[^.!?]{0,30}\\b(is |was |were |are )?(empty|blank|missing|required)\\b",
    "\\b(can ?not|can.t|must not|may not|should not) be (left )?(blank|empty)|\\bis a required field|\\bthis field is required|\\bplease fill (in|out) (this|all|the required)",
    "^\\W*(error\\W+)?(please )?(enter|type|provide|fill in) (your|a|the) (password|username|user ?name|e-?mail( address)?|login)\\W*$",
    "darf nicht leer|(ist|sind) (ein )?(erforderlich|pflichtfeld)|bitte (geben sie )?(ihr(en?)? )?(passwort|kennwort|benutzername\\w*|e-mail-adresse)( ein)?\\W*$",
    "(champ|mot de passe|identifiant)[^.!?]{0,30}(vide|obligatoire|requis)|veuillez (saisir|renseigner|entrer) (votre|un) (mot de passe|identifiant|e-?mail)\\W*$",
    "(campo|contrase[nñ]a|usuario|senha|usu[aá]rio)[^.!?]{0,30}(vac[ií]o|obligatorio|requerido|obrigat[oó]rio|vazio|obbligatorio)|(veld|wachtwoord|gebruikersnaam)[^.!?]{0,30}(leeg|verplicht)",
  ].join("|"),
  "i",
);

// What a site says when the form it shows again wants a second factor's code that was not in it ("Please
// enter your OTP token.", "2FA code required"): a second factor asked for, never a wrong password.
const CODE_ASKED = new RegExp(
  [
    "\\b(enter|provide|type|fill in|input)\\b[^.!?]{0,20}\\b(otp|totp|mfa|2fa|two.?factor|one.?time|authenticat\\w*|verification|security)\\b[^.!?]{0,12}\\b(code|token|pin|password)\\b",
    "\\b(otp|totp|mfa|2fa|two.?factor|one.?time|authenticat\\w*|verification|security)\\b[^.!?]{0,12}\\b(code|token|pin)\\b[^.!?]{0,20}\\b(required|missing|empty|needed|blank)\\b",
    "\\b(otp|totp|2fa|mfa) (token|code)\\b[^.!?]{0,30}\\b(invalid|incorrect|wrong)\\b",
    "(best[aä]tigungs|sicherheits|authentifizierungs|2fa-?)code[^.!?]{0,30}(ein|erforderlich|fehlt)|code (de v[ée]rification|d.authentification|2fa)[^.!?]{0,30}(requis|obligatoire|saisir)",
    "c[oó]digo (de verificaci[oó]n|de seguridad|de autenticaci[oó]n|2fa|de verifica[cç][aã]o)[^.!?]{0,30}(requerido|obligatorio|obrigat[oó]rio)|(verificatie|beveiligings)code[^.!?]{0,30}(verplicht|invullen)",
  ].join("|"),
  "i",
);

/** The site says its form came with a field empty or missing: the form as we sent it, not the credentials. */
export const namesEmptyField = (message: string): boolean => EMPTY_FIELD.test(message) && !CODE_ASKED.test(message);

/** The site asks for (or refuses) a second factor's code beside its login form: a second factor, not the password. */
export const asksForCode = (message: string): boolean => CODE_ASKED.test(message);
