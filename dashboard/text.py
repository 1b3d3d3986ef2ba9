"""User text shown as plain text: no Markdown, links, images, colours or maths.

Streamlit renders Markdown in titles, captions, messages, metric labels and help tooltips,
so a scenario named ``![t](http://host/pixel.png)`` would make every viewer's browser fetch
that address.  Every piece of text that comes from a user (a scenario's name and
description, an uploaded file's name, a value echoed in an error message, a catalog's
source notes) goes through :func:`plain` before it reaches such an element.

CommonMark shows any backslash-escaped ASCII punctuation literally, so :func:`plain`
escapes exactly the characters that could start a construct, and leaves the rest (dots in
field names, parentheses, intra-word underscores) readable in the source:

* anywhere: ``\\ ` * [ ] < > & ~ $`` (emphasis, code, links and images, raw HTML and
  autolinks, entities, strikethrough, maths);
* ``_`` at a word boundary (emphasis; ``node_failure_rate`` cannot be emphasis);
* at the start only: ``# > + - =`` and ``1.``/``1)`` (headings, quotes, lists);
* line breaks fold into spaces (a new line could start any block), leading spaces go.

Streamlit turns bare ``http://``, ``www.`` and e-mail addresses into links after escapes
are resolved, so those get a zero-width space (``scheme:\u200b//``, ``www\u200b.``,
``@\u200b``): the text looks the same and is no link.

Streamlit's renderer (frontend ``StreamlitMarkdown``, 1.67) adds its own constructs, and
several act on the text after escapes are resolved, where a backslash cannot reach them (QA
29 #10: ``Team :red[X] plan`` showed as "Team [X] plan", ``:red`` an empty coloured span):

* directives ``:name``, ``:name[...]``, ``:name{...}`` (colours, ``:small``, ``:help``,
  badges; an unknown name keeps ``:name`` but drops what follows it) need an ASCII letter
  right after the colon;
* ``:material/icon:`` (the source's ``:material/`` becomes ``:material_``, then
  ``/:material_(\\w+):/`` on the text), ``:streamlit:`` and emoji shortcodes
  (``/:\\+1:|:-1:|:[\\w-]+:/`` on the text) need a name right after the colon;
* ``<->``, ``->``, ``<-``, ``--``, ``>=``, ``<=`` and ``~=`` between spaces become arrows and
  signs (``→``, ``—``, ``≥`` ...).

So a zero-width space goes after a colon followed by a letter, or by the name and colon of
a shortcode, and inside each such pair between spaces: it shows as nothing, and none of
these constructs can form (tests/dashboard/test_plain_text.py reads the rules from the
installed Streamlit bundle and checks the escaped text against them).
"""

from __future__ import annotations

import re

_ANYWHERE = re.compile(r"([\\`*\[\]<>&~${])")
_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_SCHEME = re.compile(r"(?i)(?<=[a-z0-9]):(?=//)")
_WWW_DOT = re.compile(r"(?i)(?<=www)\.")
_AT = re.compile(r"@")
ZWSP = "\u200b"  # zero-width space: breaks autolinks without changing what is seen
_START = re.compile(r"^([#>+\-=:]|\d+(?=[.)]))")
#: A colon that would start a Streamlit directive (``:red[``) or shortcode (``:smile:``,
#: ``:material/x:``); ASCII only, as the renderer's patterns are.
_COLON = re.compile(r":(?=[A-Za-z]|[\w+-]+:)", re.ASCII)
#: The renderer's whitespace (JavaScript's ``\s``) around the pairs it replaces.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_PAIR = re.compile(rf"(?<![^{_JS_SPACE}])(?:<->|->|<-|--|>=|<=|~=)(?![^{_JS_SPACE}])")
#: Longest user text shown in one element (a link or upload may carry more).
MAX_CHARS = 2000


def plain(text: object, limit: int = MAX_CHARS) -> str:
    """``text`` escaped so that Streamlit shows it literally (cut to ``limit`` characters).

    >>> plain("![t](http://host/x.png)") == "!\\\\[t\\\\](http:\\u200b//host/x.png)"
    True
    """
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 3] + "..."
    s = re.sub(r"\s*[\r\n]+\s*", " ", s).lstrip()
    s = _PAIR.sub(lambda m: m.group()[0] + ZWSP + m.group()[1:], s)
    s = _COLON.sub(":" + ZWSP, s)
    s = _ANYWHERE.sub(r"\\\1", s)
    s = _UNDERSCORE.sub(r"\\_", s)
    s = _SCHEME.sub(":" + ZWSP, s)
    s = _WWW_DOT.sub(ZWSP + ".", s)
    s = _AT.sub("@" + ZWSP, s)
    m = _START.match(s)
    if m:
        s = m.group(1) + "\\" + s[len(m.group(1)) :] if m.group(1).isdigit() else "\\" + s
    return s
