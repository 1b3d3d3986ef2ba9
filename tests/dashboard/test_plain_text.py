"""Issue 18: user text is plain text in the dashboard.  A shared link with
``name=![t](http://host/pixel.png)`` made every viewer's browser fetch that address."""

from __future__ import annotations

import pytest
from goodput_lab.dashboard import state
from goodput_lab.dashboard.text import plain

from tests.dashboard._pages import open_page

PIXEL = "![t](http://host.invalid/pixel.png)"
KINDS = ("markdown", "caption", "title", "header", "subheader", "error", "success", "info")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (PIXEL, "!\\[t\\](http:\u200b//host.invalid/pixel.png)"),
        ("[click](javascript:alert(1))", r"\[click\](javascript:alert(1))"),
        (":red[alarm]", r":red\[alarm\]"),
        (
            "$x^2$ and **bold** _it_ `code` ~~s~~",
            r"\$x^2\$ and \*\*bold\*\* \_it\_ \`code\` \~\~s\~\~",
        ),
        ("<img src=x onerror=alert(1)>", r"\<img src=x onerror=alert(1)\>"),
        ("a\n# heading\n- item\n\n    code", "a # heading - item code"),
        ("# heading", r"\# heading"),
        ("- item", r"\- item"),
        ("1. first", r"1\. first"),
        ("> quote", r"\> quote"),
        (
            "&copy; www.evil.example a@b.example",
            "\\&copy; www\u200b.evil.example a@\u200bb.example",
        ),
        (
            "cluster.nodes: 'x' (allowed: [1, 2]) node_failure_rate",
            r"cluster.nodes: 'x' (allowed: \[1, 2\]) node_failure_rate",
        ),
        ("plain words stay 2024", "plain words stay 2024"),
    ],
)
def test_plain_escapes_every_markdown_construct(text, shown):
    assert plain(text) == shown


def test_plain_cuts_long_text():
    assert plain("x" * 5000) == "x" * 1997 + "..."


def _shown(at) -> list[str]:
    return [str(el.value) for kind in KINDS for el in at.get(kind) if hasattr(el, "value")]


@pytest.mark.parametrize(
    "page", ["overview", "sensitivity", "network", "checkpoints", "montecarlo"]
)
def test_issue18_markdown_in_a_linked_name_is_shown_as_text(page):
    at = open_page(page, {"preset": "aws-16k-h100", "name": PIXEL})
    texts = [t for t in _shown(at) if "pixel" in t]
    assert texts, "the page should show the scenario's name"
    for t in texts:
        assert "![t](" not in t, t  # never an image in Markdown
        assert "!\\[t\\](http:\u200b//host.invalid/pixel.png)" in t


def test_issue18_markdown_in_a_description_is_shown_as_text():
    at = open_page("overview")
    at.session_state[state.DESC_KEY] = PIXEL + " [x](http://e.invalid)"  # as an upload sets it
    at.run()
    texts = [t for t in _shown(at) if "pixel" in t]
    assert texts == [
        "!\\[t\\](http:\u200b//host.invalid/pixel.png) \\[x\\](http:\u200b//e.invalid)"
    ]


def test_issue18_error_messages_echo_link_values_as_text():
    """A bad value in a link is echoed in the message; as text, not Markdown."""
    at = open_page("overview", {"preset": "aws-16k-h100", "cluster.nodes": "![t](x.png)"})
    errors = [e.value for e in at.error]
    assert errors and all("![t](" not in e for e in errors)
    assert any(r"!\[t\](x.png)" in e for e in errors)
