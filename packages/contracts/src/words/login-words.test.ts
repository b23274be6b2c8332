import { LOGIN_WORDS } from "./login-words";
import { refusalCode, speaksOfLogin } from "./refusal-words";

// Per language of login-words.ts: a wrong password, a locked account and a failure as real login pages
// word them, and what the same pages say anyway (never a refusal).
const SAID: Record<string, { wrong: string; locked: string; failed: string; neutral: string[] }> = {
  pl: {
    wrong: "Nieprawidłowy login lub hasło.",
    locked: "Konto zostało zablokowane.",
    failed: "Logowanie nie powiodło się.",
    neutral: ["Nie pamiętasz hasła?", "Zapamiętaj mnie", "Nie masz konta? Zarejestruj się"],
  },
  ja: {
    wrong: "メールアドレスまたはパスワードが正しくありません。",
    locked: "アカウントがロックされています。",
    failed: "ログインに失敗しました。",
    neutral: ["パスワードをお忘れですか？", "ログイン状態を保持する", "アカウントをお持ちでない方"],
  },
  "zh-Hans": {
    wrong: "用户名或密码错误",
    locked: "账号已被锁定",
    failed: "登录失败",
    neutral: ["忘记密码？", "记住我", "还没有账号？立即注册"],
  },
  "zh-Hant": {
    wrong: "帳號或密碼錯誤",
    locked: "帳號已被鎖定",
    failed: "登入失敗",
    neutral: ["忘記密碼？", "記住我", "還沒有帳號？立即註冊"],
  },
  ko: {
    wrong: "아이디 또는 비밀번호가 일치하지 않습니다.",
    locked: "계정이 잠겼습니다.",
    failed: "로그인에 실패했습니다.",
    neutral: ["비밀번호를 잊으셨나요?", "로그인 상태 유지", "계정이 없으신가요? 회원가입"],
  },
  ru: {
    wrong: "Неверный логин или пароль.",
    locked: "Ваша учётная запись заблокирована.",
    failed: "Не удалось войти.",
    neutral: ["Забыли пароль?", "Запомнить меня", "Нет аккаунта? Зарегистрируйтесь"],
  },
  uk: {
    wrong: "Невірний логін або пароль.",
    locked: "Обліковий запис заблоковано.",
    failed: "Не вдалося увійти.",
    neutral: ["Забули пароль?", "Запам'ятати мене", "Немає облікового запису? Зареєструйтеся"],
  },
  tr: {
    wrong: "E-posta adresi veya şifre hatalı.",
    locked: "Hesabınız kilitlendi.",
    failed: "Giriş başarısız.",
    neutral: ["Şifremi unuttum", "Beni hatırla", "Hesabın yok mu? Kaydol"],
  },
  sv: {
    wrong: "Felaktigt användarnamn eller lösenord.",
    locked: "Kontot är låst.",
    failed: "Inloggningen misslyckades.",
    neutral: ["Glömt lösenordet?", "Kom ihåg mig", "Inget konto? Registrera dig"],
  },
  cs: {
    wrong: "Nesprávné uživatelské jméno nebo heslo.",
    locked: "Účet byl zablokován.",
    failed: "Přihlášení se nezdařilo.",
    neutral: ["Zapomenuté heslo?", "Zapamatovat si mě", "Nemáte účet? Zaregistrujte se"],
  },
  ar: {
    wrong: "اسم المستخدم أو كلمة المرور غير صحيحة.",
    locked: "تم قفل حسابك.",
    failed: "فشل تسجيل الدخول.",
    neutral: ["هل نسيت كلمة المرور؟", "تذكرني", "ليس لديك حساب؟ سجل الآن"],
  },
  he: {
    wrong: "שם המשתמש או הסיסמה שגויים.",
    locked: "החשבון ננעל.",
    failed: "ההתחברות נכשלה.",
    neutral: ["שכחת סיסמה?", "זכור אותי", "אין לך חשבון? הירשם"],
  },
  vi: {
    wrong: "Tên đăng nhập hoặc mật khẩu không đúng.",
    locked: "Tài khoản của bạn đã bị khóa.",
    failed: "Đăng nhập thất bại.",
    neutral: ["Quên mật khẩu?", "Ghi nhớ đăng nhập", "Chưa có tài khoản? Đăng ký"],
  },
  id: {
    wrong: "Email atau kata sandi salah.",
    locked: "Akun Anda terkunci.",
    failed: "Gagal masuk.",
    neutral: ["Lupa kata sandi?", "Ingat saya", "Belum punya akun? Daftar"],
  },
  th: {
    wrong: "ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง",
    locked: "บัญชีของคุณถูกล็อก",
    failed: "เข้าสู่ระบบไม่สำเร็จ",
    neutral: ["ลืมรหัสผ่าน?", "จดจำฉันไว้", "ยังไม่มีบัญชี? สมัครสมาชิก"],
  },
};

describe("login words per language", () => {
  it("has phrases for every language it keeps, and keeps every language tested here", () => {
    expect(Object.keys(SAID).sort()).toEqual(Object.keys(LOGIN_WORDS).sort());
  });

  describe.each(Object.entries(SAID))("%s", (_lang, said) => {
    it("reads a wrong password as invalid_credentials, speaking of the login", () => {
      expect(refusalCode(said.wrong)).toBe("invalid_credentials");
      expect(speaksOfLogin(said.wrong)).toBe(true);
    });
    it("reads a locked account as account_locked", () => {
      expect(refusalCode(said.locked)).toBe("account_locked");
    });
    it("reads a failure without a reason as login_unconfirmed", () => {
      expect(refusalCode(said.failed)).toBe("login_unconfirmed");
    });
    it("reads no refusal in what login pages say anyway", () => {
      for (const text of said.neutral) expect([text, refusalCode(text)]).toEqual([text, null]);
    });
  });
});
