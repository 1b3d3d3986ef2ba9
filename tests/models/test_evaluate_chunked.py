"""evaluate_arrays on many 1-D scenarios runs block by block: the figures must be exactly
those of one call of the chain."""

from __future__ import annotations

import sys
from collections.abc import Mapping

import numpy as np
import pytest
from goodput_lab.models import chain, load_preset, resolve_inputs
from goodput_lab.models.chain import run_chain

from tests.every_class_on import ALL_ON

ev_mod = sys.modules["goodput_lab.models.evaluate"]  # the package exports evaluate(), the function


def test_blocks_give_the_figures_of_one_call(monkeypatch):
    inputs = resolve_inputs(load_preset("hyperpod-tiered-16k-h100"))
    rng = np.random.default_rng(3)
    n = 1000
    x = {
        **inputs,
        "reliability.node_failure_rate_per_day": rng.uniform(0.0005, 0.005, n),
        "cluster.nodes": rng.integers(100, 4000, n).astype(float),
    }
    whole = run_chain(x).metrics()
    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", 96)  # 11 blocks, the last one short
    blocks = ev_mod.evaluate_arrays(x)
    assert set(blocks) == set(whole)
    for key, value in whole.items():
        got = np.broadcast_to(blocks[key], np.shape(value))
        assert np.array_equal(got, value, equal_nan=True), key
        assert np.shape(blocks[key]) == np.shape(value), key


def test_grids_and_small_inputs_are_one_call():
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    rates = np.linspace(0.001, 0.003, 5)[:, None]
    nodes = np.array([1000.0, 2000.0])[None, :]
    out = ev_mod.evaluate_arrays(
        {**inputs, "reliability.node_failure_rate_per_day": rates, "cluster.nodes": nodes}
    )
    assert out["goodput"].shape == (5, 2)
    assert ev_mod._scenario_count({"a": np.zeros(3), "b": np.zeros(4)}) == 0
    assert ev_mod._scenario_count({"a": np.zeros(3), "b": 1.0}) == 3


# ----------------------------------------------------------------- the step time, once each
def test_step_time_table_gives_the_figures_of_every_scenario(monkeypatch):
    """A sweep over few node counts and TP degrees (and many failure rates): the step time is
    tabulated on the 8 distinct (nodes, TP) rows, and every figure is that of one call of
    the chain.  Nodes sorted, so figures that depend on them hold one value for the first
    blocks and change later (the blocks' "one value so far" path)."""
    inputs = resolve_inputs(load_preset("llama3-16k"))
    rng = np.random.default_rng(5)
    n = 3000
    x = {
        **inputs,
        "reliability.node_failure_rate_per_day": rng.uniform(0.0005, 0.005, n),
        "cluster.nodes": np.sort(rng.choice([1024.0, 1536.0, 2000.0, 2048.0], n)),
        "workload.tensor_parallel": rng.choice([4.0, 8.0], n),
    }
    table = chain.step_time_table(x, n)
    assert table is not None
    assert table[0].step_seconds.shape == (8,)
    assert table[1].shape == (n,)
    whole = run_chain(x).metrics()  # the step model on every scenario
    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", 96)
    blocks = ev_mod.evaluate_arrays(x)
    assert set(blocks) == set(whole)
    for key, value in whole.items():
        got = np.broadcast_to(blocks[key], np.shape(value))
        np.testing.assert_allclose(got, value, rtol=1e-14, atol=0, equal_nan=True, err_msg=key)
    # a figure that only the node count moves is a full array; one nothing moves is a view
    assert blocks["checkpoint_shard_GB_per_node"].strides == (8,)
    assert blocks["memory_usable_per_accel_GB"].strides == (0,)


def test_step_time_table_only_for_few_whole_numbers():
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    n = 1000
    nodes = np.full(n, 2000.0)
    assert chain.step_time_table({**inputs, "cluster.nodes": nodes}, n) is not None
    fractional = nodes + np.linspace(0.0, 0.5, n)
    assert chain.step_time_table({**inputs, "cluster.nodes": fractional}, n) is None
    wide = np.arange(n, dtype=float) * 10.0  # 9,991 cells for 1,000 scenarios
    assert chain.step_time_table({**inputs, "cluster.nodes": wide}, n) is None
    with_nan = nodes.copy()
    with_nan[3] = np.nan
    assert chain.step_time_table({**inputs, "cluster.nodes": with_nan}, n) is None
    # nothing the step reads varies: nothing to tabulate
    rates = np.linspace(0.001, 0.002, n)
    assert (
        chain.step_time_table({**inputs, "reliability.node_failure_rate_per_day": rates}, n) is None
    )


