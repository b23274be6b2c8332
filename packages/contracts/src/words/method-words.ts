/**
 * The words of a sign-in page that offers its own method first (a passkey, a code, a phone prompt) and the
 * password behind a control: "Use your password instead", "Try another way", then, on the list of methods,
 * "Enter your password". Pieces of regular expressions, matched case-insensitively against a control's text.
 *
 * - `password`: a control that leads to the password itself ("Sign in with password", "Passwort verwenden");
 * - `otherWay`: one that leads to the other methods ("Try another way", "Other ways to sign in"), clicked
 *   only when no control names the password.
 */
export const METHOD_WORDS: Record<string, { password: string[]; otherWay: string[] }> = {
  en: {
    password: [
      "(use|enter|type) (your |a |the )?password",
      "(sign|log) ?in with (your |a )?password",
      "password instead",
      "^password$",
    ],
    otherWay: [
      "(try|use|choose) (an)?other (way|method|option)",
      "other ways to (sign|log) ?in",
      "(sign|log) ?in (an)?other way",
      "more sign.?in options",
      "(choose|select) (a |another )?(sign.?in )?method",
    ],
  },
  de: {
    password: [
      "passwort (verwenden|eingeben|nutzen)",
      "mit (dem |ihrem |deinem )?passwort anmelden",
      "kennwort (verwenden|eingeben)",
    ],
    otherWay: ["andere (methode|möglichkeit|option)", "auf andere weise anmelden", "weitere (anmelde)?optionen"],
  },
  fr: {
    password: [
      "utiliser (votre |le )?mot de passe",
      "(saisir|entrer) (votre |le )?mot de passe",
      "se connecter avec (un |votre )?mot de passe",
    ],
    otherWay: [
      "(essayer|utiliser) une autre (méthode|option|façon)",
      "autres (façons|options) de (se connecter|connexion)",
    ],
  },
  es: {
    password: [
      "usa(r)? (tu |la )?contraseña",
      "(introduce|ingresa)(r)? (tu |la )?contraseña",
      "iniciar sesión con (tu |una )?contraseña",
    ],
    otherWay: [
      "prob(ar|a) (otra|de otra) (manera|forma)",
      "otras (formas|opciones) de (iniciar sesión|acceder)",
      "usar otro método",
    ],
  },
  pt: {
    password: ["usar (sua |a )?senha", "(digite|insira|digitar) (sua |a )?senha", "entrar com (sua |uma )?senha"],
    otherWay: ["tentar (de )?outra (maneira|forma)", "outras (formas|opções) de (entrar|login)", "usar outro método"],
  },
  it: {
    password: ["usa(re)? (la )?password", "(inserisci|digita) (la )?password", "accedi con (la )?password"],
    otherWay: ["prova (un )?altro metodo", "prova in un altro modo", "altri (metodi|modi) di accesso"],
  },
  nl: {
    password: [
      "wachtwoord (gebruiken|invoeren)",
      "(gebruik|voer) (je |uw )?wachtwoord",
      "inloggen met (je |een )?wachtwoord",
    ],
    otherWay: ["probeer (het )?op een andere manier", "andere (manieren|opties) om in te loggen"],
  },
  pl: {
    password: ["u[zż]yj has[lł]a", "wpisz has[lł]o", "zaloguj si[eę] (za pomoc[aą] |przy u[zż]yciu )?has[lł]a"],
    otherWay: ["wypr[oó]buj inn[aą] metod[eę]", "inne (sposoby|metody) logowania"],
  },
  ja: {
    password: ["パスワードを(使用|入力|使う)", "パスワードでログイン", "パスワードでサインイン"],
    otherWay: ["別の方法を試す", "別の方法でログイン", "その他のログイン方法"],
  },
  "zh-Hans": {
    password: ["使用密码", "输入密码", "密码登录"],
    otherWay: ["尝试其他方式", "其他登录方式", "换个方式"],
  },
  ko: {
    password: ["비밀번호(를)? (사용|입력)", "비밀번호로 로그인"],
    otherWay: ["다른 방법 (시도|사용)", "다른 로그인 방법"],
  },
  ru: {
    password: ["(использовать|ввести|введите) пароль", "войти (с паролем|по паролю)"],
    otherWay: ["другой способ", "другие способы входа"],
  },
  tr: {
    password: ["şifre(yi|nizi)? (kullan|gir)", "şifre ile (giriş|oturum)"],
    otherWay: ["başka bir yol", "diğer giriş (yöntemleri|seçenekleri)"],
  },
};

export const methodWordsOf = (kind: "password" | "otherWay"): string =>
  Object.values(METHOD_WORDS)
    .flatMap((l) => l[kind])
    .join("|");

/**
 * Where a code prompt says its code comes from: a message (an email or SMS we may read in our inbox) or an
 * authenticator app (the request's TOTP secret, or a person).
 */
export const CODE_SOURCE_WORDS = {
  message:
    /e-?mail|inbox|sms|text message|texted|phone|mobile|we (just )?sent|gesendet|geschickt|envoy|enviad|inviat|verzonden|verstuurd/i,
  app: /authenticator|authentication app|auth app|totp|google auth|authy/i,
};
