"""Issue 18: user text is plain text in the dashboard.  A shared link with
``name=![t](http://host/pixel.png)`` made every viewer's browser fetch that address."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit
from goodput_lab.dashboard import state
from goodput_lab.dashboard.text import ZWSP, plain

from tests.dashboard._pages import open_page

PIXEL = "![t](http://host.invalid/pixel.png)"
KINDS = ("markdown", "caption", "title", "header", "subheader", "error", "success", "info")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (PIXEL, "!\\[t\\](http:\u200b//host.invalid/pixel.png)"),
        ("[click](javascript:alert(1))", "\\[click\\](javascript:\u200balert(1))"),
        (":red[alarm]", "\\:\u200bred\\[alarm\\]"),
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


# ------------------------------------------------- Streamlit's own Markdown (QA 29 #10)
#: Streamlit's front end (1.67, frontend StreamlitMarkdown) adds constructs to Markdown,
#: several acting on the text after escapes are resolved.  The patterns below are the
#: bundle's own (test_the_renderer_rules_are_still_streamlits checks that they still are);
#: checked in Chromium too: every HOSTILE text below shows exactly as typed, where the
#: escaping before QA 29 #10 altered 11 of 16 (":red[X]" became an empty red span, ":smile:"
#: an emoji, "a -> b" an arrow, "{...}" after ":name" vanished).
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
EMOJI = re.compile(r":\+1:|:-1:|:[\w-]+:", re.ASCII)  # remark-emoji, on text nodes
MATERIAL = re.compile(r":material_(\w+):", re.ASCII)  # after ':material/' -> ':material_'
ARROWS = re.compile(rf"(^|[{JS_SPACE}])(<->|->|<-|--|>=|<=|~=)([{JS_SPACE}]|$)")
BUNDLE_RULES = {
    "remark-emoji": [r"/:\+1:|:-1:|:[\w-]+:/g"],
    "StreamlitMarkdown": [
        "replaceAll(`:material/`,`:material_`)",
        r"/:material_(\w+):/g",
        r"/:streamlit:/g",
        r"[/(^|\s)->(\s|$)/g,`$1→$2`]",
        r"[/(^|\s)--(\s|$)/g,`$1—$2`]",
        "value:`:${e.name}`",  # an unknown directive becomes ':name', its label dropped
    ],
}
HOSTILE = [
    "Team :red[X] plan",
    ":blue[...] and :red-background[b] :blue-badge[b] :small[s] x:help[h] :rainbow[r]",
    ":material/home: and :material_home: T:material/x:",
    ":smile: :+1: :-1: :100: :streamlit: a :x: b",
    "::red[x] leaf",
    "::red",
    ":::red container",
    "a :color{foreground=red}[c] b",
    "3:2{x} 02:00:09",
    "a -> b <- c <-> d -- e >= f <= g ~= h",
    "Cause :red[red] <b>b</b>",
    "https://x.y/:red[z] a\\:red[x]",
]


def _resolved(source: str) -> str:
    """The text CommonMark shows for ``source``: backslash-escaped ASCII punctuation
    stands for itself."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", source)


def _renderer_alters(source: str) -> list[str]:
    """What Streamlit's renderer would make of ``source`` other than plain text (empty if
    nothing): the rules listed in dashboard/text.py."""
    found = []
    unescaped = re.sub(r"\\[!-/:-@\[-`{-~]", "", source)  # escaped characters are text
    if re.search(r":[A-Za-z]", unescaped):
        found.append("a directive with a known name (they all start with an ASCII letter)")
    if re.search(r"[\[{]", unescaped):
        found.append("a directive's [label] or {attributes}")
    if re.match(r" {0,3}::", source):  # an escaped first colon starts no directive
        found.append("a leaf or container directive")
    text = _resolved(source.replace(":material/", ":material_"))
    for name, pattern in (("emoji", EMOJI), ("icon", MATERIAL), ("arrow", ARROWS)):
        if pattern.search(text):
            found.append(f"{name}: {pattern.search(text).group()!r}")
    if ":streamlit:" in text:
        found.append("the Streamlit logo")
    return found


def test_the_renderer_rules_are_still_streamlits():
    """The rules plain() defeats are read from the installed Streamlit's bundle: a new
    Streamlit that changes them fails here, not silently on the pages."""
    js = Path(streamlit.__file__).parent / "static" / "static" / "js"
    for stem, rules in BUNDLE_RULES.items():
        (bundle,) = js.glob(f"{stem}.*.js")
        code = bundle.read_text(encoding="utf-8")
        for rule in rules:
            assert rule in code, (stem, rule)


@pytest.mark.parametrize("text", HOSTILE)
def test_user_text_with_streamlit_directives_shows_exactly_as_typed(text):
    shown = plain(text)
    assert _renderer_alters(shown) == [], shown
    assert _resolved(shown).replace(ZWSP, "") == text


@pytest.mark.parametrize("text", HOSTILE[:4])
def test_the_old_escaping_let_streamlit_alter_these(text):
    """The check above is not vacuous: the escaping before QA 29 #10 fails it."""
    old = re.sub(r"([\\`*\[\]<>&~$])", r"\\\1", text)  # its anywhere-rule, no colon rule
    assert _renderer_alters(old)


def test_a_hostile_scenario_name_is_shown_as_typed_on_the_page():
    name = "Team :red[X] plan :smile: a -> b :material/home:"
    at = open_page("overview", {"preset": "aws-16k-h100", "name": name})
    (head,) = [c.value for c in at.caption if c.value.startswith("Scenario:")]
    assert f"**{plain(name)}**" in head
    assert _renderer_alters(head.replace("**", "")) == []
