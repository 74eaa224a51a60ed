"""Cases run under TensorFlow 2.21 (record_tf_special.py writes their results to tf_2_21.json) and under placeflow
(test_special.py compares). Each `case_<name>(tf)` returns JSON-able results: {"dtype", "values"} dicts, lists
of them, or [error class, first line of the message]."""

import math

import numpy as np

INF, NAN = math.inf, math.nan
UNARY = ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
         "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "dawsn", "expint", "fresnel_cos", "fresnel_sin",
         "spence")
# float64: the negatives, zeros of both signs, tiny, moderate, large, inf and NaN; a dense sweep of [-30, 30]
WIDE = ([-INF, -700.0, -30.0, -10.0, -2.5, -1.0, -0.3, -1e-30, -0.0, 0.0, 5e-324, 1e-300, 1e-30, 1e-8, 1e-3,
         0.1, 0.3725074107813666, 0.5, 0.9999, 1.0, 1.0001, 1.5, 2.0, 2.0001, 4.5, 8.0, 12.5, 25.0, 25.5, 40.0,
         55.0, 100.0, 333.3, 700.0, 709.0, 712.0, 717.0, 1000.0, 5000.0, 1e4, INF, NAN]
        + list(np.round(np.linspace(-30.0, 30.0, 241), 6)) + list(np.geomspace(1e-6, 1e4, 60)))
# float32 (no denormals: TF reads them as zero): |x| up to 20
MODERATE = [-INF, -20.0, -3.5, -1.0, -1e-30, -0.0, 0.0, 1e-30, 1e-6, 0.01, 0.25, 0.5, 1.0, 1.5, 2.0, 3.3, 5.0, 7.7,
            12.0, 19.0, 20.0, INF, NAN] + list(np.round(np.linspace(0.05, 20.0, 80), 5))
# float32 beyond |x| = 20, where TF's float32 kernels lose digits (phase and exp rounding)
LARGE32 = [25.0, 31.0, 47.5, 80.0, 85.0, 88.0, 100.0, 250.0, 999.0]


def _values(tensor):
    return {"dtype": tensor.dtype.name, "values": [float(v) for v in np.asarray(tensor.numpy(), np.float64).ravel()],
            "shape": list(tensor.shape)}


def _both(tf, fn, *args):
    """fn on float32 tensors, and on the same values in float64 (the reference for placeflow's float32)."""
    return {"float32": _values(fn(*args)), "float64": _values(fn(*(tf.cast(a, tf.float64) for a in args)))}


def _error(fn):
    try:
        return _values(fn())
    except Exception as error:  # noqa: BLE001 - the class and first line are the result
        return [type(error).__name__, str(error).splitlines()[0] if str(error) else ""]


def _special(tf, name):
    return getattr(tf.math.special, name)


