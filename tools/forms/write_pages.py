#!/usr/bin/env python3
"""Dev-only: write the hand-made pages of corpus/forms/ (hw-*.html), each modelled on a kind of form
that real sites have, in the site chrome such pages come with (a header with a search box and a
"Sign in" link or the signed-in user's menu, an inline sign-in box on old forums and shops, a footer
newsletter box, a hidden sign-in dialog), in several languages; prints their manifest lines.
The labels are what the page is for, decided when the page was written, not by the classifier.
Usage: python3 write_pages.py CORPUS_FORMS
"""
import html
import itertools
import os
import sys

_ids = itertools.count()

# Site chrome words per language: sign in, register, search, my account, sign out, newsletter, subscribe,
# email, nav items, privacy, user name, password.
L = {
    "en": ("Sign in", "Register", "Search", "My account", "Sign out", "Get our newsletter", "Subscribe",
           "Email address", ["Home", "Shop", "About", "Help"], "Privacy", "Username", "Password"),
    "de": ("Anmelden", "Registrieren", "Suche", "Mein Konto", "Abmelden", "Newsletter abonnieren", "Abonnieren",
           "E-Mail-Adresse", ["Startseite", "Produkte", "Über uns", "Hilfe"], "Datenschutz", "Benutzername",
           "Passwort"),
    "fr": ("Se connecter", "Créer un compte", "Rechercher", "Mon compte", "Se déconnecter",
           "Inscrivez-vous à la newsletter", "S'inscrire", "Adresse e-mail",
           ["Accueil", "Boutique", "À propos", "Aide"], "Confidentialité", "Identifiant", "Mot de passe"),
    "es": ("Iniciar sesión", "Regístrate", "Buscar", "Mi cuenta", "Cerrar sesión", "Suscríbete al boletín",
           "Suscribirse", "Correo electrónico", ["Inicio", "Tienda", "Nosotros", "Ayuda"], "Privacidad",
           "Usuario", "Contraseña"),
    "it": ("Accedi", "Registrati", "Cerca", "Il mio account", "Esci", "Iscriviti alla newsletter", "Iscriviti",
           "Indirizzo email", ["Home", "Negozio", "Chi siamo", "Assistenza"], "Privacy", "Nome utente",
           "Password"),
    "nl": ("Inloggen", "Registreren", "Zoeken", "Mijn account", "Uitloggen", "Schrijf je in voor de nieuwsbrief",
           "Aanmelden", "E-mailadres", ["Home", "Winkel", "Over ons", "Klantenservice"], "Privacy",
           "Gebruikersnaam", "Wachtwoord"),
    "pt": ("Entrar", "Cadastre-se", "Buscar", "Minha conta", "Sair", "Receba nossas novidades", "Inscrever",
           "E-mail", ["Início", "Loja", "Sobre", "Ajuda"], "Privacidade", "Usuário", "Senha"),
    "pl": ("Zaloguj się", "Załóż konto", "Szukaj", "Moje konto", "Wyloguj", "Zapisz się do newslettera",
           "Zapisz", "Adres e-mail", ["Strona główna", "Sklep", "O nas", "Pomoc"], "Prywatność",
           "Login", "Hasło"),
    "ru": ("Войти", "Регистрация", "Поиск", "Личный кабинет", "Выйти", "Подпишитесь на рассылку",
           "Подписаться", "Электронная почта", ["Главная", "Каталог", "О нас", "Помощь"], "Конфиденциальность",
           "Логин", "Пароль"),
    "ja": ("ログイン", "新規会員登録", "検索", "マイページ", "ログアウト", "メールマガジン登録", "登録する",
           "メールアドレス", ["ホーム", "商品一覧", "会社概要", "ヘルプ"], "プライバシーポリシー", "ユーザー名",
           "パスワード"),
    "zh": ("登录", "注册", "搜索", "我的账户", "退出", "订阅我们的邮件", "订阅", "电子邮箱",
           ["首页", "商城", "关于我们", "帮助中心"], "隐私政策", "用户名", "密码"),
    "ko": ("로그인", "회원가입", "검색", "마이페이지", "로그아웃", "뉴스레터 구독", "구독하기", "이메일",
           ["홈", "쇼핑", "회사소개", "고객센터"], "개인정보처리방침", "아이디", "비밀번호"),
    "tr": ("Giriş Yap", "Üye Ol", "Ara", "Hesabım", "Çıkış", "Bültenimize abone olun", "Abone ol", "E-posta",
           ["Ana Sayfa", "Mağaza", "Hakkımızda", "Yardım"], "Gizlilik", "Kullanıcı adı", "Şifre"),
    "sv": ("Logga in", "Bli medlem", "Sök", "Mina sidor", "Logga ut", "Prenumerera på nyhetsbrevet",
           "Prenumerera", "E-postadress", ["Hem", "Butik", "Om oss", "Kundtjänst"], "Integritet",
           "Användarnamn", "Lösenord"),
    "ar": ("تسجيل الدخول", "إنشاء حساب", "بحث", "حسابي", "تسجيل الخروج", "اشترك في النشرة البريدية", "اشترك",
           "البريد الإلكتروني", ["الرئيسية", "المتجر", "من نحن", "المساعدة"], "الخصوصية", "اسم المستخدم",
           "كلمة المرور"),
}


def field(label, type="text", name=None, ac=None, ph=None, req=False, extra=""):
    i = f"f{next(_ids)}"
    attrs = f'type="{type}" id="{i}" name="{name or i}"'
    if ac:
        attrs += f' autocomplete="{ac}"'
    if ph:
        attrs += f' placeholder="{html.escape(ph)}"'
    if req:
        attrs += " required"
    return f'<label for="{i}">{label}</label><input {attrs} {extra}>\n'


