import {
  extractCode,
  extractLink,
  extractLogin,
  extractPassword,
  htmlToText,
  pickMessage,
  type VerificationMail,
} from "./read-verification-message";

const at = new Date("2026-11-22T08:00:00Z");
const mail = (
  subject: string,
  body: { text?: string; html?: string },
  from = "Acme <no-reply@acme.example>",
): VerificationMail => ({
  from,
  subject,
  receivedAt: at,
  ...body,
});

// Messages shaped like the ones real services send: codes among prices, dates, order numbers and years.
const CODE_MAILS: Array<[string, VerificationMail, string | null]> = [
  [
    "plain text, code on its own line",
    mail("Your Acme verification code", {
      text: "Hi Ada,\n\nYour verification code is:\n\n482913\n\nIt expires in 10 minutes.",
    }),
    "482913",
  ],
  [
    "code after a colon",
    mail("Sign-in attempt", { text: "Use this code to sign in: 771204. If this wasn't you, reset your password." }),
    "771204",
  ],
  [
    "code in the subject only",
    mail("593021 is your Acme login code", { text: "Enter it on the sign-in page." }),
    "593021",
  ],
  [
    "HTML with a big styled code",
    mail("Confirm it's you", {
      html: `<html><head><style>.code{font-size:32px;color:#333333}</style></head><body><p>Here is your one-time code</p><div class="code">3 8 1</div><table><tr><td class="code">190 442</td></tr></table><p>Questions? Call +1 415 555 0100.</p></body></html>`,
    }),
    "190442",
  ],
  ["split with a dash", mail("Security code", { text: "Your security code: 804-117\nDo not share it." }), "804117"],
  ["letters and digits", mail("Your login code", { text: "Your code is: K7P2QX\nValid for 15 minutes." }), "K7P2QX"],
  ["capitals after a code word", mail("One-time passcode", { text: "Passcode: QWERTZ" }), "QWERTZ"],
  [
    "capitals in dashed groups, alone on a line below the mail's words (django-allauth)",
    mail("[Example] Sign Up Code", {
      text: "Hello from example.com!\n\nYour email verification code is listed below. Please enter it in your open browser window.\n\nLFXH-VRKR\n\nThank you for using example.com!",
    }),
    "LFXH-VRKR",
  ],
  ["mixed letters and digits in groups", mail("Your code", { text: "Your sign-in code:\n\nK7P2-QX9D\n" }), "K7P2-QX9D"],
  [
    "a shouted word alone on a line is no code",
    mail("Your code", { text: "Your verification code is below.\n\nIMPORTANT\n\nDo not share it with anyone." }),
    null,
  ],
  [
    "eight digits",
    mail("Verify your email", { text: "Enter the verification code 20481937 to continue." }),
    "20481937",
  ],
  ["four digits that look like a year, after a colon", mail("Your PIN", { text: "Your one-time PIN: 2024" }), "2024"],
  [
    "German",
    mail("Ihr Bestätigungscode", {
      html: "<p>Hallo,</p><p>Ihr Bestätigungscode lautet:</p><p><strong>615 309</strong></p><p>Er ist 10 Minuten gültig.</p>",
    }),
    "615309",
  ],
  [
    "French",
    mail("Votre code de vérification", { text: "Bonjour,\nVotre code de vérification est 448201.\nÀ bientôt !" }),
    "448201",
  ],
  [
    "Spanish",
    mail("Tu código de verificación", { text: "Usa el código 310775 para iniciar sesión. Caduca el 22/11/2026." }),
    "310775",
  ],
  ["Portuguese", mail("Código de verificação", { text: "Seu código de verificação: 902614" }), "902614"],
  ["Italian", mail("Il tuo codice", { text: "Il tuo codice di verifica è 557120. Non condividerlo." }), "557120"],
  ["Dutch", mail("Je verificatiecode", { text: "Je verificatiecode is 661903." }), "661903"],
  [
    "an order number and a price beside the code",
    mail("Confirm your purchase", {
      text: "Order #558812 — total $1299.00\nTo confirm, enter the code 730166 on the checkout page.",
    }),
    "730166",
  ],
  [
    "a date and a time beside the code",
    mail("Login code", { text: "Sign-in requested on 2026-11-22 at 08:14 from Berlin.\nYour login code: 246810" }),
    "246810",
  ],
  [
    "no code at all: a newsletter with numbers",
    mail("November news", {
      text: "Our 2026 roadmap: 12 new features, 4500 customers, 99.9% uptime. Read more at https://acme.example/blog/2026",
    }),
    null,
  ],
  [
    "a receipt: numbers but no code words",
    mail("Your receipt", { text: "Invoice 20261122-0042\nAmount: €49.00\nCard ending 4242" }),
    null,
  ],
  [
    "a code inside a URL is not the code in the text",
    mail("Verify", { text: "Your code: 135790\nOr open https://acme.example/verify?code=999999" }),
    "135790",
  ],
];

