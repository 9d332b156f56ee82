"""The late pages of corpus/forms/ (hw2-*, split `late`): written after the classifier was tuned on the
`tune` split, so that nothing in the tuning saw them. Same kinds and chrome as pages_signin.py and
pages_other.py, more of the account-area pages real sites have (an address book, an order history
search, "edit account" forms), sign-in flyouts in headers and more languages. Written by
tools/forms/write_pages.py."""


def add_late(ns):
    field, area, check, select, radios, page, bare, add = (
        ns[k] for k in ("field", "area", "check", "select", "radios", "page", "bare", "add"))

    def S(name, kind, lang, url, doc):
        add("2-" + name, "signin", kind, lang, url, doc)

    def O(name, kind, lang, url, doc):
        add("2-" + name, "other", kind, lang, url, doc)

    flyout = ('<div class="account-flyout" style="position:absolute;right:0;top:48px;width:260px;opacity:0;'
              'pointer-events:none;background:#fff"><form action="/customer/login" method="post">'
              + field("Email", "email", "login[username]") + field("Password", "password", "login[password]")
              + '<button>Sign In</button><a href="/customer/forgot">Forgot Your Password?</a></form></div>')

    # ---- not sign-in ----
    O("address-book-new", "address form", "en", "https://www.example-shop.com/account/addresses/new",
      page("en", "Example Shop", "Add a new address | Example Shop", '<h1>Add a new address</h1><form>'
           + field("Full name", "text", "name") + field("Phone number", "tel", "phone") + field("Address line 1", "text", "a1")
           + field("Address line 2", "text", "a2") + field("City", "text", "city") + field("Postcode", "text", "pc")
           + check("Make this my default address") + '<button>Add address</button></form>', head="signedin"))
    O("woo-edit-account", "account settings", "en", "https://www.example-crafts.com/my-account/edit-account/",
      page("en", "Example Crafts", "Account details – Example Crafts", '<nav><a href="/my-account/">Dashboard</a> '
           '<a href="/my-account/orders/">Orders</a> <a href="/my-account/edit-address/">Addresses</a> '
           '<a href="/my-account/edit-account/">Account details</a> <a href="/my-account/customer-logout/">Log out</a></nav>'
           '<form>' + field("First name *", "text", "fn") + field("Last name *", "text", "ln")
           + field("Display name *", "text", "dn") + field("Email address *", "email", "email")
           + '<fieldset><legend>Password change</legend>'
           + field("Current password (leave blank to leave unchanged)", "password", "p0")
           + field("New password (leave blank to leave unchanged)", "password", "p1")
           + field("Confirm new password", "password", "p2") + '</fieldset><button>Save changes</button></form>',
           head="none"))
    O("order-history-search", "search", "en", "https://www.example-shop.com/account/orders?q=lamp",
      page("en", "Example Shop", "Your orders | Example Shop", '<h1>Your orders</h1><form>' + field("Search all orders", "search", "q")
           + select("Placed in", ["past 3 months", "2024", "2023"]) + '<button>Search orders</button></form>'
           '<p>0 orders placed in past 3 months</p>', head="signedin"))
    O("flyout-contact", "contact", "en", "https://www.example-outdoor.com/contact",
      page("en", "Example Outdoor", "Contact Us", '<header style="position:relative">' + flyout + '</header>'
           '<h1>Contact Us</h1><form>' + field("Name", "text", "name") + field("Email", "email", "email")
           + field("Phone Number", "tel", "tel") + area("What's on your mind?") + '<button>Submit</button></form>'))
    O("flyout-product", "product page", "en", "https://www.example-outdoor.com/tents/trail-2p.html",
      page("en", "Example Outdoor", "Trail 2P Tent | Example Outdoor", '<header style="position:relative">' + flyout
           + '</header><h1>Trail 2P Tent</h1><p>$249.00</p><form>' + select("Color", ["Green", "Orange"])
           + field("Qty", "number", "qty") + '<button>Add to Cart</button></form><h2>Details</h2><p>A two-person, '
           'three-season tent that weighs 1.6 kg.</p>'))
    O("auth-settings-sessions", "account settings", "en", "https://app.example.io/auth/settings/sessions",
      page("en", "Acme", "Sessions · Acme", '<h1>Web sessions</h1><p>This is a list of devices that have logged into '
           'your account. Revoke any sessions that you do not recognize.</p><ul><li>Firefox on Linux — current session</li>'
           '<li>Chrome on Android <button>Revoke</button></li></ul>', head="signedin", newsletter=False))
    O("accounts-profile-edit", "account settings", "en", "https://www.example-community.org/accounts/profile/edit/",
      page("en", "Example Community", "Edit profile", '<h1>Edit profile</h1><form>' + field("Display name", "text", "dn")
           + field("Location", "text", "loc") + area("About me", 4) + field("Avatar", "file", "avatar")
           + '<button>Save profile</button></form>', head="signedin", newsletter=False))
    O("newsletter-preferences", "newsletter", "en", "https://www.example-news.com/account/newsletters",
      page("en", "Example News", "Newsletter preferences", '<h1>Newsletters</h1><form>' + check("The Morning Brief", True)
           + check("Weekend Reads") + check("Breaking News Alerts") + '<button>Update preferences</button></form>',
           head="signedin"))
    O("contact-en-2", "contact", "en", "https://www.example-dental.com/contact-us",
      page("en", "Example Dental", "Contact Example Dental", '<h1>Request an appointment</h1><p>Call us at (555) 010-2030 '
           'or fill out the form below.</p><form>' + field("Full Name", "text", "name") + field("Email", "email", "email")
           + field("Phone", "tel", "phone") + select("Preferred day", ["Monday", "Tuesday", "Wednesday"])
           + radios("Are you a new patient?", ["Yes", "No"]) + area("Message") + '<button>Request Appointment</button></form>',
           head="none"))
    O("kontakt-at", "contact", "de", "https://www.beispiel-hotel.at/de/anfrage",
      page("de", "Hotel Beispiel", "Anfrage | Hotel Beispiel", '<h1>Unverbindliche Anfrage</h1><form>'
           + field("Anreise", "date", "an") + field("Abreise", "date", "ab") + select("Erwachsene", ["1", "2", "3"])
           + field("Vorname", "text", "vn") + field("Nachname", "text", "nn") + field("E-Mail", "email", "email")
           + area("Ihre Wünsche") + '<button>Anfrage senden</button></form>', head="inline"))
    O("contacto-mx", "contact", "es", "https://www.ejemplo.mx/contacto",
      page("es", "Ejemplo MX", "Contáctanos", '<h1>¿Tienes dudas?</h1><form>' + field("Nombre", "text", "n")
           + field("Correo", "email", "c") + field("Teléfono", "tel", "t") + area("¿Cómo podemos ayudarte?")
           + '<button>Enviar mensaje</button></form><p>¿Ya eres cliente? <a href="/login">Inicia sesión</a> para ver tus '
           'pedidos.</p>', head="modal"))
    O("contatti-it-2", "contact", "it", "https://www.esempio-comune.it/servizi/segnalazioni",
      page("it", "Comune di Esempio", "Segnalazioni - Comune di Esempio", '<h1>Invia una segnalazione</h1><form>'
           + select("Categoria", ["Strade", "Illuminazione", "Rifiuti"]) + field("Indirizzo", "text", "ind")
           + area("Descrizione") + field("Email", "email", "email") + field("Foto", "file", "foto")
           + '<button>Invia</button></form><p>Per seguire lo stato delle tue segnalazioni accedi con SPID.</p>'))
    O("fr-devis", "quote request", "fr", "https://www.exemple-artisan.fr/devis-gratuit",
      page("fr", "Exemple Artisan", "Demande de devis gratuit", '<h1>Demandez votre devis gratuit</h1><form>'
           + select("Type de travaux", ["Toiture", "Isolation", "Fenêtres"]) + field("Code postal", "text", "cp")
           + field("Nom", "text", "nom") + field("Téléphone", "tel", "tel") + field("E-mail", "email", "email")
           + '<button>Recevoir mon devis</button></form>'))
    O("nl-afspraak", "booking", "nl", "https://www.voorbeeld-garage.nl/afspraak-maken",
      page("nl", "Garage Voorbeeld", "Afspraak maken", '<h1>Maak een afspraak</h1><form>' + field("Kenteken", "text", "k")
           + select("Soort onderhoud", ["APK", "Kleine beurt", "Grote beurt"]) + field("Datum", "date", "d")
           + field("Naam", "text", "naam") + field("E-mailadres", "email", "email") + '<button>Afspraak bevestigen</button>'
           '</form>'))
    O("pl-ankieta", "survey", "pl", "https://ankiety.przyklad.pl/a/zadowolenie",
      bare("pl", "Ankieta zadowolenia", '<h1>Ankieta</h1><form>' + radios("Jak oceniasz obsługę?", ["1", "2", "3", "4", "5"])
           + area("Co możemy poprawić?") + '<button>Wyślij</button></form>'))
    O("ru-zakaz", "checkout", "ru", "https://www.primer-shop.ru/order/",
      page("ru", "Пример", "Оформление заказа", '<h1>Оформление заказа</h1><form>' + field("Имя", "text", "n")
           + field("Телефон", "tel", "t") + field("Адрес доставки", "text", "a") + radios("Оплата", ["Картой онлайн", "При получении"])
           + '<button>Подтвердить заказ</button></form><p>Уже покупали у нас? <a href="/login">Войти</a></p>'))
    O("ja-toiawase-2", "contact", "ja", "https://www.example-clinic.jp/reserve/",
      page("ja", "エグザンプル歯科", "Web予約 | エグザンプル歯科", '<h1>Web予約</h1><form>' + field("ご希望日", "date", "d")
           + select("時間帯", ["午前", "午後"]) + field("お名前（フリガナ）", "text", "kana") + field("電話番号", "tel", "tel")
           + '<button>予約内容を確認する</button></form>'))
    O("zh-search", "search", "zh", "https://search.example.cn/s?wd=天气",
      page("zh", "示例搜索", "天气_示例搜索", '<form>' + field("搜索", "search", "wd") + '<button>搜索一下</button></form>'
           '<ol><li><a href="/w">天气预报</a></li></ol>'))
    O("ko-search", "search", "ko", "https://search.example.kr/search?query=날씨",
      page("ko", "예시", "날씨 : 예시 검색", '<form>' + field("검색어 입력", "search", "query") + '<button>검색</button></form>'
           '<ol><li><a href="/w">오늘 날씨</a></li></ol>'))
    O("tr-rezervasyon", "booking", "tr", "https://www.ornek-restoran.com.tr/rezervasyon",
      page("tr", "Örnek Restoran", "Rezervasyon", '<h1>Rezervasyon</h1><form>' + field("Tarih", "date", "t")
           + select("Kişi sayısı", ["2", "3", "4"]) + field("Ad Soyad", "text", "ad") + field("Telefon", "tel", "tel")
           + '<button>Rezervasyon yap</button></form>'))
    O("pt-checkout", "checkout", "pt", "https://www.exemplo.com.br/checkout/pagamento",
      bare("pt", "Pagamento - Loja Exemplo", '<h1>Pagamento</h1><form>' + radios("Forma de pagamento", ["Cartão de crédito", "Pix", "Boleto"])
           + field("Número do cartão", "text", "cc") + field("Nome impresso no cartão", "text", "nome")
           + field("Validade", "text", "val") + field("CVV", "password", "cvv") + select("Parcelas", ["1x", "2x", "3x"])
           + '<button>Finalizar compra</button></form>'))
    O("sv-kontakt", "contact", "sv", "https://www.exempel.se/kundservice/kontakta-oss",
      page("sv", "Exempel", "Kontakta oss | Exempel", '<h1>Kontakta oss</h1><form>' + field("Namn", "text", "n")
           + field("E-postadress", "email", "e") + field("Ordernummer", "text", "o") + area("Meddelande")
           + '<button>Skicka</button></form>', head="drawer"))
    O("help-article-feedback", "feedback", "en", "https://help.example-bank.com/articles/reset-online-banking-password",
      page("en", "Example Bank Help", "How do I reset my Online Banking password?", '<h1>How do I reset my Online Banking '
           'password?</h1><p>' + 'On the Log On page, select Forgot Password and follow the steps. You will need your '
           'card number and the code we text you. ' * 3 + '</p><form><p>Did this answer your question?</p>'
           '<button>Yes</button> <button>No</button></form>', head="signin"))
    O("changelog-subscribe", "newsletter", "en", "https://status.example-saas.com/",
      page("en", "Example SaaS Status", "Example SaaS Status", '<h1>All Systems Operational</h1><ul><li>API — Operational</li>'
           '<li>Dashboard — Operational</li></ul><h2>Subscribe to updates</h2><form>' + field("Email address", "email", "email")
           + '<button>Subscribe via email</button></form>', head="none", newsletter=False))
    O("github-like-issue", "bug report", "en", "https://code.example.com/acme/widgets/issues/new",
      page("en", "Codehub", "New Issue · acme/widgets", '<h1>New issue</h1><form>' + field("Title", "text", "title")
           + area("Add a description", 10) + '<button>Submit new issue</button></form>', head="signedin", newsletter=False))
    O("wiki-edit-en", "wiki edit", "en", "https://wiki.example.org/w/index.php?title=Sourdough&action=edit",
      page("en", "ExampleWiki", "Editing Sourdough - ExampleWiki", '<h1>Editing Sourdough</h1><p>You are not logged in. '
           'Once you make an edit, a temporary account will be created for you. Log in or create an account to get '
           'credit for your edits.</p><form>' + area("Wikitext", 16) + field("Summary:", "text", "summary")
           + check("Watch this page") + '<button>Publish changes</button> <button>Show preview</button></form>',
           head="signin", newsletter=False))
    O("pin-change-bank", "PIN change", "en", "https://secure.examplebank.co.uk/settings/passcode",
      page("en", "Example Bank", "Change passcode | Example Bank", '<h1>Change your passcode</h1><form>'
           + field("Current passcode", "password", "c") + field("New passcode", "password", "n")
           + field("Confirm new passcode", "password", "r") + '<button>Change passcode</button></form>', head="signedin",
           newsletter=False))
    O("wifi-guest", "device settings", "en", "http://192.168.1.1/cgi-bin/luci/admin/network/guest",
      bare("en", "Guest network - Router", '<nav><a href="/status">Status</a> <a href="/network">Network</a> '
           '<a href="/logout">Logout</a></nav><h1>Guest network</h1><form>' + check("Enable guest network", True)
           + field("Network name", "text", "ssid") + field("Wi-Fi password", "password", "key")
           + '<button>Save &amp; Apply</button></form>'))
    O("ftp-settings", "admin settings", "en", "https://hosting.example.net/panel/backups/remote",
      page("en", "Example Hosting", "Remote backups · Example Hosting", '<h1>Remote backup destination</h1><form>'
           + select("Protocol", ["SFTP", "FTP", "S3"]) + field("Host", "text", "host") + field("Username", "text", "user")
           + field("Password", "password", "pass") + field("Path", "text", "path") + '<button>Test connection</button> '
           '<button>Save</button></form>', head="signedin", newsletter=False))
    O("protected-post", "password-protected post", "en", "https://www.example-photo.com/client-gallery-smith/",
      page("en", "Example Photography", "Protected: Smith wedding gallery", '<h1>Protected: Smith wedding gallery</h1>'
           '<p>This content is password protected. To view it please enter your password below:</p><form>'
           + field("Password:", "password", "post_password") + '<button>Enter</button></form>', head="none"))
    O("signup-de", "sign-up", "de", "https://www.beispielshop.de/registrierung",
      page("de", "Beispielshop", "Kundenkonto erstellen", '<h1>Kundenkonto erstellen</h1><form>' + select("Anrede", ["Frau", "Herr"])
           + field("Vorname", "text", "vn") + field("Nachname", "text", "nn") + field("E-Mail-Adresse", "email", "email")
           + field("Passwort", "password", "pw") + '<p class="muted">Mindestens 8 Zeichen.</p>'
           + check("Ich akzeptiere die AGB") + '<button>Konto erstellen</button></form>'))
    O("forgot-username", "username recovery", "en", "https://www.examplebank.com/online-banking/forgot-user-id",
      page("en", "Example Bank", "Forgot User ID | Example Bank", '<h1>Forgot your User ID?</h1><form>'
           + field("Card or account number", "text", "acct") + field("Social Security number", "password", "ssn")
           + '<button>Continue</button></form>', head="none", newsletter=False))
    O("cart-login-prompt", "cart", "en", "https://www.example-books.com/cart",
      page("en", "Example Books", "Shopping Basket | Example Books", '<h1>Shopping Basket</h1><table><tr><td>The Example '
           'Novel</td><td><input type="number" aria-label="Quantity" value="1"></td><td>£8.99</td></tr></table>'
           '<p>Sign in to see your saved items.</p><a class="btn" href="/checkout">Proceed to checkout</a>'))

    # ---- sign-in ----
    S("shop-account-page", "login", "en", "https://www.example-crafts.com/my-account/",
      page("en", "Example Crafts", "My account – Example Crafts", '<h1>My account</h1><div class="cols"><section><h2>Login</h2>'
           '<form>' + field("Username or email address *", "text", "username") + field("Password *", "password", "password")
           + check("Remember me") + '<button>Log in</button><a href="/my-account/lost-password/">Lost your password?</a>'
           '</form></section><section><h2>Register</h2><form>' + field("Email address *", "email", "email")
           + '<p>A link to set a new password will be sent to your email address.</p><button>Register</button></form></section>'
           '</div>'))
    S("portal-de", "login", "de", "https://portal.beispiel-stadtwerke.de/",
      page("de", "Stadtwerke Beispiel", "Kundenportal", '<h1>Willkommen im Kundenportal</h1><form>'
           + field("Kundennummer oder E-Mail", "text", "user") + field("Passwort", "password", "pw")
           + '<button>Einloggen</button><a href="/passwort">Passwort vergessen?</a></form><p>Noch kein Zugang? '
           '<a href="/registrieren">Jetzt registrieren</a></p>', head="none"))
    S("intranet", "login", "en", "https://intranet.example-corp.com/",
      bare("en", "Example Corp Intranet", '<h1>Example Corp Intranet</h1><p>Authorised users only.</p><form>'
           + field("Network ID", "text", "u") + field("Password", "password", "p") + select("Domain", ["CORP", "LAB"])
           + '<button>Sign on</button></form>'))
    S("fr-banque", "identifier-first", "fr", "https://www.exemple-banque.fr/particuliers/acces",
      bare("fr", "Accéder à mes comptes", '<h1>Accéder à mes comptes</h1><form>' + field("Identifiant client", "text", "id")
           + check("Mémoriser mon identifiant") + '<button>Valider</button></form><p><a href="/aide">Identifiant oublié ?</a></p>'))
    S("es-banco-clave", "login", "es", "https://www.ejemplo-banco.es/particulares/acceso",
      bare("es", "Acceso clientes", '<h1>Acceso a Banca Online</h1><form>' + field("DNI/NIE", "text", "dni")
           + field("Clave de acceso", "password", "clave") + '<button>Entrar</button></form><p><a href="/recordar">'
           'He olvidado mi clave</a></p>'))
    S("it-spid-chooser", "identity provider chooser", "it", "https://servizi.esempio-comune.it/auth/login",
      bare("it", "Accedi ai servizi", '<h1>Accedi ai servizi del Comune</h1><p>Scegli come autenticarti.</p>'
           '<a class="btn" href="/spid">Entra con SPID</a> <a class="btn" href="/cie">Entra con CIE</a> '
           '<a class="btn" href="/eidas">Login with eIDAS</a>'))
    S("ru-code-login", "phone sign-in", "ru", "https://id.primer.ru/login",
      bare("ru", "Вход — Пример ID", '<h1>Войдите с Пример ID</h1><form>' + field("Номер телефона", "tel", "phone")
           + '<button>Получить код</button></form><p><a href="/login/password">Войти по паролю</a></p>'))
    S("ja-otp", "two-factor step", "ja", "https://www.example.jp/login/otp",
      bare("ja", "ワンタイムパスワード認証", '<h1>2段階認証</h1><p>SMSで送信された確認コードを入力してください。</p><form>'
           + field("確認コード", "text", "code", "one-time-code") + '<button>認証する</button></form>'))
    S("email-code-signin", "sign-in code", "en", "https://www.example-notes.com/login/code",
      bare("en", "Check your email | Example Notes", '<h1>Check your email</h1><p>We sent a temporary login code to '
           'jane@example.com</p><form>' + field("Login code", "text", "code", "one-time-code")
           + '<button>Continue with login code</button></form><p><a href="/login">Back to login</a></p>'))
    S("members-wall", "sign in to continue", "en", "https://www.example-club.org/members/newsletter-archive",
      page("en", "Example Club", "Members only | Example Club", '<h1>Members only</h1><p>Please log in to access the '
           'newsletter archive.</p><form>' + field("Membership number", "text", "m") + field("Password", "password", "p")
           + '<button>Log in</button></form>'))
    S("tabs-ko", "login", "ko", "https://www.example.co.kr/member/login",
      page("ko", "예시몰", "로그인 | 예시몰", '<h1>로그인</h1><div class="tabs"><a href="#">회원</a><a href="#">비회원 주문조회</a></div><form>'
           + field("아이디", "text", "id") + field("비밀번호", "password", "pw") + check("아이디 저장")
           + '<button>로그인</button></form><p><a href="/find">아이디/비밀번호 찾기</a> <a href="/join">회원가입</a></p>'))
    S("pt-identifier", "identifier-first", "pt", "https://conta.exemplo.com.br/entrar",
      bare("pt", "Entrar na sua conta", '<h1>Entrar</h1><form>' + field("E-mail ou telefone", "text", "id")
           + '<button>Continuar</button></form><p>Não tem conta? <a href="/criar-conta">Criar conta</a></p>'))
    S("wall-modal-recipes", "login dialog over content", "en", "https://www.example-recipes.com/recipe/lemon-tart",
      page("en", "Example Recipes", "Lemon tart recipe", '<h1>Lemon tart</h1><p>Serves 8</p><div class="overlay">'
           '<div class="dialog" role="dialog"><h2>Sign in to keep reading</h2><p>It\'s free: create an account or sign in '
           'to see the full recipe.</p><a class="btn" href="/auth/google">Continue with Google</a>'
           '<a class="btn" href="/login">Sign in with email</a></div></div>', head="signin"))
