"""Sign-in pages of corpus/forms/ (label `signin`): sign-in forms, identifier-first steps, SSO choosers,
second factors at sign-in, re-authentication and "sign in to continue" walls, in several languages.
Written by tools/forms/write_pages.py."""


def add_signin(ns):
    field, check, select, page, bare, add = (ns[k] for k in ("field", "check", "select", "page", "bare", "add"))

    def S(name, kind, lang, url, doc):
        add(name, "signin", kind, lang, url, doc)

    S("shop-login-en", "login", "en", "https://shop.example.com/account/login",
      page("en", "Northwind Outfitters", "Account – Northwind Outfitters",
           '<h1>Login</h1><form action="/account/login" method="post">'
           + field("Email", "email", "customer[email]", "email")
           + field("Password", "password", "customer[password]", "current-password")
           + '<p><a href="/account/login#recover">Forgot your password?</a></p><button>Sign in</button>'
             '<p><a href="/account/register">Create account</a></p></form>'))
    S("amazon-like-de", "identifier-first", "de", "https://www.example.de/ap/signin?openid.return_to=%2Fgp%2Fcart",
      bare("de", "Anmelden", '<h1>Anmelden</h1><form method="post">'
           + field("E-Mail-Adresse oder Mobiltelefonnummer", "email", "email", "username")
           + '<button>Weiter</button><p class="muted">Indem Sie fortfahren, stimmen Sie den Nutzungsbedingungen zu.</p>'
             '<details><summary>Benötigen Sie Hilfe?</summary><a href="/ap/forgotpassword">Passwort vergessen</a></details>'
             '</form><hr><p>Neu bei uns?</p><a class="btn" href="/ap/register">Erstellen Sie Ihr Konto</a>'))
    S("google-like-identifier", "identifier-first", "en",
      "https://accounts.example.com/v3/signin/identifier?continue=https%3A%2F%2Fmail.example.com",
      bare("en", "Sign in - Example Accounts", '<h1>Sign in</h1><p>to continue to Mail</p><form>'
           + field("Email or phone", "email", "identifier", "username webauthn")
           + '<p><a href="/signin/recovery">Forgot email?</a></p><p>Not your computer? Use Guest mode to sign in privately. '
             '<a href="/learn">Learn more about using Guest mode</a></p><a href="/signup">Create account</a> '
             '<button>Next</button></form>'))
    S("google-like-password", "password step", "en",
      "https://accounts.example.com/v3/signin/challenge/pwd?continue=https%3A%2F%2Fmail.example.com",
      bare("en", "Sign in - Example Accounts", '<h1>Welcome</h1><p>jane.doe@example.com</p><form>'
           + field("Enter your password", "password", "Passwd", "current-password")
           + check("Show password") + '<a href="/signin/recovery">Forgot password?</a> <button>Next</button></form>'))
    S("microsoft-like", "identifier-first", "en",
      "https://login.example.com/common/oauth2/v2.0/authorize?client_id=abc&response_type=code",
      bare("en", "Sign in to your account", '<h1>Sign in</h1><form>'
           + field("Email, phone, or Skype", "email", "loginfmt", "username", "Email, phone, or Skype")
           + '<p>No account? <a href="/signup">Create one!</a></p><p><a href="/recover">Can\'t access your account?</a></p>'
             '<button>Next</button></form><p><a href="/options">Sign-in options</a></p>'))
    S("sso-chooser", "SSO chooser", "en", "https://app.example.io/login",
      bare("en", "Log in | Acme", '<h1>Log in to Acme</h1>'
           '<p><a class="btn" href="/auth/google">Continue with Google</a></p>'
           '<p><a class="btn" href="/auth/microsoft">Continue with Microsoft</a></p>'
           '<p><a class="btn" href="/auth/saml">Continue with SAML SSO</a></p>'
           '<p><a class="btn" href="/login/email">Continue with email</a></p>'
           '<p class="muted">Don\'t have an account? <a href="/signup">Sign up</a></p>'))
    S("sso-work-email", "SSO identifier", "en", "https://app.example.io/sso",
      bare("en", "Single sign-on | Acme", '<h1>Single sign-on (SSO)</h1><p>Enter your work email to sign in with your '
           'identity provider.</p><form>' + field("Work email", "email", "email", "email")
           + '<button>Continue</button></form><p><a href="/login">Back to log in</a></p>'))
    S("article-wall", "sign in to continue", "en", "https://news.example.com/2024/05/01/business/markets-rally.html",
      page("en", "The Daily Ledger", "Markets rally as rates hold - The Daily Ledger",
           '<article><h1>Markets rally as central bank holds rates</h1><p>Stocks rose on Wednesday after the central '
           'bank left its benchmark rate unchanged, signalling</p></article><section class="card"><h2>Sign in to continue '
           'reading</h2><p>Create a free account or log in to keep reading this article.</p>'
           '<a class="btn" href="/login">Log in</a> <a class="btn" href="/register">Create a free account</a></section>',
           head="signin"))
    S("overlay-login", "login dialog over content", "en", "https://photos.example.com/explore/tags/sunset",
      page("en", "Snapgram", "#sunset • Snapgram",
           '<h1>#sunset</h1><p>1,204,331 posts</p><div class="overlay"><div class="dialog" role="dialog" aria-modal="true">'
           '<h2>Log in to see more</h2><form>' + field("Phone number, username, or email", "text", "username")
           + field("Password", "password", "password") + '<button>Log in</button><p><a href="/accounts/password/reset/">'
           'Forgot password?</a></p></form><p>Don\'t have an account? <a href="/accounts/emailsignup/">Sign up</a></p>'
           '</div></div>', head="none"))
    S("bank-logon", "login", "en", "https://www.examplebank.com/online-banking/logon",
      page("en", "Example Bank", "Online Banking Log On | Example Bank",
           '<h1>Log on to Online Banking</h1><form method="post">' + field("User ID", "text", "userid")
           + check("Remember my User ID") + field("Password", "password", "pwd")
           + '<button>Log On</button><p><a href="/forgot-id">Forgot User ID?</a> <a href="/reset">Forgot Password?</a></p>'
             '<p><a href="/enroll">Enroll in Online Banking</a></p></form><aside><h2>Security Center</h2><p>We will never '
             'ask for your password by email.</p></aside>', head="none"))
    S("bank-customer-number", "identifier-first", "en", "https://secure.examplebank.co.uk/login",
      bare("en", "Log in | Example Bank", '<h1>Log in to Online Banking</h1><form>'
           + field("Customer number", "text", "customerNumber", None, "e.g. 1234567890")
           + check("Remember my customer number") + '<button>Continue</button></form>'
             '<p><a href="/help/forgotten-customer-number">Forgotten your customer number?</a></p>'
             '<p>Not registered? <a href="/register">Register for Online Banking</a></p>'))
    S("keycloak", "login", "en",
      "https://id.example.org/realms/corp/protocol/openid-connect/auth?client_id=portal&response_type=code",
      bare("en", "Sign in to Corp", '<div id="kc-header">CORP</div><h1 id="kc-page-title">Sign in to your account</h1>'
           '<form id="kc-form-login" action="/realms/corp/login-actions/authenticate" method="post">'
           + field("Username or email", "text", "username", "off") + field("Password", "password", "password", "off")
           + check("Remember me") + '<a href="/realms/corp/login-actions/reset-credentials">Forgot Password?</a>'
             '<button name="login">Sign In</button></form><div id="kc-registration">New user? '
             '<a href="/realms/corp/login-actions/registration">Register</a></div>'))
    S("okta-like", "identifier-first", "en", "https://example.okta.example/",
      bare("en", "Example Corp - Sign In", '<h2>Sign In</h2><form>' + field("Username", "text", "identifier", "username")
           + check("Keep me signed in") + '<button>Next</button></form><p><a href="/help">Help</a></p>'))
    S("wp-login", "login", "en", "https://blog.example.net/wp-login.php?redirect_to=%2Fwp-admin%2F",
      bare("en", "Log In ‹ Example Blog — WordPress", '<h1><a href="https://wordpress.org/">Powered by WordPress</a></h1>'
           '<form name="loginform" id="loginform" action="/wp-login.php" method="post">'
           + field("Username or Email Address", "text", "log", "username") + field("Password", "password", "pwd", "current-password")
           + check("Remember Me") + '<button>Log In</button></form><p id="nav"><a href="/wp-login.php?action=lostpassword">'
             'Lost your password?</a></p><p><a href="/">← Go to Example Blog</a></p>'))
    S("phpmyadmin", "login", "en", "https://db.example.net/phpmyadmin/index.php",
      bare("en", "phpMyAdmin", '<h1>Welcome to phpMyAdmin</h1><form method="post">'
           + select("Language", ["English", "Deutsch", "Français"]) + '<fieldset><legend>Log in</legend>'
           + field("Username:", "text", "pma_username", "username") + field("Password:", "password", "pma_password", "current-password")
           + select("Server Choice:", ["localhost", "db-replica"]) + '</fieldset><button>Log in</button></form>'))
    S("router-login", "login", "en", "http://192.168.0.1/",
      bare("en", "Router", '<h1>WR-841 Wireless Router</h1><form>' + field("Password", "password", "pwd", None, "Router password")
           + '<button>Login</button></form><p class="muted">Forgot password? Press the reset button for 8 seconds.</p>'))
    S("cpanel-like", "login", "en", "https://host.example.net:2083/",
      bare("en", "cPanel Login", '<form>' + field("Username", "text", "user", None, "Enter your username.")
           + field("Password", "password", "pass", None, "Enter your account password.")
           + '<button>Log in</button><p><a href="/resetpass">Reset Password</a></p></form>'
             '<p>English  Deutsch  Español  Français</p>'))
    S("magic-link", "magic link", "en", "https://example.slack.example/signin",
      bare("en", "Sign in | Chatly", '<h1>Sign in to Chatly</h1><p>We suggest using the email address you use at work.</p>'
           '<a class="btn" href="/auth/google">Sign In With Google</a> <a class="btn" href="/auth/apple">Sign In With Apple</a>'
           '<p>OR</p><form>' + field("Email address", "email", "email", "email", "name@work-email.com")
           + '<button>Sign In With Email</button></form><p>New to Chatly? <a href="/get-started">Create an account</a></p>'))
    S("phone-otp", "phone sign-in", "en", "https://ride.example.com/login/phone",
      bare("en", "Ride | Log in", '<h1>What\'s your phone number?</h1><form>' + select("Country code", ["+1", "+44", "+91"])
           + field("Mobile number", "tel", "phone", "tel") + '<button>Continue</button></form>'
             '<p>or</p><a class="btn" href="/login/google">Continue with Google</a> '
             '<p class="muted">By proceeding, you consent to get calls or SMS messages.</p>'))
    S("otp-at-signin", "two-factor step", "en", "https://code.example.com/sessions/two-factor",
      bare("en", "Two-factor authentication", '<h1>Two-factor authentication</h1><form>'
           + field("Authentication code", "text", "app_otp", "one-time-code", "XXXXXX")
           + '<button>Verify</button><p class="muted">Open your two-factor authenticator (TOTP) app or browser '
             'extension to view your authentication code.</p></form><p><a href="/sessions/two-factor/recovery">'
             'Use a recovery code</a></p>'))
    S("code-host-login", "login", "en", "https://code.example.com/login?return_to=%2Fsettings%2Fprofile",
      bare("en", "Sign in to Codehub · Codehub", '<h1>Sign in to Codehub</h1><form action="/session" method="post">'
           + field("Username or email address", "text", "login", "username")
           + field("Password", "password", "password", "current-password")
           + '<a href="/password_reset">Forgot password?</a><button>Sign in</button></form>'
             '<p><a href="/passkey">Sign in with a passkey</a></p><p>New to Codehub? <a href="/signup">Create an account</a></p>'))
    S("news-register-wall", "sign in to continue", "en", "https://www.example-times.com/2024/03/12/world/europe/summit.html",
      page("en", "The Example Times", "Leaders Meet for Summit - The Example Times",
           '<h1>Leaders Meet in Brussels as Talks Stall</h1><p>By A. Reporter</p><div class="card"><h2>Log in or create '
           'a free account to continue reading.</h2><form>' + field("Email Address", "email", "email", "email")
           + '<button>Continue</button></form><p>or</p><a class="btn" href="/auth/google">Continue with Google</a></div>',
           head="signin", newsletter=False))
    S("fr-connexion", "login", "fr", "https://www.exemple.fr/connexion?back=my-account",
      page("fr", "Boutique Exemple", "Connexion",
           '<h1>Connectez-vous à votre compte</h1><form method="post">' + field("Adresse e-mail", "email", "email", "email")
           + field("Mot de passe", "password", "password", "current-password") + '<a href="/recuperation-mot-de-passe">'
             'Mot de passe oublié ?</a><button>Se connecter</button></form><hr><p>Pas de compte ? '
             '<a href="/connexion?create_account=1">Créez-en un</a></p>', newsletter=True))
    S("es-login", "login", "es", "https://www.ejemplo.es/es/login",
      page("es", "Ejemplo", "Iniciar sesión | Ejemplo",
           '<h1>Iniciar sesión</h1><form>' + field("Correo electrónico", "email", "email", "email")
           + field("Contraseña", "password", "password", "current-password") + check("Recordarme")
           + '<a href="/es/recuperar">¿Olvidaste tu contraseña?</a><button>Entrar</button></form>'
             '<p>¿No tienes cuenta? <a href="/es/registro">Regístrate</a></p>', head="none"))
    S("pt-login", "login", "pt", "https://www.exemplo.com.br/login?redirect=/minha-conta",
      page("pt", "Loja Exemplo", "Entrar - Loja Exemplo",
           '<h1>Entrar</h1><form>' + field("E-mail ou CPF", "text", "login")
           + field("Senha", "password", "senha") + '<a href="/esqueci-senha">Esqueci minha senha</a>'
             '<button>Entrar</button></form><p>Ainda não tem conta? <a href="/cadastro">Cadastre-se</a></p>'))
    S("it-login", "login", "it", "https://www.esempio.it/accedi",
      page("it", "Esempio", "Accedi - Esempio", '<h1>Accedi</h1><form>' + field("Email", "email", "email")
           + field("Password", "password", "password") + '<a href="/password-dimenticata">Password dimenticata?</a>'
             '<button>Accedi</button></form><p>Non hai un account? <a href="/registrati">Registrati</a></p>'))
    S("nl-login", "login", "nl", "https://www.voorbeeld.nl/inloggen",
      page("nl", "Voorbeeld", "Inloggen | Voorbeeld", '<h1>Inloggen</h1><form>' + field("E-mailadres", "email", "email")
           + field("Wachtwoord", "password", "password") + '<a href="/wachtwoord-vergeten">Wachtwoord vergeten?</a>'
             '<button>Inloggen</button></form><h2>Nieuwe klant?</h2><a class="btn" href="/registreren">Account aanmaken</a>'))
    S("pl-login", "login", "pl", "https://www.przyklad.pl/logowanie",
      page("pl", "Przykład", "Logowanie - Przykład", '<h1>Zaloguj się</h1><form>' + field("E-mail lub login", "text", "login")
           + field("Hasło", "password", "password") + '<a href="/przypomnij-haslo">Nie pamiętasz hasła?</a>'
             '<button>Zaloguj się</button></form><p>Nie masz konta? <a href="/rejestracja">Załóż konto</a></p>'))
    S("ru-login", "login", "ru", "https://passport.primer.ru/auth?retpath=https%3A%2F%2Fmail.primer.ru",
      bare("ru", "Авторизация", '<h1>Вход</h1><form>' + field("Логин или email", "text", "login", "username")
           + field("Пароль", "password", "passwd", "current-password") + '<button>Войти</button></form>'
             '<p><a href="/restoration">Не помню пароль</a></p><p><a href="/registration">Создать ID</a></p>'))
    S("ja-login", "login", "ja", "https://www.example.jp/login?ref=header",
      page("ja", "エグザンプル", "ログイン | エグザンプル", '<h1>ログイン</h1><form>' + field("メールアドレス", "email", "email")
           + field("パスワード", "password", "password") + check("次回から自動でログインする")
           + '<button>ログイン</button></form><p><a href="/reminder">パスワードを忘れた方はこちら</a></p>'
             '<h2>初めてご利用の方</h2><a class="btn" href="/register">新規会員登録</a>'))
    S("zh-login", "login", "zh", "https://passport.example.cn/login?service=https%3A%2F%2Fwww.example.cn",
      bare("zh", "登录", '<div class="tabs"><a href="#qr">扫码登录</a><a href="#pw">密码登录</a></div><form>'
           + field("手机号/邮箱", "text", "account") + field("密码", "password", "password")
           + '<button>登录</button><a href="/forget">忘记密码</a> <a href="/register">免费注册</a></form>'))
    S("ko-login", "login", "ko", "https://nid.example.kr/nidlogin.login?mode=form",
      bare("ko", "로그인", '<form>' + field("아이디 또는 전화번호", "text", "id") + field("비밀번호", "password", "pw")
           + check("로그인 상태 유지") + '<button>로그인</button></form><p><a href="/find/pw">비밀번호 찾기</a> | '
             '<a href="/find/id">아이디 찾기</a> | <a href="/join">회원가입</a></p>'))
    S("tr-login", "login", "tr", "https://www.ornek.com.tr/giris",
      page("tr", "Örnek", "Giriş Yap - Örnek", '<h1>Giriş Yap</h1><form>' + field("E-posta", "email", "email")
           + field("Şifre", "password", "password") + '<a href="/sifremi-unuttum">Şifremi unuttum</a>'
             '<button>Giriş Yap</button></form><p>Hesabın yok mu? <a href="/uye-ol">Üye Ol</a></p>'))
    S("sv-bankid", "identity provider chooser", "sv", "https://www.exempelbanken.se/privat/logga-in",
      page("sv", "Exempelbanken", "Logga in | Exempelbanken", '<h1>Logga in</h1><p>Välj hur du vill legitimera dig.</p>'
           '<a class="btn" href="/bankid-this-device">BankID på den här enheten</a> '
           '<a class="btn" href="/bankid-other-device">Mobilt BankID på annan enhet</a>'
           '<p><a href="/hjalp-inloggning">Problem att logga in?</a></p>', head="none", newsletter=False))
    S("de-bank-pin", "login", "de", "https://banking.beispielbank.de/banking-private/entry",
      page("de", "Beispielbank", "Online-Banking Anmeldung - Beispielbank",
           '<h1>Online-Banking</h1><form>' + field("Anmeldename / Legitimations-ID", "text", "login")
           + field("PIN", "password", "pin") + '<button>Anmelden</button><p><a href="/pin-vergessen">PIN vergessen?</a>'
             '</p></form><aside><h2>Sicherheitshinweis</h2><p>Wir fragen Sie niemals per E-Mail nach Ihrer PIN.</p></aside>',
           head="none", newsletter=False))
    S("moodle-like", "login", "en", "https://learn.example.edu/login/index.php",
      bare("en", "Log in to the site | Example University", '<h1>Example University</h1><form>'
           + field("Username", "text", "username", "username") + field("Password", "password", "password", "current-password")
           + '<button>Log in</button><p><a href="/login/forgot_password.php">Lost password?</a></p></form>'
             '<div><h2>Some courses may allow guest access</h2><button>Access as a guest</button></div>'
             '<p>Cookies must be enabled in your browser</p>'))
    S("atlassian-like", "identifier-first", "en",
      "https://id.example.com/login?continue=https%3A%2F%2Fteam.example.net%2Fwiki&application=confluence",
      bare("en", "Log in with Example account", '<h1>Log in to continue</h1><form>'
           + field("Email", "email", "username", "username", "Enter your email") + check("Remember me")
           + '<button>Continue</button></form><p>Or continue with:</p><a class="btn" href="#">Google</a> '
             '<a class="btn" href="#">Microsoft</a> <a class="btn" href="#">Apple</a> <a class="btn" href="#">Slack</a>'
             '<p><a href="/login/resetpassword">Can\'t log in?</a> • <a href="/signup">Create an account</a></p>'))
    S("session-expired", "re-authentication", "en", "https://crm.example.com/session/expired?return=%2Fcontacts",
      bare("en", "Session expired", '<h1>Your session has expired</h1><p>For your security, please sign in again.</p>'
           '<p><b>jane.doe@example.com</b> <a href="/logout">Not you?</a></p><form>'
           + field("Password", "password", "password", "current-password") + '<button>Sign in</button></form>'))
    S("game-store", "login", "en", "https://store.example.com/login/?redir=cart",
      page("en", "GameStore", "Sign In", '<h1>Sign in</h1><form>' + field("Sign in with account name", "text", "account")
           + field("Password", "password", "password") + check("Remember me") + '<button>Sign in</button>'
             '<a href="/help/wizard">Help, I can\'t sign in</a></form><div><h2>Or sign in with QR</h2>'
             '<p>Use the mobile app to sign in via QR code</p></div><p>New to GameStore? <a href="/join">Create an account</a></p>',
           head="signin", newsletter=False))
    S("streaming", "login", "en", "https://www.example-stream.com/login",
      bare("en", "Example Stream", '<h1>Sign In</h1><form>' + field("Email or mobile number", "text", "userLoginId")
           + field("Password", "password", "password") + '<button>Sign In</button><p>OR</p>'
             '<button type="button">Use a sign-in code</button><a href="/loginhelp">Forgot password?</a>'
           + check("Remember me", True) + '</form><p>New to Example Stream? <a href="/">Sign up now.</a></p>'))
    S("forum-login-modal", "login", "en", "https://www.example-forum.com/login/",
      bare("en", "Log In", '<h1>Log In</h1><p>By continuing, you agree to our User Agreement and acknowledge that you '
           'understand the Privacy Policy.</p><a class="btn" href="#">Continue with Google</a> <a class="btn" href="#">'
           'Continue with Apple</a><p>OR</p><form>' + field("Email or username", "text", "username")
           + field("Password", "password", "password") + '<a href="/password">Forgot password?</a>'
             '<p>New to Example? <a href="/register/">Sign Up</a></p><button>Log In</button></form>'))
    S("vpn-portal", "login", "en", "https://vpn.example.com/vpn/index.html",
      bare("en", "Example Gateway", '<h1>Please log on</h1><form>' + field("User name", "text", "login")
           + field("Password", "password", "passwd") + field("Passcode", "password", "passwd1")
           + '<button>Log On</button></form>'))
    S("webmail", "login", "en", "https://mail.example.org/?_task=login",
      bare("en", "Example Webmail :: Welcome to Example Webmail", '<h1>Welcome to Example Webmail</h1><form>'
           + field("Username", "text", "_user") + field("Password", "password", "_pass") + '<button>Login</button></form>'))
    S("discourse-like", "login", "en", "https://forum.example.org/login",
      page("en", "Example Forum", "Example Forum", '<h2>Log in</h2><form>' + field("Email / Username", "text", "login-account-name")
           + field("Password", "password", "login-account-password") + '<a href="/password-reset">I forgot my password</a>'
             '<button>Log in</button> <a class="btn" href="/signup">Create account</a></form>', head="signin",
           newsletter=False))
    S("confluence-wall", "sign in to continue", "en", "https://wiki.example.net/wiki/spaces/ENG/pages/123456/Runbook",
      page("en", "Example Wiki", "Log in - Example Wiki", '<h1>You need to log in to view this page</h1>'
           '<p>This page is only visible to signed-in members of the space.</p><a class="btn" href="/login.action">'
           'Log in</a>', head="signedin" if False else "none", newsletter=False))
    S("gov-sign-in", "identifier-first", "en", "https://signin.account.example.gov.uk/sign-in-or-create",
      bare("en", "Enter your email address to sign in - Example One Login", '<h1>Enter your email address to sign in</h1>'
           '<form>' + field("Email address", "email", "email", "email") + '<button>Continue</button></form>'
           '<p><a href="/create">Create an Example One Login</a></p>'))
    S("auction-identifier", "identifier-first", "en", "https://signin.example-auction.com/signin/?ru=%2Fmyb%2FSummary",
      bare("en", "Sign in or Register | ExampleAuction", '<h1>Hello</h1><p>Sign in to ExampleAuction or '
           '<a href="/reg">create an account</a></p><form>' + field("Email or username", "text", "userid", "username")
           + '<button>Continue</button></form><a class="btn" href="#">Continue with Google</a> <a class="btn" href="#">'
           'Continue with Facebook</a> <a class="btn" href="#">Continue with Apple</a>' + check("Stay signed in", True)))
    S("ar-login", "login", "ar", "https://www.example.sa/ar/login",
      page("ar", "مثال", "تسجيل الدخول", '<h1>تسجيل الدخول</h1><form>' + field("البريد الإلكتروني", "email", "email")
           + field("كلمة المرور", "password", "password") + '<a href="/ar/forgot">نسيت كلمة المرور؟</a>'
             '<button>دخول</button></form><p>ليس لديك حساب؟ <a href="/ar/register">إنشاء حساب</a></p>'))
    S("el-login", "login", "el", "https://www.paradeigma.gr/syndesi",
      bare("el", "Σύνδεση", '<h1>Σύνδεση</h1><form>' + field("Email", "email", "email")
           + field("Κωδικός πρόσβασης", "password", "password") + '<a href="/ksexasa">Ξεχάσατε τον κωδικό;</a>'
             '<button>Σύνδεση</button></form>'))
    S("de-shop-login", "login", "de", "https://www.beispielshop.de/customer/account/login/",
      page("de", "Beispielshop", "Kundenlogin", '<div class="cols"><section><h2>Registrierte Kunden</h2><p>Wenn Sie ein '
           'Konto bei uns haben, melden Sie sich bitte an.</p><form>' + field("E-Mail", "email", "login[username]")
           + field("Passwort", "password", "login[password]") + '<button>Anmelden</button> <a href="/customer/account/forgotpassword/">'
             'Passwort vergessen?</a></form></section><section><h2>Neue Kunden</h2><p>Die Erstellung eines Kontos hat viele '
             'Vorteile: schneller bezahlen, mehr als eine Adresse speichern.</p><a class="btn" href="/customer/account/create/">'
             'Konto erstellen</a></section></div>'))
    S("passkey-first", "passkey sign-in", "en", "https://accounts.example.shop/signin",
      bare("en", "Sign in", '<h1>Sign in</h1><button>Sign in with a passkey</button><p>or</p><form>'
           + field("Email", "email", "email", "username webauthn") + '<button>Continue</button></form>'
             '<p>New here? <a href="/signup">Create an account</a></p>'))
    S("jp-bank", "login", "ja", "https://direct.example-bank.co.jp/ib/login",
      bare("ja", "ログイン｜エグザンプル銀行", '<h1>インターネットバンキング ログイン</h1><form>'
           + field("店番号", "text", "branch") + field("口座番号", "text", "account") + field("ログインパスワード", "password", "pw")
           + '<button>ログイン</button></form><p><a href="/ib/help">ログインできない方</a></p>'))
    S("saas-login-signup-tabs", "login", "en", "https://app.example.dev/auth?tab=login",
      bare("en", "Example Dev", '<div class="tabs" role="tablist"><a role="tab" aria-selected="true" href="#">Log in</a>'
           '<a role="tab" href="#">Sign up</a></div><form>' + field("Email", "email", "email")
           + field("Password", "password", "password") + '<a href="/forgot">Forgot?</a><button>Log in</button></form>'))