def test_step_time_is_memoised_on_its_own_inputs():
    x = dict(resolve_inputs(load_preset("llama3-16k")))
    first = chain.step_time(x)
    assert chain.step_time(dict(x)) is first
    # inputs the step does not read leave it alone
    assert chain.step_time({**x, "reliability.node_failure_rate_per_day": 0.5}) is first
    # one it reads gives a new, different result
    # (16 nodes: one more whole TP 8 × PP 16 replica; fewer would sit idle, step unchanged)
    other = chain.step_time({**x, "cluster.nodes": float(x["cluster.nodes"]) + 16.0})
    assert other is not first
    assert float(other.step_seconds) != float(first.step_seconds)
    assert not first.step_seconds.flags.writeable  # shared: nobody may change it in place
    # a blank (NaN) field still finds its entry
    blank = {**x, "workload.global_batch_sequences": float("nan")}
    assert chain.step_time(blank) is chain.step_time(dict(blank))
    # arrays are never memoised
    arr = {**x, "cluster.nodes": np.array([1024.0, 2048.0])}
    assert chain.step_time(arr) is not chain.step_time(arr)


class _Recording(Mapping):
    def __init__(self, data):
        self.data, self.read = data, set()

    def __getitem__(self, key):
        self.read.add(key)
        return self.data[key]

    def __contains__(self, key):
        self.read.add(key)
        return key in self.data

    def get(self, key, default=None):
        self.read.add(key)
        return self.data.get(key, default)

    def __iter__(self):  # the step must not depend on inputs it does not name
        raise AssertionError("the step model iterated over every input")

    def __len__(self):
        return len(self.data)


def test_step_input_keys_are_exactly_what_the_step_model_reads():
    """The memo and the table are right only if the step reads nothing outside
    STEP_INPUT_KEYS; every key there is read by some preset and basis."""
    read: set[str] = set()
    for name in ("aws-16k-h100", "llama3-16k", "hyperpod-tiered-16k-h100"):
        inputs = resolve_inputs(load_preset(name))
        for basis in ("modelled", "end_to_end", "compute_only"):
            rec = _Recording({**inputs, "workload.mfu_basis": basis})
            chain.cm.step_model(rec, basis=basis)
            chain.choice(rec, "workload.mfu_basis")
            read |= rec.read
    assert read == set(chain.cm.STEP_INPUT_KEYS)


def test_step_memo_tells_blank_default_and_one_apart():
    """Blank (None = NaN), absent (the default) and 1 are three different inputs."""
    x = dict(resolve_inputs(load_preset("llama3-16k")))
    keys = {chain._scalar_step_key({**x, "workload.micro_batches": v}) for v in (None, 1.0, True)}
    keys.add(chain._scalar_step_key({k: v for k, v in x.items() if k != "workload.micro_batches"}))
    keys.add(chain._scalar_step_key({**x, "workload.micro_batches": float("nan")}))
    assert len(keys) == 3  # None and NaN agree; 1.0 and True agree (both the number 1)


# ----------------------------------------------------------------- outputs as rows of blocks
def _blocked(monkeypatch, x, chunk=96, keys=None):
    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", chunk)
    return ev_mod.evaluate_arrays(x, keys)


