"""The project's own references (docs/references.md) stay in step with the code.

* the bibliography of docs/references.md lists exactly the keys of
  ``models.references.REFERENCES``, each with its DOI/arXiv id/URL;
* no tracked file outside tests/ cites the internal design notes or an absolute path that
  users do not have (every citation points into the repository or to the source itself);
* every ``docs/references.md#<anchor>`` link, in any tracked file, and every ``(#anchor)`` link
  inside the page lands on a heading of the page;
* every output of the registry cites a bibliography key or, when it is our own derivation,
  is explained on the page;
* the headline figures quoted on the page are the ones the model computes.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from goodput_lab.models.outputs import OUTPUTS
from goodput_lab.models.references import REFERENCES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "references.md"

#: What users never see: the internal notes and absolute paths of the build machine.
FORBIDDEN = ("REFERENCES.md", "DESIGN.md", "STYLE.md", "/work/")


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _section(title: str) -> str:
    """Body of the ``## title`` section (up to the next level-2 heading)."""
    text = _text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def slug(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Anchors of every Markdown heading (outside code blocks), with GitHub's -1, -2 ... for
    repeated headings."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if in_code or not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


@cache
def tracked_text_files() -> tuple[tuple[str, str], ...]:
    """(path, text) of every tracked UTF-8 file; skips the test when git is unavailable."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip("not a git checkout")
    files = []
    for name in out.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        try:
            files.append((name, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue  # images and other binary files
    return tuple(files)


# --------------------------------------------------------------------------- bibliography
def bibliography() -> dict[str, str]:
    """``{key: entry text}`` of the page's bibliography (``- `key`: ...`` items)."""
    entries: dict[str, str] = {}
    key = None
    for line in _section("Bibliography").splitlines():
        m = re.match(r"^- `([A-Za-z0-9_]+)`:\s*(.*)$", line)
        if m:
            key = m.group(1)
            assert key not in entries, f"{key} listed twice in the bibliography"
            entries[key] = m.group(2)
        elif key and line.startswith("  "):
            entries[key] += " " + line.strip()
        else:
            key = None
    return entries


def test_bibliography_keys_are_the_reference_keys():
    bib = bibliography()
    missing = sorted(set(REFERENCES) - set(bib))
    extra = sorted(set(bib) - set(REFERENCES))
    assert not missing, f"in models/references.py but not in the page's bibliography: {missing}"
    assert not extra, f"in the page's bibliography but not in models/references.py: {extra}"


def test_bibliography_entries_carry_the_same_identifier():
    bib = bibliography()
    wrong = {k: r.where for k, r in REFERENCES.items() if r.where not in bib.get(k, "")}
    assert not wrong, f"bibliography entries without the DOI/arXiv/URL of references.py: {wrong}"


def test_every_key_cited_on_the_page_is_in_the_bibliography():
    body = _text().split("\n## Bibliography\n")[0]
    cited = set(re.findall(r"`([a-z][a-z0-9_]*\d{4}|[a-z][a-z0-9]*_[a-z0-9_]+)`", body))
    candidates = {c for c in cited if c in REFERENCES or re.search(r"\d{4}$", c)}
    unknown = sorted(c for c in candidates if c not in REFERENCES)
    assert not unknown, f"keys cited on the page but not in the bibliography: {unknown}"


# --------------------------------------------------------------------------- citations
def test_no_tracked_file_outside_tests_cites_internal_notes_or_absolute_paths():
    bad = [
        f"{name}:{i}: {line.strip()[:100]}"
        for name, text in tracked_text_files()
        if not name.startswith("tests/")
        for i, line in enumerate(text.splitlines(), 1)
        if any(f in line for f in FORBIDDEN)
    ]
    assert not bad, "cite docs/references.md#<anchor> or the original source instead:\n" + (
        "\n".join(bad)
    )


def test_slug_follows_github():
    assert slug("Failures and MTBF") == "failures-and-mtbf"
    assert slug("First order vs exact") == "first-order-vs-exact"
    assert slug("Failure-log fitting") == "failure-log-fitting"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


def test_every_link_into_the_page_lands_on_a_heading():
    targets = anchors(_text())
    broken = []
    for name, text in tracked_text_files():
        for anchor in re.findall(r"docs/references\.md#([A-Za-z0-9_\-]+)", text):
            if anchor not in targets:
                broken.append(f"{name}: #{anchor}")
    for anchor in re.findall(r"\]\(#([^)\s]+)\)", _text()):
        if anchor not in targets:
            broken.append(f"docs/references.md: #{anchor}")
    assert not broken, "links to anchors that are not headings of docs/references.md:\n" + (
        "\n".join(sorted(set(broken)))
    )


def test_the_page_is_linked_from_the_readme():
    assert "docs/references.md" in (ROOT / "README.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- outputs
def test_every_output_reference_resolves():
    bib = bibliography()
    bad = {
        o.key: o.reference
        for o in OUTPUTS.values()
        if o.reference not in ("", "derived")
        and (o.reference not in REFERENCES or o.reference not in bib)
    }
    assert not bad, f"outputs citing keys missing from the references or the page: {bad}"


def test_derived_outputs_are_explained_on_the_page():
    """An output whose reference is "derived" sends the reader to docs/references.md: the
    page must name it (the index of reported figures points to its section)."""
    text = _text()
    missing = sorted(
        o.key for o in OUTPUTS.values() if o.reference == "derived" and f"`{o.key}`" not in text
    )
    assert not missing, f"derived outputs the page does not explain: {missing}"


def test_outputs_named_in_the_index_exist():
    index = _section("Index of reported figures")
    named = set(re.findall(r"`([a-z][a-z0-9_]*)`", index))
    stale = sorted(k for k in named if k not in OUTPUTS)
    assert not stale, f"the index names outputs the registry no longer has: {stale}"


# --------------------------------------------------------------------------- headline
def test_headline_figures_on_the_page_are_computed_ones():
    from goodput_lab.models.evaluate import compare, evaluate
    from goodput_lab.models.outputs import format_savings, format_value
    from goodput_lab.models.scenario import resolve_scenario

    base = evaluate(resolve_scenario("aws-16k-h100"))
    cand = evaluate(resolve_scenario("aws-16k-h100-improved"))
    section = _section("Headline claim")
    for ev in (base, cand):
        assert format_value("goodput", ev["goodput"]) in section
    cmp = compare(resolve_scenario("aws-16k-h100"), resolve_scenario("aws-16k-h100-improved"))
    assert format_value("goodput_delta", cmp.goodput_delta) in section
    saved = format_savings(cmp.savings_usd_per_day).removeprefix("saves ").removesuffix("/day")
    assert saved in section
