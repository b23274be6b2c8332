/**
 * The words a signup form is read by (see readSignup in flows' in-page/read-signup.ts), en, de, fr, es, pt,
 * it, nl: a signup or login action, what each field asks, a consent to tick and a newsletter not to.
 */
export const SIGNUP_WORDS = {
  signupAction:
    /sign ?up|register|create (an |my |your )?account|join|get started|accept (the )?invit|registrieren|konto erstellen|s.inscrire|cr[ée]er (un |mon )?compte|reg[ií]str|crear (una )?cuenta|criar conta|crea(re)? (un )?account|registreren|account aanmaken/i,
  loginAction:
    /^(log ?in|sign ?in|anmelden|einloggen|connexion|se connecter|iniciar ses[ií]on|entrar|accedi|inloggen)\b/i,
  // A control that goes on to the next step of a signup spread over several.
  next: /continue|next|submit|weiter|continuer|continuar|avanti|volgende/i,
  // Words of a hint that states a password rule (beside the password field).
  passwordRule: /\d|upper|lower|capital|number|digit|symbol|special|character/i,
  // An identity provider's button: a social sign-up, not the site's own.
  provider: /google|facebook|apple|microsoft|github/i,
  // A link to the login, anywhere in its words ("Already have an account? Log in").
  loginMention: /\b(log ?in|sign ?in|anmelden|connexion|se connecter|iniciar ses[ií]on|entrar|accedi|inloggen)\b/i,
  notSubmit: /google|facebook|apple|microsoft|github|sso|cancel|back|show|hide|log ?in|sign ?in/i,
  email: /e-?mail|courriel|correo/i,
  username:
    /user ?name|handle|nick ?name|benutzername|nom d.utilisateur|nombre de usuario|nome utente|gebruikersnaam|^login\W*$|\[login\]|[_-]login$|^login[ _-]?name\W*$/i,
  confirm:
    /confirm|repeat|again|re-?enter|retype|verify|wiederhol|best[aä]tig|confirmer|r[ée]p[ée]t|repet|conferma|herhaal|bevestig/i,
  firstName: /first ?name|given ?name|fore ?name|vorname|pr[ée]nom|^nombre$|primeiro nome|nome$|voornaam/i,
  lastName: /last ?name|family ?name|sur ?name|nachname|nom de famille|^nom$|apellido|sobrenome|cognome|achternaam/i,
  fullName:
    /full ?name|your name|^name$|display ?name|vollst[aä]ndiger name|nom complet|nombre completo|nome completo|volledige naam/i,
  invite: /invit|token|einladung|convite|invitaci/i,
  consent:
    /terms|conditions|agree|accept|privacy|policy|consent|agb|nutzungsbedingungen|datenschutz|conditions g[ée]n[ée]rales|t[ée]rminos|termos|termini|voorwaarden/i,
  marketing:
    /newsletter|news|offers|marketing|promotion|updates|tips|abonnieren|angebote|offres|ofertas|offerte|aanbiedingen/i,
};