def test_varying_figures_are_rows_of_one_block(monkeypatch):
    """The figures that vary in the first block share one 2-D allocation (rows of it), and
    are still exactly those of one call, in the chain's order."""
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    rng = np.random.default_rng(7)
    n = 1000
    x = {  # 200 node counts: the step time from its table
        **inputs,
        "reliability.node_failure_rate_per_day": rng.uniform(0.0005, 0.005, n),
        "cluster.nodes": rng.integers(1000, 1200, n).astype(float),
        "checkpoint.interval_minutes": rng.uniform(5.0, 120.0, n),
    }
    whole = run_chain(x).metrics()
    blocks = _blocked(monkeypatch, x)
    assert chain.step_time_table(x, n) is not None
    assert list(blocks) == list(whole)
    for key, value in whole.items():
        assert np.shape(blocks[key]) == np.shape(value), key
        assert np.array_equal(np.broadcast_to(blocks[key], np.shape(value)), value, True), key
    # the interval is the input passed through: a read-only view of it, as in one call;
    # a single level's durable interval is the same array, the same optimum twice
    interval = x["checkpoint.interval_minutes"]
    for key in ("checkpoint_interval_minutes", "durable_interval_minutes"):
        assert np.shares_memory(blocks[key], interval) and not blocks[key].flags.writeable
    assert (
        blocks["optimal_durable_interval_minutes"] is blocks["optimal_checkpoint_interval_minutes"]
    )
    assert blocks["node_failures_per_day"] is blocks["failures_per_day"]  # no fabric aborts
    # a figure with an input's bits is a read-only view of it, as if passed through: each
    # node is a scale-up domain of its own here, so the domains are the node counts
    nodes = x["cluster.nodes"]
    assert np.shares_memory(blocks["scaleup_domains"], nodes)
    assert not blocks["scaleup_domains"].flags.writeable
    passed = {"checkpoint_interval_minutes", "durable_interval_minutes", "scaleup_domains"}
    twins = {"optimal_durable_interval_minutes", "node_failures_per_day"}
    full = [
        k
        for k, v in blocks.items()
        if np.ndim(v) == 1 and v.strides == (8,) and k not in passed | twins
    ]
    step = set(chain.StepTime.__dataclass_fields__)
    chain_rows = [k for k in full if k not in step]
    step_rows = [k for k in full if k in step]
    assert len(chain_rows) > 40 and len(step_rows) > 10
    for group in (chain_rows, step_rows):
        base = blocks[group[0]].base
        distinct = {id(blocks[k]) for k in group}  # figures with the same bits share a row
        assert base is not None and base.shape == (len(distinct), n)
        assert all(blocks[k].base is base for k in group)
        assert all(blocks[k].flags.writeable for k in group)
    # the same bits (computed apart) are written once: no spares, no fabric aborts, one
    # level, no exposed communication or bubble
    for twin, first in (
        ("domain_goodput", "goodput"),
        ("loss_restore_minutes_per_day", "loss_restart_minutes_per_day"),
        ("compute_share_of_step", "scaling_efficiency"),  # in the step table
    ):
        assert np.array_equal(whole[twin], whole[first], equal_nan=True)
        assert blocks[twin] is blocks[first], twin
    # a figure the varied inputs do not move is one value, a read-only broadcast
    assert blocks["steps_to_train"].strides == (0,)
    assert not blocks["steps_to_train"].flags.writeable


def test_a_figure_that_first_varies_in_a_later_block(monkeypatch):
    """A failure rate that is constant for the first blocks and varies later: the figures it
    moves are written from the block where they first differ, the earlier blocks filled
    with their one value; the step figures come from the table (nodes vary throughout)."""
    inputs = resolve_inputs(load_preset("hyperpod-tiered-16k-h100"))
    rng = np.random.default_rng(11)
    n = 1000
    rate = np.full(n, 0.002)
    rate[500:] = rng.uniform(0.0005, 0.005, n - 500)
    x = {
        **inputs,
        "reliability.node_failure_rate_per_day": rate,
        "cluster.nodes": rng.choice([1024.0, 2000.0, 2048.0], n),
    }
    whole = run_chain(x).metrics()
    blocks = _blocked(monkeypatch, x)
    for key, value in whole.items():
        got = np.broadcast_to(blocks[key], np.shape(value))
        np.testing.assert_allclose(got, value, rtol=1e-14, atol=0, equal_nan=True, err_msg=key)
    late = blocks["fallback_fraction"]  # moves with the rate only: varies from block 6 on
    early = blocks["checkpoint_shard_GB_per_node"]  # moves with the node count
    assert late.strides == (8,) and early.strides == (8,)
    assert late.base is not early.base
    assert np.all(late[:480] == late[0])


