"""The report CSV's text column read "80.0" layers and "64.0" micro-batches per step: whole
counts print without decimals everywhere (the registry's ``whole`` kind: a count a derivation
can leave fractional keeps its decimals then), and the JSON writes them as integers."""

from __future__ import annotations

import json

from goodput_lab.models import evaluate, load_preset
from goodput_lab.models.outputs import OUTPUTS, format_value, json_ready

from goodput_lab.reports import build_report
from goodput_lab.reports.tables import report_table

WHOLE = ("model_layers", "micro_batches_per_step", "micro_batch_sequences_effective")


def test_whole_counts_print_as_integers():
    assert all(OUTPUTS[k].kind == "whole" for k in WHOLE)
    assert format_value("model_layers", 80.0) == "80"
    assert format_value("micro_batches_per_step", 64.0) == "64"
    assert format_value("micro_batch_sequences_effective", 1.0) == "1 sequence"
    assert format_value("micro_batch_sequences_effective", 2.0) == "2 sequences"
    # a derivation's fraction is kept (aws-16k-h100: 15.625 micro-batches, 125.7 layers)
    assert format_value("micro_batches_per_step", 15.625) == "15.6"
    assert format_value("model_layers", 125.73) == "125.7"


def test_report_csv_text_of_whole_counts():
    table = report_table(build_report(load_preset("llama3-70b")))
    text = {r["key"]: r["text"] for r in table.iter_rows(named=True) if r["table"] == "metrics"}
    assert text["model_layers"] == "80"
    assert text["micro_batches_per_step"] == "64"
    assert text["micro_batch_sequences_effective"] == "1 sequence"


def test_json_writes_whole_counts_as_integers():
    m = evaluate(load_preset("llama3-70b")).metrics
    out = json.loads(json.dumps(json_ready({k: m[k] for k in WHOLE})))
    assert out == {
        "model_layers": 80,
        "micro_batches_per_step": 64,
        "micro_batch_sequences_effective": 1,
    }
    assert all(type(v) is int for v in out.values())
