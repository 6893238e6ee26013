"""German and English. `words`: the one façade over Babel's catalogues and locales, without
Flask (`gettext`, `ngettext`, `lazy_gettext`, `speaking(lang)`): pages, papers, the forms
and the command line say everything through it; `catalogue`: the engine's messages said;
`formats`: money, numbers and signs per locale; `reader`: the reader's language in a
request (`?lang=`, the device's cookie, Accept-Language) and the templates' words in it;
`http_errors`: HTTP errors in the reader's words."""
