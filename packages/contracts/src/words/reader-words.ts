/**
 * The words the in-page reader knows login pages by, every language it reads: regular expressions, as the
 * page runs them. (The words that come as arguments, person steps and methods, live beside their tests.)
 */
export const words = {
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
  // A field's name or id that says it takes a code, and a label that says so in words.
  otpName: /otp|totp|mfa|2fa|verification|code/i,
  otpLabel: /\b(otp|totp|mfa|2fa)\b|one.?time|two.?factor|authenticat\w* code|verification code|security code/i,
  // An "Answer" field, on a page that asks a security question.
  answer: /\banswer\b|antwort|r[ée]ponse|respuesta|resposta|risposta|antwoord/i,
  otp: /one.?time|verification code|security code|authenticat|two.?factor|2fa|2-step|mfa|otp|best[aä]tigungscode|code de (v[ée]rification|s[ée]curit[ée])|c[oó]digo de (verificaci[oó]n|seguridad|verifica[cç][aã]o)|codice di verifica|verificatiecode/i,
};

/** The words of the in-page kit every reader holds (kit.ts): apart, so that a reader's bundle holds only these. */
export const KIT_WORDS = {
  // A cookie-consent banner (its id, class or label) and its accept button.
  consentBox: /cookie|consent|gdpr|privacy|datenschutz|cmp/i,
  consentYes:
    /^(accept|agree|allow|got it|ok|okay|i agree|alle akzeptieren|akzeptieren|zustimmen|accepter|tout accepter|j.accepte|aceptar|aceitar|accetta|accetto|accepteren|alles accepteren)/i,
  // A signed-in page's account menu (its id, class or label).
  accountMenu: /account[-_ ]?menu|user[-_ ]?menu|profile[-_ ]?menu|avatar/i,
};
