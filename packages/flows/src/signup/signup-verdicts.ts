/** What a site's words after a signup submit mean, in the languages the engine reads (en, de, fr, es, pt, it, nl). */

const USERNAME =
  /user ?name|handle|nick ?name|benutzername|nom d.utilisateur|nombre de usuario|nome (de )?usu[aá]rio|nome utente|gebruikersnaam/i;
const TAKEN =
  /\b(taken|not available|unavailable|in use|already|exists|vergeben|bereits|d[ée]j[àa]|pris|ya (existe|est[aá])|j[aá] (existe|est[aá])|gi[aà]|al in gebruik|bestaat al)\b/i;
// "already" is what tells a refusal from a success ("Your email address has been registered").
const EMAIL_EXISTS =
  /\b(e-?mail|address|account)\b.{0,60}\balready (exists|registered|in use|taken|been registered)|\balready (have an account|registered|in use)|\b(e-?mail|address)\b.{0,40}\b(is|was) (taken|in use)\b|bereits (registriert|vergeben|verwendet|ein konto)|d[ée]j[àa] (utilis|enregistr|inscri|un compte)|ya (est[aá] )?(registrad|en uso)|j[aá] (est[aá] )?(cadastrad|registad|em uso)|gi[aà] (registrat|in uso)|al (geregistreerd|in gebruik)/i;
const PASSWORD = /password|passwort|kennwort|mot de passe|contrase[nñ]a|senha|wachtwoord/i;
const RULE =
  /must|should|at least|at most|characters|too (short|long|weak|common|simple)|requires?|contain|include|muss|mindestens|zeichen|doit|caract[eè]res|debe|deve|caracteres|caratteri|moet|tekens/i;

/** A message that says the site is working on it ("Creating your account…"), not that it refused. */
export const PROGRESS =
  /(\.\.\.|…)\s*$|please wait|loading|creating|processing|signing (you )?(up|in)|bitte warten|veuillez patienter|espere|attendere|even geduld/i;

export type SignupRefusal = "username_taken" | "account_exists" | "password_rules" | "other";

/** Which kind of refusal a message of the site is (its words go to the caller either way). */
export function signupRefusalOf(message: string): SignupRefusal {
  if (USERNAME.test(message) && TAKEN.test(message)) return "username_taken";
  if (EMAIL_EXISTS.test(message)) return "account_exists";
  if (
    PASSWORD.test(message) &&
    RULE.test(message) &&
    !/match|überein|correspond|coincid|coincident|corrispond|komen niet overeen/i.test(message)
  ) {
    return "password_rules";
  }
  return "other";
}

/**
 * The site says it mailed what finishes the account ("A temporary password has been sent to", "Please
 * check your email"), on a page that may show its login form too (the login reader ignores such words there).
 */
export const ACCOUNT_MAILED =
  /check your (e-?mail|inbox)|pr[uü]fen sie ihr(e)? (e-?mail|postfach)|v[ée]rifiez votre (bo[iî]te|e-?mail)|revisa tu correo|verifique (o )?seu e-?mail|controlla la tua (e-?mail|posta)|controleer je (e-?mail|inbox)|\b(password|passwort|mot de passe|contrase[nñ]a|senha|wachtwoord)\b.{0,60}\b(sent|e-?mailed|mailed|gesendet|geschickt|envoy[ée]|enviad[ao]|verstuurd)\b|\b(sent|e-?mailed|mailed)\b.{0,40}\bpassword\b/i;

/**
 * The site says the account was made ("The signup was successful!", "Registration complete", "Thank you for
 * registering"): never a refusal, whatever else stands on the page (the signup form drawn again beneath it).
 */
export const SIGNUP_DONE =
  /\b(sign ?up|registration|account)\b[^.!?]{0,40}\b(was|is|has been) (successful(ly)?|complete[d]?|created)\b|\bsuccessfully (registered|created|signed up)\b|\bthank(s| you) for (registering|signing up)\b|\bwelcome aboard\b|(registrierung|konto)[^.!?]{0,40}(erfolgreich|abgeschlossen|erstellt)|(inscription|compte)[^.!?]{0,40}(r[ée]ussie?|termin[ée]e?|cr[ée][ée])|(registro|cuenta)[^.!?]{0,40}(exitos[oa]|complet[oa]|cread[oa])|(cadastro|conta)[^.!?]{0,40}(conclu[ií]d[oa]|criad[oa])|(registrazione|account)[^.!?]{0,40}(completat[oa]|riuscit[oa]|creat[oa])|(registratie|account)[^.!?]{0,40}(gelukt|voltooid|aangemaakt)/i;

/** ...and that the new account is now to sign in ("You can now go to the home page and log in"). */
export const NOW_SIGN_IN =
  /\b(you can|you may|please) now\b[^.!?]{0,50}\b(log ?in|sign ?in)\b|\bnow (log|sign) ?in\b|jetzt (anmelden|einloggen)|vous pouvez maintenant vous connecter|ahora puedes iniciar sesi[oó]n|agora (voc[eê] )?pode (entrar|fazer login)|ora puoi accedere|je kunt nu inloggen/i;

/**
 * The site says it mailed what activates the new account ("An email containing the instructions to activate
 * your account was sent to …", "We have sent you an activation link", "Please confirm your email address to
 * activate your account"), often above its login form: the mail's link comes before any login.
 */
export const ACTIVATION_MAILED =
  /\b(activat|confirm|verif)\w*\b[^.!?]{0,80}\b(sent|e-?mailed|mailed)\b|\b(sent|e-?mailed|mailed)\b[^.!?]{0,60}\b(activat|confirm|verif)\w*|\b(activate|confirm|verify) your (account|e-?mail|address|registration)\b|(aktivier|best[aä]tig)\w*[^.!?]{0,60}(gesendet|geschickt)|(activ|confirm|v[ée]rifi)\w*[^.!?]{0,60}envoy[ée]|(activ|confirm|verific)\w*[^.!?]{0,60}enviad[oa]|(attiva|conferma|verifica)\w*[^.!?]{0,60}inviat[oa]|(activ|bevestig)\w*[^.!?]{0,60}(verstuurd|verzonden)/i;

/**
 * A login refused because the new account is not yet activated ("You haven't activated your account yet",
 * "Please confirm your email address before logging in"): its confirmation mail is to be followed.
 */
export const NOT_ACTIVATED =
  /\b(have(n.t| not)|has(n.t| not)|is(n.t| not)|not( yet)?( been)?)\b[^.!?]{0,30}\b(activated|confirmed|verified)\b|\b(activate|confirm|verify) your (account|e-?mail( address)?|address)\b[^.!?]{0,40}\b(before|to) (log|sign)|noch nicht (aktiviert|best[aä]tigt)|pas (encore )?(été )?(activ|confirm|v[ée]rifi)|(a[uú]n )?no (ha sido|est[aá]) (activad|confirmad|verificad)|ainda n[aã]o (foi )?(ativad|confirmad|verificad)|non (ancora )?(è stato )?(attivat|confermat|verificat)|nog niet (geactiveerd|bevestigd|geverifieerd)/i;
