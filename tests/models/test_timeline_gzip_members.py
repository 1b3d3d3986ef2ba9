"""A gzip timeline of several members (concatenated ``.gz`` files, rotated logs, bgzip) is
read whole, as ``zcat`` and :func:`gzip.decompress` read it, and the decompressed-size cap
holds over all the members together (QA pass 29, defect 2: the first member alone was
read, and the example run split in two members measured 0.39% for 79.41%)."""

from __future__ import annotations

import gzip

import pytest
from goodput_lab.models import ValidationError
from goodput_lab.models.reconcile import stated_timeline_nodes
from goodput_lab.models.timeline import _gunzip, gzip_head, measure, parse_timeline

from tests.conftest import DATA_DIR
from tests.models.test_timeline import HAND, HAND_BUCKETS

EXAMPLE = DATA_DIR / "timelines" / "example-run.csv"


def _members(*parts: bytes) -> bytes:
    return b"".join(gzip.compress(p, mtime=0) for p in parts)


def test_the_example_run_in_two_gzip_members_measures_as_the_plain_file():
    lines = EXAMPLE.read_bytes().splitlines(keepends=True)
    # the QA repro: the first 40 lines and the last (job_end) in one member, the rest after
    first, second = b"".join(lines[:40] + lines[-1:]), b"".join(lines[40:-1])
    data = _members(first, second)
    assert gzip.decompress(data) == first + second
    plain = measure(parse_timeline(first + second))
    both = measure(parse_timeline(data))
    assert plain.goodput == pytest.approx(0.794051, abs=1e-6)  # the example's stated truth
    assert both.goodput == plain.goodput
    assert dict(both.bucket_seconds) == dict(plain.bucket_seconds)
    assert parse_timeline(data).rows == 7977


@pytest.mark.parametrize("cut", [1, 5, 12])
def test_a_run_split_anywhere_into_members_reads_the_same(cut):
    lines = HAND.encode().splitlines(keepends=True)
    data = _members(b"".join(lines[:cut]), b"".join(lines[cut:]))
    m = measure(parse_timeline(data))
    assert dict(m.bucket_seconds) == pytest.approx(HAND_BUCKETS, abs=1e-9)


def test_zero_padding_between_members_and_an_empty_last_member_are_skipped():
    # gzip.decompress skips zero bytes after a member; bgzip ends with an empty member
    lines = HAND.encode().splitlines(keepends=True)
    data = (
        gzip.compress(b"".join(lines[:8]))
        + b"\x00" * 700
        + gzip.compress(b"".join(lines[8:]))
        + gzip.compress(b"")
    )
    assert _gunzip(data, 10_000) == gzip.decompress(data) == HAND.encode()
    m = measure(parse_timeline(data))
    assert dict(m.bucket_seconds) == pytest.approx(HAND_BUCKETS, abs=1e-9)


def test_a_chain_of_members_cannot_pass_the_decompressed_size_cap():
    # each member is under the cap; together they are over it
    member = gzip.compress(b"0" * 400_000)
    assert len(member) < 1_000
    with pytest.raises(ValidationError, match="decompresses to more than 1,000,000 bytes"):
        parse_timeline(member * 3, max_bytes=1_000_000)
    # at the cap exactly: accepted (2 x 500,000 bytes)
    assert len(_gunzip(gzip.compress(b"0" * 500_000) * 2, 1_000_000)) == 1_000_000
    with pytest.raises(ValidationError, match="decompresses to more than 999,999 bytes"):
        _gunzip(gzip.compress(b"0" * 500_000) * 2, 999_999)
    # many tiny members are counted together too: 9,000 of 200 bytes, 1.8 MB
    tiny = gzip.compress(b"1" * 200, mtime=0)
    assert len(_gunzip(tiny * 5_000, 1_000_000)) == 1_000_000
    with pytest.raises(ValidationError, match="decompresses to more than 1,000,000 bytes"):
        _gunzip(tiny * 9_000, 1_000_000)


def test_a_bad_or_cut_later_member_is_refused():
    whole = gzip.compress(HAND.encode())
    with pytest.raises(ValidationError, match="truncated gzip"):
        parse_timeline(whole + whole[:-12])
    with pytest.raises(ValidationError, match="not a valid gzip file"):
        parse_timeline(whole + b"not gzip at all")


def test_the_node_count_comment_is_found_in_a_later_member():
    body = "timestamp,event,step\n2024-01-01T00:00:00Z,job_start,\n"
    data = _members(b"# SYNTHETIC\n", b"# nodes=48\n" + body.encode())
    assert gzip_head(data, 64 * 1024) == b"# SYNTHETIC\n# nodes=48\n" + body.encode()
    assert stated_timeline_nodes(data) == 48
    assert gzip_head(data, 5) == b"# SYN"  # the head only: no refusal past the limit
