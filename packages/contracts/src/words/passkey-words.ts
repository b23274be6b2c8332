/**
 * The words of a site's passkey controls, per language: pieces of regular expressions, matched
 * case-insensitively against a control's text (scripts without word spaces match inside it).
 *
 * - `signIn`: a control that signs in with a passkey ("Sign in with a passkey", "Use a passkey");
 * - `add`: one that adds a passkey to the account ("Add a passkey", "Create a passkey");
 * - `settings`: a link toward where the account's sign-in methods are kept ("Security", "Settings"),
 *   followed only when the page shows no `add` control; `passkeys` itself ranks first.
 */
export const PASSKEY_WORDS: Record<string, { signIn: string[]; add: string[]; settings: string[] }> = {
  en: {
    signIn: ["(sign|log) ?in with (a |your )?passkey", "(use|continue with) (a |your )?passkey", "^passkey$"],
    add: ["(add|create|set ?up|register|new) (a |new )?passkey", "passkey[^.]{0,12}(add|create)"],
    settings: [
      "passkeys?",
      "(sign.?in|login) (&|and) security",
      "security",
      "settings",
      "account settings",
      "my account",
      "profile",
    ],
  },
  de: {
    signIn: ["mit (einem |ihrem |deinem )?passkey anmelden", "passkey (verwenden|nutzen)"],
    add: ["passkey (hinzufügen|erstellen|einrichten)", "(neuen )?passkey (anlegen|registrieren)"],
    settings: ["passkeys?", "sicherheit", "einstellungen", "mein konto", "konto"],
  },
  fr: {
    signIn: ["(se connecter|connexion) avec une (clé d.accès|passkey)", "utiliser une (clé d.accès|passkey)"],
    add: ["(ajouter|créer) une (clé d.accès|passkey)"],
    settings: ["clés d.accès", "sécurité", "paramètres", "mon compte", "compte"],
  },
  es: {
    signIn: [
      "(iniciar sesión|acceder|entrar) con (una )?(llave|clave) de acceso",
      "usar (una )?(llave|clave) de acceso",
    ],
    add: ["(añadir|agregar|crear) (una )?(llave|clave) de acceso"],
    settings: ["(llaves|claves) de acceso", "seguridad", "configuración", "ajustes", "mi cuenta", "cuenta"],
  },
  pt: {
    signIn: ["(entrar|fazer login) com (uma )?chave de acesso", "usar (uma )?chave de acesso"],
    add: ["(adicionar|criar) (uma )?chave de acesso"],
    settings: ["chaves de acesso", "segurança", "configurações", "minha conta", "conta"],
  },
  it: {
    signIn: ["accedi con (una )?passkey", "usa (una )?passkey"],
    add: ["(aggiungi|crea) (una )?passkey"],
    settings: ["passkey", "sicurezza", "impostazioni", "il mio account", "account"],
  },
  nl: {
    signIn: ["inloggen met (een )?(passkey|toegangssleutel)", "(passkey|toegangssleutel) gebruiken"],
    add: ["(passkey|toegangssleutel) (toevoegen|maken|aanmaken)"],
    settings: ["passkeys?", "toegangssleutels?", "beveiliging", "instellingen", "mijn account", "account"],
  },
  pl: {
    signIn: ["zaloguj si[eę] (kluczem dost[eę]pu|za pomoc[aą] klucza dost[eę]pu)", "u[zż]yj klucza dost[eę]pu"],
    add: ["(dodaj|utw[oó]rz) klucz dost[eę]pu"],
    settings: ["klucze dost[eę]pu", "bezpiecze[nń]stwo", "ustawienia", "moje konto", "konto"],
  },
  ja: {
    signIn: ["パスキーで(ログイン|サインイン)", "パスキーを使用"],
    add: ["パスキーを(追加|作成)"],
    settings: ["パスキー", "セキュリティ", "設定", "アカウント"],
  },
  "zh-Hans": {
    signIn: ["(使用)?通行密钥登录", "使用通行密钥"],
    add: ["(添加|创建)通行密钥"],
    settings: ["通行密钥", "安全", "设置", "账户"],
  },
  ko: {
    signIn: ["패스키로 로그인", "패스키 사용"],
    add: ["패스키 (추가|만들기|생성)"],
    settings: ["패스키", "보안", "설정", "계정"],
  },
  ru: {
    signIn: ["войти (с помощью|с) ключ(ом|а) доступа", "использовать ключ доступа"],
    add: ["(добавить|создать) ключ доступа"],
    settings: ["ключи доступа", "безопасность", "настройки", "аккаунт", "профиль"],
  },
  tr: {
    signIn: ["geçiş anahtarı ile (giriş|oturum)", "geçiş anahtarı kullan"],
    add: ["geçiş anahtarı (ekle|oluştur)"],
    settings: ["geçiş anahtarları", "güvenlik", "ayarlar", "hesabım", "hesap"],
  },
};

export const passkeyWordsOf = (kind: "signIn" | "add"): string =>
  Object.values(PASSKEY_WORDS)
    .flatMap((l) => l[kind])
    .join("|");

/**
 * The settings words, most telling first: each language's first entry (its word for passkeys), then its
 * second, and so on. A link's rank is the first entry it matches.
 */
export const settingsWordsRanked = (): string[] => {
  const ranked: string[] = [];
  const depth = Math.max(...Object.values(PASSKEY_WORDS).map((l) => l.settings.length));
  for (let i = 0; i < depth; i++)
    for (const l of Object.values(PASSKEY_WORDS)) if (l.settings[i]) ranked.push(l.settings[i]!);
  return ranked;
};