def area(label, rows=5):
    i = f"f{next(_ids)}"
    return f'<label for="{i}">{label}</label><textarea id="{i}" name="{i}" rows="{rows}"></textarea>\n'


def select(label, options):
    i = f"f{next(_ids)}"
    opts = "".join(f"<option>{o}</option>" for o in options)
    return f'<label for="{i}">{label}</label><select id="{i}" name="{i}">{opts}</select>\n'


def check(label, checked=False):
    i = f"f{next(_ids)}"
    return f'<p><input type="checkbox" id="{i}" name="{i}"{" checked" if checked else ""}> ' \
           f'<label class="inline" for="{i}">{label}</label></p>\n'


def radios(legend, options):
    name = f"r{next(_ids)}"
    items = "".join(
        f'<input type="radio" id="{name}{k}" name="{name}"> <label class="inline" for="{name}{k}">{o}</label> '
        for k, o in enumerate(options))
    return f"<fieldset><legend>{legend}</legend>{items}</fieldset>\n"


def header(lang, site, kind):
    t = L[lang]
    nav = "".join(f'<a href="/{k}">{n}</a>' for k, n in enumerate(t[8]))
    search = f'<form class="search" action="/search" role="search"><input type="search" name="q" ' \
             f'aria-label="{t[2]}" placeholder="{t[2]}"><button>{t[2]}</button></form>'
    if kind == "signin":
        account = f'<a href="/account/login">{t[0]}</a> <a href="/account/register">{t[1]}</a> <a href="/cart">🛒</a>'
    elif kind == "signin-menu":
        # A closed "account" dropdown that holds the sign-in link.
        account = f'<div class="dropdown"><button aria-expanded="false">{t[3]} ▾</button><ul class="dropdown-menu">' \
                  f'<li><a href="/login">{t[0]}</a></li><li><a href="/register">{t[1]}</a></li></ul></div>'
    elif kind == "signedin":
        account = f'<a href="/account">{t[3]}</a> <span>Jane D.</span> <a href="/logout">{t[4]}</a>'
    elif kind == "inline":
        account = f'<form class="mini-login" action="/login" method="post"><label class="inline" for="hu">{t[10]}</label>' \
                  f'<input type="text" id="hu" name="username"><label class="inline" for="hp">{t[11]}</label>' \
                  f'<input type="password" id="hp" name="password"><button>{t[0]}</button>' \
                  f'<a href="/register">{t[1]}</a></form>'
    elif kind == "modal":
        # A sign-in dialog in the DOM, shown only when its link is clicked.
        account = f'<a href="#login" data-toggle="modal">{t[0]}</a><div class="modal" id="login" role="dialog">' \
                  f'<form action="/login" method="post">{field(t[7], "email", "email")}{field(t[11], "password", "password")}' \
                  f'<button>{t[0]}</button></form></div>'
    elif kind == "drawer":
        # A sign-in drawer pushed off the right edge until opened.
        account = f'<a href="#drawer">{t[0]}</a><aside class="drawer" id="drawer"><h2>{t[0]}</h2>' \
                  f'<form action="/login" method="post">{field(t[7], "email", "email")}{field(t[11], "password", "password")}' \
                  f'<button>{t[0]}</button><a href="/forgot">?</a></form></aside>'
    else:
        account = ""
    return f'<header class="site"><a href="/" class="logo"><b>{site}</b></a><nav>{nav}</nav>{search if kind != "none" else ""}' \
           f'<div class="account">{account}</div></header>\n'


def footer(lang, newsletter):
    t = L[lang]
    box = ""
    if newsletter:
        box = f'<section><h3>{t[5]}</h3><form action="/newsletter" method="post">{field(t[7], "email", "email")}' \
              f'<button>{t[6]}</button></form></section>'
    return f'<footer class="site">{box}<p><a href="/privacy">{t[9]}</a> · © 2024</p></footer>\n'


def page(lang, site, title, body, head="signin", newsletter=True, narrow=False):
    return f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>' \
           f'<link rel="stylesheet" href="/assets/hw/site.css"></head>\n<body>\n{header(lang, site, head)}' \
           f'<main{" class=narrow" if narrow else ""}>\n{body}</main>\n{footer(lang, newsletter)}</body></html>\n'


def bare(lang, title, body, css=""):
    """A page without site chrome (sign-in portals, routers, admin tools)."""
    return f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>' \
           f'<link rel="stylesheet" href="/assets/hw/site.css"><style>{css}</style></head>\n<body>\n<main class="narrow">\n' \
           f'{body}</main>\n</body></html>\n'


PAGES = []


def add(name, label, kind, lang, url, doc):
    PAGES.append((f"hw-{name}", label, kind, lang, url, doc))


from pages_signin import add_signin  # noqa: E402
from pages_other import add_other  # noqa: E402
from pages_late import add_late  # noqa: E402
from pages_final import add_final  # noqa: E402


def main():
    out = os.path.join(sys.argv[1], "pages")
    os.makedirs(out, exist_ok=True)
    ns = dict(field=field, area=area, select=select, check=check, radios=radios, page=page, bare=bare, add=add, L=L)
    add_signin(ns)
    add_other(ns)
    add_late(ns)
    add_final(ns)
    for name, label, kind, lang, url, doc in PAGES:
        with open(os.path.join(out, f"{name}.html"), "w", encoding="utf-8") as f:
            f.write(doc)
        print("\t".join((name, label, kind, lang, url, "hand-written")))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