def test_keys_gather_only_the_figures_asked_for(monkeypatch):
    """With ``keys`` only those figures are kept; the step figures the cost step needs are
    still gathered for it (the costs are right)."""
    inputs = resolve_inputs(load_preset("llama3-16k"))
    rng = np.random.default_rng(13)
    n = 1000
    x = {
        **inputs,
        "reliability.node_failure_rate_per_day": rng.uniform(0.0005, 0.005, n),
        "cluster.nodes": rng.choice([1024.0, 1536.0, 2048.0], n),
    }
    keys = ["goodput", "cost_to_train_usd", "data_parallel_size", "steps_to_train"]
    whole = run_chain(x).metrics()
    got = _blocked(monkeypatch, x, keys=keys)
    assert set(got) == set(keys)
    for key in keys:
        np.testing.assert_array_equal(np.broadcast_to(got[key], (n,)), whole[key], err_msg=key)


def test_one_number_figures_are_broadcasts_and_never_views_of_inputs():
    """Figures that are one number for every scenario (the price, storage) come as read-only
    broadcasts of the scenarios' shape; when an input makes them vary they are new arrays,
    not views of that input."""
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    rates = np.linspace(0.001, 0.003, 7)
    out = ev_mod.evaluate_arrays({**inputs, "reliability.node_failure_rate_per_day": rates})
    price = out["usd_per_instance_hour"]
    assert price.shape == (7,) and price.strides == (0,) and not price.flags.writeable
    assert np.all(price == inputs["pricing.usd_per_instance_hour"])
    prices = np.linspace(50.0, 100.0, 7)
    out = ev_mod.evaluate_arrays({**inputs, "pricing.usd_per_instance_hour": prices})
    assert np.array_equal(out["usd_per_instance_hour"], prices)
    assert not np.shares_memory(out["usd_per_instance_hour"], prices)
    # a figure varied by an input the goodput does not read still takes that input's shape
    tib = np.array([12.0, 24.0, 48.0])
    shared = {
        **inputs,
        "checkpoint.durable_tier": "shared_fs",
        "tier.shared_fs.provisioned_TiB": tib,
    }
    assert ev_mod.evaluate_arrays(shared)["storage_usd_per_day"].shape == (3,)


def test_a_last_block_of_one_scenario_keeps_its_own_figures(monkeypatch):
    """n = one block + 1: the last block holds a single scenario, whose price, storage and
    interval figures are broadcasts of its own values. Where that scenario alone differs,
    its figures must be its own, as in one call (regression: they were taken for "one
    number in every block" and given the first blocks' value)."""
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    n = 97
    price = np.full(n, 50.0)
    price[-1] = 100.0
    interval = np.full(n, 40.0)
    interval[-1] = 25.0
    x = {
        **inputs,
        "reliability.node_failure_rate_per_day": np.full(n, 0.002),
        "pricing.usd_per_instance_hour": price,
        "checkpoint.interval_minutes": interval,
    }
    whole = run_chain(x).metrics()
    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", 96)
    got = ev_mod.evaluate_arrays(x)
    assert got["usd_per_instance_hour"][-1] == 100.0
    assert got["checkpoint_interval_minutes"][-1] == 25.0
    for key, value in whole.items():
        assert np.array_equal(np.broadcast_to(got[key], np.shape(value)), value, equal_nan=True), (
            key
        )


def test_keys_are_checked_and_ordered_alike_on_both_paths(monkeypatch):
    """An unknown figure name is an error whether or not the scenarios are evaluated block by
    block, and the figures come in the chain's order on both paths."""
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    rates = np.linspace(0.001, 0.003, 200)
    x = {**inputs, "reliability.node_failure_rate_per_day": rates}
    keys = ["lost_usd_per_day", "goodput", "failures_per_day"]
    chain_order = [k for k in run_chain(x).metrics() if k in keys]
    one = ev_mod.evaluate_arrays(x, keys=keys)
    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", 64)
    blocks = ev_mod.evaluate_arrays(x, keys=keys)
    assert list(one) == list(blocks) == chain_order
    for evaluate_path in (64, 10_000):
        monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", evaluate_path)
        with pytest.raises(KeyError, match="no_such_figure"):
            ev_mod.evaluate_arrays(x, keys=["goodput", "no_such_figure"])


