import { asksForCode, EXPIRED, namesEmptyField, refusalCode, siteFault, speaksOfLogin } from "./refusal-words";

// The words real sites answer a login with, and the words login pages show anyway, in the seven languages.
const REFUSALS: Array<[string, string]> = [
  // A risk check's wall is no wrong password.
  ["login_blocked", "We couldn't verify this sign-in. Try again from your usual device."],
  ["login_blocked", "We detected unusual activity. For your security, this sign-in was blocked."],
  ["login_blocked", "Suspicious login attempt blocked."],
  ["account_locked", "Your account has been locked because of suspicious activity."],
  ["login_blocked", "Our systems have detected automated requests from your network."],
  ["login_blocked", "Wir haben ungewöhnliche Aktivität festgestellt."],
  ["login_blocked", "Nous avons détecté une activité inhabituelle sur votre compte."],
  ["invalid_credentials", "Error: The password you entered for the username ada is incorrect."],
  [
    "invalid_credentials",
    "Please enter the correct username and password for a staff account. Note that both fields may be case-sensitive.",
  ],
  ["invalid_credentials", "These credentials do not match our records."],
  ["invalid_credentials", "Invalid Email or password."],
  ["invalid_credentials", "Invalid login attempt."],
  ["invalid_credentials", "Wrong email or password"],
  ["invalid_credentials", "Incorrect username, email or password"],
  ["invalid_credentials", "You have specified an incorrect password. Please check your password and try again."],
  ["invalid_credentials", "We couldn't find an account with that email address."],
  ["invalid_credentials", "No account found with that email."],
  ["invalid_credentials", "Invalid password. Please try again later."],
  ["invalid_credentials", "Invalid password. You have 3 attempts left before your account is locked."],
  ["invalid_credentials", "Benutzername oder Passwort ist falsch."],
  ["invalid_credentials", "Die Zugangsdaten stimmen nicht."],
  ["invalid_credentials", "Es wurde kein Konto mit dieser E-Mail-Adresse gefunden."],
  ["invalid_credentials", "Identifiant ou mot de passe incorrect."],
  ["invalid_credentials", "Adresse e-mail ou mot de passe invalide."],
  ["invalid_credentials", "Ce compte n'existe pas."],
  ["invalid_credentials", "El correo electrónico o la contraseña no son correctos."],
  ["invalid_credentials", "Usuario desconocido."],
  ["invalid_credentials", "E-mail ou senha incorretos."],
  ["invalid_credentials", "Usuário não encontrado."],
  ["invalid_credentials", "Nome utente o password non corretti."],
  ["invalid_credentials", "Credenziali non valide."],
  ["invalid_credentials", "Gebruikersnaam of wachtwoord klopt niet."],
  ["invalid_credentials", "Ongeldige inloggegevens."],
  ["account_locked", "Your account has been locked. Contact support."],
  ["account_locked", "This account has been disabled."],
  ["account_locked", "User is deactivated. Contact your administrator."],
  ["account_locked", "Your account is suspended."],
  ["account_locked", "Too many failed login attempts. Please try again in 15 minutes."],
  ["account_locked", "Ihr Konto wurde gesperrt."],
  ["account_locked", "Trop de tentatives de connexion."],
  ["account_locked", "Demasiados intentos fallidos."],
  ["account_locked", "Muitas tentativas de login."],
  ["account_locked", "Troppi tentativi di accesso."],
  ["account_locked", "Te veel inlogpogingen."],
  ["captcha_blocked", "Too many attempts. Please complete the CAPTCHA to continue."],
  ["captcha_blocked", "Bitte bestätigen Sie, dass Sie kein Roboter sind."],
  ["captcha_blocked", "The characters you typed did not match the image. Please try again."],
  ["captcha_blocked", "Incorrect text from the image, please try again"],
  ["captcha_blocked", "Die Zeichen aus dem Bild stimmen nicht überein."],
  ["captcha_blocked", "The characters did not match. Try again."],
  ["invalid_credentials", "The password you entered is incorrect. Passwords are at least 8 characters."],
  // A one-time code refused (after a code, the flow reports any of these as verification_failed).
  ["login_unconfirmed", "That code didn't work. Check the code and try again."],
  ["invalid_credentials", "The code you entered is incorrect."],
  ["invalid_credentials", "Der Code ist ungültig."],
  ["login_unconfirmed", "Der Code hat nicht funktioniert."],
  ["invalid_credentials", "Code incorrect. Vérifiez le code et réessayez."],
  ["invalid_credentials", "El código no es válido."],
  ["invalid_credentials", "Código inválido."],
  ["invalid_credentials", "Codice non valido."],
  ["invalid_credentials", "De code is onjuist."],
  ["login_unconfirmed", "Login failed."],
  ["login_unconfirmed", "Unable to sign in"],
  ["login_unconfirmed", "Anmeldung fehlgeschlagen."],
  ["login_unconfirmed", "Échec de la connexion."],
  ["login_unconfirmed", "You have 3 attempts left before your account is locked."],
  ["login_unconfirmed", "Something went wrong. Please try again."],
  ["login_unconfirmed", "Algo deu errado. Tente novamente mais tarde."],
];

