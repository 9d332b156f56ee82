"""Form pages of corpus/forms/ that are not sign-in pages (label `other`): contact, search, newsletter,
checkout, account settings, comments, surveys, bookings, admin and tool forms, sign-up and password
reset, in several languages and in the chrome real sites put around them. Written by tools/forms/write_pages.py."""


def add_other(ns):
    field, area, check, select, radios, page, bare, add = (
        ns[k] for k in ("field", "area", "check", "select", "radios", "page", "bare", "add"))

    def O(name, kind, lang, url, doc):
        add(name, "other", kind, lang, url, doc)

    # ---- contact forms ----
    O("contact-en", "contact", "en", "https://www.example-agency.com/contact/",
      page("en", "Example Agency", "Contact Us | Example Agency", '<h1>Contact us</h1><p>Questions about a project? '
           'Send us a message and we will get back to you within two business days.</p><form>'
           + field("Name", "text", "name", "name", req=True) + field("Email", "email", "email", "email", req=True)
           + field("Subject", "text", "subject") + area("Message") + '<button>Send message</button></form>'))
    O("contact-de", "contact", "de", "https://www.beispiel-gmbh.de/kontakt",
      page("de", "Beispiel GmbH", "Kontakt - Beispiel GmbH", '<h1>Kontakt</h1><form>' + select("Anrede", ["Frau", "Herr", "Divers"])
           + field("Vorname", "text", "vorname") + field("Nachname", "text", "nachname") + field("E-Mail", "email", "email")
           + field("Telefon (optional)", "tel", "tel") + area("Ihre Nachricht")
           + check("Ich habe die Datenschutzerklärung gelesen und stimme der Verarbeitung meiner Daten zu.")
           + '<button>Absenden</button></form>', head="inline"))
    O("contact-fr", "contact", "fr", "https://www.exemple-mairie.fr/nous-contacter",
      page("fr", "Mairie d'Exemple", "Nous contacter - Mairie d'Exemple", '<h1>Nous contacter</h1><form>'
           + field("Nom", "text", "nom") + field("Prénom", "text", "prenom") + field("Courriel", "email", "courriel")
           + select("Objet de votre demande", ["État civil", "Urbanisme", "Autre"]) + area("Votre message")
           + '<button>Envoyer</button></form>', head="none"))
    O("contact-es", "contact", "es", "https://www.ejemplo-hotel.es/contacto",
      page("es", "Hotel Ejemplo", "Contacto | Hotel Ejemplo", '<h1>Contacta con nosotros</h1><form>'
           + field("Nombre y apellidos", "text", "nombre") + field("Correo electrónico", "email", "email")
           + field("Teléfono", "tel", "telefono") + area("Mensaje") + check("Acepto la política de privacidad")
           + '<button>Enviar</button></form>'))
    O("contact-it", "contact", "it", "https://www.esempio-studio.it/contatti",
      page("it", "Studio Esempio", "Contatti - Studio Esempio", '<h1>Contattaci</h1><form>' + field("Nome", "text", "nome")
           + field("Cognome", "text", "cognome") + field("Email", "email", "email") + area("Messaggio")
           + check("Accetto il trattamento dei dati personali") + '<button>Invia</button></form>', head="signin-menu"))
    O("contact-ja", "contact", "ja", "https://www.example.co.jp/contact/",
      page("ja", "株式会社エグザンプル", "お問い合わせ｜株式会社エグザンプル", '<h1>お問い合わせ</h1><form>'
           + field("お名前", "text", "name") + field("会社名", "text", "company") + field("メールアドレス", "email", "email")
           + field("電話番号", "tel", "tel") + area("お問い合わせ内容") + check("個人情報の取り扱いに同意する")
           + '<button>確認画面へ</button></form>'))
    O("contact-pt", "contact", "pt", "https://www.exemplo.com.br/fale-conosco",
      page("pt", "Exemplo", "Fale Conosco", '<h1>Fale Conosco</h1><form>' + field("Nome", "text", "nome")
           + field("E-mail", "email", "email") + select("Assunto", ["Dúvida", "Reclamação", "Elogio"]) + area("Mensagem")
           + '<button>Enviar mensagem</button></form>'))
    O("contact-pl", "contact", "pl", "https://www.przyklad.pl/kontakt",
      page("pl", "Przykład", "Kontakt", '<h1>Formularz kontaktowy</h1><form>' + field("Imię i nazwisko", "text", "name")
           + field("Adres e-mail", "email", "email") + area("Wiadomość") + '<button>Wyślij</button></form>', head="drawer"))
    O("contact-nl-modal", "contact", "nl", "https://www.voorbeeld.nl/klantenservice/contact",
      page("nl", "Voorbeeld", "Contact | Klantenservice", '<h1>Neem contact op</h1><form>' + field("Naam", "text", "naam")
           + field("E-mailadres", "email", "email") + field("Ordernummer (optioneel)", "text", "order")
           + area("Je vraag") + '<button>Versturen</button></form>', head="modal"))
    O("contact-forum-inline", "contact", "en", "https://www.example-forum.org/contact.php",
      page("en", "Example Forums", "Example Forums - Contact Us", '<h1>Contact the administrators</h1><form>'
           + field("Your Name", "text", "name") + field("Your Email Address", "email", "email")
           + field("Subject", "text", "subject") + area("Message") + '<button>Send Email</button></form>', head="inline"))
    O("contact-ru", "contact", "ru", "https://www.primer.ru/feedback/",
      page("ru", "Пример", "Обратная связь", '<h1>Обратная связь</h1><form>' + field("Ваше имя", "text", "name")
           + field("Электронная почта", "email", "email") + area("Сообщение") + '<button>Отправить</button></form>'))
    O("contact-sales-modal", "contact", "en", "https://www.example-saas.com/contact-sales",
      page("en", "Example SaaS", "Contact Sales | Example SaaS", '<h1>Talk to our sales team</h1><form>'
           + field("First name", "text", "fn") + field("Last name", "text", "ln") + field("Work email", "email", "email")
           + field("Company", "text", "company") + select("Company size", ["1-10", "11-50", "51-200", "200+"])
           + area("How can we help?") + check("Send me product updates and offers")
           + '<button>Contact sales</button></form>', head="modal"))

    # ---- search and filters ----
    O("search-results", "search", "en", "https://www.example-news.com/search?q=elections",
      page("en", "Example News", "Search results for elections - Example News", '<h1>Search</h1><form>'
           + field("Search", "search", "q") + select("Sort by", ["Relevance", "Newest"])
           + select("Section", ["All", "Politics", "Business"]) + '<button>Search</button></form><ol><li><a href="/a">'
           'Elections 2024: what to know</a></li><li><a href="/b">Turnout rises in local elections</a></li></ol>'))
    O("library-search", "advanced search", "en", "https://catalog.example-library.org/search/advanced",
      page("en", "Example Public Library", "Advanced Search | Example Public Library", '<h1>Advanced search</h1><form>'
           + field("Title", "text", "title") + field("Author", "text", "author") + field("Subject", "text", "subject")
           + field("ISBN", "text", "isbn") + select("Format", ["Any", "Book", "eBook", "DVD"])
           + '<button>Search</button></form><p><a href="/account">My library account</a>: renew items and place holds.</p>',
           head="signin"))
    O("job-search", "search", "en", "https://jobs.example.com/",
      page("en", "ExampleJobs", "Jobs - ExampleJobs", '<h1>Find your next job</h1><form>'
           + field("What", "text", "q", None, "Job title, keywords, or company") + field("Where", "text", "l", None, "City or postcode")
           + '<button>Find jobs</button></form><p>Employers: <a href="/post">Post a job</a></p>'))
    O("flight-search", "search", "en", "https://www.example-air.com/en/book",
      page("en", "Example Air", "Book flights | Example Air", '<h1>Book a flight</h1><form>' + radios("Trip", ["Return", "One way"])
           + field("From", "text", "from") + field("To", "text", "to") + field("Depart", "date", "d1") + field("Return", "date", "d2")
           + select("Passengers", ["1 Adult", "2 Adults"]) + '<button>Search flights</button></form>'))
    O("realestate-fr", "search", "fr", "https://www.exemple-immo.fr/recherche",
      page("fr", "Exemple Immo", "Recherche de biens - Exemple Immo", '<h1>Trouvez votre logement</h1><form>'
           + radios("Projet", ["Acheter", "Louer"]) + field("Ville ou code postal", "text", "loc")
           + field("Budget max", "number", "prix") + select("Pièces", ["1", "2", "3", "4+"]) + '<button>Rechercher</button></form>'
           + '<p>Créez une alerte pour être prévenu des nouvelles annonces.</p>'))
    O("search-ja", "search", "ja", "https://search.example.jp/search?p=天気",
      page("ja", "エグザンプル検索", "「天気」の検索結果", '<form>' + field("検索", "search", "p") + '<button>検索</button></form>'
           '<ol><li><a href="/w">天気予報 - 今日の天気</a></li></ol>', head="signin"))
    O("shop-filter-de", "filter", "de", "https://www.beispielshop.de/damen/schuhe?groesse=38",
      page("de", "Beispielshop", "Damenschuhe online kaufen | Beispielshop", '<h1>Damenschuhe</h1><form><fieldset><legend>Filter</legend>'
           + check("Größe 38", True) + check("Größe 39") + field("Preis von", "number", "min") + field("Preis bis", "number", "max")
           + select("Sortieren nach", ["Beliebtheit", "Preis aufsteigend"]) + '</fieldset><button>Anwenden</button></form>'))
    O("admin-list-search", "admin list search", "en", "https://shop-admin.example.com/admin/orders?status=open",
      page("en", "Shop Admin", "Orders · Shop Admin", '<h1>Orders</h1><form>' + field("Search orders", "search", "q")
           + select("Status", ["Open", "Archived", "Cancelled"]) + select("Payment", ["Any", "Paid", "Pending"])
           + '<button>Filter</button></form><table><tr><th>Order</th><th>Customer</th></tr><tr><td>#1001</td><td>J. Doe</td>'
           '</tr></table>', head="signedin", newsletter=False))

    # ---- newsletter and subscriptions ----
    O("newsletter-en", "newsletter", "en", "https://www.example-cooking.com/newsletter",
      page("en", "Example Cooking", "Newsletters | Example Cooking", '<h1>Get recipes in your inbox</h1><p>Our free '
           'weekly newsletter: seasonal recipes and cooking tips.</p><form>' + field("Email address", "email", "email", "email")
           + '<button>Sign up</button></form>', newsletter=False))
    O("newsletter-de", "newsletter", "de", "https://www.beispiel-zeitung.de/newsletter/",
      page("de", "Beispiel Zeitung", "Newsletter | Beispiel Zeitung", '<h1>Unsere Newsletter</h1><form>'
           + check("Der Morgen – täglich um 6 Uhr", True) + check("Wochenende") + select("Anrede", ["Frau", "Herr", "keine Angabe"])
           + field("E-Mail-Adresse", "email", "email") + '<button>Kostenlos abonnieren</button></form>', newsletter=False))
    O("blog-subscribe", "newsletter", "en", "https://blog.example.dev/subscribe",
      page("en", "Example Dev Blog", "Subscribe to Example Dev Blog", '<h1>Subscribe</h1><p>Get new posts by email. '
           'No spam, unsubscribe at any time.</p><form>' + field("Your email", "email", "email")
           + '<button>Subscribe</button></form>', head="none", newsletter=False))
    O("unsubscribe", "unsubscribe", "en", "https://email.example-store.com/unsubscribe?u=8231&list=weekly",
      bare("en", "Unsubscribe", '<h1>Unsubscribe</h1><p>Sorry to see you go. Confirm your email address to stop receiving '
           'the weekly deals email.</p><form>' + field("Email address", "email", "email", None, None)
           + radios("Why are you leaving?", ["Too many emails", "Not relevant", "Other"])
           + '<button>Unsubscribe</button></form>'))
    O("newsletter-es", "newsletter", "es", "https://www.ejemplo-diario.es/boletines",
      page("es", "Diario Ejemplo", "Boletines - Diario Ejemplo", '<h1>Recibe nuestros boletines</h1><form>'
           + field("Correo electrónico", "email", "email") + check("Acepto la política de privacidad")
           + '<button>Suscribirme</button></form>'))

    # ---- checkout and payment ----
    O("checkout-shipping", "checkout shipping", "en", "https://shop.example.com/checkouts/c/8f3a/information",
      bare("en", "Checkout - Northwind Outfitters", '<h1>Northwind Outfitters</h1><nav>Cart › Information › Shipping › Payment'
           '</nav><form><h2>Contact</h2><p>Have an account? <a href="/account/login">Log in</a></p>'
           + field("Email", "email", "email", "email") + check("Email me with news and offers")
           + '<h2>Delivery</h2>' + select("Country/Region", ["United States", "Canada"]) + field("First name", "text", "fn")
           + field("Last name", "text", "ln") + field("Address", "text", "a1") + field("Apartment, suite, etc. (optional)", "text", "a2")
           + field("City", "text", "city") + field("ZIP code", "text", "zip") + '<button>Continue to shipping</button></form>'))
    O("checkout-payment", "checkout payment", "en", "https://shop.example.com/checkouts/c/8f3a/payment",
      bare("en", "Payment - Northwind Outfitters", '<h1>Payment</h1><p>All transactions are secure and encrypted.</p><form>'
           + field("Card number", "text", "number", "cc-number") + field("Expiration date (MM / YY)", "text", "exp", "cc-exp")
           + field("Security code", "password", "cvv", "cc-csc") + field("Name on card", "text", "name", "cc-name")
           + check("Use shipping address as billing address", True) + '<button>Pay now</button></form>'))
    O("woo-checkout", "checkout", "en", "https://www.example-crafts.com/checkout/",
      page("en", "Example Crafts", "Checkout – Example Crafts", '<h1>Checkout</h1><div class="card">Returning customer? '
           '<a href="#login">Click here to login</a></div><form><h3>Billing details</h3>' + field("First name", "text", "bfn")
           + field("Last name", "text", "bln") + field("Street address", "text", "ba") + field("Town / City", "text", "bc")
           + field("Postcode / ZIP", "text", "bz") + field("Phone", "tel", "bp") + field("Email address", "email", "be")
           + check("Create an account?") + '<h3>Your order</h3><button>Place order</button></form>'))
    O("checkout-de", "checkout", "de", "https://www.beispielshop.de/checkout/address",
      page("de", "Beispielshop", "Kasse - Lieferadresse", '<h1>Lieferadresse</h1><form>' + select("Anrede", ["Frau", "Herr"])
           + field("Vorname", "text", "vn") + field("Nachname", "text", "nn") + field("Straße und Hausnummer", "text", "str")
           + field("PLZ", "text", "plz") + field("Ort", "text", "ort") + field("E-Mail", "email", "email")
           + '<button>Weiter zur Zahlung</button></form>', head="none", newsletter=False))
    O("checkout-login-or-guest", "checkout", "en", "https://www.example-books.com/checkout/start",
      page("en", "Example Books", "Secure checkout | Example Books", '<div class="cols"><section><h2>Returning customers</h2>'
           '<form>' + field("Email", "email", "email") + field("Password", "password", "password")
           + '<button>Sign in and checkout</button><a href="/forgot">Forgot your password?</a></form></section>'
           '<section><h2>New customers</h2><p>You can create an account after checkout.</p><a class="btn" href="/checkout/guest">'
           'Checkout as guest</a></section></div>', head="none", newsletter=False))
    O("donation", "donation", "en", "https://donate.example.org/give",
      page("en", "Example Charity", "Donate today | Example Charity", '<h1>Make a donation</h1><form>'
           + radios("Amount", ["$25", "$50", "$100", "Other"]) + radios("Frequency", ["One-time", "Monthly"])
           + field("First name", "text", "fn") + field("Last name", "text", "ln") + field("Email", "email", "email")
           + field("Card number", "text", "cc") + field("CVV", "password", "cvv") + '<button>Donate</button></form>'))
    O("payment-fr", "checkout payment", "fr", "https://paiement.exemple.fr/commande/paiement",
      bare("fr", "Paiement sécurisé", '<h1>Paiement sécurisé</h1><form>' + field("Numéro de carte", "text", "cb")
           + field("Date d\'expiration", "text", "exp") + field("Cryptogramme visuel", "password", "cvc")
           + field("Titulaire de la carte", "text", "nom") + '<button>Payer 49,90 €</button></form>'))
    O("gift-card-balance", "gift card balance", "en", "https://www.example-store.com/giftcards/balance",
      page("en", "Example Store", "Check your gift card balance", '<h1>Check your gift card balance</h1><form>'
           + field("Gift card number", "text", "card") + field("PIN", "password", "pin") + '<button>Check balance</button></form>'))
    O("order-tracking", "order tracking", "en", "https://www.example-store.com/orders/track",
      page("en", "Example Store", "Track your order | Example Store", '<h1>Track your order</h1><p>Enter your order number '
           'and the email address you used at checkout.</p><form>' + field("Order number", "text", "order")
           + field("Email address", "email", "email") + '<button>Track order</button></form><p>Have an account? '
           '<a href="/account/login">Sign in</a> to see all your orders.</p>'))
    O("coupon-cart", "cart", "en", "https://www.example-store.com/cart",
      page("en", "Example Store", "Your cart", '<h1>Your cart</h1><table><tr><td>Wool sweater</td><td>'
           '<input type="number" aria-label="Quantity" value="1"></td><td>$79.00</td></tr></table><form>'
           + field("Promo code", "text", "code") + '<button>Apply</button></form><a class="btn" href="/checkout">Check out</a>'))

    # ---- account settings (signed in) ----
    O("settings-profile", "account settings", "en", "https://app.example.io/settings/profile",
      page("en", "Acme", "Profile settings · Acme", '<h1>Public profile</h1><form>' + field("Name", "text", "name")
           + field("Public email", "email", "email") + area("Bio", 3) + field("URL", "url", "url")
           + field("Company", "text", "company") + '<button>Update profile</button></form>', head="signedin", newsletter=False))
    O("settings-email-change", "email change", "en", "https://app.example.io/settings/email",
      page("en", "Acme", "Email settings · Acme", '<h1>Change your email</h1><form>'
           + field("New email address", "email", "email", "email") + field("Current password", "password", "password", "current-password")
           + '<button>Change email</button></form><p class="muted">We will send a confirmation link to the new address.</p>',
           head="signedin", newsletter=False))
    O("settings-delete-account", "delete account", "en", "https://app.example.io/settings/account/delete",
      page("en", "Acme", "Delete account · Acme", '<h1>Delete account</h1><p>Once you delete your account, there is no going '
           'back. Please be certain.</p><form>' + field("To confirm, enter your password", "password", "password")
           + check("I understand this cannot be undone") + '<button>Delete this account</button></form>', head="signedin",
           newsletter=False))
    O("settings-password", "password change", "en", "https://app.example.io/settings/security",
      page("en", "Acme", "Password and authentication · Acme", '<h1>Change password</h1><form>'
           + field("Old password", "password", "old") + field("New password", "password", "new", "new-password")
           + field("Confirm new password", "password", "confirm", "new-password")
           + '<button>Update password</button> <a href="/password_reset">I forgot my password</a></form>'
           '<h2>Two-factor authentication</h2><p>Two-factor authentication is not enabled yet.</p>'
           '<a class="btn" href="/settings/2fa">Enable two-factor authentication</a>', head="signedin", newsletter=False))
    O("settings-2fa-phone", "two-factor settings", "en", "https://app.example.io/settings/two_factor_authentication/setup",
      page("en", "Acme", "Two-factor authentication · Acme", '<h1>Enable two-factor authentication</h1>'
           '<p>Set up SMS authentication: we will text a code to your phone each time you sign in.</p><form>'
           + select("Country code", ["+1", "+44"]) + field("Phone number", "tel", "phone") + '<button>Send authentication code</button>'
           '</form>', head="signedin", newsletter=False))
    O("settings-notifications", "account settings", "en", "https://app.example.io/settings/notifications",
      page("en", "Acme", "Notifications · Acme", '<h1>Notifications</h1><form>' + check("Email me about mentions", True)
           + check("Email me a weekly digest") + select("Default notification email", ["jane@example.com", "jd@work.example"])
           + '<button>Save</button></form>', head="signedin", newsletter=False))
    O("settings-api-tokens", "account settings", "en", "https://app.example.io/settings/tokens/new",
      page("en", "Acme", "New personal access token · Acme", '<h1>New personal access token</h1><form>'
           + field("Note", "text", "note") + select("Expiration", ["30 days", "90 days", "No expiration"])
           + check("repo") + check("read:org") + '<button>Generate token</button></form>', head="signedin", newsletter=False))
    O("konto-de", "password change", "de", "https://www.beispielshop.de/mein-konto/passwort",
      page("de", "Beispielshop", "Mein Konto - Passwort ändern", '<h1>Passwort ändern</h1><form>'
           + field("Aktuelles Passwort", "password", "cur") + field("Neues Passwort", "password", "new")
           + field("Neues Passwort wiederholen", "password", "rep") + '<button>Speichern</button></form>', head="signedin"))
    O("compte-fr", "account settings", "fr", "https://www.exemple.fr/mon-compte/informations",
      page("fr", "Boutique Exemple", "Mes informations personnelles", '<h1>Vos informations personnelles</h1><form>'
           + radios("Civilité", ["M.", "Mme"]) + field("Prénom", "text", "prenom") + field("Nom", "text", "nom")
           + field("E-mail", "email", "email") + field("Mot de passe", "password", "password")
           + field("Nouveau mot de passe", "password", "new_password") + field("Date de naissance", "text", "birthday")
           + '<button>Enregistrer</button></form>', head="signedin"))
    O("settings-email-confirm-es", "email change", "es", "https://www.ejemplo.es/mi-cuenta/correo",
      page("es", "Ejemplo", "Cambiar correo electrónico", '<h1>Cambiar correo electrónico</h1><form>'
           + field("Nuevo correo electrónico", "email", "email") + field("Contraseña actual", "password", "password")
           + '<button>Guardar cambios</button></form>', head="signedin"))
    O("settings-privacy", "account settings", "en", "https://social.example.com/settings/privacy",
      page("en", "Friendly", "Privacy settings", '<h1>Privacy</h1><form>' + select("Who can see your posts?", ["Public", "Friends", "Only me"])
           + select("Who can send you friend requests?", ["Everyone", "Friends of friends"]) + check("Let search engines link to your profile")
           + '<button>Save changes</button></form>', head="signedin", newsletter=False))
    O("wifi-settings", "device settings", "en", "http://192.168.0.1/wireless.html",
      bare("en", "Wireless Settings", '<nav><a href="/status.html">Status</a> <a href="/wireless.html">Wireless</a> '
           '<a href="/logout.html">Logout</a></nav><h1>Wireless Settings</h1><form>' + field("Network Name (SSID)", "text", "ssid")
           + select("Security", ["WPA2-PSK", "WPA3-SAE"]) + field("Password", "password", "psk") + select("Channel", ["Auto", "1", "6", "11"])
           + '<button>Save</button></form>'))
    O("smtp-settings", "admin settings", "en", "https://helpdesk.example.com/admin/settings/email",
      page("en", "Helpdesk", "Email settings · Helpdesk admin", '<h1>Outgoing email (SMTP)</h1><form>'
           + field("SMTP host", "text", "host") + field("Port", "number", "port") + field("Username", "text", "user")
           + field("Password", "password", "pass") + select("Encryption", ["STARTTLS", "SSL/TLS", "None"])
           + field("From address", "email", "from") + '<button>Save settings</button> <button type="button">Send test email</button>'
           '</form>', head="signedin", newsletter=False))
    O("db-setup-wizard", "install wizard", "en", "https://wiki.example.org/install/index.php?page=DBConnect",
      bare("en", "ExampleWiki 1.41 installation", '<h1>Connect to database</h1><form>' + select("Database type", ["MariaDB", "PostgreSQL", "SQLite"])
           + field("Database host", "text", "host") + field("Database name", "text", "db") + field("Database username", "text", "dbuser")
           + field("Database password", "password", "dbpass") + '<button>Continue →</button></form>'))
    O("api-key-entry", "integration settings", "en", "https://analytics.example.com/integrations/mailer",
      page("en", "Example Analytics", "Connect Mailer · Integrations", '<h1>Connect Mailer</h1><p>Paste an API key from your '
           'Mailer account.</p><form>' + field("API key", "password", "key") + field("Server prefix", "text", "dc")
           + '<button>Connect</button></form>', head="signedin", newsletter=False))

    # ---- comments and posts ----
    O("blog-comment", "comment", "en", "https://www.example-blog.com/2023/09/14/sourdough-basics/",
      page("en", "Example Blog", "Sourdough basics – Example Blog", '<article><h1>Sourdough basics</h1><p>Making your own '
           'starter takes about a week. Mix equal weights of flour and water, and feed it every day. ' * 3
           + '</p></article><section id="respond"><h3>Leave a Reply</h3><p>Your email address will not be published.</p><form>'
           + area("Comment", 6) + field("Name *", "text", "author") + field("Email *", "email", "email")
           + field("Website", "url", "url") + check("Save my name, email, and website in this browser for the next time I comment.")
           + '<button>Post Comment</button></form></section>', head="none"))
    O("comment-logged-in-required", "comment", "en", "https://www.example-blog.com/2023/10/02/kitchen-tools/",
      page("en", "Example Blog", "Ten kitchen tools – Example Blog", '<article><h1>Ten kitchen tools I use every day</h1><p>'
           + 'A good knife, a scale and a heavy pan do most of the work in my kitchen. ' * 4 + '</p></article>'
           '<section><h3>Leave a Reply</h3><p>You must be logged in to post a comment.</p></section>', head="signin"))
    O("forum-reply", "comment", "en", "https://forum.example.org/t/how-to-reset-the-printer/4211",
      page("en", "Example Forum", "How to reset the printer? - Hardware - Example Forum", '<h1>How to reset the printer?</h1>'
           '<p>My printer shows error E3 after a paper jam.</p><h2>Reply</h2><form>' + area("Your reply", 6)
           + '<button>Reply</button></form>', head="signedin", newsletter=False))
    O("product-review", "review", "en", "https://www.example-store.com/products/wool-sweater/reviews/new",
      page("en", "Example Store", "Write a review - Wool sweater", '<h1>Write a review</h1><form>'
           + radios("Rating", ["1", "2", "3", "4", "5"]) + field("Review title", "text", "title") + area("Your review")
           + field("Nickname", "text", "nick") + field("Email", "email", "email") + '<button>Submit review</button></form>'))
    O("comment-de", "comment", "de", "https://www.beispiel-zeitung.de/kultur/buchmesse-2024-100.html",
      page("de", "Beispiel Zeitung", "Buchmesse 2024: Die Highlights | Beispiel Zeitung", '<article><h1>Buchmesse 2024</h1><p>'
           + 'Mehr als tausend Aussteller zeigen in diesem Jahr ihre Neuerscheinungen in Frankfurt. ' * 3 + '</p></article>'
           '<h2>Kommentare</h2><p>Bitte melden Sie sich an, um zu kommentieren.</p><a class="btn" href="/login">Anmelden</a>'))
    O("guestbook", "comment", "en", "http://www.example-family.net/guestbook.php",
      page("en", "The Example Family", "Guestbook", '<h1>Sign our guestbook</h1><form>' + field("Your name", "text", "name")
           + field("Your e-mail (will not be shown)", "email", "email") + field("Where are you from?", "text", "from")
           + area("Message") + '<button>Sign guestbook</button></form>', head="none", newsletter=False))
    O("new-topic", "new post", "en", "https://forum.example.org/new-topic?category=hardware",
      page("en", "Example Forum", "New topic - Example Forum", '<h1>Create a new topic</h1><form>' + field("Title", "text", "title")
           + select("Category", ["Hardware", "Software"]) + field("Tags", "text", "tags") + area("Body", 10)
           + '<button>Create Topic</button></form>', head="signedin", newsletter=False))

    # ---- surveys ----
    O("survey-csat", "survey", "en", "https://survey.example.com/s/csat-2024?order=1001",
      bare("en", "How did we do?", '<h1>How did we do?</h1><form>' + radios("How satisfied are you with your order?",
           ["Very dissatisfied", "Dissatisfied", "Neutral", "Satisfied", "Very satisfied"])
           + radios("How likely are you to recommend us to a friend?", [str(i) for i in range(11)])
           + area("Anything else you want to tell us?") + '<button>Submit</button></form>'))
    O("survey-forms-es", "survey", "es", "https://forms.example.com/e/1FAIpQL/viewform",
      bare("es", "Encuesta de satisfacción", '<h1>Encuesta de satisfacción</h1><p>* Indica que la pregunta es obligatoria</p>'
           '<form>' + field("Correo electrónico *", "email", "email") + radios("¿Cómo valoras el curso?", ["1", "2", "3", "4", "5"])
           + check("Me gustaría recibir información de próximos cursos") + area("Comentarios") + '<button>Enviar</button></form>'
           '<p class="muted">Nunca envíes contraseñas a través de Formularios.</p>'))
    O("survey-research", "survey", "en", "https://research.example.edu/survey/sleep-habits",
      bare("en", "Sleep habits study", '<h1>Sleep habits study</h1><p>This survey takes about 10 minutes.</p><form>'
           + select("Age group", ["18-24", "25-34", "35-44", "45+"]) + field("On average, how many hours do you sleep?", "number", "h")
           + radios("Do you use a screen in bed?", ["Yes", "No"]) + area("Describe your evening routine")
           + '<button>Next page</button></form>'))
    O("poll-ja", "survey", "ja", "https://enquete.example.jp/form/2024",
      bare("ja", "アンケートご協力のお願い", '<h1>アンケート</h1><form>' + radios("年代", ["10代", "20代", "30代", "40代以上"])
           + radios("満足度", ["満足", "普通", "不満"]) + area("ご意見・ご感想") + '<button>送信する</button></form>'))

    # ---- bookings and applications ----
    O("restaurant-booking", "booking", "en", "https://www.example-bistro.com/reservations",
      page("en", "Example Bistro", "Reservations | Example Bistro", '<h1>Book a table</h1><form>' + field("Date", "date", "date")
           + select("Time", ["18:00", "18:30", "19:00"]) + select("Party size", ["2 people", "3 people", "4 people"])
           + field("Name", "text", "name") + field("Phone", "tel", "phone") + field("Email", "email", "email")
           + area("Special requests", 3) + '<button>Reserve</button></form>', head="none"))
    O("hotel-booking", "booking", "en", "https://www.example-hotels.com/book?hotel=lisbon-centre",
      page("en", "Example Hotels", "Book your stay | Example Hotels Lisbon", '<h1>Book your stay</h1><form>'
           + field("Check-in", "date", "in") + field("Check-out", "date", "out") + select("Rooms", ["1", "2"])
           + select("Guests", ["1 adult", "2 adults"]) + field("Promo code", "text", "promo")
           + '<button>Check availability</button></form><p>Members save 10%. <a href="/login">Sign in</a> or '
           '<a href="/join">join for free</a>.</p>'))
    O("flight-passenger", "booking", "en", "https://www.example-air.com/en/book/passengers",
      page("en", "Example Air", "Passenger details | Example Air", '<h1>Who is travelling?</h1><form>'
           + select("Title", ["Mr", "Ms", "Mx"]) + field("First name", "text", "fn") + field("Last name", "text", "ln")
           + field("Date of birth", "date", "dob") + field("Email", "email", "email") + field("Mobile", "tel", "tel")
           + field("Frequent flyer number (optional)", "text", "ff") + '<button>Continue</button></form>'))
    O("doctor-de", "booking", "de", "https://www.beispiel-praxis.de/termin",
      page("de", "Praxis Dr. Beispiel", "Online-Terminvereinbarung", '<h1>Termin vereinbaren</h1><form>'
           + select("Behandlung", ["Vorsorge", "Akute Beschwerden", "Impfung"]) + field("Wunschdatum", "date", "d")
           + field("Vorname", "text", "vn") + field("Nachname", "text", "nn") + field("Geburtsdatum", "date", "gd")
           + field("Telefon", "tel", "tel") + radios("Versicherung", ["gesetzlich", "privat"])
           + '<button>Termin anfragen</button></form>', head="none"))
    O("train-fr", "search", "fr", "https://www.exemple-rail.fr/billet-train",
      page("fr", "Exemple Rail", "Billets de train pas chers", '<h1>Où allons-nous ?</h1><form>' + field("Départ", "text", "from")
           + field("Arrivée", "text", "to") + field("Aller le", "date", "d") + select("Voyageurs", ["1 adulte", "2 adultes"])
           + check("Carte Avantage") + '<button>Rechercher</button></form>'))
    O("car-rental", "booking", "en", "https://www.example-cars.com/",
      page("en", "Example Cars", "Car Rental Deals | Example Cars", '<h1>Rent a car</h1><form>' + field("Pick-up location", "text", "pu")
           + field("Pick-up date", "date", "pd") + field("Drop-off date", "date", "dd") + check("Driver aged 25 – 70", True)
           + '<button>Search</button></form>', head="signin-menu"))
    O("job-application", "job application", "en", "https://careers.example.com/jobs/4711/apply",
      page("en", "Example Careers", "Apply: Senior Backend Engineer", '<h1>Senior Backend Engineer</h1><form>'
           + field("First name", "text", "fn") + field("Last name", "text", "ln") + field("Email", "email", "email")
           + field("Phone", "tel", "tel") + field("Resume/CV", "file", "cv") + field("LinkedIn profile", "url", "li")
           + area("Cover letter") + '<button>Submit application</button></form>', head="none"))
    O("event-rsvp", "RSVP", "en", "https://events.example.org/e/meetup-rust-berlin/rsvp",
      page("en", "Example Events", "RSVP: Rust Berlin Meetup", '<h1>Rust Berlin Meetup</h1><p>Thursday 18:30, Example Hub</p>'
           '<form>' + field("Full name", "text", "name") + field("Email", "email", "email")
           + select("Ticket", ["General admission", "Speaker"]) + '<button>Register for this event</button></form>'))
    O("insurance-quote", "quote request", "en", "https://www.example-insure.com/car-insurance/quote",
      page("en", "Example Insurance", "Get a car insurance quote", '<h1>Get a quote</h1><form>'
           + field("Vehicle registration", "text", "reg") + field("Date of birth", "date", "dob") + field("Postcode", "text", "pc")
           + select("Years no claims", ["0", "1", "2", "3", "4", "5+"]) + field("Email", "email", "email")
           + '<button>Get my quote</button></form><p>Existing customer? <a href="/login">Log in to your account</a></p>'))
    O("appointment-ja", "booking", "ja", "https://reserve.example-salon.jp/booking",
      page("ja", "サロン・エグザンプル", "ご予約 | サロン・エグザンプル", '<h1>ご予約</h1><form>' + select("メニュー", ["カット", "カラー"])
           + field("ご希望日", "date", "d") + field("お名前", "text", "name") + field("電話番号", "tel", "tel")
           + '<button>予約する</button></form>'))

    # ---- admin and back-office forms ----
    O("cms-new-post", "admin change form", "en", "https://blog.example.net/wp-admin/post-new.php",
      page("en", "Example Blog ‹ Admin", "Add New Post ‹ Example Blog — WordPress", '<h1>Add New Post</h1><form>'
           + field("Add title", "text", "post_title") + area("Content", 14) + select("Status", ["Draft", "Pending Review"])
           + check("Uncategorized", True) + field("Tags", "text", "tags") + '<button>Save Draft</button> <button>Publish</button></form>',
           head="signedin", newsletter=False))
    O("wp-user-edit", "admin change form", "en", "https://blog.example.net/wp-admin/user-edit.php?user_id=3",
      page("en", "Example Blog ‹ Admin", "Edit User ‹ Example Blog — WordPress", '<h1>Edit User jdoe</h1><form>'
           + field("Username (cannot be changed)", "text", "user_login", extra='value="jdoe" disabled')
           + select("Role", ["Subscriber", "Editor", "Administrator"]) + field("First Name", "text", "first_name")
           + field("Last Name", "text", "last_name") + field("Email (required)", "email", "email") + field("Website", "url", "url")
           + '<h2>Account Management</h2><button type="button">Set New Password</button>'
           + field("New Password", "password", "pass1", "new-password") + '<button>Update User</button></form>', head="signedin",
           newsletter=False))
    O("product-edit", "admin change form", "en", "https://shop-admin.example.com/admin/products/8812",
      page("en", "Shop Admin", "Wool sweater · Products · Shop Admin", '<h1>Wool sweater</h1><form>' + field("Title", "text", "title")
           + area("Description", 8) + field("Price", "number", "price") + field("Compare-at price", "number", "cap")
           + field("SKU", "text", "sku") + field("Quantity", "number", "qty") + select("Status", ["Active", "Draft"])
           + '<button>Save</button></form>', head="signedin", newsletter=False))
    O("ci-job-config", "admin change form", "en", "https://ci.example.com/job/backend/configure",
      page("en", "Example CI", "backend Config [Example CI]", '<h1>Configure</h1><form>' + area("Description", 3)
           + check("Discard old builds", True) + field("Repository URL", "url", "repo") + select("Credentials", ["- none -", "deploy-key"])
           + field("Branch Specifier", "text", "branch") + area("Execute shell", 6) + '<button>Save</button> <button>Apply</button></form>',
           head="signedin", newsletter=False))
    O("admin-add-user", "admin add user", "en", "https://helpdesk.example.com/admin/agents/new",
      page("en", "Helpdesk", "New agent · Helpdesk admin", '<h1>Add agent</h1><form>' + field("Full name", "text", "name")
           + field("Email", "email", "email") + select("Role", ["Agent", "Admin"]) + field("Temporary password", "password", "pw")
           + check("Require password change at first sign-in", True) + '<button>Create agent</button></form>', head="signedin",
           newsletter=False))
    O("project-settings", "admin settings", "en", "https://git.example.com/group/project/-/edit",
      page("en", "ExampleGit", "General · Settings · project · ExampleGit", '<h1>General settings</h1><form>'
           + field("Project name", "text", "name") + area("Project description (optional)", 3) + field("Topics", "text", "topics")
           + select("Project visibility", ["Private", "Internal", "Public"]) + '<button>Save changes</button></form>',
           head="signedin", newsletter=False))
    O("file-upload-tool", "tool", "en", "https://www.example-convert.com/pdf-to-word",
      page("en", "ExampleConvert", "PDF to Word Converter – Free Online", '<h1>PDF to Word</h1><form>'
           + field("Choose file", "file", "file") + select("Output", ["DOCX", "DOC"]) + '<button>Convert</button></form>'
           '<p>Files are deleted after one hour.</p>'))
    O("url-shortener", "tool", "en", "https://exmpl.link/",
      page("en", "exmpl.link", "URL Shortener - exmpl.link", '<h1>Shorten a long link</h1><form>'
           + field("Paste a long URL", "url", "url") + field("Alias (optional)", "text", "alias") + '<button>Shorten URL</button>'
           '</form><p>Want analytics? <a href="/signup">Sign up for free</a> or <a href="/login">log in</a>.</p>'))
    O("password-generator", "tool", "en", "https://www.example-tools.com/password-generator",
      page("en", "ExampleTools", "Strong Password Generator", '<h1>Password generator</h1><form>'
           + field("Password length", "number", "len") + check("Include uppercase letters", True) + check("Include symbols")
           + field("Generated password", "text", "out") + '<button>Generate password</button></form><p>A strong password '
           'is at least 12 characters long and is never reused across sites.</p>'))
    O("password-leak-check", "tool", "en", "https://www.example-breach.com/passwords",
      page("en", "Example Breach Check", "Pwned Passwords", '<h1>Pwned Passwords</h1><p>Check whether a password has appeared '
           'in a data breach. Passwords are checked by k-anonymity and never leave your browser in full.</p><form>'
           + field("Password", "password", "password") + '<button>check</button></form>', head="none", newsletter=False))
    O("mortgage-calc", "calculator", "en", "https://www.example-bank.com/mortgages/calculator",
      page("en", "Example Bank", "Mortgage calculator | Example Bank", '<h1>Mortgage calculator</h1><form>'
           + field("Home price", "number", "price") + field("Down payment", "number", "down") + field("Interest rate (%)", "number", "rate")
           + select("Loan term", ["30 years", "15 years"]) + '<button>Calculate</button></form>', head="signin"))
    O("tax-calc-de", "calculator", "de", "https://www.beispiel-rechner.de/brutto-netto-rechner",
      page("de", "Beispiel Rechner", "Brutto-Netto-Rechner 2024", '<h1>Brutto-Netto-Rechner</h1><form>'
           + field("Bruttolohn", "number", "b") + select("Steuerklasse", ["I", "II", "III", "IV", "V", "VI"])
           + select("Bundesland", ["Bayern", "Berlin", "Hamburg"]) + check("Kirchensteuer") + '<button>Berechnen</button></form>'))
    O("support-ticket", "support ticket", "en", "https://support.example-saas.com/hc/en-us/requests/new",
      page("en", "Example SaaS Help Center", "Submit a request – Example SaaS Help Center", '<h1>Submit a request</h1><form>'
           + field("Your email address", "email", "email") + field("Subject", "text", "subject")
           + select("Product area", ["Billing", "Integrations", "Login issues"]) + area("Description")
           + field("Attachments", "file", "att") + '<button>Submit</button></form>', head="signin"))
    O("bug-report", "bug report", "en", "https://bugs.example-project.org/enter_bug.cgi?product=Core",
      page("en", "Example Bugzilla", "Enter Bug: Core", '<h1>Enter Bug: Core</h1><form>' + select("Component", ["General", "Networking"])
           + select("Version", ["trunk", "1.0"]) + field("Summary", "text", "short_desc") + area("Description", 10)
           + select("Severity", ["S1", "S2", "S3", "S4"]) + '<button>Submit Bug</button></form>', head="signedin", newsletter=False))
    O("report-abuse", "report", "en", "https://www.example-market.com/report?listing=99812",
      page("en", "ExampleMarket", "Report this listing", '<h1>Report this listing</h1><form>'
           + radios("What is wrong with this listing?", ["Counterfeit", "Prohibited item", "Scam"]) + area("Details")
           + '<button>Send report</button></form>'))
    O("voter-lookup", "lookup", "en", "https://vote.example-state.gov/voter-lookup",
      page("en", "Example State Elections", "Am I registered to vote?", '<h1>Check your voter registration</h1><form>'
           + field("First name", "text", "fn") + field("Last name", "text", "ln") + field("Date of birth", "date", "dob")
           + field("ZIP code", "text", "zip") + '<button>Search</button></form>', head="none"))
    O("parcel-redirect", "lookup", "de", "https://www.beispiel-paket.de/sendungsverfolgung",
      page("de", "Beispiel Paket", "Sendungsverfolgung", '<h1>Sendung verfolgen</h1><form>'
           + field("Sendungsnummer", "text", "nr") + field("Postleitzahl des Empfängers", "text", "plz")
           + '<button>Suchen</button></form><p>Mit einem Kundenkonto sehen Sie alle Sendungen. <a href="/login">Anmelden</a></p>'))
    O("feedback-widget", "feedback", "en", "https://docs.example.dev/guides/deploying",
      page("en", "Example Docs", "Deploying – Example Docs", '<h1>Deploying</h1><p>' + 'Build the project, then push the '
           'image to your registry and roll out the new version. ' * 5 + '</p><form><p>Was this page helpful?</p>'
           '<button>Yes</button> <button>No</button>' + area("Tell us more (optional)", 2) + '</form>', head="signin"))
    O("translate-box", "tool", "en", "https://translate.example.com/?sl=en&tl=de",
      page("en", "Example Translate", "Example Translate", '<form>' + select("From", ["English", "French"])
           + select("To", ["German", "Spanish"]) + area("Source text", 6) + '<button>Translate</button></form>', head="signin"))
    O("contact-seller", "contact", "en", "https://www.example-classifieds.com/item/4471/contact",
      page("en", "ExampleClassifieds", "Contact seller: Road bike 56cm", '<h1>Message the seller</h1><form>'
           + field("Your name", "text", "name") + field("Your email", "email", "email") + field("Phone (optional)", "tel", "tel")
           + area("Message") + '<button>Send</button></form><p>Sign in to keep track of your messages.</p>'))
    O("wiki-edit-ru", "wiki edit", "ru", "https://wiki.primer.ru/index.php?title=Москва&action=edit",
      page("ru", "Пример-вики", "Редактирование: Москва — Пример-вики", '<h1>Редактирование: Москва</h1><form>'
           + area("Текст статьи", 16) + field("Описание изменений", "text", "summary") + check("Малое изменение")
           + '<button>Записать страницу</button></form><p>Вы не представились системе. Ваш IP-адрес будет записан в '
           'историю изменений этой страницы.</p>', head="signin", newsletter=False))
    O("zh-feedback", "feedback", "zh", "https://www.example.cn/feedback",
      page("zh", "示例网", "意见反馈", '<h1>意见反馈</h1><form>' + select("问题类型", ["功能建议", "页面错误"])
           + area("问题描述") + field("联系方式（邮箱或手机）", "text", "contact") + '<button>提交</button></form>'))
    O("ko-inquiry", "contact", "ko", "https://www.example.co.kr/cs/inquiry",
      page("ko", "예시몰", "1:1 문의", '<h1>1:1 문의하기</h1><form>' + select("문의 유형", ["주문/결제", "배송", "반품"])
           + field("제목", "text", "title") + area("내용") + field("이메일", "email", "email") + '<button>문의 등록</button></form>'))
    O("tr-contact", "contact", "tr", "https://www.ornek.com.tr/iletisim",
      page("tr", "Örnek", "İletişim", '<h1>Bize Ulaşın</h1><form>' + field("Ad Soyad", "text", "ad") + field("E-posta", "email", "email")
           + field("Telefon", "tel", "tel") + area("Mesajınız") + '<button>Gönder</button></form>'))
    O("sv-booking", "booking", "sv", "https://www.exempel-frisor.se/boka",
      page("sv", "Exempel Frisör", "Boka tid", '<h1>Boka tid</h1><form>' + select("Behandling", ["Klippning", "Färgning"])
           + field("Datum", "date", "d") + field("Namn", "text", "namn") + field("Mobilnummer", "tel", "tel")
           + '<button>Boka</button></form>'))
    O("ar-contact", "contact", "ar", "https://www.example.sa/ar/contact",
      page("ar", "مثال", "اتصل بنا", '<h1>اتصل بنا</h1><form>' + field("الاسم", "text", "name")
           + field("البريد الإلكتروني", "email", "email") + area("الرسالة") + '<button>إرسال</button></form>'))

    # ---- sign-up, password reset and other account entry forms that are not signing in ----
    O("signup-en", "sign-up", "en", "https://app.example.io/signup",
      bare("en", "Create your account | Acme", '<h1>Create your account</h1><form>' + field("Full name", "text", "name")
           + field("Work email", "email", "email") + field("Password", "password", "password", "new-password")
           + '<p class="muted">Use 8 or more characters.</p>' + check("I agree to the Terms of Service")
           + '<button>Create account</button></form><p>Already have an account? <a href="/login">Log in</a></p>'))
    O("signup-es", "sign-up", "es", "https://www.ejemplo.es/registro",
      page("es", "Ejemplo", "Crear cuenta | Ejemplo", '<h1>Crea tu cuenta</h1><form>' + field("Nombre", "text", "nombre")
           + field("Correo electrónico", "email", "email") + field("Contraseña", "password", "password")
           + field("Repite la contraseña", "password", "password2") + check("Acepto los términos y condiciones")
           + '<button>Registrarme</button></form>', head="none"))
    O("signup-ja", "sign-up", "ja", "https://www.example.jp/register/input",
      page("ja", "エグザンプル", "新規会員登録 | エグザンプル", '<h1>新規会員登録</h1><form>' + field("お名前", "text", "name")
           + field("メールアドレス", "email", "email") + field("パスワード（8文字以上）", "password", "pw")
           + field("パスワード（確認用）", "password", "pw2") + check("利用規約に同意する") + '<button>登録する</button></form>'))
    O("password-reset-en", "password reset", "en", "https://app.example.io/password/reset",
      bare("en", "Reset your password | Acme", '<h1>Reset your password</h1><p>Enter your email and we\'ll send you a link '
           'to reset your password.</p><form>' + field("Email", "email", "email", "email")
           + '<button>Send reset link</button></form><p><a href="/login">Back to sign in</a></p>'))
    O("password-reset-de", "password reset", "de", "https://www.beispielshop.de/passwort-vergessen",
      page("de", "Beispielshop", "Passwort vergessen", '<h1>Passwort vergessen?</h1><p>Geben Sie Ihre E-Mail-Adresse ein. '
           'Wir senden Ihnen einen Link zum Zurücksetzen.</p><form>' + field("E-Mail-Adresse", "email", "email")
           + '<button>Link anfordern</button></form>'))
    O("new-password", "new password", "en", "https://app.example.io/password/reset/confirm?token=abc123",
      bare("en", "Choose a new password | Acme", '<h1>Choose a new password</h1><form>'
           + field("New password", "password", "p1", "new-password") + field("Confirm new password", "password", "p2", "new-password")
           + '<button>Reset password</button></form>'))
    O("email-verify-code", "email verification", "en", "https://app.example.io/signup/verify",
      bare("en", "Verify your email | Acme", '<h1>Check your email</h1><p>We sent a 6-digit code to jane@example.com to '
           'finish creating your account.</p><form>' + field("Verification code", "text", "code", "one-time-code")
           + '<button>Verify email</button></form><p><a href="/signup/resend">Resend code</a></p>'))
    O("waitlist", "waitlist", "en", "https://www.example-beta.ai/",
      page("en", "Example AI", "Example AI – Join the waitlist", '<h1>Your notes, answered.</h1><p>Example AI reads your '
           'documents and answers questions about them. We are letting people in gradually.</p><form>'
           + field("Email", "email", "email") + '<button>Join the waitlist</button></form><p>Already have access? '
           '<a href="/login">Log in</a></p>', head="none", newsletter=False))
    O("trial-signup-fr", "sign-up", "fr", "https://www.exemple-logiciel.fr/essai-gratuit",
      page("fr", "Exemple Logiciel", "Essai gratuit 30 jours", '<h1>Essayez gratuitement pendant 30 jours</h1><form>'
           + field("Prénom", "text", "prenom") + field("Nom", "text", "nom") + field("E-mail professionnel", "email", "email")
           + field("Entreprise", "text", "entreprise") + field("Téléphone", "tel", "tel") + '<button>Démarrer mon essai</button>'
           '</form>'))
    O("loyalty-join", "sign-up", "en", "https://www.example-coffee.com/rewards/join",
      page("en", "Example Coffee", "Join Example Rewards", '<h1>Join Example Rewards</h1><form>' + field("First name", "text", "fn")
           + field("Last name", "text", "ln") + field("Email", "email", "email") + field("Password", "password", "pw")
           + field("Birthday (optional)", "text", "bd") + check("Send me offers and news") + '<button>Join now</button></form>'))
    O("account-recovery-phone", "account recovery", "en", "https://accounts.example.com/signin/recovery",
      bare("en", "Account recovery", '<h1>Account recovery</h1><p>Enter the phone number or email you use for your account '
           'and we will help you get back in.</p><form>' + field("Phone number or email", "text", "id")
           + '<button>Next</button></form>'))
