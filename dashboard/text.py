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
``@\u200b``): the text looks the same and is no link.  Directives such as ``:red[...]``
need a bracket, which is escaped.
"""

from __future__ import annotations

import re

_ANYWHERE = re.compile(r"([\\`*\[\]<>&~$])")
_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_SCHEME = re.compile(r"(?i)(?<=[a-z0-9]):(?=//)")
_WWW_DOT = re.compile(r"(?i)(?<=www)\.")
_AT = re.compile(r"@")
ZWSP = "\u200b"  # zero-width space: breaks autolinks without changing what is seen
_START = re.compile(r"^([#>+\-=]|\d+(?=[.)]))")
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
    s = _ANYWHERE.sub(r"\\\1", s)
    s = _UNDERSCORE.sub(r"\\_", s)
    s = _SCHEME.sub(":" + ZWSP, s)
    s = _WWW_DOT.sub(ZWSP + ".", s)
    s = _AT.sub("@" + ZWSP, s)
    m = _START.match(s)
    if m:
        s = m.group(1) + "\\" + s[len(m.group(1)) :] if m.group(1).isdigit() else "\\" + s
    return s