describe("extractCode", () => {
  it.each(CODE_MAILS)("%s", (_name, message, code) => {
    expect(extractCode(message)).toBe(code);
  });
});

const LINK_MAILS: Array<[string, VerificationMail, string | undefined, string | null]> = [
  [
    "a plain-text link introduced by the line before it (Gmail's forwarding confirmation)",
    mail("(#123456789) Gmail Forwarding Confirmation", {
      text: "To allow agent@gmail.com to forward mail to your address, please click the link below to confirm the request:\n\nhttps://mail-settings.google.com/mail/vf-%5BANGjdJ8%5D-Xy1\n\nIf you click the link and it appears to be broken, copy it.",
    }),
    undefined,
    "https://mail-settings.google.com/mail/vf-%5BANGjdJ8%5D-Xy1",
  ],
  [
    "a magic link among footer links",
    mail("Your sign-in link", {
      html: `<p>Click below to sign in.</p><a href="https://app.acme.example/auth/magic?token=eyJhbGciOi.abc">Sign in to Acme</a>
<p><a href="https://acme.example/privacy">Privacy</a> · <a href="https://acme.example/unsubscribe?u=1">Unsubscribe</a> · <a href="https://twitter.com/acme">Twitter</a></p>`,
    }),
    "app.acme.example",
    "https://app.acme.example/auth/magic?token=eyJhbGciOi.abc",
  ],
  [
    "a confirmation link through the site's click tracker",
    mail("Confirm your email", {
      html: `<a href="https://click.acme.example/ls/click?upn=Zx81kQp0aa7yYt55Lm02">Confirm email address</a> <a href="https://click.acme.example/ls/click?upn=unsub-8812">unsubscribe</a>`,
    }),
    "acme.example",
    "https://click.acme.example/ls/click?upn=Zx81kQp0aa7yYt55Lm02",
  ],
  [
    "plain text with several URLs",
    mail("Log in to Acme", {
      text: "Hi,\nUse this link to log in: https://acme.example/login/verify/k3J9sPq0Lm2nX8vB7cT1.\nHelp: https://acme.example/help\nPrivacy: https://acme.example/privacy",
    }),
    "acme.example",
    "https://acme.example/login/verify/k3J9sPq0Lm2nX8vB7cT1",
  ],
  [
    "a link to another site is not ours",
    mail("Verify", {
      html: `<a href="https://evil.example/verify?token=abc">Verify</a><a href="https://acme.example/verify?token=real123">Verify your email</a>`,
    }),
    "acme.example",
    "https://acme.example/verify?token=real123",
  ],
  [
    "German, with an Abbestellen link",
    mail("Anmeldung bestätigen", {
      html: `<p>Bitte bestätigen Sie Ihre Anmeldung:</p><a href="https://www.acme.example/bestaetigen?t=77aa99">Anmeldung bestätigen</a><a href="https://www.acme.example/newsletter/abbestellen">Abbestellen</a>`,
    }),
    "acme.example",
    "https://www.acme.example/bestaetigen?t=77aa99",
  ],
  [
    "no sign-in link at all",
    mail("Welcome", {
      html: `<a href="https://acme.example/docs">Read the docs</a><a href="https://acme.example/settings">Settings</a>`,
    }),
    "acme.example",
    null,
  ],
  [
    "HTML entities in the address",
    mail("Magic link", {
      html: `<a href="https://acme.example/auth/callback?token=a1b2&amp;redirect=%2Fhome">Log in</a>`,
    }),
    "acme.example",
    "https://acme.example/auth/callback?token=a1b2&redirect=%2Fhome",
  ],
];

describe("extractLink", () => {
  it.each(LINK_MAILS)("%s", (_name, message, siteHost, link) => {
    expect(extractLink(message, siteHost)).toBe(link);
  });
});

describe("pickMessage", () => {
  it("takes only mail that arrived after the flow asked, the newest from the site first", () => {
    const asked = new Date("2026-11-22T08:00:00Z");
    const old = { ...mail("Old code", { text: "code 111111" }), receivedAt: new Date("2026-11-22T07:59:00Z") };
    const other = {
      ...mail("Other code", { text: "code 222222" }, "Other <x@other.example>"),
      receivedAt: new Date("2026-11-22T08:00:05Z"),
    };
    const fromSite = {
      ...mail("New code", { text: "code 333333" }, "Acme <security@mail.acme.example>"),
      receivedAt: new Date("2026-11-22T08:00:03Z"),
    };
    expect(pickMessage([old, other, fromSite], asked, "app.acme.example")).toBe(fromSite);
    expect(pickMessage([old, other], asked)).toBe(other);
    expect(pickMessage([old], asked)).toBeNull();
  });
});

