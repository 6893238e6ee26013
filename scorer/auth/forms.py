"""Forms for organiser accounts."""

from wtforms import EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import EqualTo, InputRequired, Length, Regexp

from scorer.domain.limits import MAX_EMAIL, MAX_ORGANISER_NAME, MAX_PASSWORD, MAX_SETUP_CODE
from scorer.i18n.words import lazy_gettext as _l
from scorer.web.forms import Form

EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message=_l("Not a valid e-mail address"))


class LoginForm(Form):
    email = EmailField(_l("E-mail"), [InputRequired(), Length(max=MAX_EMAIL)])
    password = PasswordField(_l("Password"), [InputRequired(), Length(max=MAX_PASSWORD)])
    submit = SubmitField(_l("Log in"))


class SignupForm(Form):
    setup_code = StringField(
        _l("Setup code"),
        [
            InputRequired(message=_l("The code from the server window is missing")),
            Length(max=MAX_SETUP_CODE),
        ],
        description=_l("Shown in the window where the server was started (make run)."),
    )
    name = StringField(_l("Name"), [InputRequired(), Length(max=MAX_ORGANISER_NAME)])
    email = EmailField(_l("E-mail"), [InputRequired(), EMAIL, Length(max=MAX_EMAIL)])
    password = PasswordField(
        _l("Password"),
        [InputRequired(), Length(min=8, max=200, message=_l("At least 8 characters"))],
    )
    confirm = PasswordField(
        _l("Repeat password"),
        [EqualTo("password", message=_l("The passwords do not match"))],
    )
    submit = SubmitField(_l("Create account"))
