import { form, pass, type Shape, user, when } from "./refusal-shape-kit";

/** Refusal shapes in real sites' markup and words, and in the other languages the engine reads. */
export const REAL_SITE_SHAPES: Shape[] = [
  // Real sites' markup and words.
  {
    name: "wordpress-login",
    via: "rerender",
    words: "Error: The password you entered for the username {user} is incorrect.",
    html: (
      e,
    ) => `${when(e, `<div id="login_error" class="notice notice-error"><p>${e.replace(/^Error:/, "<strong>Error:</strong>")} <a href="#lost">Lost your password?</a></p></div>`)}
<form name="loginform" id="loginform" method="post"><p>${user("user_login", "Username or Email Address").replace('id="user_login" name="user_login"', 'id="user_login" name="log"')}</p>
<div class="user-pass-wrap">${pass("user_pass", "Password").replace('name="user_pass"', 'name="pwd"')}</div>
<p class="forgetmenot"><input name="rememberme" type="checkbox" id="rememberme" value="forever"> <label for="rememberme">Remember Me</label></p>
<p class="submit"><input type="submit" name="wp-submit" id="wp-submit" class="button button-primary" value="Log In"></p></form>`,
  },
  {
    name: "mediawiki-login",
    via: "rerender",
    words: "Incorrect username or password entered. Please try again.",
    html: (
      e,
    ) => `<h1>Log in</h1>${when(e, `<div class="cdx-message cdx-message--block cdx-message--error"><div class="cdx-message__content">${e}</div></div>`)}
${form(`<div>${user("wpName1", "Username", 'placeholder="Enter your username"')}</div><div>${pass("wpPassword1", "Password", 'placeholder="Enter your password"')}</div>`, "Log in", 'method="post" name="userlogin"')}`,
  },
  {
    name: "phpbb-login",
    via: "rerender",
    words: "You have specified an incorrect password. Please check your password and try again.",
    html: (
      e,
    ) => `<div class="panel"><h2 class="login-title">Login</h2>${when(e, `<div class="error">${e} If you continue to have problems please contact the <a href="#admin">Board Administrator</a>.</div>`)}
${form(`<fieldset><dl><dt>${user("username", "Username:")}</dt></dl><dl><dt>${pass("password", "Password:")}</dt></dl></fieldset>`, "Login")}</div>`,
  },
  {
    name: "django-admin",
    via: "rerender",
    words:
      "Please enter the correct username and password for a staff account. Note that both fields may be case-sensitive.",
    html: (
      e,
    ) => `<div id="header"><div id="branding"><h1>Django administration</h1></div></div><div id="content">${when(e, `<p class="errornote">${e}</p>`)}
<form method="post" id="login-form"><div class="form-row">${user("id_username", "Username:").replace('name="id_username"', 'name="username"')}</div><div class="form-row">${pass("id_password", "Password:").replace('name="id_password"', 'name="password"')}</div><div class="submit-row"><input type="submit" value="Log in"></div></form></div>`,
  },
  {
    name: "devise-flash",
    via: "rerender",
    status: 422,
    words: "Invalid Email or password.",
    html: (e) =>
      `<p class="notice"></p><p class="alert">${e}</p><h2>Log in</h2>${form(`<div class="field">${user("user[email]", "Email", 'autocomplete="email" type="email"')}</div><div class="field">${pass("user[password]", "Password")}</div>`, "Log in")}`,
  },
  {
    name: "laravel-breeze",
    via: "redirect",
    words: "These credentials do not match our records.",
    html: (e) =>
      form(
        `<div>${user("email", "Email", 'type="email" autocomplete="username"')}${when(e, `<ul class="text-sm text-red-600 space-y-1 mt-2"><li>${e}</li></ul>`)}</div><div class="mt-4">${pass("password", "Password")}</div>`,
        "Log in",
      ),
  },
  {
    name: "aspnet-identity",
    via: "rerender",
    words: "Invalid login attempt.",
    html: (e) =>
      `<h1>Log in</h1>${form(
        `<div class="text-danger ${e ? "validation-summary-errors" : "validation-summary-valid"}" data-valmsg-summary="true"><ul><li${e ? "" : ' style="display:none"'}>${e}</li></ul></div>
<div class="form-floating">${user("Input.Email", "Email", 'autocomplete="username"')}</div><div class="form-floating">${pass("Input.Password", "Password")}</div>`,
        "Log in",
      )}`,
  },
  {
    name: "okta-widget",
    via: "script",
    words: "Unable to sign in",
    show: `document.querySelector(".o-form-error-container").innerHTML = '<div class="okta-form-infobox-error infobox infobox-error" role="alert"><span class="icon error-16"></span><p></p></div>'; document.querySelector(".o-form-error-container p").textContent = msg;`,
    html: () =>
      `<div id="okta-sign-in"><h2 class="okta-form-title">Sign In</h2>${form(`<div class="o-form-error-container"></div><div class="o-form-fieldset">${user("identifier", "Username")}</div><div class="o-form-fieldset">${pass("credentials.passcode", "Password")}</div>`, "Sign in")}</div>`,
  },
  {
    name: "shopify-account",
    via: "rerender",
    words: "Incorrect email or password.",
    html: (e) =>
      `<h1>Login</h1>${form(`${when(e, `<h2 class="form__message">Please adjust the following:</h2><div class="errors"><ul><li>${e}</li></ul></div>`)}<div class="field">${user("customer[email]", "Email", 'type="email" autocomplete="email"')}</div><div class="field">${pass("customer[password]", "Password")}</div>`, "Sign in")}`,
  },
  {
    name: "discourse-modal",
    via: "script",
    words: "Incorrect username, email or password",
    show: `const a = document.getElementById("modal-alert"); a.className = "alert alert-error"; a.textContent = msg; a.style.display = "block";`,
    html: () =>
      `<div class="login-modal"><div id="modal-alert" role="alert" style="display:none"></div><h1>Welcome back</h1>${form(`<div>${user("login-account-name", "Email / Username")}</div><div>${pass("login-account-password", "Password")}</div>`, "Log In")}</div>`,
  },
  {
    name: "keycloak-login",
    via: "rerender",
    words: "Invalid username or password.",
    html: (
      e,
    ) => `<div id="kc-header"><div id="kc-header-wrapper">Acme realm</div></div><h1 id="kc-page-title">Sign in to your account</h1>
${form(`<div>${user("username", "Username or email", 'tabindex="1" autocomplete="off"')}</div><div>${pass("password", "Password", 'tabindex="2"')}</div>${when(e, `<span id="input-error" class="kc-feedback-text" aria-live="polite">${e}</span>`)}`, "Sign In", 'id="kc-form-login" method="post"')}`,
  },
  {
    name: "auth0-universal",
    via: "rerender",
    words: "Wrong email or password",
    html: (e) =>
      `<main class="login"><header><h1>Welcome</h1><p>Log in to Acme to continue.</p></header>${form(`<div>${user("username", "Email address")}</div><div>${pass("password", "Password")}${when(e, `<span id="error-element-password" class="ulp-input-error-message" data-error-code="wrong-credentials">${e}</span>`)}</div>`, "Continue")}</main>`,
  },

  // The same, in the other languages the engine reads.
  {
    name: "pt-flash",
    lang: "pt",
    via: "redirect",
    words: "E-mail ou senha incorretos.",
    html: (e) =>
      `<h1>Entrar</h1>${when(e, `<p class="flash">${e}</p>`)}${form(`<p>${user("email", "E-mail", 'type="email" autocomplete="email"')}</p><p>${pass("senha", "Senha")}</p>`, "Entrar")}`,
  },
  {
    name: "de-table",
    lang: "de",
    via: "rerender",
    words: "Benutzername oder Passwort ist falsch.",
    html: (
      e,
    ) => `<form id="f" method="post"><table>${when(e, `<tr><td colspan="2" class="meldung">${e}</td></tr>`)}<tr><td>Benutzername</td><td><input name="benutzer" autocomplete="username"></td></tr>
<tr><td>Passwort</td><td><input name="kennwort" type="password"></td></tr><tr><td></td><td><input type="submit" value="Anmelden"></td></tr></table></form>`,
  },
  {
    name: "fr-toast",
    lang: "fr",
    via: "script",
    words: "Identifiant ou mot de passe incorrect.",
    show: `const t = document.createElement("div"); t.className = "snackbar"; t.style.cssText = "position:fixed;top:1rem;left:1rem"; t.textContent = msg; document.body.append(t);`,
    html: () =>
      `<h1>Connexion</h1>${form(`<div>${user("identifiant", "Identifiant")}</div><div>${pass("motdepasse", "Mot de passe")}</div>`, "Se connecter")}`,
  },
  {
    name: "es-field-span",
    lang: "es",
    via: "rerender",
    words: "El correo electrónico o la contraseña no son correctos.",
    html: (e) =>
      `<h1>Iniciar sesión</h1>${form(`<div>${user("correo", "Correo electrónico")}</div><div>${pass("clave", "Contraseña")}<span class="ayuda">${e}</span></div>`, "Iniciar sesión")}`,
  },
  {
    name: "it-text-in-form",
    lang: "it",
    via: "script",
    words: "Nome utente o password non corretti.",
    show: `document.getElementById("f").prepend(msg);`,
    html: () =>
      `<h1>Accedi</h1>${form(`<div>${user("utente", "Nome utente")}</div><div>${pass("password", "Password")}</div>`, "Accedi")}`,
  },
  {
    name: "nl-flash",
    lang: "nl",
    via: "redirect",
    words: "Gebruikersnaam of wachtwoord klopt niet.",
    html: (e) =>
      `<h1>Inloggen</h1>${when(e, `<div class="melding">${e}</div>`)}${form(`<p>${user("gebruikersnaam", "Gebruikersnaam")}</p><p>${pass("wachtwoord", "Wachtwoord")}</p>`, "Inloggen")}`,
  },
];