describe("htmlToText", () => {
  it("keeps the visible text, one block per line, without styles or entities", () => {
    expect(
      htmlToText(`<style>p{color:red}</style><p>Hello&nbsp;Ada,</p><div>Code: <b>12&#51;456</b></div><!-- hidden -->`),
    ).toBe("Hello Ada,\nCode: 123456");
  });
});

describe("the site's domain, by the Public Suffix List", () => {
  const mail = (html: string) => ({ from: "no-reply@shop.co.uk", subject: "Sign in", html, receivedAt: new Date() });
  it("takes no link on another registrant's domain under the same public suffix", () => {
    expect(
      extractLink(mail('<a href="https://evil.co.uk/login?token=abcdefghijklmnopqrstu">Sign in</a>'), "www.shop.co.uk"),
    ).toBeNull();
    expect(
      extractLink(
        mail('<a href="https://mallory.github.io/verify?token=abcdefghijklmnopqrstu">Verify</a>'),
        "alice.github.io",
      ),
    ).toBeNull();
    expect(
      extractLink(
        mail('<a href="https://auth.shop.co.uk/login?token=abcdefghijklmnopqrstu">Sign in</a>'),
        "www.shop.co.uk",
      ),
    ).toBe("https://auth.shop.co.uk/login?token=abcdefghijklmnopqrstu");
  });
});

// Mails that give a generated password, and mails that speak of a password without giving one.
const PASSWORD_MAILS: Array<[string, VerificationMail, string | null]> = [
  [
    "MediaWiki's account by email",
    mail("Account details on Acme Wiki", {
      text: 'Someone created an account for your email address on Acme Wiki named "Ada", with password "k3P9xw2Q".\nYou should log in and change your password now.\n\nYou may ignore this message if this account was created in error.',
    }),
    "k3P9xw2Q",
  ],
  [
    "a temporary password after a colon",
    mail("Welcome to the forum", {
      text: "Welcome!\n\nUsername: ada\nYour temporary password is: Xy7#qp2Lm\n\nLog in at https://forum.example/login",
    }),
    "Xy7#qp2Lm",
  ],
  ["Password: on its own line", mail("Your account", { text: "Login: ada\nPassword: t8Rw2vNq\n" }), "t8Rw2vNq"],
  [
    "the password alone on the next line",
    mail("Your new account", {
      html: "<p>Your generated password:</p><p><code>Hq4-mZ7p-Wc2</code></p><p>Please change it after your first login.</p>",
    }),
    "Hq4-mZ7p-Wc2",
  ],
  ["German", mail("Ihr Zugang", { text: "Ihr Benutzername: ada\nIhr Passwort lautet: Vb8kL2pq" }), "Vb8kL2pq"],
  [
    "WordPress's set-password mail: a link, no password",
    mail("[Acme Blog] Login Details", {
      text: "Username: ada\r\n\r\nTo set your password, visit the following address:\r\n\r\nhttps://blog.example/wp-login.php?action=rp&key=Ab12Cd34&login=ada\r\n",
    }),
    null,
  ],
  [
    "a link whose path names a password",
    mail("Login Details", {
      text: "Username: ada\n\nTo set your password, visit the following address:\n\nhttps://acme.example/account/set-password?key=0123456789abcdef0123\n",
    }),
    null,
  ],
  [
    "a reset link after a colon",
    mail("Reset your password", { text: "Forgot your password? Reset it here: https://acme.example/reset?t=9f8e7d" }),
    null,
  ],
  ["a code that resets the password", mail("Password reset", { text: "Your password reset code: 482913" }), null],
  [
    "a sentence about the password",
    mail("Security notice", {
      text: "Your password is now changed.\nYour password is too weak? Never share your password with anyone.",
    }),
    null,
  ],
  ["a masked password", mail("Your details", { text: "Username: ada\nPassword: ********" }), null],
  ["the one chosen at signup", mail("Welcome", { text: "Password: The one you chose when signing up." }), null],
];

describe("extractPassword", () => {
  it.each(PASSWORD_MAILS)("%s", (_name, message, expected) => {
    expect(extractPassword(message)).toBe(expected);
  });
});

describe("extractLogin", () => {
  it.each([
    [
      "a wiki's aligned lines",
      { text: "Someone created an account.\n\nLogin    : Agent-x\nPassword : bavpoucec#78\n" },
      "Agent-x",
    ],
    ["a forum's username line", { text: "Your account details:\nUsername: ada_l\nPassword: Xk29!pq\n" }, "ada_l"],
    ["German, quoted", { text: 'Benutzername: "Ada.Lovelace"\nKennwort: Qw3rt!zz' }, "Ada.Lovelace"],
    ["the HTML part only", { html: "<pre>Login    : Agent-y\nPassword : p#78abc</pre>" }, "Agent-y"],
    ["no login line", { text: "Your temporary password is: Xk29!pq" }, null],
  ])("%s", (_name, body, expected) => {
    expect(extractLogin(mail("Account details", body))).toBe(expected);
  });
});
