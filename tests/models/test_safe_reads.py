"""Issue 18: files are size-checked before reading, nesting is limited before parsing, and a
UTF-8 byte-order mark is accepted.  Each defect found has a named regression test."""

from __future__ import annotations

import os
import time

import pytest
from goodput_lab.models import Scenario, ValidationError, load_catalog
from goodput_lab.models._files import read_capped
from goodput_lab.models.failure_log import parse_failure_log
from goodput_lab.models.scenario import MAX_NESTING, MAX_TOML_BYTES, nesting_depth

from tests.conftest import SCENARIOS

HEADLINE = SCENARIOS / "aws-16k-h100.toml"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_issue18_scenario_symlink_to_dev_zero_is_refused_before_reading(tmp_path):
    """Used to read 10.9 GB in 34 s before the size check."""
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    start = time.perf_counter()
    with pytest.raises(ValidationError) as exc:
        Scenario.load(link)
    assert time.perf_counter() - start < 1.0
    assert exc.value.message == "is a device; a regular file is needed"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_issue18_fifo_scenario_is_refused_instead_of_hanging(tmp_path):
    """Opening a FIFO for reading used to block forever waiting for a writer."""
    fifo = tmp_path / "scenario.toml"
    os.mkfifo(fifo)
    with pytest.raises(ValidationError) as exc:
        Scenario.load(fifo)
    assert exc.value.message == "is a FIFO (named pipe); a regular file is needed"


def test_a_folder_is_not_a_scenario(tmp_path):
    with pytest.raises(ValidationError, match="is a folder; a regular file is needed"):
        Scenario.load(tmp_path)


def test_an_oversized_file_is_refused_from_its_size_without_reading_it(tmp_path):
    """A sparse 10 GiB file: refused from stat, in well under a second."""
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:
        fh.truncate(10 * 1024**3)
    start = time.perf_counter()
    with pytest.raises(ValidationError) as exc:
        Scenario.load(big)
    assert time.perf_counter() - start < 1.0
    assert exc.value.message == "is 10,485,760 KiB, too large (at most 256 KiB)"


def test_read_capped_reads_at_most_cap_plus_one_bytes(tmp_path):
    f = tmp_path / "x.bin"
    f.write_bytes(b"a" * 100)
    assert read_capped(f, 100) == b"a" * 100
    with pytest.raises(ValidationError, match=r"too large \(at most 99 bytes\)"):
        read_capped(f, 99)


def test_a_missing_file_names_the_path_and_the_reason(tmp_path):
    with pytest.raises(ValidationError) as exc:
        Scenario.load(tmp_path / "nope.toml")
    assert exc.value.field.endswith("nope.toml")
    assert exc.value.message == "cannot be read (No such file or directory)"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_catalog_from_the_environment_goes_through_the_same_reader(monkeypatch):
    monkeypatch.setenv("GOODPUT_CATALOG", "/dev/zero")
    with pytest.raises(ValidationError, match="is a device"):
        load_catalog()


def test_issue18_thousand_deep_toml_arrays_are_a_clear_error():
    """A 2 KB TOML with 1,000-deep arrays used to raise RecursionError (a CLI traceback; in
    the dashboard the upload replaced the whole app with an exception box)."""
    text = "[cluster]\nnodes = " + "[" * 1000 + "]" * 1000 + "\n"
    assert len(text) < 2100
    with pytest.raises(ValidationError) as exc:
        Scenario.from_toml(text)
    assert exc.value.field == "scenario file"
    assert "more than 32 levels deep" in exc.value.message


def test_issue18_deep_inline_tables_are_a_clear_error():
    text = "a = " + "{b = " * 500 + "1" + "}" * 500 + "\n"
    with pytest.raises(ValidationError, match="levels deep"):
        Scenario.from_toml(text.encode())


def test_issue18_deeply_nested_set_literal_is_a_clear_error():
    """``--set cluster.nodes=[[[…`` used to raise RecursionError in json.loads."""
    with pytest.raises(ValidationError) as exc:
        Scenario.default().with_overrides(["cluster.nodes=" + "[" * 100_000])
    assert exc.value.field == "cluster.nodes"
    assert "levels deep" in exc.value.message


def test_shallow_nesting_still_reads_and_is_then_validated():
    with pytest.raises(ValidationError, match="is not a number"):
        Scenario.default().with_overrides(["cluster.nodes=[[1]]"])
    ok = "name = " + '"' + "[" * (MAX_NESTING + 5) + '"' + "\n[cluster]\nnodes = 12\n"
    assert Scenario.from_toml(ok)["cluster.nodes"] == 12  # brackets inside a string


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("a = [[1], [2]]", 2),
        ('a = "[[[["', 0),
        ("a = '[[[['", 0),
        ('a = """[[\n[["""\nb = [1]', 1),
        ("a = '''[[\n[['''", 0),
        ('a = "x\\"[[["', 0),
        ("[table]\nb = [{c = [1]}] # [[[[", 3),
        ("[[array.of.tables]]", 2),
    ],
)
def test_nesting_depth_counts_brackets_outside_strings_and_comments(text, depth):
    assert nesting_depth(text) == depth


def test_issue18_utf8_bom_scenario_is_accepted():
    """UTF-8 files with a BOM (Windows editors) used to fail with a cryptic TOML message."""
    body = HEADLINE.read_bytes()
    plain = Scenario.from_toml(body)
    assert Scenario.from_toml(b"\xef\xbb\xbf" + body) == plain
    assert Scenario.from_toml("\ufeff" + body.decode()) == plain


def test_issue18_utf8_bom_file_on_disk_is_accepted(tmp_path):
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbf" + HEADLINE.read_bytes())
    assert Scenario.load(f) == Scenario.load(HEADLINE)


def test_bom_catalog_is_accepted(tmp_path, catalog):
    from goodput_lab.models.catalog import DEFAULT_CATALOG

    f = tmp_path / "cat.csv"
    f.write_bytes(b"\xef\xbb\xbf" + DEFAULT_CATALOG.read_bytes())
    assert load_catalog(f) == catalog


def test_bom_failure_log_is_accepted():
    log = parse_failure_log(b"\xef\xbb\xbftimestamp,node_id\n2024-01-01,n1\n2024-01-02,n2\n")
    assert len(log) == 2


def test_toml_cap_is_checked_on_text_and_bytes():
    big = "# " + "x" * MAX_TOML_BYTES + "\n"
    for data in (big, big.encode()):
        with pytest.raises(ValidationError, match="too large"):
            Scenario.from_toml(data)
