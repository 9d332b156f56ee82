"""The final pages of corpus/forms/ (hw3-*, split `final`): written after the last change to the
classifier and not looked at before its numbers were taken. Written by tools/forms/write_pages.py."""


def add_final(ns):
    field, area, check, select, radios, page, bare, add = (
        ns[k] for k in ("field", "area", "check", "select", "radios", "page", "bare", "add"))

    def S(name, kind, lang, url, doc):
        add("3-" + name, "signin", kind, lang, url, doc)

    def O(name, kind, lang, url, doc):
        add("3-" + name, "other", kind, lang, url, doc)

    # ---- not sign-in ----
    O("pharmacy-refill", "prescription refill", "en", "https://www.example-pharmacy.com/refill",
      page("en", "Example Pharmacy", "Refill a prescription | Example Pharmacy", '<h1>Refill by Rx number</h1><p>No account '
           'needed.</p><form>' + field("Rx number", "text", "rx") + field("Last name", "text", "ln")
           + field("Date of birth", "date", "dob") + select("Pickup store", ["Main St", "Oak Ave"])
           + '<button>Submit refill</button></form>'))
    O("library-renew", "lookup", "en", "https://www.example-library.org/renew",
      page("en", "Example Public Library", "Renew items", '<h1>Renew your items</h1><form>'
           + field("Library card number", "text", "card") + field("PIN", "password", "pin")
           + '<button>Show my items</button></form>', head="none"))
    O("school-enrol", "application", "en", "https://apply.example-college.ac.uk/courses/apply",
      page("en", "Example College", "Apply for a course | Example College", '<h1>Apply for a course</h1><form>'
           + select("Course", ["Plumbing Level 2", "Accounting AAT"]) + field("First name", "text", "fn")
           + field("Surname", "text", "sn") + field("Date of birth", "date", "dob") + field("Email", "email", "email")
           + field("Mobile", "tel", "tel") + area("Why do you want to study this course?")
           + '<button>Submit application</button></form>'))
    O("pet-adoption", "application", "en", "https://www.example-shelter.org/adopt/apply?pet=312",
      page("en", "Example Shelter", "Adoption application", '<h1>Adopt Biscuit</h1><form>' + field("Your name", "text", "n")
           + field("Email", "email", "e") + field("Phone", "tel", "p") + radios("Do you have a garden?", ["Yes", "No"])
           + area("Tell us about your home") + '<button>Send application</button></form>', head="modal"))
    O("stock-alert", "alert sign-up", "en", "https://www.example-shop.com/products/ps-console",
      page("en", "Example Shop", "Game console – Example Shop", '<h1>Game console</h1><p>Sold out</p><form>'
           + field("Email me when available", "email", "email") + '<button>Notify me</button></form>'
           '<p>Sign in to add this item to your wish list.</p>'))
    O("price-alert-de", "alert sign-up", "de", "https://www.beispiel-preise.de/produkt/12345/preisalarm",
      page("de", "Beispielpreise", "Preisalarm setzen", '<h1>Preisalarm</h1><form>' + field("Wunschpreis (€)", "number", "p")
           + field("E-Mail-Adresse", "email", "email") + '<button>Preisalarm aktivieren</button></form>'))
    O("admin-coupon", "admin change form", "en", "https://shop-admin.example.com/admin/discounts/new",
      page("en", "Shop Admin", "Create discount · Shop Admin", '<h1>Create discount</h1><form>'
           + field("Discount code", "text", "code") + radios("Type", ["Percentage", "Fixed amount"])
           + field("Value", "number", "v") + field("Starts", "date", "s") + field("Ends", "date", "e")
           + '<button>Save discount</button></form>', head="signedin", newsletter=False))
    O("cms-settings-fr", "admin settings", "fr", "https://site.exemple.fr/admin/reglages/general",
      page("fr", "Administration", "Réglages généraux ‹ Administration", '<h1>Réglages généraux</h1><form>'
           + field("Titre du site", "text", "t") + field("Slogan", "text", "s") + field("Adresse e-mail d\'administration", "email", "e")
           + select("Fuseau horaire", ["UTC+1", "UTC+2"]) + '<button>Enregistrer les modifications</button></form>',
           head="signedin", newsletter=False))
    O("es-perfil", "account settings", "es", "https://www.ejemplo.es/mi-cuenta/perfil",
      page("es", "Ejemplo", "Mi perfil", '<h1>Datos personales</h1><form>' + field("Nombre", "text", "n")
           + field("Apellidos", "text", "a") + field("Teléfono", "tel", "t") + field("Correo electrónico", "email", "e")
           + '<button>Guardar</button></form>', head="signedin"))
    O("it-prenotazione", "booking", "it", "https://www.esempio-ristorante.it/prenota",
      page("it", "Ristorante Esempio", "Prenota un tavolo", '<h1>Prenota un tavolo</h1><form>' + field("Data", "date", "d")
           + select("Ora", ["19:30", "20:00", "20:30"]) + select("Persone", ["2", "3", "4"]) + field("Nome", "text", "n")
           + field("Telefono", "tel", "t") + '<button>Prenota</button></form>', head="signin-menu"))
    O("nl-zoeken", "search", "nl", "https://www.voorbeeld-vacatures.nl/zoeken?q=verpleegkundige",
      page("nl", "Voorbeeld Vacatures", "Vacatures verpleegkundige", '<h1>Vacatures</h1><form>'
           + field("Functie of trefwoord", "text", "q") + field("Plaats of postcode", "text", "l")
           + select("Afstand", ["10 km", "25 km", "50 km"]) + '<button>Zoeken</button></form>'))
    O("ru-anketa", "survey", "ru", "https://opros.primer.ru/o/2024",
      bare("ru", "Опрос", '<h1>Опрос о качестве обслуживания</h1><form>' + radios("Оцените работу оператора", ["1", "2", "3", "4", "5"])
           + area("Ваш комментарий") + '<button>Отправить</button></form>'))
    O("zh-booking", "booking", "zh", "https://www.example-hotel.cn/booking",
      page("zh", "示例酒店", "在线预订", '<h1>在线预订</h1><form>' + field("入住日期", "date", "in") + field("离店日期", "date", "out")
           + field("姓名", "text", "n") + field("手机号", "tel", "t") + '<button>提交订单</button></form>'))
    O("ko-survey", "survey", "ko", "https://survey.example.co.kr/s/2024",
      bare("ko", "고객 만족도 조사", '<h1>고객 만족도 조사</h1><form>' + radios("서비스에 만족하십니까?", ["매우 만족", "만족", "보통", "불만족"])
           + area("기타 의견") + '<button>제출</button></form>'))
    O("ar-booking", "booking", "ar", "https://www.example.ae/ar/booking",
      page("ar", "مثال", "احجز موعدك", '<h1>احجز موعدك</h1><form>' + field("الاسم الكامل", "text", "n")
           + field("رقم الجوال", "tel", "t") + field("التاريخ", "date", "d") + '<button>تأكيد الحجز</button></form>'))
    O("pl-zamowienie", "checkout", "pl", "https://www.przyklad.pl/koszyk/dostawa",
      page("pl", "Przykład", "Dostawa i płatność", '<h1>Dane do wysyłki</h1><form>' + field("Imię", "text", "i")
           + field("Nazwisko", "text", "n") + field("Ulica i numer", "text", "u") + field("Kod pocztowy", "text", "k")
           + field("Miasto", "text", "m") + field("Telefon", "tel", "t") + '<button>Dalej</button></form>'
           '<p>Masz konto? <a href="/logowanie">Zaloguj się</a></p>', head="none"))
    O("tr-iletisim-2", "support ticket", "tr", "https://destek.ornek.com.tr/talep",
      page("tr", "Örnek Destek", "Destek talebi oluştur", '<h1>Destek talebi</h1><form>' + field("Konu", "text", "k")
           + select("Kategori", ["Fatura", "Teknik"]) + area("Açıklama") + field("E-posta", "email", "e")
           + '<button>Talep oluştur</button></form>'))
    O("sv-anmalan", "event registration", "sv", "https://www.exempel-forening.se/evenemang/varloppet/anmalan",
      page("sv", "Exempelföreningen", "Anmälan – Vårloppet", '<h1>Anmälan till Vårloppet</h1><form>'
           + field("Förnamn", "text", "f") + field("Efternamn", "text", "e") + field("Födelsedatum", "date", "d")
           + select("Distans", ["5 km", "10 km"]) + field("E-post", "email", "ep") + '<button>Anmäl</button></form>'))
    O("ja-settings-email", "email change", "ja", "https://www.example.jp/mypage/email/edit",
      page("ja", "エグザンプル", "メールアドレス変更 | マイページ", '<h1>メールアドレスの変更</h1><form>'
           + field("新しいメールアドレス", "email", "email") + field("現在のパスワード", "password", "pw")
           + '<button>変更する</button></form>', head="signedin"))
    O("settings-security-de", "password change", "de", "https://app.beispiel.de/einstellungen/sicherheit",
      page("de", "Beispiel App", "Sicherheit · Einstellungen", '<h1>Passwort ändern</h1><form>'
           + field("Aktuelles Passwort", "password", "a") + field("Neues Passwort", "password", "n")
           + field("Passwort bestätigen", "password", "b") + '<button>Passwort speichern</button></form>'
           '<h2>Zwei-Faktor-Authentifizierung</h2><p>Aktiviert über Authenticator-App.</p>', head="signedin",
           newsletter=False))
    O("deactivate-fr", "delete account", "fr", "https://www.exemple-reseau.fr/parametres/desactiver",
      page("fr", "Exemple Réseau", "Désactiver votre compte", '<h1>Désactiver votre compte</h1><p>Votre profil ne sera plus '
           'visible.</p><form>' + field("Saisissez votre mot de passe pour confirmer", "password", "pw")
           + '<button>Désactiver le compte</button></form>', head="signedin", newsletter=False))
    O("vpn-client-config", "device settings", "en", "https://nas.example.home:5001/vpn/client",
      bare("en", "VPN client - NAS", '<nav><a href="/">Control Panel</a> <a href="/logout">Sign out</a></nav>'
           '<h1>Create VPN profile</h1><form>' + field("Profile name", "text", "pn") + field("Server address", "text", "sa")
           + field("User name", "text", "u") + field("Password", "password", "p") + select("Authentication", ["MS-CHAP v2", "PAP"])
           + '<button>Next</button></form>'))
    O("newsletter-footer-only-article", "article with comment form", "en",
      "https://www.example-garden.com/blog/planting-tomatoes",
      page("en", "Example Garden", "Planting tomatoes – Example Garden", '<article><h1>Planting tomatoes</h1><p>'
           + 'Plant out after the last frost, deep enough to bury the lowest leaves, and water at the base. ' * 4
           + '</p></article><h2>Comments</h2><form>' + area("Comment") + field("Name", "text", "n")
           + field("Email", "email", "e") + '<button>Post comment</button></form>', head="inline"))
    O("ticket-search", "search", "en", "https://www.example-tickets.com/",
      page("en", "ExampleTickets", "Concert tickets | ExampleTickets", '<h1>Find tickets</h1><form>'
           + field("Artist, event or venue", "search", "q") + field("Location", "text", "l") + field("Dates", "text", "d")
           + '<button>Search</button></form><p><a href="/login">Sign in</a> to see your tickets.</p>'))
    O("quote-moving", "quote request", "en", "https://www.example-movers.com/quote",
      page("en", "Example Movers", "Free moving quote", '<h1>Get a free moving quote</h1><form>'
           + field("Moving from (ZIP)", "text", "f") + field("Moving to (ZIP)", "text", "t") + field("Move date", "date", "d")
           + select("Home size", ["Studio", "1 bedroom", "2 bedrooms"]) + field("Email", "email", "e")
           + '<button>Get my quote</button></form>', head="drawer"))

    # ---- sign-in ----
    S("university-cas", "login", "en", "https://cas.example.edu/cas/login?service=https%3A%2F%2Fmy.example.edu",
      bare("en", "Central Authentication Service", '<h1>Example University</h1><h2>Enter your NetID and password</h2>'
           '<form>' + field("NetID", "text", "username") + field("Password", "password", "password")
           + check("Warn me before logging me into other sites.") + '<button>LOGIN</button></form>'))
    S("shop-identifier-de", "identifier-first", "de", "https://www.beispielshop.de/anmelden",
      page("de", "Beispielshop", "Anmelden | Beispielshop", '<h1>Anmelden</h1><form>' + field("E-Mail-Adresse", "email", "email")
           + '<button>Weiter</button></form><p>Neu hier? <a href="/registrieren">Konto erstellen</a></p>', head="none"))
    S("health-portal", "login", "en", "https://mychart.example-health.org/MyChart/Authentication/Login",
      bare("en", "Example Health MyChart - Login Page", '<h1>MyChart</h1><form>' + field("MyChart Username", "text", "u")
           + field("Password", "password", "p") + '<button>Sign in</button></form><p><a href="/recover">Forgot username?</a> '
           '<a href="/reset">Forgot password?</a></p><p>New User? <a href="/signup">Sign up now</a></p>'))
    S("it-login-2", "login", "it", "https://www.esempio-banca.it/privati/login",
      bare("it", "Accesso clienti", '<h1>Accedi all\'home banking</h1><form>' + field("Codice cliente", "text", "c")
           + field("PIN", "password", "pin") + '<button>Entra</button></form>'))
    S("nl-digid-like", "identity provider chooser", "nl", "https://mijn.voorbeeld-gemeente.nl/inloggen",
      page("nl", "Gemeente Voorbeeld", "Inloggen | Mijn Gemeente", '<h1>Inloggen</h1><p>Log in om uw aanvragen te bekijken.</p>'
           '<a class="btn" href="/digid">Inloggen met DigiD</a> <a class="btn" href="/eherkenning">Inloggen met eHerkenning</a>',
           head="none", newsletter=False))
    S("zh-sms-login", "phone sign-in", "zh", "https://passport.example.cn/sms-login",
      bare("zh", "短信登录", '<h1>短信登录</h1><form>' + field("手机号", "tel", "phone") + field("验证码", "text", "code")
           + '<button type="button">获取验证码</button><button>登录</button></form><p><a href="/login">账号密码登录</a></p>'))
    S("wall-docs", "sign in to continue", "en", "https://docs.example-cloud.com/private/runbooks/db-failover",
      page("en", "Example Cloud Docs", "Sign in required", '<h1>Sign in required</h1><p>You need to sign in to view this '
           'document.</p><a class="btn" href="/login?next=/private/runbooks/db-failover">Sign in</a>', head="signin",
           newsletter=False))
    S("password-step-fr", "password step", "fr", "https://compte.exemple.fr/connexion/mot-de-passe",
      bare("fr", "Connexion", '<h1>Saisissez votre mot de passe</h1><p>jean.dupont@exemple.fr <a href="/connexion">Modifier</a></p>'
           '<form>' + field("Mot de passe", "password", "pw", "current-password") + '<button>Continuer</button>'
           '<a href="/mot-de-passe-oublie">Mot de passe oublié ?</a></form>'))
    S("admin-panel-login", "login", "en", "https://www.example-shop.com/admin",
      bare("en", "Shop Admin", '<h1>Shop Admin</h1><form>' + field("Email", "email", "email") + field("Password", "password", "pw")
           + '<button>Log in</button></form>'))
    S("recovery-code-step", "two-factor step", "en", "https://app.example.io/login/two-factor/recovery",
      bare("en", "Use a recovery code", '<h1>Two-factor recovery</h1><p>Enter one of your recovery codes.</p><form>'
           + field("Recovery code", "text", "code") + '<button>Verify</button></form>'))
    S("es-identifier", "identifier-first", "es", "https://cuenta.ejemplo.es/acceder",
      bare("es", "Accede a tu cuenta", '<h1>Accede a tu cuenta</h1><form>' + field("Correo electrónico o teléfono", "text", "id")
           + '<button>Siguiente</button></form><p>¿No tienes cuenta? <a href="/crear">Crear cuenta</a></p>'))
