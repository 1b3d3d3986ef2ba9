"""Issue 18 fuzz suite: at least 10,000 cases per parser, 0 unexpected exceptions.

The parsers a hostile or careless user reaches: scenario TOML (files and uploads),
``--set section.key=value``, link query parameters, and uploads (scenario TOML through the
sidebar's validation, failure-log CSV).  Each must return a valid result or raise
:class:`models.ValidationError` (one clear line); anything else (RecursionError, KeyError,
OverflowError, csv.Error, ...) would reach a user as a traceback.

Each test counts the cases it ran and asserts the count, so a run that silently did fewer
(e.g. a strategy exhausted) fails.  Only the fast parse-and-validate paths run here.
"""

from __future__ import annotations

import json
import math
import string

from goodput_lab.dashboard import state, url_state
from goodput_lab.models import FIELDS, SECTIONS, Scenario, ValidationError
from goodput_lab.models.failure_log import log_header, parse_failure_log
from goodput_lab.models.scenario import MAX_NESTING
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CASES = 10_000
FUZZ = settings(
    max_examples=CASES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
MAX_LINE = 520  # ValidationError: values cut to ~80 characters, the line to 500

KEYS = sorted(FIELDS)
NAMES = sorted({f.name for f in FIELDS.values()})
HOSTILE = [
    "=cmd|' /C calc'!A0",
    "![t](http://host.invalid/pixel.png)",
    "<script>alert(1)</script>",
    "\ufeff",
    "\x00",
    "\u202e",
    "optimal",
    "catalog",
    "nan",
    "inf",
    "-0",
    "1e309",
    "0x10",
    "1_000",
    "9" * 400,
    "[" * 200,
    "{" * 200,
    "[[[[[[[[1]]]]]]]]",
    '"' * 3,
    "'''",
    "\\",
]
SHORT_TEXT = st.text(max_size=40)
WORDS = st.one_of(SHORT_TEXT, st.sampled_from(HOSTILE))
NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["1e308", "-1e-320", "2000", "0.002", "40", "0", "1", "-1", "1.5"]),
)
SCALAR_TEXT = st.one_of(WORDS, NUMBERS)


def _nested(depth: int, leaf: str = "1") -> str:
    return "[" * depth + leaf + "]" * depth


def _check_error(exc: ValidationError) -> None:
    assert isinstance(exc.field, str) and isinstance(exc.message, str)
    line = str(exc)
    assert "\n" not in exc.field
    assert len(line) <= MAX_LINE, line[:200]


def _check_scenario(scenario: Scenario) -> None:
    assert isinstance(scenario, Scenario)
    for key, f in FIELDS.items():
        v = scenario[key]
        if v is None:
            assert f.optional
        elif f.kind in ("int", "float") and not isinstance(v, str):
            assert math.isfinite(v)
            assert (f.min is None or v >= f.min) and (f.max is None or v <= f.max)


def _run(make, check=_check_scenario) -> None:
    try:
        out = make()
    except ValidationError as exc:
        _check_error(exc)
    else:
        check(out)


# ------------------------------------------------------------------------- scenario TOML
def _toml_value(draw) -> str:
    kind = draw(st.integers(0, 7))
    if kind == 0:
        return draw(NUMBERS)
    if kind == 1:
        return json.dumps(draw(WORDS))
    if kind == 2:
        return draw(st.sampled_from(["true", "false", "nan", "inf", "-inf", "1979-05-27"]))
    if kind == 3:
        return _nested(draw(st.integers(1, 3 * MAX_NESTING)))
    if kind == 4:
        return "{" * draw(st.integers(1, 60)) + "a = 1" + "}" * draw(st.integers(0, 60))
    if kind == 5:
        return "[" + ", ".join(draw(st.lists(NUMBERS, max_size=4))) + "]"
    if kind == 6:
        return "'''" + draw(SHORT_TEXT).replace("'''", "") + "'''"
    return draw(st.text(alphabet=string.printable, max_size=20))


@st.composite
def toml_documents(draw) -> str | bytes:
    lines = []
    if draw(st.booleans()):
        lines.append(f"name = {json.dumps(draw(WORDS))}")
    for _ in range(draw(st.integers(0, 3))):
        section = draw(st.one_of(st.sampled_from(list(SECTIONS)), SHORT_TEXT))
        header = section if section.isidentifier() else json.dumps(section)
        lines.append(draw(st.sampled_from(["[{}]", "[[{}]]", "{} = {{}}"])).format(header))
        for _ in range(draw(st.integers(0, 3))):
            key = draw(st.one_of(st.sampled_from(NAMES), SHORT_TEXT))
            key = key if key.isidentifier() else json.dumps(key)
            lines.append(f"{key} = {_toml_value(draw)}")
    text = "\n".join(lines)
    mode = draw(st.integers(0, 4))
    if mode == 0:
        return draw(st.text(max_size=200))  # arbitrary text
    if mode == 1:
        return "\ufeff" + text  # a byte-order mark, as Windows editors write it
    if mode == 2:
        return text.encode("utf-8") + draw(st.binary(max_size=8))  # bytes, maybe not UTF-8
    return text


def test_fuzz_scenario_toml_10k():
    ran = []

    @FUZZ
    @given(toml_documents())
    def case(doc):
        ran.append(1)
        _run(lambda: Scenario.from_toml(doc))

    case()
    assert len(ran) >= CASES


