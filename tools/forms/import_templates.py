#!/usr/bin/env python3
"""Dev-only: copy the form pages of HTML templates shipped in packages into corpus/forms/pages/, with
their stylesheets under corpus/forms/assets/ (scripts dropped: the pages are read as served), and print
their manifest lines. Sources (unpacked beforehand):
  NPM/<pkg>/package/...   `npm pack admin-lte@3 startbootstrap-sb-admin-2 startbootstrap-sb-admin gentelella`
  RAW/dj, RAW/fsec        tools/forms/render_django.py and render_flask_security.py output
  RAW/trac                Trac 1.6 pages fetched from `tracd` on a fresh environment (see corpus/README.md)
  SITE                    the site-packages of that venv (Django's and Wagtail's static files, Trac's htdocs)
Usage: python3 import_templates.py NPM RAW CORPUS_FORMS SITE
"""
import os
import re
import shutil
import sys

# name: (source file, label, kind, lang, url the page had on its site)
NPM = {
    "adminlte-login": ("admin-lte-3.2.0/package/pages/examples/login.html", "signin", "login", "en", "https://admin.example.com/login"),
    "adminlte-login-v2": ("admin-lte-3.2.0/package/pages/examples/login-v2.html", "signin", "login", "en", "https://admin.example.com/auth/login"),
    "adminlte-lockscreen": ("admin-lte-3.2.0/package/pages/examples/lockscreen.html", "signin", "lock screen", "en", "https://admin.example.com/lockscreen"),
    "adminlte-register": ("admin-lte-3.2.0/package/pages/examples/register.html", "other", "sign-up", "en", "https://admin.example.com/register"),
    "adminlte-forgot": ("admin-lte-3.2.0/package/pages/examples/forgot-password.html", "other", "password reset", "en", "https://admin.example.com/forgot-password"),
    "adminlte-recover": ("admin-lte-3.2.0/package/pages/examples/recover-password.html", "other", "new password", "en", "https://admin.example.com/recover-password"),
    "adminlte-contact": ("admin-lte-3.2.0/package/pages/examples/contact-us.html", "other", "contact", "en", "https://admin.example.com/contact-us"),
    "adminlte-project-add": ("admin-lte-3.2.0/package/pages/examples/project-add.html", "other", "admin change form", "en", "https://admin.example.com/projects/add"),
    "adminlte-profile": ("admin-lte-3.2.0/package/pages/examples/profile.html", "other", "account settings", "en", "https://admin.example.com/profile"),
    "adminlte-compose": ("admin-lte-3.2.0/package/pages/mailbox/compose.html", "other", "compose message", "en", "https://admin.example.com/mailbox/compose"),
    "adminlte-search": ("admin-lte-3.2.0/package/pages/search/enhanced.html", "other", "search", "en", "https://admin.example.com/search"),
    "adminlte-forms-general": ("admin-lte-3.2.0/package/pages/forms/general.html", "other", "form showcase", "en", "https://admin.example.com/forms/general"),
    "adminlte-forms-validation": ("admin-lte-3.2.0/package/pages/forms/validation.html", "other", "form showcase", "en", "https://admin.example.com/forms/validation"),
    "sbadmin2-login": ("startbootstrap-sb-admin-2-4.1.4/package/login.html", "signin", "login", "en", "https://dashboard.example.com/login.html"),
    "sbadmin2-register": ("startbootstrap-sb-admin-2-4.1.4/package/register.html", "other", "sign-up", "en", "https://dashboard.example.com/register.html"),
    "sbadmin2-forgot": ("startbootstrap-sb-admin-2-4.1.4/package/forgot-password.html", "other", "password reset", "en", "https://dashboard.example.com/forgot-password.html"),
    "sbadmin-login": ("startbootstrap-sb-admin-7.0.7/package/dist/login.html", "signin", "login", "en", "https://panel.example.com/login.html"),
    "sbadmin-register": ("startbootstrap-sb-admin-7.0.7/package/dist/register.html", "other", "sign-up", "en", "https://panel.example.com/register.html"),
    "sbadmin-password": ("startbootstrap-sb-admin-7.0.7/package/dist/password.html", "other", "password reset", "en", "https://panel.example.com/password.html"),
    "gentelella-login": ("gentelella-4.2.0/package/dist/production/login.html", "signin", "login", "en", "https://ops.example.com/production/login.html"),
    "gentelella-2fa": ("gentelella-4.2.0/package/dist/production/verify_2fa.html", "signin", "two-factor step", "en", "https://ops.example.com/production/verify_2fa.html"),
    "gentelella-register": ("gentelella-4.2.0/package/dist/production/register.html", "other", "sign-up", "en", "https://ops.example.com/production/register.html"),
    "gentelella-forgot": ("gentelella-4.2.0/package/dist/production/forgot_password.html", "other", "password reset", "en", "https://ops.example.com/production/forgot_password.html"),
    "gentelella-form": ("gentelella-4.2.0/package/dist/production/form.html", "other", "form showcase", "en", "https://ops.example.com/production/form.html"),
    "gentelella-settings": ("gentelella-4.2.0/package/dist/production/settings.html", "other", "account settings", "en", "https://ops.example.com/production/settings.html"),
    "gentelella-wizard": ("gentelella-4.2.0/package/dist/production/form_wizards.html", "other", "form showcase", "en", "https://ops.example.com/production/form_wizards.html"),
    "gentelella-users": ("gentelella-4.2.0/package/dist/production/user_management.html", "other", "admin list", "en", "https://ops.example.com/production/user_management.html"),
    # Imported after the tuning (split `final` in the manifest).
    "adminlte-forms-advanced": ("admin-lte-3.2.0/package/pages/forms/advanced.html", "other", "form showcase", "en", "https://admin.example.com/forms/advanced"),
    "adminlte-editors": ("admin-lte-3.2.0/package/pages/forms/editors.html", "other", "text editor", "en", "https://admin.example.com/forms/editors"),
    "adminlte-project-edit": ("admin-lte-3.2.0/package/pages/examples/project-edit.html", "other", "admin change form", "en", "https://admin.example.com/projects/7/edit"),
    "adminlte-ecommerce": ("admin-lte-3.2.0/package/pages/examples/e-commerce.html", "other", "product page", "en", "https://admin.example.com/shop/product/1"),
    "adminlte-register-v2": ("admin-lte-3.2.0/package/pages/examples/register-v2.html", "other", "sign-up", "en", "https://admin.example.com/auth/register"),
    "adminlte-forgot-v2": ("admin-lte-3.2.0/package/pages/examples/forgot-password-v2.html", "other", "password reset", "en", "https://admin.example.com/auth/forgot-password"),
    "adminlte-recover-v2": ("admin-lte-3.2.0/package/pages/examples/recover-password-v2.html", "other", "new password", "en", "https://admin.example.com/auth/recover-password"),
    "adminlte-mailbox": ("admin-lte-3.2.0/package/pages/mailbox/mailbox.html", "other", "mailbox search", "en", "https://admin.example.com/mailbox"),
    "adminlte-search-simple": ("admin-lte-3.2.0/package/pages/search/simple.html", "other", "search", "en", "https://admin.example.com/search/simple"),
    "gentelella-form-advanced": ("gentelella-4.2.0/package/dist/production/form_advanced.html", "other", "form showcase", "en", "https://ops.example.com/production/form_advanced.html"),
    "gentelella-form-validation": ("gentelella-4.2.0/package/dist/production/form_validation.html", "other", "form showcase", "en", "https://ops.example.com/production/form_validation.html"),
    "gentelella-form-upload": ("gentelella-4.2.0/package/dist/production/form_upload.html", "other", "file upload", "en", "https://ops.example.com/production/form_upload.html"),
    "gentelella-lock-screen": ("gentelella-4.2.0/package/dist/production/lock_screen.html", "signin", "lock screen", "en", "https://ops.example.com/production/lock_screen.html"),
    "gentelella-chat": ("gentelella-4.2.0/package/dist/production/chat.html", "other", "chat", "en", "https://ops.example.com/production/chat.html"),
    "gentelella-orders": ("gentelella-4.2.0/package/dist/production/orders.html", "other", "admin list search", "en", "https://ops.example.com/production/orders.html"),
    "gentelella-profile": ("gentelella-4.2.0/package/dist/production/profile.html", "other", "account settings", "en", "https://ops.example.com/production/profile.html"),
}

