"""German and English. `words`: the catalogues and locales, without Flask (what a printed
paper needs too); `catalogue`: the engine's messages said; `formats`: money, numbers and
signs per locale; `reader`: the reader's language in a request (Flask-Babel, `?lang=`,
the device's cookie, Accept-Language); `http_errors`: HTTP errors in the reader's words."""
