"""NumPy's own C distribution functions, which compiled Generator methods call by name.

NumPy's `numpy/random/_generator` extension exports the C functions its `Generator` methods
draw with (`nm -D` lists `random_standard_normal`, `random_gamma`, ...: NumPy's
`distributions.h`, each taking the bit generator's `bitgen_t *` first). Calling them is the
only way to NumPy's exact numbers for the ziggurat-based distributions: the ziggurat tables
are C constants which, recomputed from their parameters, come out a few ULPs off in the low
levels. So compiled code calls NumPy's code itself, with the Generator's `bitgen_t`.

Machine code never holds one of these addresses (cached object code is loaded by other
processes): it calls `jitcore.numpy.<function>`, which `externs.imports_for` resolves in each
linking process through `address` (a `dlopen` of the already loaded extension, by its path).

`FUNCTIONS` gives each function's C signature after `bitgen_t *`: its parameters' kinds and
its result's, `d` double, `f` float, `q` int64_t (NumPy's `c_distributions.pxd`).

Layer: imports only `jitcore.errors`; NumPy is imported when an address is asked for.
"""

from __future__ import annotations

import ctypes
import functools

from jitcore.errors import UnsupportedError

PREFIX = "jitcore.numpy."
FUNCTIONS: dict[str, tuple[str, str]] = {  # name -> (parameter kinds, result kind)
    "random_standard_uniform": ("", "d"),
    "random_standard_uniform_f": ("", "f"),
    "random_standard_normal": ("", "d"),
    "random_standard_normal_f": ("", "f"),
    "random_standard_exponential": ("", "d"),
    "random_standard_exponential_f": ("", "f"),
    "random_standard_gamma": ("d", "d"),
    "random_normal": ("dd", "d"),
    "random_exponential": ("d", "d"),
    "random_gamma": ("dd", "d"),
    "random_beta": ("dd", "d"),
    "random_chisquare": ("d", "d"),
    "random_f": ("dd", "d"),
    "random_standard_cauchy": ("", "d"),
    "random_standard_t": ("d", "d"),
    "random_pareto": ("d", "d"),
    "random_weibull": ("d", "d"),
    "random_power": ("d", "d"),
    "random_laplace": ("dd", "d"),
    "random_gumbel": ("dd", "d"),
    "random_logistic": ("dd", "d"),
    "random_lognormal": ("dd", "d"),
    "random_rayleigh": ("d", "d"),
    "random_vonmises": ("dd", "d"),
    "random_wald": ("dd", "d"),
    "random_triangular": ("ddd", "d"),
    "random_noncentral_chisquare": ("dd", "d"),
    "random_noncentral_f": ("ddd", "d"),
    "random_geometric": ("d", "q"),
    "random_negative_binomial": ("dd", "q"),
    "random_logseries": ("d", "q"),
    "random_zipf": ("d", "q"),
    "random_hypergeometric": ("qqq", "q"),
}


def symbol(function: str) -> str:
    """The name compiled code calls NumPy's `function` by."""
    return PREFIX + function


@functools.cache
def address(name: str) -> int:
    """The address in this process of the function a `symbol` names."""
    function = name[len(PREFIX) :]
    if function not in FUNCTIONS:
        raise UnsupportedError(f"compiled code calls NumPy's {function}, which is not known here")
    import numpy.random._generator as generator

    library = ctypes.CDLL(generator.__file__)  # already loaded: dlopen returns its handle
    try:
        found = getattr(library, function)
    except AttributeError:
        raise UnsupportedError(
            f"this NumPy ({generator.__file__}) does not export {function}",
            hint="draw from this distribution in Python",
        ) from None
    return int(ctypes.cast(found, ctypes.c_void_p).value or 0)
