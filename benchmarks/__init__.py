"""Benchmarks and the demo for jitcore.

* `kernels`: the bundled kernels, written as a NumPy user writes them, with input builders.
* `reference`: NumPy versions of the loop kernels, to check them and to time them against.
* `cases`: one `Case` per kernel: its sizes, how its work scales, its NumPy version.
* `variants`: fresh jitcore and Numba copies of a kernel (compile latency, Numba timings).
* `test_*.py`: pytest-benchmark suites (`make bench`); `table.py` summarizes their JSON.
* `demo`: `python -m benchmarks.demo` compiles every kernel and checks it against Python.

Nothing here may require Numba: it is an optional extra, measured when importable.
"""
