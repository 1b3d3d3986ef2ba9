"""``goodput report SCENARIO.toml [--compare OTHER.toml] [--trials N] -o FILE``.

The extension of FILE picks the format: .html (self-contained, plotly embedded), .pdf
(static charts, printed by Chromium), .csv / .parquet (one tidy table: the inputs and every
figure of the evaluation, its loss breakdown and badput buckets, the comparison, the Monte
Carlo, the resilience ladder, the checkpoint and hot-spare recommendation and the instance
choice) or .toml (the exact scenario, to reproduce the report).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from goodput_lab.cli._ranges import allowed_range
from goodput_lab.cli.main import (
    catalog_from_args,
    catalog_option,
    load_scenario,
    load_side,
    set_option,
)
from goodput_lab.models import ValidationError
from goodput_lab.models._files import check_output, write_atomic


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not a whole number") from None
    if not 1 <= value <= 1_000_000:
        raise argparse.ArgumentTypeError(
            f"{value} is out of range ({allowed_range('an integer', 1, 1_000_000)})"
        )
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not a whole number") from None
    if not 0 <= value <= 2**63 - 1:
        raise argparse.ArgumentTypeError(
            f"{value} is out of range ({allowed_range('an integer', 0, 2**63 - 1)})"
        )
    return value


#: The extra each format needs beyond the core, and the modules of it that it uses (the
#: report's charts are plotly's; .toml needs none: it is the scenario's own text).
FORMAT_EXTRA = {
    ".html": ("dashboard", ("plotly",)),
    ".csv": ("dashboard", ("plotly",)),
    ".parquet": ("dashboard", ("plotly",)),
    ".pdf": ("pdf", ("playwright", "plotly")),
}


def input_path(ref: str) -> Path | None:
    """The file a scenario argument reads: the path when it exists, else the shipped preset
    of that name (``aws-16k-h100``), else None (the loader's own error follows)."""
    from goodput_lab.models.scenario import preset_paths

    p = Path(ref)
    if p.exists():
        return p
    return preset_paths().get(ref)


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file: the same resolved path (``./x.toml``,
    ``../dir/x.toml``, a symbolic link), or the same inode (a hard link)."""
    try:
        if a.resolve() == b.resolve():
            return True
    except (OSError, RuntimeError, ValueError):  # a link loop, a NUL: by inode, or not at all
        pass
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # either does not exist (yet): not one file
        return False


def _shown(path: str, limit: int = 76) -> str:
    """``path`` as typed, its end (the file's name) kept when it is long: an error echoes
    at most 80 characters of a quoted value (models.errors.cut_values) and would cut the
    end instead."""
    return path if len(path) <= limit else "..." + path[-(limit - 3) :]


def catalog_input(args: argparse.Namespace) -> tuple[str, Path]:
    """The instance catalog a command reads, named for :func:`refuse_writing_over_an_input`:
    the ``--catalog`` file, else the one read without it (models.catalog.load_catalog)."""
    if getattr(args, "catalog", None):
        return ("the --catalog file", Path(args.catalog))
    from goodput_lab.models.catalog import DEFAULT_CATALOG

    return ("the instance catalog", Path(os.environ.get("GOODPUT_CATALOG") or DEFAULT_CATALOG))


def refuse_writing_over_an_input(
    output: str, flag: str, inputs: list[tuple[str, Path | None]], written: str
) -> None:
    """Refuse an output path that is one of the command's ``inputs`` (``(what, path)``
    pairs; a None path is skipped), naming ``flag``: writing ``written`` there would replace
    the user's file (and its comments) with the command's own text.  ``goodput report -o``
    and ``goodput reconcile --write-scenario`` (QA 29: it overwrote its ``--scenario``)."""
    out = Path(output)
    for what, path in inputs:
        if path is not None and _same_file(out, path):
            raise ValidationError(
                flag,
                f"{_shown(output)!r} is {what}; writing {written} there would "
                f"overwrite it: choose another {flag}",
            )


def check_not_an_input(args: argparse.Namespace) -> None:
    """Refuse an output path that is one of the command's inputs (the scenario, the
    ``--compare`` scenario or the instance catalog), before anything is read or written:
    the report would replace the user's file (and its comments) with its own text."""
    inputs = [("the input scenario", input_path(args.scenario))]
    if args.compare:
        inputs.append(("the --compare scenario", input_path(args.compare)))
    inputs.append(catalog_input(args))
    refuse_writing_over_an_input(args.output, "-o", inputs, "the report")


