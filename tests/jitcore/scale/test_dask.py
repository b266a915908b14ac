"""A jitted kernel mapped over the chunks of an array on a real Dask cluster: two worker
processes on loopback, started by the test, sharing one compile cache directory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.jitcore.scale import kernels

distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is in the optional `distributed` extra"
)


def test_local_cluster_maps_a_kernel_and_the_second_worker_loads_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Workers are spawned processes: they read these when they import the kernels' module.
    monkeypatch.setenv("JITCORE_CACHE", "1")
    monkeypatch.setenv("JITCORE_CACHE_DIR", str(tmp_path / "cache"))
    data = np.random.default_rng(7).random(10_000)
    chunks = np.array_split(data, 8)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            worker_dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        first, second = sorted(client.scheduler_info()["workers"])
        # the first worker compiles (and stores); only then does the second one start
        compiled = client.submit(
            kernels.run_in_worker, (kernels.chunk_stats, chunks[0]), workers=[first], pure=False
        ).result()
        loaded = client.submit(
            kernels.run_in_worker, (kernels.chunk_stats, chunks[1]), workers=[second], pure=False
        ).result()
        mapped = client.gather(client.map(kernels.chunk_stats, chunks))
    assert (compiled[1], loaded[1]) == (False, True)
    assert compiled[0] == kernels.chunk_stats.py_func(chunks[0])
    assert loaded[0] == kernels.chunk_stats.py_func(chunks[1])
    assert mapped == [kernels.chunk_stats.py_func(c) for c in chunks]
    count = sum(n for n, _ in mapped)
    assert count == int(np.count_nonzero(data > 0.5))