RENDERED = {
    # Django admin (django 5.2)
    "dj-admin-login": ("dj", "signin", "login", "en", "https://site.example.org/admin/login/?next=/admin/"),
    "dj-admin-user-add": ("dj", "other", "admin add user", "en", "https://site.example.org/admin/auth/user/add/"),
    "dj-admin-user-change": ("dj", "other", "admin change form", "en", "https://site.example.org/admin/auth/user/2/change/"),
    "dj-admin-user-password": ("dj", "other", "admin set password", "en", "https://site.example.org/admin/auth/user/2/password/"),
    "dj-admin-password-change": ("dj", "other", "password change", "en", "https://site.example.org/admin/password_change/"),
    "dj-admin-group-add": ("dj", "other", "admin change form", "en", "https://site.example.org/admin/auth/group/add/"),
    "dj-admin-user-list": ("dj", "other", "admin list search", "en", "https://site.example.org/admin/auth/user/?q=jane"),
    # django-allauth
    "allauth-login": ("dj", "signin", "login", "en", "https://site.example.org/accounts/login/"),
    "allauth-signup": ("dj", "other", "sign-up", "en", "https://site.example.org/accounts/signup/"),
    "allauth-password-reset": ("dj", "other", "password reset", "en", "https://site.example.org/accounts/password/reset/"),
    "allauth-login-code": ("dj", "signin", "sign-in code request", "en", "https://site.example.org/accounts/login/code/"),
    "allauth-email": ("dj", "other", "account email settings", "en", "https://site.example.org/accounts/email/"),
    "allauth-password-change": ("dj", "other", "password change", "en", "https://site.example.org/accounts/password/change/"),
    "allauth-reauthenticate": ("dj", "signin", "re-authentication", "en", "https://site.example.org/accounts/reauthenticate/?next=/accounts/email/"),
    "allauth-connections": ("dj", "other", "account connections", "en", "https://site.example.org/accounts/3rdparty/"),
    "allauth-mfa-index": ("dj", "other", "two-factor settings", "en", "https://site.example.org/accounts/2fa/"),
    # django-two-factor-auth
    "twofactor-login": ("dj", "signin", "login", "en", "https://site.example.org/account/login/"),
    "twofactor-setup": ("dj", "other", "two-factor settings", "en", "https://site.example.org/account/two_factor/setup/"),
    # Wagtail admin
    "wagtail-login": ("dj", "signin", "login", "en", "https://cms.example.org/cms/login/?next=/cms/"),
    "wagtail-password-reset": ("dj", "other", "password reset", "en", "https://cms.example.org/cms/password_reset/"),
    "wagtail-account": ("dj", "other", "account settings", "en", "https://cms.example.org/cms/account/"),
    "wagtail-user-add": ("dj", "other", "admin add user", "en", "https://cms.example.org/cms/users/new/"),
    "wagtail-search": ("dj", "other", "admin list search", "en", "https://cms.example.org/cms/pages/search/?q=about"),
    # Flask-Security-Too
    "fsec-login": ("fsec", "signin", "login", "en", "https://app.example.net/login"),
    "fsec-register": ("fsec", "other", "sign-up", "en", "https://app.example.net/register"),
    "fsec-forgot": ("fsec", "other", "password reset", "en", "https://app.example.net/reset"),
    "fsec-confirm": ("fsec", "other", "resend confirmation", "en", "https://app.example.net/confirm"),
    "fsec-us-signin": ("fsec", "signin", "unified sign-in", "en", "https://app.example.net/us-signin"),
    "fsec-recover-username": ("fsec", "other", "username recovery", "en", "https://app.example.net/recover-username"),
    "fsec-change-password": ("fsec", "other", "password change", "en", "https://app.example.net/change"),
    "fsec-change-email": ("fsec", "other", "email change", "en", "https://app.example.net/change-email"),
    "fsec-tf-setup": ("fsec", "other", "two-factor settings", "en", "https://app.example.net/tf-setup"),
    "fsec-us-setup": ("fsec", "other", "sign-in methods settings", "en", "https://app.example.net/us-setup"),
    "fsec-verify": ("fsec", "signin", "re-authentication", "en", "https://app.example.net/verify?next=/change-email"),
    # Trac 1.6
    "trac-newticket": ("trac", "other", "bug report", "en", "https://trac.example.org/newticket"),
    "trac-wiki-edit": ("trac", "other", "wiki edit", "en", "https://trac.example.org/wiki/WikiStart?action=edit"),
    "trac-search": ("trac", "other", "search", "en", "https://trac.example.org/search?q=crash"),
    "trac-prefs": ("trac", "other", "account settings", "en", "https://trac.example.org/prefs"),
    "trac-query": ("trac", "other", "filter", "en", "https://trac.example.org/query?status=!closed"),
    "trac-admin-users": ("trac", "other", "admin permissions", "en", "https://trac.example.org/admin/general/perm"),
    "trac-admin-components": ("trac", "other", "admin change form", "en", "https://trac.example.org/admin/ticket/components"),
    "trac-prefs-datetime": ("trac", "other", "account settings", "en", "https://trac.example.org/prefs/datetime"),
}

