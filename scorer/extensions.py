"""The Flask extensions, unbound; `create_app` binds them."""

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
login_manager = LoginManager()
limiter = Limiter(key_func=get_remote_address, default_limits=[])
"""Its storage is the setting RATELIMIT_STORAGE_URI: memory by default (one process),
Redis or Memcached where several processes must share the counts."""


def rate_limits_off() -> bool:
    """Per app: `RATE_LIMITS = False` (tests) exempts its requests. Flask-Limiter's own
    switch lives on the shared Limiter object, so a second app would flip it for all."""
    return not current_app.config.get("RATE_LIMITS", True)
