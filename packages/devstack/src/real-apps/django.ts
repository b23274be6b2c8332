import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { aptInstall, run } from "./installs";
import { appDir, HOST } from "./places";
import { daemon, portOpen, waitHttp } from "./processes";
import { base32, has, totp, type RealApp, passwordLogin } from "./real-app";

const PORT = 8807;
const URL_ = `http://${HOST}:${PORT}`;
/** The TOTP device's key as django-otp stores it (hex), and as an authenticator app takes it (base32). */
const TOTP_KEY_HEX = "3132333435363738393031323334353637383930";
const TOTP_SECRET = base32(Buffer.from(TOTP_KEY_HEX, "hex"));
const ACCOUNT = { username: "benchadmin", email: "benchadmin@example.test", password: "Bench-Django-pw-2024" };
const PYTHON = "/usr/bin/python3";

const SETTINGS = `
from pathlib import Path
BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "bench-real-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["${HOST}"]
INSTALLED_APPS = [
    "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
    "django.contrib.messages", "django.contrib.staticfiles", "django_otp", "django_otp.plugins.otp_totp",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware", "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware", "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware", "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware", "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "benchsite.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request", "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
STATIC_URL = "/static/"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
`;

const URLS = `
from django.contrib import admin
from django.urls import path
from django_otp.admin import OTPAdminSite

# The same models under a second admin whose login form asks for the OTP token too (django-otp's OTPAdminSite).
otp_admin = OTPAdminSite()
for model, model_admin in admin.site._registry.items():
    otp_admin.register(model, model_admin.__class__)

urlpatterns = [path("admin/", admin.site.urls), path("otp-admin/", otp_admin.urls)]
`;

const ACCOUNT_SCRIPT = `
from django.contrib.auth.models import User
from django_otp.plugins.otp_totp.models import TOTPDevice
u, _ = User.objects.get_or_create(username="${ACCOUNT.username}")
u.email = "${ACCOUNT.email}"; u.is_staff = True; u.is_superuser = True
u.set_password("${ACCOUNT.password}"); u.save()
TOTPDevice.objects.update_or_create(user=u, name="bench", defaults={"key": "${TOTP_KEY_HEX}", "confirmed": True})
`;

/** Signs in on a Django admin login form; with a TOTP secret, the code goes into the same form. */
async function adminLogin(page: import("puppeteer-core").Page, prefix: string, withCode: boolean): Promise<void> {
  await page.goto(`${URL_}/${prefix}/login/?next=/${prefix}/`);
  await page.type("#id_username", ACCOUNT.username);
  await page.type("#id_password", ACCOUNT.password);
  if (withCode) await page.type("#id_otp_token", totp(TOTP_SECRET));
  await Promise.all([page.waitForNavigation(), page.click('input[type="submit"][value="Log in"]')]);
  await page.waitForSelector('a[href$="/logout/"]');
}

const signedInAt = (prefix: string) => ({
  url: `${URL_}/${prefix}/password_change/`,
  signedIn: async (page: import("puppeteer-core").Page) =>
    !page.url().includes("/login/") && (await has(page, "#id_old_password")),
});

/** A Django 3.2 project (Debian) with its admin, and the same admin behind django-otp (TOTP in the login form). */
export const django: RealApp = {
  name: "django",
  about:
    "Django 3.2 admin from Debian (python3-django, runserver), and django-otp 1.1's OTPAdminSite on the same project",
  covers: [
    "server-rendered form with a CSRF token (csrfmiddlewaretoken + cookie)",
    'TOTP in the same form as the password ("OTP Token", with a device select)',
  ],
  async install() {
    await aptInstall(["python3-django", "python3-django-otp"]);
  },
  async start() {
    const dir = appDir("django");
    mkdirSync(path.join(dir, "benchsite"), { recursive: true });
    writeFileSync(path.join(dir, "benchsite", "__init__.py"), "");
    writeFileSync(path.join(dir, "benchsite", "settings.py"), SETTINGS);
    writeFileSync(path.join(dir, "benchsite", "urls.py"), URLS);
    const env = { DJANGO_SETTINGS_MODULE: "benchsite.settings", PYTHONPATH: dir };
    const admin = (...args: string[]) => run(PYTHON, ["-m", "django", ...args], { cwd: dir, env });
    await admin("migrate", "--noinput");
    await admin("shell", "-c", ACCOUNT_SCRIPT);
    if (await portOpen(PORT)) return;
    // --insecure: the development server serves the admin's static files with DEBUG off.
    const child = daemon(
      "django",
      PYTHON,
      ["-m", "django", "runserver", `${HOST}:${PORT}`, "--noreload", "--insecure"],
      { cwd: dir, env },
    );
    await waitHttp(`${URL_}/admin/login/`, 60_000, child);
  },
  variants: [
    passwordLogin(`${URL_}/admin/login/?next=/admin/`, ACCOUNT, (page) => adminLogin(page, "admin", false)),
    {
      label: "totp in the same form",
      loginUrl: `${URL_}/otp-admin/login/?next=/otp-admin/`,
      method: "totp",
      cred: { username: ACCOUNT.username, password: ACCOUNT.password, totpSecret: TOTP_SECRET },
      wrongPassword: true,
      baseline: (page) => adminLogin(page, "otp-admin", true),
      proof: signedInAt("otp-admin"),
    },
  ],
  proof: signedInAt("admin"),
};
