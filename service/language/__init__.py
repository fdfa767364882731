"""The table's languages: English, 简体中文 (zh_Hans) and 日本語 (ja).

One source of translations: the gettext catalogs in ``translations/<locale>/LC_MESSAGES``
(``messages.po``, compiled to ``messages.mo``), extracted from the code by ``pybabel`` (see
``babel.cfg`` and ``make translations``). The server reads them through flask-babel, the CLI and
the pages' JavaScript through :mod:`service.language.catalogs`. Machine-read fields (codes,
action and event types, card and prop ids) never change with the language.
"""
