#!/usr/bin/env python3
"""Dev-only: render Flask-Security-Too's own templates (sign-in, sign-up, password and account
forms, two-factor, unified sign-in) into static HTML for corpus/forms/, through Flask's test client.
Needs a venv with: pip install flask-security-too flask-sqlalchemy
Usage: python render_flask_security.py OUT_DIR   (prints "name<TAB>url" lines)
"""
import os
import sys

from flask import Flask
from flask_security import Security, SQLAlchemyUserDatastore, hash_password
from flask_security.models import fsqla_v3 as fsqla
from flask_sqlalchemy import SQLAlchemy

app = Flask(__name__)
app.config.update(
    SECRET_KEY="corpus-forms",
    SECURITY_PASSWORD_SALT="corpus",
    SQLALCHEMY_DATABASE_URI="sqlite://",
    WTF_CSRF_ENABLED=False,
    SECURITY_REGISTERABLE=True,
    SECURITY_RECOVERABLE=True,
    SECURITY_CHANGEABLE=True,
    SECURITY_CONFIRMABLE=True,
    SECURITY_PASSWORDLESS=False,
    SECURITY_TWO_FACTOR=True,
    SECURITY_TWO_FACTOR_ENABLED_METHODS=["authenticator", "email"],
    SECURITY_UNIFIED_SIGNIN=True,
    SECURITY_US_ENABLED_METHODS=["password", "email", "authenticator"],
    SECURITY_CHANGE_EMAIL=True,
    SECURITY_USERNAME_ENABLE=True,
    SECURITY_USERNAME_RECOVERY=True,
    SECURITY_MULTI_FACTOR_RECOVERY_CODES=True,
    SECURITY_TOTP_SECRETS={"1": "TjQ9Qa31VOrfEzuPy4VHQWPCTmRzCnFzMKLxXYiZu9B"},
    SECURITY_TOTP_ISSUER="Corpus",
)
db = SQLAlchemy(app)
fsqla.FsModels.set_db_info(db)


class Role(db.Model, fsqla.FsRoleMixin):
    pass


class User(db.Model, fsqla.FsUserMixin):
    pass


store = SQLAlchemyUserDatastore(db, User, Role)
Security(app, store)

PAGES = [
    ("fsec-login", "/login", False),
    ("fsec-register", "/register", False),
    ("fsec-forgot", "/reset", False),
    ("fsec-confirm", "/confirm", False),
    ("fsec-us-signin", "/us-signin", False),
    ("fsec-recover-username", "/recover-username", False),
    ("fsec-change-password", "/change", True),
    ("fsec-change-email", "/change-email", True),
    ("fsec-tf-setup", "/tf-setup", True),
    ("fsec-us-setup", "/us-setup", True),
    ("fsec-verify", "/verify", True),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with app.app_context():
        db.create_all()
        store.create_user(email="jane@example.org", username="jane", password=hash_password("Corpus-pass-2"),
                          confirmed_at=__import__("datetime").datetime.now())
        db.session.commit()
    for name, url, signed_in in PAGES:
        c = app.test_client()
        if signed_in:
            c.post("/login", data={"email": "jane@example.org", "password": "Corpus-pass-2"})
        r = c.get(url, follow_redirects=True)
        final = r.request.path
        if r.status_code != 200:
            print(f"# {name}: HTTP {r.status_code} at {url}", file=sys.stderr)
            continue
        if final != url:
            print(f"# {name}: ended at {final}", file=sys.stderr)
        with open(os.path.join(out, f"{name}.html"), "wb") as f:
            f.write(r.data)
        print(f"{name}\t{final}")


main()