def test_one_scenario_figures_are_numpy_floats():
    """Evaluated for one scenario, every figure is a number (JSON-ready), not a 0-d array."""
    m = ev_mod.evaluate_arrays(resolve_inputs(load_preset("aws-16k-h100")))
    for key in ("usd_per_instance_hour", "storage_usd_per_day", "spot_notice_save_seconds"):
        assert isinstance(m[key], float), (key, type(m[key]))


def test_figures_that_stop_being_the_same_array_get_rows_of_their_own(monkeypatch):
    """The engine writes once a figure that is an input passed through (or holds its bits),
    or the same array as another figure, as long as each block gives it so.  A block that gives them apart
    (here a stand-in chain does, from the third block on) gets them rows of their own,
    holding what they shared so far: the figures are still those of one call."""
    n, chunk = 300, 64
    rng = np.random.default_rng(19)
    rate = rng.uniform(0.0005, 0.005, n)

    def figures(x):
        r = x["reliability.node_failure_rate_per_day"]
        apart = int(x["cluster.nodes"][0]) >= 2 * chunk  # the block's first scenario index
        twice = r * 2.0
        return {
            "rate": r * 1.5 if apart else r,  # the input passed through, then not
            "twice": twice,
            "twice_again": twice + 1.0 if apart else twice,  # the same array, then not
            "twice_bits": r * 3.0 if apart else r + r,  # the same bits, then not
            "rate_bits": r * 4.0 if apart else r * 1.0,  # the input's bits, then not
        }

    class Stand:
        def __init__(self, x, step, rows=None):
            self.x = x

        def metrics(self):
            return figures(self.x)

    x = {"reliability.node_failure_rate_per_day": rate, "cluster.nodes": np.arange(n) * 1.0}
    monkeypatch.setattr(ev_mod, "run_chain", Stand)
    monkeypatch.setattr(ev_mod, "step_time_table", lambda x, n: None)
    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", chunk)
    got = ev_mod.evaluate_arrays(x)
    expected = {
        "rate": rate.copy(),
        "twice": rate * 2.0,
        "twice_again": rate * 2.0,
        "twice_bits": rate * 2.0,
        "rate_bits": rate.copy(),
    }
    expected["rate"][2 * chunk :] *= 1.5
    expected["twice_again"][2 * chunk :] += 1.0
    expected["twice_bits"][2 * chunk :] = rate[2 * chunk :] * 3.0
    expected["rate_bits"][2 * chunk :] *= 4.0
    for key, value in expected.items():
        assert np.array_equal(got[key], value), key
    assert not np.shares_memory(got["rate"], rate)  # its own row from the third block on
    assert not np.shares_memory(got["rate_bits"], rate)
    assert got["twice_again"] is not got["twice"]
    assert got["twice_bits"] is not got["twice"]
    assert np.array_equal(rate, x["reliability.node_failure_rate_per_day"])  # input intact


def test_reuse_memory_writes_again_only_what_the_caller_let_go(monkeypatch):
    """``reuse_memory``: a second evaluation writes into the first one's blocks once the
    caller holds none of its figures, never while it holds one (then its figures stay as
    they were); the figures are those of a call on fresh memory either way."""
    inputs = resolve_inputs(load_preset("aws-16k-h100"))
    rng = np.random.default_rng(23)
    n = 1000

    def scenarios():
        return {
            **inputs,
            "reliability.node_failure_rate_per_day": rng.uniform(0.0005, 0.005, n),
            "cluster.nodes": rng.integers(1000, 1200, n).astype(float),
        }

    def address(figures):
        return figures["goodput"].base.__array_interface__["data"][0]

    monkeypatch.setattr(ev_mod, "CHUNK_SCENARIOS", 96)
    x1, x2, x3 = scenarios(), scenarios(), scenarios()
    first = ev_mod.evaluate_arrays(x1, reuse_memory=True)
    kept = {k: np.array(v, copy=True) for k, v in first.items()}
    held = first["goodput"]  # the caller still holds one figure of the first call
    first_at = address(first)
    del first
    second = ev_mod.evaluate_arrays(x2, reuse_memory=True)
    assert address(second) != first_at
    assert np.array_equal(held, kept["goodput"])  # not written over
    del held
    expected = ev_mod.evaluate_arrays(x2)
    for key, value in expected.items():
        assert np.array_equal(np.asarray(second[key]), np.asarray(value), equal_nan=True), key
    second_at = address(second)
    del second
    # both let go now: the third is written into the memory of one of them
    third = ev_mod.evaluate_arrays(x3, reuse_memory=True)
    assert address(third) in (first_at, second_at)
    for key, value in ev_mod.evaluate_arrays(x3).items():
        assert np.array_equal(np.asarray(third[key]), np.asarray(value), equal_nan=True), key


