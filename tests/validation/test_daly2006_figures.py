"""Daly (FGCS 22(3):303-312, 2006), Figs. 3-5: the optimum intervals the paper prints.

The figure captions give, for δ = 5 min and R = 10 min, τ_opt = 117 min at M = 24 h, 57 min at
M = 6 h and 9.1 min at M = 15 min (his higher-order estimate, eq. 37).  Our eq. 37 must give
those numbers to the printed digits, and the exact Lambert-W minimiser of the expected wall
time (docs/references.md#checkpoint-interval) must agree within 1%.
"""

from __future__ import annotations

import pytest
from goodput_lab.models import checkpoint as ck

DELTA, RESTART = 5.0, 10.0  # minutes (R does not enter either optimum)

#: (M [min], τ_opt printed in the figure caption [min], printed decimals)
DALY2006_FIGS_3_TO_5 = [(24 * 60.0, 117.0, 0), (6 * 60.0, 57.0, 0), (15.0, 9.1, 1)]


@pytest.mark.parametrize(("mtbf", "printed", "decimals"), DALY2006_FIGS_3_TO_5)
def test_daly2006_figs_3_to_5_higher_order(mtbf, printed, decimals):
    assert round(ck.daly_higher_order_interval_minutes(DELTA, mtbf), decimals) == printed


@pytest.mark.parametrize(("mtbf", "printed", "decimals"), DALY2006_FIGS_3_TO_5)
def test_daly2006_figs_3_to_5_exact_optimum(mtbf, printed, decimals):
    assert ck.exact_optimal_interval_minutes(DELTA, mtbf) == pytest.approx(printed, rel=0.01)
