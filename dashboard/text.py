"""User text shown as plain text: no Markdown, links, images, colours or maths.

Streamlit renders Markdown in titles, captions, messages, metric labels and help tooltips,
so a scenario named ``![t](http://host/pixel.png)`` would make every viewer's browser fetch
that address.  Every piece of text that comes from a user (a scenario's name and
description, an uploaded file's name, a value echoed in an error message, a catalog's
source notes) goes through :func:`plain` before it reaches such an element.
"""

from __future__ import annotations

import re

#: ASCII punctuation that Markdown, GitHub extensions (tables, strikethrough, autolinks),
#: Streamlit directives (``:red[...]``, ``:material/...:``) or maths (``$...$``) give a
#: meaning to; CommonMark shows any backslash-escaped ASCII punctuation literally.
_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:&=^\"'])")
#: Longest user text shown in one element (a link or upload may carry more).
MAX_CHARS = 2000


def plain(text: object, limit: int = MAX_CHARS) -> str:
    """``text`` escaped so that Streamlit shows it literally (cut to ``limit`` characters).

    >>> plain("![t](http://host/pixel.png)")
    '\\\\!\\\\[t\\\\]\\\\(http\\\\://host/pixel\\\\.png\\\\)'
    """
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 3] + "..."
    s = _SPECIAL.sub(r"\\\1", s)
    # a line break would start a new block (a heading, a list, an indented code block)
    return re.sub(r"\s*\n\s*", " ", s)