# ------------------------------------------------------------------------- --set
@st.composite
def assignments(draw) -> list[str]:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.one_of(st.sampled_from([*KEYS, "name", "description"]), SHORT_TEXT))
        kind = draw(st.integers(0, 5))
        if kind == 0:
            value = draw(SCALAR_TEXT)
        elif kind == 1:
            value = _nested(draw(st.integers(1, 100_000)))
        elif kind == 2:
            value = json.dumps(draw(st.one_of(st.lists(SCALAR_TEXT, max_size=3), WORDS)))
        elif kind == 3:
            value = "{" + '"a":' * draw(st.integers(1, 50)) + "1" + "}" * draw(st.integers(0, 50))
        elif kind == 4:
            value = draw(st.text(max_size=300))
        else:
            choices = FIELDS[key].choices if key in FIELDS and FIELDS[key].choices else ("",)
            value = draw(st.sampled_from(choices))
        sep = draw(st.sampled_from(["=", "=", "=", " = ", "", "=="]))
        out.append(f"{key}{sep}{value}")
    return out


def test_fuzz_set_overrides_10k():
    ran = []
    base = Scenario.default()

    @FUZZ
    @given(assignments())
    def case(items):
        ran.append(1)
        _run(lambda: base.with_overrides(items))

    case()
    assert len(ran) >= CASES


# ------------------------------------------------------------------------- links
LINK_KEYS = st.one_of(
    st.sampled_from(sorted(url_state.ALLOWED)), st.text(max_size=30), st.sampled_from(["", "__"])
)
LINK_VALUES = st.one_of(
    SCALAR_TEXT,
    st.text(max_size=250),
    st.lists(SCALAR_TEXT, max_size=3),
    st.sampled_from(
        [
            "catalog",
            "optimal",
            "true",
            "false",
            "p5.48xlarge",
            "abc",
            "aws-16k-h100",
            "Current scenario (sidebar)",
            "cluster.nodes=8\n" * 25,
            "d" * 2001,
        ]
    ),
)


def test_fuzz_link_params_10k(catalog):
    ran = []

    @FUZZ
    @given(st.dictionaries(LINK_KEYS, LINK_VALUES, max_size=8))
    def case(params):
        ran.append(1)
        _run(lambda: url_state.decode(params, catalog)[0])
        _run(lambda: url_state.decode_page(params), check=lambda d: isinstance(d, dict))

    case()
    assert len(ran) >= CASES


# ------------------------------------------------------------------------- uploads
TIMESTAMPS = [
    "2024-01-01T00:00Z",
    "2024-01-02",
    "2024-02-30",
    "2024-01-01 10:00:00+02:00",
    "2024-13-01",
    "1970-01-01T00:00:00",
    "9999-12-31T23:59:59.999999+14:00",
    "0001-01-01",
    "2024-06-01T12:00:00-11:30",
    "",
    "x",
]


@st.composite
def failure_logs(draw) -> bytes:
    header = draw(
        st.sampled_from(
            ["timestamp,node_id,cause,downtime_minutes", "ts,host", "time,node", "a,b", ""]
        )
    )
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        ts = draw(st.one_of(st.sampled_from(TIMESTAMPS), SHORT_TEXT))
        node = draw(st.one_of(st.sampled_from(["n1", "n2", "=HYPERLINK(1)"]), SHORT_TEXT))
        cause = draw(st.one_of(st.sampled_from(["GPU", "NIC", "", '"a,b"']), SHORT_TEXT))
        down = draw(NUMBERS)
        rows.append(",".join([ts, node, cause, down]))
    text = "\n".join([header, *rows])
    mode = draw(st.integers(0, 3))
    if mode == 0:
        return draw(st.binary(max_size=300))
    if mode == 1:
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if mode == 2:
        return ("# comment\n" + text + '\n"unterminated').encode("utf-8")
    return text.encode("utf-8")


#: Scenario uploads: the TOML parser itself is fuzzed above; here the upload path (size cap,
#: file name in the message, the catalog check of cluster.instance) with real and bad files.
UPLOADS = [
    b'[cluster]\ninstance = "p5.48xlarge"\nnodes = 12\n',
    b'[cluster]\ninstance = "abc"\n',
    b'[cluster]\ninstance = "' + b"x" * 300 + b'"\n',
    b"\xef\xbb\xbfname = 'bom'\n[cluster]\nnodes = 3\n",
    b"name = '=cmd|\\' /C calc\\'!A0'\n",
    b"a = " + b"[" * 1000 + b"]" * 1000,
    b"[cluster]\nnodes = 1e999\n",
    b"#" * (256 * 1024 + 1),
    b"",
    b"\x00\xff",
]


def test_fuzz_uploads_10k(catalog):
    """Scenario uploads (sidebar and Compare) and failure-log uploads."""
    ran = []

    @FUZZ
    @given(
        st.text(max_size=60),
        st.one_of(st.sampled_from(UPLOADS), st.binary(max_size=300)),
        failure_logs(),
    )
    def case(name, data, log):
        ran.append(1)
        _run(lambda: state.load_upload(name, data, catalog))
        _run(lambda: log_header(log), check=lambda h: isinstance(h, list))
        _run(lambda: parse_failure_log(log), check=lambda fl: len(fl) >= 1)

    case()
    assert len(ran) >= CASES