SCRIPT = re.compile(r"<script\b.*?</script\s*>", re.S | re.I)
LINK = re.compile(r"<link\b[^>]*>", re.I)


def css_rewriter(src_html, asset_root, asset_prefix, copy_to):
    """Rewrites each local stylesheet link to /assets/<prefix>/<file>, copying the file once."""
    def repl(m):
        tag = m.group(0)
        if "stylesheet" not in tag:
            return "" if "preload" in tag or "modulepreload" in tag else tag
        href = re.search(r'href="([^"]+)"', tag)
        if not href or href.group(1).startswith(("http:", "https:", "//")):
            return ""
        path = href.group(1).split("?")[0]
        if path.startswith("/"):
            src = os.path.join(asset_root, path.lstrip("/"))
        else:
            src = os.path.normpath(os.path.join(os.path.dirname(src_html), path))
        if not os.path.isfile(src):
            return ""
        dest_rel = f"{asset_prefix}/{os.path.basename(path)}"
        dest = os.path.join(copy_to, dest_rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if not os.path.exists(dest):
            shutil.copy(src, dest)
        return f'<link rel="stylesheet" href="/assets/{dest_rel}">'
    return repl


def main():
    npm, raw, out, site = sys.argv[1:5]
    pages, assets = os.path.join(out, "pages"), os.path.join(out, "assets")
    os.makedirs(pages, exist_ok=True)
    roots = {
        "dj": (os.path.join(site, "django/contrib/admin/static"), "django"),
        "fsec": ("/nonexistent", "fsec"),
        "trac": (os.path.join(site, "trac/htdocs"), "trac"),
    }
    lines = []
    for name, (rel, label, kind, lang, url) in NPM.items():
        src = os.path.join(npm, rel)
        pkg = rel.split("/")[0].rsplit("-", 1)[0]
        root = os.path.join(npm, rel.split("/")[0], "package", "dist")
        html = open(src, encoding="utf-8").read()
        html = SCRIPT.sub("", html)
        html = LINK.sub(css_rewriter(src, root, pkg, assets), html)
        open(os.path.join(pages, f"{name}.html"), "w", encoding="utf-8").write(html)
        lines.append((name, label, kind, lang, url, f"npm {pkg}"))
    for name, (folder, label, kind, lang, url) in RENDERED.items():
        src = os.path.join(raw, folder, f"{name}.html")
        html = open(src, encoding="utf-8").read()
        html = SCRIPT.sub("", html)
        html = html.replace('"/chrome/common/', '"/assets/trac/')
        if folder == "dj":
            # Django's static files, wagtail's beside admin's.
            def dj(m, site=site):
                href = re.search(r'href="/assets/([^"?]+)', m.group(0))
                if "stylesheet" not in m.group(0) or not href:
                    return "" if "stylesheet" in m.group(0) else m.group(0)
                rel = href.group(1)
                for base in ("django/contrib/admin/static", "wagtail/admin/static"):
                    s = os.path.join(site, base, rel)
                    if os.path.isfile(s):
                        d = os.path.join(assets, rel)
                        os.makedirs(os.path.dirname(d), exist_ok=True)
                        shutil.copy(s, d)
                        return f'<link rel="stylesheet" href="/assets/{rel}">'
                return ""
            html = LINK.sub(dj, html)
        elif folder == "trac":
            def tr(m, site=site):
                href = re.search(r'href="/assets/trac/([^"?]+)', m.group(0))
                if not href:
                    return "" if "stylesheet" in m.group(0) else m.group(0)
                s = os.path.join(site, "trac/htdocs", href.group(1))
                if not os.path.isfile(s):
                    return ""
                d = os.path.join(assets, "trac", href.group(1))
                os.makedirs(os.path.dirname(d), exist_ok=True)
                shutil.copy(s, d)
                return m.group(0)
            html = LINK.sub(tr, html)
        open(os.path.join(pages, f"{name}.html"), "w", encoding="utf-8").write(html)
        packages = {"dj": "django", "allauth": "django-allauth", "twofactor": "django-two-factor-auth",
                    "wagtail": "wagtail", "fsec": "flask-security-too", "trac": "trac"}
        src_name = "pypi " + packages[name.split("-")[0]]
        lines.append((name, label, kind, lang, url, src_name))
    for l in lines:
        print("\t".join(l))


main()