def _unary_cases(name):
    def wide(tf):
        return _values(_special(tf, name)(tf.constant(WIDE, tf.float64)))

    def moderate(tf):
        return _both(tf, _special(tf, name), tf.constant(MODERATE, tf.float32))

    def large32(tf):
        return _both(tf, _special(tf, name), tf.constant(LARGE32, tf.float32))

    def other_dtypes(tf):
        out = [_error(lambda: _special(tf, name)(tf.constant([0.5, 1.0, 2.0, 3.0], dtype))) for dtype in
               (tf.float16, tf.bfloat16)]
        out.append(_error(lambda: _special(tf, name)(tf.constant([1, 2]))))
        out.append(_error(lambda: _special(tf, name)(2.5)))
        return out

    def gradient(tf):
        x = tf.constant([-2.0, -0.5, 0.0, 1e-3, 0.5, 1.0, 2.0, 3.0, 7.5, 30.0], tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _special(tf, name)(x)
        return _values(tape.gradient(y, x))

    def function(tf):
        fn = tf.function(lambda x: _special(tf, name)(x) * 2.0)
        return _values(fn(tf.constant([[0.25, 1.0], [2.5, 6.0]], tf.float32)))

    return {f"{name}_float64": wide, f"{name}_float32": moderate, f"{name}_float32_large": large32,
            f"{name}_dtypes": other_dtypes, f"{name}_gradient": gradient, f"{name}_function": function}


for _name in UNARY:
    for _case, _fn in _unary_cases(_name).items():
        globals()[f"case_{_case}"] = _fn


def case_special_namespace(tf):
    return sorted(n for n in dir(tf.math.special) if not n.startswith("_") and n in UNARY)


def case_tf_math_i0_is_special_i0(tf):
    return [tf.math.bessel_i0 is tf.math.special.bessel_i0, tf.math.bessel_i1e is tf.math.special.bessel_i1e]


# -- igamma, igammac ---------------------------------------------------------------------------------------------

EDGE_A = [-1.0, -0.0, 0.0, 1e-300, 1e-3, 0.5, 1.0, 3.0, 25.0, INF, NAN]
EDGE_X = [-1.0, 0.0, 1e-300, 1e-3, 0.5, 1.0, 3.0, 30.0, 1e4, INF, NAN]
_GRID = np.meshgrid(np.geomspace(1e-3, 100.0, 23), np.geomspace(1e-4, 300.0, 27), indexing="ij")
SWEEP_A, SWEEP_X = _GRID[0].ravel().tolist(), _GRID[1].ravel().tolist()


def _pairs(edge_a, edge_x):
    a, x = np.meshgrid(edge_a, edge_x, indexing="ij")
    return a.ravel().tolist(), x.ravel().tolist()


def _igamma_cases(name):
    def edges(tf):
        a, x = _pairs(EDGE_A, EDGE_X)
        return _values(getattr(tf.math, name)(tf.constant(a, tf.float64), tf.constant(x, tf.float64)))

    def sweep64(tf):
        return _values(getattr(tf.math, name)(tf.constant(SWEEP_A, tf.float64), tf.constant(SWEEP_X, tf.float64)))

    def sweep32(tf):
        return _both(tf, getattr(tf.math, name), tf.constant(SWEEP_A, tf.float32), tf.constant(SWEEP_X, tf.float32))

    def gradient(tf):
        a, x = _pairs(EDGE_A, EDGE_X)
        a, x = tf.constant(a + SWEEP_A[::7], tf.float64), tf.constant(x + SWEEP_X[::7], tf.float64)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(a)
            tape.watch(x)
            y = getattr(tf.math, name)(a, x)
        return [_values(tape.gradient(y, a)), _values(tape.gradient(y, x))]

    def broadcast_gradient(tf):
        a, x = tf.constant([[0.5], [2.0]], tf.float32), tf.constant([0.3, 1.0, 4.0], tf.float32)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(a)
            tape.watch(x)
            y = getattr(tf.math, name)(a, x)
        return [_values(y), _values(tape.gradient(y, a)), _values(tape.gradient(y, x))]

    def errors(tf):
        fn = getattr(tf.math, name)
        return [_error(lambda: fn(tf.constant([1.0, 2.0], dtype), tf.constant([1.0, 2.0], dtype)))
                for dtype in (tf.float16, tf.bfloat16)] + [
            _error(lambda: fn(tf.constant([1.0]), tf.constant([1.0], tf.float64))),
            _error(lambda: fn(tf.constant([1, 2]), tf.constant([1, 2]))),
            _error(lambda: fn(2.0, 1.5))]

    def function(tf):
        return _values(tf.function(lambda a, x: getattr(tf.math, name)(a, x))(
            tf.constant([0.5, 4.0], tf.float32), tf.constant([[1.0], [3.0]], tf.float32)))

    return {f"{name}_edges": edges, f"{name}_sweep_float64": sweep64, f"{name}_sweep_float32": sweep32,
            f"{name}_gradient": gradient, f"{name}_broadcast_gradient": broadcast_gradient, f"{name}_errors": errors,
            f"{name}_function": function}


for _name in ("igamma", "igammac"):
    for _case, _fn in _igamma_cases(_name).items():
        globals()[f"case_{_case}"] = _fn


# -- betainc -----------------------------------------------------------------------------------------------------

EDGE_AB = [-1.0, 0.0, 1e-3, 0.5, 2.0, 50.0, INF, NAN]
EDGE_BX = [-0.5, 0.0, 1e-10, 0.3, 0.5, 0.999, 1.0, 1.5, NAN]
_BGRID = np.meshgrid(np.geomspace(0.01, 200.0, 9), np.geomspace(0.01, 200.0, 9), np.linspace(0.0, 1.0, 13)[1:-1],
                     indexing="ij")
BETA_SWEEP = [g.ravel().tolist() for g in _BGRID]


def case_betainc_edges(tf):
    a, b, x = (g.ravel().tolist() for g in np.meshgrid(EDGE_AB, EDGE_AB, EDGE_BX, indexing="ij"))
    return _values(tf.math.betainc(tf.constant(a, tf.float64), tf.constant(b, tf.float64), tf.constant(x, tf.float64)))


def case_betainc_sweep_float64(tf):
    return _values(tf.math.betainc(*(tf.constant(v, tf.float64) for v in BETA_SWEEP)))


def case_betainc_sweep_float32(tf):
    return _both(tf, tf.math.betainc, *(tf.constant(v, tf.float32) for v in BETA_SWEEP))


def case_betainc_scalars(tf):
    return [_values(tf.math.betainc(2.0, 3.0, tf.constant([0.1, 0.5, 0.9]))),
            _values(tf.math.betainc(tf.constant([0.5, 5.0], tf.float64), 2.0, 0.4)),
            _values(tf.math.betainc(0.5, 0.5, 0.25))]


def case_betainc_gradient(tf):
    a = tf.constant([1.0, 1.0, 0.5, 2.0, 3.0, 0.5, 2.0, 10.0, 1.0], tf.float64)
    b = tf.constant([2.0, 2.0, 2.0, 2.0, 3.0, 0.5, 1.0, 4.0, 1.0], tf.float64)
    x = tf.constant([0.0, 1.0, 0.5, -0.5, 0.3, 0.9, 0.0, 0.7, 1.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        for v in (a, b, x):
            tape.watch(v)
        y = tf.math.betainc(a, b, x)
    grads = [tape.gradient(y, v) for v in (a, b, x)]
    return [g is None for g in grads[:2]] + [_values(grads[2])]


def case_betainc_scalar_gradient(tf):
    x = tf.constant([0.2, 0.6], tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.betainc(2.0, 0.5, x)
    return _values(tape.gradient(y, x))


def case_betainc_errors(tf):
    return [_error(lambda: tf.math.betainc(tf.constant([1.0, 2.0]), tf.constant([[1.0], [2.0]]), 0.5)),
            _error(lambda: tf.math.betainc(tf.constant([1.0, 2.0]), 2.0, tf.constant([0.5, 0.2, 0.3]))),
            _error(lambda: tf.math.betainc(1.0, tf.constant([1.0, 2.0]), tf.constant([0.5, 0.2, 0.3]))),
            _error(lambda: tf.math.betainc(tf.constant([1.0], tf.float16), 1.0, 0.5)),
            _error(lambda: tf.math.betainc(tf.constant([1.0], tf.bfloat16), 1.0, 0.5)),
            _error(lambda: tf.math.betainc(tf.constant([1.0]), tf.constant([1.0], tf.float64), 0.5))]


def case_betainc_function(tf):
    fn = tf.function(lambda a, b, x: tf.math.betainc(a, b, x))
    return _values(fn(tf.constant([0.5, 3.0]), tf.constant([2.0, 0.7]), tf.constant([0.25, 0.8])))


CASES = sorted(name[len("case_"):] for name in globals() if name.startswith("case_"))

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
