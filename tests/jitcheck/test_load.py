"""The load gauges of timings (`jitcheck.load`): this process's cores, others' cores."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from jitcheck.load import cores_used, other_load


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_sleeping_block_uses_no_core_and_a_busy_one_at_most_one() -> None:
    with cores_used() as idle:
        time.sleep(0.05)
    with cores_used() as busy:
        _spin(0.1)
    assert idle[0] is not None and idle[0] < 0.3
    assert busy[0] is not None and 0.2 < busy[0] <= 1.1


def test_threads_that_run_at_once_count_as_several_cores() -> None:
    import numpy as np

    a = np.random.default_rng(0).random((600, 600))

    def work() -> None:
        for _ in range(20):
            a @ a  # releases the GIL

    with cores_used() as cores:
        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert cores[0] is not None and cores[0] > 0.2  # > 1 on a free 2-core machine


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/stat")
def test_other_processes_load_is_measured_apart_from_this_one() -> None:
    with other_load() as load:
        _spin(0.2)  # this process's own work is not counted as others'
    assert load[0] is not None and load[0] >= 0.0
