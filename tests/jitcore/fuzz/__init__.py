"""Regression tests written by `python -m jitcheck fuzz` for bugs it found (README: "Random
programs"). Each file is the fuzzer's output for one finding, kept as written (the shrunk
program, the failing arguments, `assert_compiled_matches_python`)."""
