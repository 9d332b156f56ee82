#!/usr/bin/env python3
"""Dev-only: render the form pages of Django apps' own templates (Django's admin, django-allauth,
django-two-factor-auth, Wagtail's admin) into static HTML for corpus/forms/, through Django's test
client on a throw-away project (sqlite in a temp folder). Needs a venv with:
  pip install "django==5.2.*" django-allauth django-two-factor-auth wagtail
Usage: python render_django.py OUT_DIR   (writes OUT_DIR/<name>.html and prints "name<TAB>url" lines)
"""
import os
import sys
import tempfile

TMP = tempfile.mkdtemp(prefix="forms-dj-")
sys.path.insert(0, TMP)
with open(os.path.join(TMP, "formsite_urls.py"), "w") as f:
    f.write('''
from django.contrib import admin
from django.urls import include, path
from wagtail.admin import urls as wagtailadmin_urls
from two_factor.urls import urlpatterns as tf_urls
urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("cms/", include(wagtailadmin_urls)),
    path("", include(tf_urls)),
]
''')

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="corpus-forms",
    ALLOWED_HOSTS=["*"],
    ROOT_URLCONF="formsite_urls",
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(TMP, "db.sqlite3")}},
    INSTALLED_APPS=[
        "django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
        "django.contrib.messages", "django.contrib.staticfiles", "django.contrib.sites",
        "allauth", "allauth.account", "allauth.socialaccount", "allauth.socialaccount.providers.google",
        "allauth.socialaccount.providers.github", "allauth.mfa",
        "django_otp", "django_otp.plugins.otp_static", "django_otp.plugins.otp_totp", "two_factor",
        "wagtail.contrib.forms", "wagtail.contrib.redirects", "wagtail.embeds", "wagtail.sites", "wagtail.users",
        "wagtail.snippets", "wagtail.documents", "wagtail.images", "wagtail.search", "wagtail.admin", "wagtail",
        "modelcluster", "taggit",
    ],
    MIDDLEWARE=[
        "django.contrib.sessions.middleware.SessionMiddleware", "django.middleware.common.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django_otp.middleware.OTPMiddleware", "django.contrib.messages.middleware.MessageMiddleware",
        "allauth.account.middleware.AccountMiddleware",
    ],
    TEMPLATES=[{
        "BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": True,
        "OPTIONS": {"context_processors": [
            "django.template.context_processors.request", "django.contrib.auth.context_processors.auth",
            "django.contrib.messages.context_processors.messages"]},
    }],
    AUTHENTICATION_BACKENDS=["django.contrib.auth.backends.ModelBackend",
                             "allauth.account.auth_backends.AuthenticationBackend"],
    SITE_ID=1,
    TWO_FACTOR_PATCH_ADMIN=False,
    STATIC_URL="/assets/",
    USE_TZ=True,
    WAGTAIL_SITE_NAME="Corpus",
    WAGTAILADMIN_BASE_URL="http://example.org",
    ACCOUNT_LOGIN_BY_CODE_ENABLED=True,
    ACCOUNT_EMAIL_VERIFICATION="optional",
    SOCIALACCOUNT_PROVIDERS={
        "google": {"APPS": [{"client_id": "x", "secret": "y", "key": ""}]},
        "github": {"APPS": [{"client_id": "x", "secret": "y", "key": ""}]},
    },
    MFA_SUPPORTED_TYPES=["totp", "recovery_codes"],
    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
)
django.setup()

from django.core.management import call_command  # noqa: E402

call_command("migrate", verbosity=0)

from django.contrib.auth.models import Group, User  # noqa: E402
from django.test import Client  # noqa: E402

admin = User.objects.create_superuser("admin", "admin@example.org", "Corpus-pass-1")
User.objects.create_user("jane", "jane@example.org", "Corpus-pass-2", first_name="Jane", last_name="Doe")
Group.objects.get_or_create(name="Editors")

# name, url, signed in, label, kind
PAGES = [
    ("dj-admin-login", "/admin/login/?next=/admin/", False),
    ("dj-admin-user-add", "/admin/auth/user/add/", True),
    ("dj-admin-user-change", "/admin/auth/user/2/change/", True),
    ("dj-admin-user-password", "/admin/auth/user/2/password/", True),
    ("dj-admin-password-change", "/admin/password_change/", True),
    ("dj-admin-group-add", "/admin/auth/group/add/", True),
    ("dj-admin-user-list", "/admin/auth/user/?q=jane", True),
    ("allauth-login", "/accounts/login/", False),
    ("allauth-signup", "/accounts/signup/", False),
    ("allauth-password-reset", "/accounts/password/reset/", False),
    ("allauth-login-code", "/accounts/login/code/", False),
    ("allauth-email", "/accounts/email/", True),
    ("allauth-password-change", "/accounts/password/change/", True),
    ("allauth-reauthenticate", "/accounts/reauthenticate/", True),
    ("allauth-connections", "/accounts/3rdparty/", True),
    ("allauth-mfa-index", "/accounts/2fa/", True),
    ("twofactor-login", "/account/login/", False),
    ("twofactor-setup", "/account/two_factor/setup/", True),
    ("wagtail-login", "/cms/login/", False),
    ("wagtail-password-reset", "/cms/password_reset/", False),
    ("wagtail-account", "/cms/account/", True),
    ("wagtail-user-add", "/cms/users/new/", True),
    ("wagtail-search", "/cms/pages/search/?q=about", True),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, url, signed_in in PAGES:
        c = Client()
        if signed_in:
            c.force_login(admin, backend="django.contrib.auth.backends.ModelBackend")
        r = c.get(url, follow=True)
        if r.status_code != 200:
            print(f"# {name}: HTTP {r.status_code} at {url}", file=sys.stderr)
            continue
        final = r.redirect_chain[-1][0] if r.redirect_chain else url
        if final != url:
            print(f"# {name}: redirected to {final}", file=sys.stderr)
        with open(os.path.join(out, f"{name}.html"), "wb") as f:
            f.write(r.content)
        print(f"{name}\t{final}")


main()
