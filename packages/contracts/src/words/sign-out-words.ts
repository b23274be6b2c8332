/**
 * What a signed-in page's sign-out control says, in every language the engine reads: the one list the login
 * engine (a signed-in page's evidence, in the page) and the session check (a stored session's page, read as
 * HTML without a browser) both use. Each entry is a piece of a case-insensitive regular expression.
 */
export const SIGN_OUT_LABELS: readonly string[] = [
  // en, de, fr, es, pt, it, nl
  "log ?out",
  "sign ?out",
  "log ?off",
  "sign ?off",
  "abmelden",
  "ausloggen",
  "d[ée]connexion",
  "se d[ée]connecter",
  "cerrar sesi[oó]n",
  "salir",
  "sair",
  "esci",
  "disconnetti",
  "uitloggen",
  "afmelden",
  // pl, ja, zh-Hans, zh-Hant, ko, ru, uk, tr, sv, cs, ar, he, vi, id, th
  "wyloguj",
  "ログアウト",
  "サインアウト",
  "退出登录",
  "登出",
  "注销",
  "退出登入",
  "註銷",
  "로그아웃",
  "выйти",
  "выход",
  "вийти",
  "вихід",
  "[cç][ıi]k[ıi][sş] yap",
  "oturumu kapat",
  "logga ut",
  "odhl[aá]sit",
  "تسجيل الخروج",
  "خروج",
  "התנתק",
  "התנתקות",
  "יציאה",
  "đăng xu[aấ]t",
  "\\bkeluar\\b",
  "ออกจากระบบ",
];

/** A sign-out control's address (a link, a form's action, a control's name): English on most sites, whatever their language. */
export const SIGN_OUT_ADDRESS = "log-?out|sign-?out|log_out|sign_out|logoff|signoff|abmelden|deconnexion|wyloguj";

/** Both, as the pieces an in-page reader takes (a function sent to a page cannot import). */
export const SIGN_OUT_WORDS = { labels: SIGN_OUT_LABELS.join("|"), address: SIGN_OUT_ADDRESS } as const;