def cmd_report(args: argparse.Namespace) -> int:
    from goodput_lab._extras import require

    check_not_an_input(args)  # first: nothing is read or written when it fails
    needs = FORMAT_EXTRA.get(Path(args.output).suffix.lower())
    if needs:  # before any work: one line naming the extra to install
        require(needs[0], "-o", needs[1])
    if Path(args.output).suffix.lower() == ".toml":
        return _scenario_toml(args)
    from goodput_lab.reports import build_report, report_format, write_report

    report_format(args.output)  # fail on a bad extension or an unwritable path before any work
    check_output(args.output, "-o")
    scenario = load_scenario(args.scenario, args.set)
    other = load_side("--compare", args.compare, None) if args.compare else None
    catalog = catalog_from_args(args)
    fmt = report_format(args.output)
    if args.trials is not None:  # refused or estimated before any work (issue 30)
        from goodput_lab.cli.simulate import say_estimate
        from goodput_lab.models import resolve_inputs
        from goodput_lab.models.montecarlo import check_size
        from goodput_lab.reports.content import MONTECARLO_DAYS

        try:
            est = check_size(args.trials, MONTECARLO_DAYS, resolve_inputs(scenario, catalog))
        except ValidationError as exc:  # the report's only size flag is --trials
            raise ValidationError("--trials", exc.message) from None
        say_estimate(
            f"{args.trials:,} trials x {MONTECARLO_DAYS:g} days", est.seconds, est.memory_bytes
        )
    report = build_report(
        scenario,
        compare_to=other,
        trials=args.trials,
        seed=args.seed,
        catalog=catalog,
        detail=fmt in (".html", ".pdf"),
    )
    path = write_report(report, args.output, "-o")
    sys.stderr.write(f"goodput: wrote {path}\n")
    return 0


def _scenario_toml(args: argparse.Namespace) -> int:
    """``-o FILE.toml``: the exact (validated) scenario; nothing to evaluate, no extra."""
    if args.compare:
        raise ValidationError("--compare", "a .toml output holds one scenario; leave it out")
    check_output(args.output, "-o")
    scenario = load_scenario(args.scenario, args.set)
    if args.trials is not None:
        raise ValidationError("--trials", "has no effect on a .toml output; leave it out")
    if getattr(args, "catalog", None):  # QA 29 #6: the file would not reproduce the report
        raise ValidationError(
            "--catalog",
            "a .toml output holds the scenario, not the instance catalog its figures read; "
            "leave --catalog out here and give it again when you evaluate the file",
        )
    path = write_atomic(args.output, scenario.to_toml().encode("utf-8"), "-o")
    sys.stderr.write(f"goodput: wrote {path}\n")
    return 0


def register(sub) -> None:
    r = sub.add_parser(
        "report",
        help="export a report: .html, .pdf, .csv, .parquet or .toml (by extension)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("scenario", help="scenario TOML file or preset name (see data/scenarios/)")
    r.add_argument("--compare", metavar="OTHER.toml", help="candidate scenario to compare with")
    r.add_argument(
        "--trials",
        type=_positive_int,
        metavar="N",
        help="add Monte Carlo percentiles from N simulated runs (needs models/montecarlo.py)",
    )
    r.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="Monte Carlo random seed, a non-negative integer (default 0, as goodput simulate)",
    )
    set_option(r)
    catalog_option(r)
    r.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="report.html|.pdf|.csv|.parquet|.toml"
    )
    r.set_defaults(func=cmd_report)
