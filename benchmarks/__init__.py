"""Benchmarks and the demo for jitcore.

* `kernels`: the bundled kernels, written as a NumPy user writes them, with input builders.
* `reference`: NumPy versions of the loop kernels, to check them and to time them against.
* `cases`: one `Case` per kernel: its sizes, how its work scales, its NumPy version.
* `variants`: pure-Python, fresh jitcore and Numba copies of a kernel and its callees.
* `harness`, `conftest`: what the benchmark suites share; `machine`: the host they ran on.
* `test_kernels`, `test_compile`, `test_memory`, `test_dispatch` (call overhead),
  `test_startup` (fresh processes, warm and cold disk cache; imports): pytest-benchmark suites
  (`make bench`); `table`: `python -m benchmarks.table reports/bench.json` summarizes their JSON.
* `startup`: what `test_startup` runs; `python -m benchmarks.startup` prints the slowest imports
  of `import jitcore`.
* `test_reference`, `test_table`, `test_demo`: plain tests of the above
  (`pytest benchmarks -p no:xdist`; `--benchmark-only` skips them).
* `demo`: `python -m benchmarks.demo` compiles every kernel and checks it against Python.

Nothing here may require Numba: it is an optional extra, measured when importable.
"""

import os

# Run times here are of the final code (what runs long), so tiered compilation is off for every
# function made in a process that imports the benchmarks (scripts such as `python -m
# benchmarks.diagnoses` time a few calls after the first, which on small inputs would be
# first-tier code, replaced in the background partway). `test_compile` turns it on again to
# time the first call users get, and times the final code compiled at once beside it.
os.environ.setdefault("JITCORE_TIERED", "0")
