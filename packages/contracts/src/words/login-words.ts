/**
 * What sites say around a login, per language, beside the seven the refusal rules were first written in
 * (en, de, fr, es, pt, it, nl: refusal-words.ts). Each entry is a piece of a regular expression, matched
 * case-insensitively anywhere in a message (scripts without word spaces — Japanese, Chinese, Thai — match
 * inside a sentence). A language is added here, not in the rules.
 *
 * - `credentials`: the site refuses the username or password ("wrong password", "no such account");
 * - `locked`: the account is locked or blocked, or there were too many attempts;
 * - `failed`: the login failed without saying why;
 * - `subject`: words a refusal written as plain text speaks of (password, username, login, account);
 * (A signed-in page's sign-out control, in every language: SIGN_OUT_LABELS in @authsvc/contracts, the
 * list the session check reads too.)
 *
 * The structural rule (session-evidence) holds without any of these: a page that shows no login form and
 * sets nothing beyond what rotates is never a success, in any language. These words turn such a page into
 * `invalid_credentials` in the site's own words instead of `login_unconfirmed`.
 */
export interface LanguageWords {
  credentials: string[];
  locked: string[];
  failed: string[];
  subject: string[];
}

export const LOGIN_WORDS: Record<string, LanguageWords> = {
  pl: {
    credentials: [
      "nieprawid[lł]ow",
      "niepoprawn",
      "b[lł][eę]dn",
      "(konto|u[zż]ytkownik)[^.!?]{0,40}nie (istnieje|zosta[lł]o znalezion)",
    ],
    locked: ["zablokowan", "zbyt wiele (nieudanych )?pr[oó]b"],
    failed: ["nie powiod[lł]o si[eę]", "logowanie nieudane"],
    subject: ["has[lł]", "login", "u[zż]ytkownik", "logowani", "konto", "e-?mail"],
  },
  ja: {
    credentials: [
      "正しくありません",
      "間違って",
      "一致しません",
      "誤りがあります",
      "無効な",
      "見つかりません",
      "存在しません",
    ],
    locked: ["ロックされ", "ロック中", "試行回数"],
    failed: ["失敗しました", "ログインできません"],
    subject: ["パスワード", "ログイン", "メールアドレス", "アカウント", "ユーザー"],
  },
  "zh-Hans": {
    credentials: ["错误", "不正确", "无效", "不匹配", "不存在", "找不到", "有误"],
    locked: ["锁定", "冻结", "尝试次数过多", "次数过多"],
    failed: ["失败"],
    subject: ["密码", "账号", "帐号", "账户", "用户", "登录", "邮箱"],
  },
  "zh-Hant": {
    credentials: ["錯誤", "不正確", "無效", "不相符", "不存在", "找不到", "有誤"],
    locked: ["鎖定", "凍結", "嘗試次數過多", "次數過多"],
    failed: ["失敗"],
    subject: ["密碼", "帳號", "賬號", "帳戶", "使用者", "用戶", "登入", "登錄", "電子郵件"],
  },
  ko: {
    credentials: [
      "올바르지 않",
      "일치하지 않",
      "잘못된",
      "잘못 입력",
      "존재하지 않",
      "찾을 수 없",
      "유효하지 않",
      "틀렸",
    ],
    locked: ["잠겼", "잠금", "잠긴", "시도 횟수"],
    failed: ["실패"],
    subject: ["비밀번호", "아이디", "로그인", "이메일", "계정", "사용자"],
  },
  ru: {
    credentials: ["неверн", "неправильн", "не найден", "не существует", "не совпада", "некорректн", "ошибочн"],
    locked: ["заблокирован", "слишком много попыток", "превышено (число|количество) попыток"],
    failed: ["не удалось", "ошибка входа"],
    subject: ["пароль", "парол", "логин", "вход", "почт", "уч[её]тн", "аккаунт", "пользовател"],
  },
  uk: {
    credentials: ["невірн", "неправильн", "не знайдено", "не існує", "хибн", "некоректн", "не збіга"],
    locked: ["заблоковано", "забагато спроб"],
    failed: ["не вдалося", "помилка входу"],
    subject: ["пароль", "парол", "логін", "вхід", "пошт", "обліков", "користувач"],
  },
  tr: {
    credentials: [
      "hatal[ıi]",
      "yanl[ıi][sş]",
      "ge[cç]ersiz",
      "bulunamad[ıi]",
      "e[sş]le[sş]miyor",
      "kay[ıi]tl[ıi] de[gğ]il",
    ],
    locked: ["kilitlendi", "kilitli", "[cç]ok fazla (say[ıi]da )?(deneme|giri[sş])", "engellendi"],
    failed: ["ba[sş]ar[ıi]s[ıi]z"],
    subject: ["[sş]ifre", "parola", "kullan[ıi]c[ıi]", "e-?posta", "giri[sş]", "hesap"],
  },
  sv: {
    credentials: [
      "felaktig",
      "fel (l[oö]senord|anv[aä]ndarnamn|e-post)",
      "ogiltig",
      "st[aä]mmer inte",
      "hittades inte",
      "finns inte",
    ],
    locked: ["l[aå]st", "sp[aä]rr", "f[oö]r m[aå]nga (f[oö]rs[oö]k|inloggningsf[oö]rs[oö]k)"],
    failed: ["misslyckades"],
    subject: ["l[oö]senord", "anv[aä]ndar", "e-post", "inloggning", "logga in", "konto"],
  },
  cs: {
    credentials: ["nespr[aá]vn", "neplatn", "[sš]patn", "neexistuje", "nenalezen", "neodpov[ií]d"],
    locked: ["zablokov[aá]n", "p[rř][ií]li[sš] mnoho pokus"],
    failed: ["se nezda[rř]il", "selhal"],
    subject: ["hesl", "u[zž]ivatel", "e-?mail", "p[rř]ihl[aá][sš]", "[uú][cč]et"],
  },
  ar: {
    credentials: ["غير صحيح", "خاطئ", "خطأ في", "غير صالح", "غير موجود", "لا يتطابق", "غير متطابق"],
    locked: ["مقفل", "تم قفل", "محظور", "تم حظر", "محاولات كثيرة"],
    failed: ["فشل"],
    subject: ["كلمة المرور", "كلمة السر", "البريد", "اسم المستخدم", "تسجيل الدخول", "الحساب"],
  },
  he: {
    credentials: ["שגוי", "לא נכונ", "אינו תקין", "אינה תקינה", "לא תקינ", "לא קיים", "לא נמצא", "אינם תואמים"],
    locked: ["ננעל", "נחסם", "חסום", "יותר מדי ניסיונות"],
    failed: ["נכשל"],
    subject: ["סיסמ", "שם משתמש", 'דוא"ל', "אימייל", "התחברות", "כניסה", "חשבון"],
  },
  vi: {
    credentials: [
      "kh[oô]ng (đ[uú]ng|ch[ií]nh x[aá]c|h[oợ]p l[eệ]|t[oồ]n t[aạ]i|t[iì]m th[aấ]y|kh[oớ]p)",
      "sai (m[aậ]t kh[aẩ]u|t[eê]n)",
    ],
    locked: ["b[iị] kh[oó]a", "qu[aá] nhi[eề]u l[aầ]n"],
    failed: ["th[aấ]t b[aạ]i", "kh[oô]ng th[aà]nh c[oô]ng"],
    subject: ["m[aậ]t kh[aẩ]u", "t[eê]n đăng nh[aậ]p", "t[aà]i kho[aả]n", "email", "đăng nh[aậ]p"],
  },
  id: {
    credentials: ["\\bsalah\\b", "tidak (valid|sah|sesuai|cocok|ditemukan|terdaftar|dikenal)"],
    locked: ["terkunci", "diblokir", "terlalu banyak (percobaan|upaya)"],
    failed: ["\\bgagal\\b"],
    subject: ["kata sandi", "sandi", "pengguna", "\\bakun\\b", "\\bmasuk\\b", "surel", "email"],
  },
  th: {
    credentials: ["ไม่ถูกต้อง", "ผิดพลาด", "ไม่พบ", "ไม่ตรงกัน"],
    locked: ["ถูกล็อก", "ถูกล็อค", "ถูกระงับ", "พยายามหลายครั้งเกินไป"],
    failed: ["ล้มเหลว", "ไม่สำเร็จ"],
    subject: ["รหัสผ่าน", "ชื่อผู้ใช้", "อีเมล", "เข้าสู่ระบบ", "บัญชี"],
  },
};

/** One expression of a kind of words, over every language here. */
export const wordsOf = (kind: keyof LanguageWords): string =>
  Object.values(LOGIN_WORDS)
    .flatMap((l) => l[kind])
    .join("|");
