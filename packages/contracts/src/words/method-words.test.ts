import { methodWordsOf } from "./method-words";

const password = new RegExp(methodWordsOf("password"), "i");
const otherWay = new RegExp(methodWordsOf("otherWay"), "i");

describe("the words of a site's way to the password", () => {
  it.each([
    "Use your password",
    "Use your password instead",
    "Sign in with password",
    "Enter your password",
    "Passwort verwenden",
    "Mit Passwort anmelden",
    "Utiliser votre mot de passe",
    "Usar tu contraseña",
    "Entrar com senha",
    "Accedi con password",
    "Wachtwoord gebruiken",
    "Użyj hasła",
    "パスワードを入力",
    "使用密码",
  ])("names the password: %s", (text) => {
    expect(password.test(text)).toBe(true);
  });

  it.each([
    "Try another way",
    "Other ways to sign in",
    "Sign in another way",
    "Essayer une autre méthode",
    "Probar otra manera",
    "別の方法を試す",
    "Andere Methode wählen",
  ])("asks for another method: %s", (text) => {
    expect(otherWay.test(text)).toBe(true);
  });

  it.each([
    "Forgot your password?",
    "Show password",
    "Change password",
    "Create account",
    "Sign in with a passkey",
    "Next",
    "Use another account",
    "More options",
  ])("is neither: %s", (text) => {
    expect(password.test(text) || otherWay.test(text)).toBe(false);
  });
});