const NEUTRAL = [
  // A signed-in page's notice about the site's own features, not the account (phpMyAdmin's).
  "The phpMyAdmin configuration storage is not completely configured, some extended features have been deactivated. Find out why.",
  "Comments are disabled for this post.",
  "Forgot your password?",
  "Remember me",
  "Don't have an account? Sign up",
  "No account? Create one!",
  "Signing you in…",
  "Please sign in to continue",
  "Enter your password",
  "We use cookies to give you the best experience. Some features won't work if cookies are blocked.",
  "JavaScript is disabled in your browser.",
  "Passwords are case-sensitive.",
  "Keep me signed in",
  "Passwort vergessen?",
  "Angemeldet bleiben",
  "Noch kein Konto? Jetzt registrieren",
  "Bitte melden Sie sich an, um fortzufahren.",
  "Wir verwenden Cookies, um Ihnen das beste Erlebnis zu bieten.",
  "Mot de passe oublié ?",
  "Se souvenir de moi",
  "Pas encore de compte ? Créez-en un.",
  "Connexion en cours…",
  "Nous utilisons des cookies.",
  "¿Olvidaste tu contraseña?",
  "Recordarme",
  "¿No tienes cuenta? Regístrate",
  "Iniciando sesión…",
  "Usamos cookies para mejorar tu experiencia.",
  "Esqueceu sua senha?",
  "Lembrar de mim",
  "Não tem uma conta? Cadastre-se",
  "Entrando…",
  "Utilizamos cookies.",
  "Password dimenticata?",
  "Ricordami",
  "Non hai un account? Registrati",
  "Accesso in corso…",
  "Utilizziamo i cookie.",
  "Wachtwoord vergeten?",
  "Onthoud mij",
  "Nog geen account? Registreer je",
  "Bezig met inloggen…",
  "Wij gebruiken cookies.",
  // What a code prompt says anyway.
  "Enter the code we sent to a•••@x.com",
  "Didn't get a code? Resend",
  "The code expires in 10 minutes.",
  "Geben Sie den Code ein, den wir an a•••@x.com gesendet haben.",
  "Keinen Code erhalten? Erneut senden",
  "Saisissez le code envoyé à a•••@x.com.",
  "Vous n'avez pas reçu de code ? Renvoyer",
  "Introduce el código que enviamos a a•••@x.com.",
  "¿No recibiste el código? Reenviar",
  "Digite o código que enviamos para a•••@x.com.",
  "Não recebeu o código? Reenviar",
  "Inserisci il codice che abbiamo inviato a a•••@x.com.",
  "Non hai ricevuto il codice? Invia di nuovo",
  "Voer de code in die we naar a•••@x.com hebben gestuurd.",
  "Geen code ontvangen? Opnieuw verzenden",
];

describe("refusalCode", () => {
  it.each(REFUSALS)("reads %s in %j", (code, message) => {
    expect(refusalCode(message)).toBe(code);
  });

  it.each(NEUTRAL)("reads no refusal in %j", (text) => {
    expect(refusalCode(text)).toBeNull();
  });

  it("tells the site's own fault from a refusal of the credentials", () => {
    expect(siteFault("Something went wrong. Please try again.")).toBe(true);
    expect(siteFault("Invalid CSRF token.")).toBe(true);
    expect(siteFault("Your session has expired. Please reload the page.")).toBe(true);
    expect(siteFault("Login failed.")).toBe(false);
    expect(siteFault("Incorrect password. Please try again later.")).toBe(false);
  });
});

describe("namesEmptyField and asksForCode", () => {
  // Words about the form as it was sent: never a refusal of the credentials.
  it.each([
    "Error: The password field is empty.",
    "Error: The username field is empty.",
    "Login cannot be blank",
    "Password is required.",
    "This field is required.",
    "Please enter your password.",
    "Das Passwort darf nicht leer sein.",
    "Le champ mot de passe est obligatoire.",
    "El campo contraseña es obligatorio.",
    "Het wachtwoord veld is leeg.",
  ])("reads an empty field in %j", (text) => {
    expect(namesEmptyField(text)).toBe(true);
    expect(asksForCode(text)).toBe(false);
  });

  it.each([
    "Please enter your OTP token.",
    "2FA code required.",
    "Enter the verification code from your authenticator app.",
    "The OTP token is invalid.",
    "Bitte geben Sie den Bestätigungscode ein.",
  ])("reads a code asked for in %j", (text) => {
    expect(asksForCode(text)).toBe(true);
    expect(namesEmptyField(text)).toBe(false);
  });

  it.each([
    "Please enter a correct username and password. Note that both fields may be case-sensitive.",
    "Error: The password you entered for the username ada is incorrect.",
    "Invalid username or password.",
    "Please enter a valid email address.",
    "Forgot your password?",
  ])("reads neither in %j", (text) => {
    expect(namesEmptyField(text)).toBe(false);
    expect(asksForCode(text)).toBe(false);
  });
});

describe("EXPIRED", () => {
  it("reads a link or code the site no longer takes", () => {
    for (const text of [
      "This link has expired.",
      "Ce lien a expiré.",
      "La clé est expirée.",
      "Der Link ist abgelaufen.",
      "El enlace ha caducado.",
      "This code has already been used.",
    ]) {
      expect(EXPIRED.test(text)).toBe(true);
    }
  });

  it("does not read when a link or a trial will expire", () => {
    for (const text of [
      "This link expires in 24 hours.",
      "Your trial expires in 14 days.",
      "Le lien expire dans 24 heures.",
      "Links expire after one use.",
    ]) {
      expect(EXPIRED.test(text)).toBe(false);
    }
  });
});

describe("speaksOfLogin", () => {
  it("is what plain-text refusals speak of, in the seven languages", () => {
    for (const text of [
      "Incorrect email or password.",
      "Falsches Passwort.",
      "Identifiant inconnu.",
      "Contraseña incorrecta.",
      "Senha incorreta.",
      "Credenziali errate.",
      "Onjuist wachtwoord.",
    ]) {
      expect(speaksOfLogin(text)).toBe(true);
    }
  });

  it('leaves out what a signed-in page may say (a dashboard\'s "3 invalid entries")', () => {
    expect(speaksOfLogin("3 invalid entries in your last import.")).toBe(false);
    expect(speaksOfLogin("Error: Incorrect.")).toBe(false);
  });
});
