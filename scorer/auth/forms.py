"""Forms for organiser accounts."""

from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import EqualTo, InputRequired, Length, Regexp

EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Keine gültige E-Mail-Adresse")


class LoginForm(FlaskForm):
    email = EmailField("E-Mail", [InputRequired(), Length(max=200)])
    password = PasswordField("Passwort", [InputRequired(), Length(max=200)])
    submit = SubmitField("Anmelden")


class SignupForm(FlaskForm):
    setup_code = StringField(
        "Einrichtungscode",
        [InputRequired(message="Der Code aus dem Serverfenster fehlt"), Length(max=40)],
        description="Steht im Fenster, in dem der Server gestartet wurde (make run).",
    )
    name = StringField("Name", [InputRequired(), Length(max=80)])
    email = EmailField("E-Mail", [InputRequired(), EMAIL, Length(max=200)])
    password = PasswordField(
        "Passwort", [InputRequired(), Length(min=8, max=200, message="Mindestens 8 Zeichen")]
    )
    confirm = PasswordField(
        "Passwort wiederholen",
        [EqualTo("password", message="Die Passwörter stimmen nicht überein")],
    )
    submit = SubmitField("Konto anlegen")
