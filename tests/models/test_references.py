"""The bibliography's years (models.references.Reference.year), read by the Resilience page's
"Sources by rung" and the report: the work's own year, not one a remark in the citation cites
(QA pass 24: Erlang's loss formula was shown as "A. K. Erlang 1975", the year of Kleinrock's
book that its remark names)."""

from __future__ import annotations

from goodput_lab.models.references import REFERENCES, Reference


def test_the_year_is_the_works_not_a_remarks():
    assert REFERENCES["erlang1917"].year == "1917"
    assert REFERENCES["kokolis2024"].year == "2024"  # "2024, HPCA 2025": the preprint's year
    assert REFERENCES["stepfun_trace2025"].year == "2025"
    assert REFERENCES["daly2006"].year == "2006"


def test_a_citation_without_a_year_has_none():
    assert (
        Reference("k", "Vendor documentation, 'Some page' (read 2026-09)", "https://x").year == ""
    )
    assert Reference("k", "A. B., 'Title' (remark 1999), Journal 2001", "doi:1").year == "2001"
