"""The fleet size a failure log states (QA 29 #13): only a comment line that states it,
``# nodes=N`` (the documented form, as scripts/make_sample_log.py and the StepFun converter
write it), counts; free text that merely contains "nodes=2" does not.  A stated count
below the log's distinct nodes is blamed on that comment, by row, not on ``--nodes``."""

from __future__ import annotations

import pytest
from goodput_lab.models import ValidationError
from goodput_lab.models.failure_log import stated_nodes, stated_nodes_row

from goodput_lab.cli.main import main
from goodput_lab.views import failure_log as svc
from tests.conftest import DATA_DIR

#: three failures on three nodes, a day and more apart
ROWS = (
    "timestamp,node_id\n2025-01-01T01:00:00Z,n1\n2025-01-02T05:00:00Z,n2\n2025-01-04T00:00:00Z,n3\n"
)


@pytest.mark.parametrize(
    "comment",
    [
        "# export of cluster A (spare nodes=2, total 512 nodes)",
        "# gpus_per_nodes=8",
        "# cluster: nodes=2",
        "# nodes=2.5",
    ],
)
def test_free_text_that_contains_nodes_equals_is_not_a_fleet_size(comment):
    assert stated_nodes(f"{comment}\n{ROWS}") is None


def test_the_documented_comment_states_the_fleet_with_its_row():
    assert stated_nodes("# nodes=1024, days=180\n" + ROWS) == 1024
    assert stated_nodes_row("# SYNTHETIC\n\n#nodes = 7\n" + ROWS) == (7, 3)
    stepfun = (DATA_DIR / "failure_logs" / "stepfun-infinitehbd-2024.csv").read_bytes()
    assert stated_nodes_row(stepfun) == (400, 4)  # "# nodes=400, days=348, start=..."
    sample = (DATA_DIR / "failure_logs" / "synthetic-sample.csv").read_bytes()
    assert stated_nodes_row(sample) == (1024, 2)


def test_free_text_comment_is_not_blamed_on_nodes(capsys, tmp_path):
    """Before: "goodput: --nodes: 2 is out of range (at least the 3 distinct nodes ...)"
    with no --nodes given; now the comment is ignored and the distinct ids are the fleet."""
    path = tmp_path / "stated.csv"
    path.write_text("# export of cluster A (spare nodes=2, total 512 nodes)\n" + ROWS)
    assert main(["fit", str(path)]) == 0
    assert "nodes                      3 (distinct node ids in the log" in capsys.readouterr().out


def test_a_stated_count_below_the_distinct_nodes_names_the_comment_row(capsys, tmp_path):
    path = tmp_path / "stated2.csv"
    path.write_text("# SYNTHETIC\n# nodes=2, days=3\n" + ROWS)
    assert main(["fit", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "goodput: row 2: the comment '# nodes=2' states 2 nodes, fewer than the 3 distinct "
        "nodes in the log: correct the comment or give --nodes"
    )
    assert main(["fit", str(path), "--nodes", "3"]) == 0  # --nodes overrides the comment
    capsys.readouterr()
    # the page: its box holds the stated count by default; the message names the comment
    data = path.read_bytes()
    with pytest.raises(ValidationError) as exc:
        svc.fit_log(data, None, svc.default_nodes(data))
    assert str(exc.value) == (
        "row 2: the comment '# nodes=2' states 2 nodes, fewer than the 3 distinct nodes in the "
        f"log: correct the comment or enter the fleet under {svc.NODES_LABEL}"
    )
