"""AppTest of the Sensitivity page's Monte Carlo risk map: it runs on the engine (a small
threaded cluster here), shows nothing until asked, then the map of the workers' results."""

from __future__ import annotations

import logging
import time

import numpy as np
import pytest
from goodput_lab.dashboard import cache
from goodput_lab.models import load_preset
from goodput_lab.models.sweep import evaluate_batch

from goodput_lab.views import sensitivity as svc
from tests.dashboard._pages import array, chart, open_page


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_risk_map_runs_on_the_engine(client, monkeypatch, catalog):
    monkeypatch.setattr(cache, "engine_client", lambda: client)
    cache.engine_jobs().clear()
    app = open_page("sensitivity")
    charts_before = len(app.get("plotly_chart"))
    assert any("not run yet" in c.value for c in app.caption)
    app.select_slider(key="risk:n").set_value(6)
    app.select_slider(key="risk:trials").set_value(200)
    app.button(key="risk:run").click().run()
    assert not app.exception, app.exception
    jobs = cache.engine_jobs()
    assert len(jobs) == 1
    job = next(iter(jobs.values()))
    deadline = time.monotonic() + 120
    while "futures" in job and not all(f.done() for f in job["futures"]):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    app.run()
    assert not app.exception, app.exception
    assert len(app.get("plotly_chart")) == charts_before + 1
    spec = chart(app, charts_before)
    z = np.array(array(spec["data"][0]["z"]))
    # the same points evaluated directly
    inputs, cols, (xs, ys) = svc.risk_map_points(load_preset("aws-16k-h100"), catalog, 6)
    ref = evaluate_batch(inputs, cols, np.arange(xs.size * ys.size), trials=200, days=30.0)
    assert z.shape == (ys.size, xs.size)
    assert np.allclose(z, ref["goodput_p5"].reshape(ys.size, xs.size) * 100)
    assert spec["layout"]["title"]["text"].startswith("Bad month: goodput P5")
    assert "Checkpoint interval" in spec["layout"]["xaxis"]["title"]["text"]
    cache.engine_jobs().clear()
