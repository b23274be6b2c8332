import { passkeyWordsOf, settingsWordsRanked } from "./passkey-words";

const signIn = new RegExp(passkeyWordsOf("signIn"), "i");
const add = new RegExp(passkeyWordsOf("add"), "i");
const rank = (text: string) => settingsWordsRanked().findIndex((w) => new RegExp(w, "i").test(text));

describe("the words of a site's passkey controls", () => {
  it.each([
    "Sign in with a passkey",
    "Use a passkey",
    "Continue with passkey",
    "Mit Passkey anmelden",
    "Se connecter avec une clé d'accès",
    "Iniciar sesión con una llave de acceso",
    "Entrar com uma chave de acesso",
    "パスキーでサインイン",
    "使用通行密钥登录",
    "패스키로 로그인",
  ])("signs in: %s", (text) => {
    expect(signIn.test(text)).toBe(true);
    expect(add.test(text)).toBe(false);
  });

  it.each([
    "Add a passkey",
    "Create a passkey",
    "Set up a passkey",
    "+ New passkey",
    "Passkey hinzufügen",
    "Ajouter une clé d'accès",
    "Crear una clave de acceso",
    "Adicionar chave de acesso",
    "Aggiungi una passkey",
    "Dodaj klucz dostępu",
    "パスキーを作成",
    "添加通行密钥",
    "Создать ключ доступа",
  ])("adds one: %s", (text) => {
    expect(add.test(text)).toBe(true);
  });

  it.each([
    "Sign in",
    "Use your password instead",
    "Try another way",
    "Forgot your password?",
    "Remove passkey",
    "Next",
  ])("is neither: %s", (text) => {
    expect(signIn.test(text) || add.test(text)).toBe(false);
  });

  it("ranks a link to the passkeys before one to security, and security before general settings", () => {
    expect(rank("Passkeys")).toBeLessThan(rank("Security"));
    expect(rank("Sign-in & security")).toBeLessThan(rank("Settings"));
    expect(rank("Sicherheit")).toBeLessThan(rank("Mein Konto"));
    expect(rank("Privacy policy")).toBe(-1);
  });
});