def _sweep(seed: int, options: Mapping | None = None) -> dict:
    """700 scenarios of aws-16k-h100 (with ``options``): failure rates, node counts and
    checkpoint intervals drawn with ``seed``."""
    inputs = {**resolve_inputs(load_preset("aws-16k-h100")), **(options or {})}
    rng = np.random.default_rng(seed)
    n = 700
    return {
        **inputs,
        "reliability.node_failure_rate_per_day": rng.uniform(0.0005, 0.005, n),
        "cluster.nodes": rng.integers(100, 4000, n).astype(float),
        "checkpoint.interval_minutes": rng.uniform(5.0, 120.0, n),
    }


def _assert_written_in_place(monkeypatch, x, keys, check_memory: bool = True) -> None:
    """Evaluated in 6 blocks of 128, the rows given to the chain for ``keys`` (from the
    second block on) are the returned figures' memory (when ``check_memory``), and every
    figure is bit for bit that of one call (NaN payloads and the sign of zero too)."""
    whole = run_chain(x).metrics()
    given: list[dict[str, np.ndarray]] = []
    real = ev_mod.run_chain

    def spy(block, step=None, rows=None):
        if rows is not None:
            given.append({k: rows[k] for k in keys if k in rows})
        return real(block, step, rows)

    monkeypatch.setattr(ev_mod, "run_chain", spy)
    blocks = _blocked(monkeypatch, x, chunk=128)  # 6 blocks: 5 of them given rows
    assert len(given) == 5
    if check_memory:
        for key in keys:
            assert all(np.shares_memory(g[key], blocks[key]) for g in given), key
    for key, value in whole.items():
        got = np.broadcast_to(blocks[key], np.shape(value))
        bits = np.dtype(f"u{got.dtype.itemsize}")
        assert np.array_equal(got.view(bits), np.asarray(value).view(bits)), key


def test_cost_figures_are_computed_straight_into_their_rows(monkeypatch):
    """From the second block on the cost step writes its products into the figures' rows
    (no temporary to copy): the memory it is given is the returned figure's, and every
    figure is still bit for bit that of one call (NaN payloads and the sign of zero too)."""
    keys = ("cost_to_train_usd", "lost_usd_per_month")
    _assert_written_in_place(monkeypatch, _sweep(23), keys)


#: Figures of the failure, checkpoint-plan and goodput steps that the default preset's chain
#: computes straight into their rows from the second block on (issue 31).
_IN_PLACE = (
    "node_failures_per_day",
    "mtbf_hours",
    "optimal_checkpoint_interval_minutes",
    "young_interval_minutes",
    "daly_first_order_interval_minutes",
    "daly_higher_order_interval_minutes",
    "checkpoint_shard_GB_per_node",
    "memory_required_GB_per_node",
    "tier_memory_save_seconds",
    "tier_nvme_save_seconds",
    "tier_object_store_save_seconds",
    "goodput_first_order",
    "minutes_lost_per_failure",
    "lost_minutes_per_day",
    "checkpoint_overhead_fraction",
    "level1_waste_fraction",
    "corrupt_checkpoint_minutes_per_event",
    "checkpoint_fallback_minutes",
    "loss_rework_minutes_per_day",
    "total_usd_per_day",
)


@pytest.mark.parametrize("options", [{}, ALL_ON], ids=["default", "every-class-on"])
def test_step_figures_are_computed_straight_into_their_rows(monkeypatch, options):
    """The failure, checkpoint-plan and goodput steps write their last operation into the
    figures' rows too (``out=`` down to models.reliability, models.checkpoint and
    models.goodput): with the default preset the memory given is the returned figure's,
    and with every class on as with none each figure is bit for bit that of one call."""
    _assert_written_in_place(monkeypatch, _sweep(29, options), _IN_PLACE, check_memory=not options)
