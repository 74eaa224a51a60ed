"""Programs for tf.experimental.numpy, run with TensorFlow 2.21 (record_tf_tnp.py) and with placeflow (test_tnp.py).

Each `case_<name>(tf)` returns plain JSON data: a tensor as {"dtype", "shape", "value"}, or
["error", class name, first line of the message]. The eager cases come from the table EAGER (one lambda of
`tnp` each), the traced ones from TRACED (the same kind of lambda run inside tf.function on constant inputs),
and a few are written out below (dtype promotion, prefer_float32, tensor methods, gradients, random)."""

import numpy as np


def res(x):
    """A result as JSON-able data."""
    if isinstance(x, (tuple, list)):
        return [res(v) for v in x]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        value = x.numpy()
        return {"dtype": x.dtype.name, "shape": list(value.shape), "value": _plain(value)}
    if isinstance(x, (np.ndarray, np.generic)):
        return {"numpy": str(np.asarray(x).dtype), "value": _plain(np.asarray(x))}
    if isinstance(x, (bool, int, float, str)) or x is None:
        return x
    return repr(x)


def _plain(value):
    if value.dtype.kind == "c":
        return [_plain(value.real), _plain(value.imag)]
    if value.dtype.kind in "SO":
        return value.astype(str).tolist() if value.dtype.kind == "S" else [str(v) for v in value.ravel()]
    return value.tolist()


def err(fn):
    """The result of fn(), or ["error", class name, first line of the message]."""
    try:
        return res(fn())
    except Exception as error:  # noqa: BLE001 - the class is the result
        return ["error", type(error).__name__, (str(error).splitlines() or [""])[0]]


A = [[1.0, -2.5, 3.0], [4.0, 5.5, -6.0]]
B = [[1, 2, 3], [4, 5, 6]]
V = [3.0, 1.0, 2.0]
P = [0.2, 0.5, 0.9]
I32 = np.array([1, -2, 3], np.int32)
F32 = np.array([1.5, -2.0, 0.25], np.float32)
BOOLS = [True, False, True]
C = [1 + 2j, -3j]

EAGER = {
    # creation
    "array": lambda t: t.array(A), "array_int": lambda t: t.array(B), "array_dtype": lambda t: t.array(A, t.int32),
    "array_ndmin": lambda t: t.array([1, 2], ndmin=3), "array_scalar": lambda t: t.array(2.5),
    "array_bool": lambda t: t.array(True), "array_complex": lambda t: t.array(C),
    "array_np32": lambda t: t.array(F32), "array_mixed": lambda t: t.array([1, 2.5]),
    "array_dtype_str": lambda t: t.array([1, 2], dtype="int16"), "array_pyfloat_dtype": lambda t: t.array([1, 2], float),
    "array_of_tensors": lambda t: t.array([t.array(1.0), t.array(2.0)]),
    "asarray": lambda t: t.asarray([1, 2]), "asarray_dtype": lambda t: t.asarray(t.asarray([1, 2]), t.float32),
    "asanyarray": lambda t: t.asanyarray(V), "ascontiguousarray": lambda t: t.ascontiguousarray(3.0),
    "copy": lambda t: t.copy(t.asarray(B)),
    "zeros": lambda t: t.zeros((2, 3)), "zeros_int": lambda t: t.zeros(3, dtype=int),
    "ones": lambda t: t.ones([2]), "ones_dtype": lambda t: t.ones((1, 2), t.int8),
    "empty": lambda t: t.empty((2,)),
    "full": lambda t: t.full((2, 2), 7), "full_float": lambda t: t.full(3, 1.5),
    "full_bcast": lambda t: t.full((2, 3), [1, 2, 3]), "full_dtype": lambda t: t.full((2,), 3, t.float32),
    "zeros_like": lambda t: t.zeros_like(t.asarray(B)), "ones_like": lambda t: t.ones_like(F32),
    "ones_like_dtype": lambda t: t.ones_like(I32, dtype=t.float64), "empty_like": lambda t: t.empty_like(t.asarray(A)),
    "full_like": lambda t: t.full_like(I32, 4.7), "full_like_dtype": lambda t: t.full_like(I32, 4.7, dtype=float),
    "arange": lambda t: t.arange(5), "arange_float": lambda t: t.arange(1.0, 2.0, 0.25),
    "arange_neg": lambda t: t.arange(5, 0, -2), "arange_dtype": lambda t: t.arange(3, dtype=t.float32),
    "arange_mixed": lambda t: t.arange(0, 3, 0.5),
    "linspace": lambda t: t.linspace(0, 1, 5), "linspace_noend": lambda t: t.linspace(0, 1, 4, endpoint=False),
    "linspace_int": lambda t: t.linspace(0, 10, 4, dtype=int),
    "linspace_vec": lambda t: t.linspace(t.asarray([0, 1]), t.asarray([2.0, 3.0]), 3),
    "linspace_axis": lambda t: t.linspace(t.asarray([0.0, 1.0]), t.asarray([2.0, 3.0]), 3, axis=1),
    "linspace_f32": lambda t: t.linspace(F32[0], F32[1], 3), "linspace_one": lambda t: t.linspace(2, 3, 1),
    "linspace_retstep": lambda t: t.linspace(0, 2, 5, retstep=True),
    "logspace": lambda t: t.logspace(0, 2, 3), "logspace_base": lambda t: t.logspace(0, 3, 4, base=2.0),
    "geomspace": lambda t: t.geomspace(1, 1000, 4), "geomspace_noend": lambda t: t.geomspace(1, 16, 4, endpoint=False),
    "eye": lambda t: t.eye(3), "eye_rect": lambda t: t.eye(2, 3, k=1), "eye_dtype": lambda t: t.eye(2, dtype=t.int32),
    "identity": lambda t: t.identity(2), "tri": lambda t: t.tri(3, 4, k=-1), "tri_dtype": lambda t: t.tri(2, dtype=int),
    "diag_indices": lambda t: t.diag_indices(3), "meshgrid": lambda t: t.meshgrid([1, 2, 3], [4, 5]),
    "meshgrid_ij": lambda t: t.meshgrid([1, 2, 3], [4.0, 5.0], indexing="ij"),
    "ix_": lambda t: t.ix_([0, 1], [2, 3, 4]), "vander": lambda t: t.vander([1, 2, 3]),
    "vander_inc": lambda t: t.vander([1.0, 2.0], N=3, increasing=True),
    # dtypes
    "result_type": lambda t: str(t.result_type(1, 2.0)), "result_type_arr": lambda t: str(t.result_type(I32, F32)),
    "result_type_dt": lambda t: str(t.result_type(t.int8, t.uint8)),
    "promote_types": lambda t: str(t.promote_types(t.int32, t.float32)),
    "promote_types2": lambda t: str(t.promote_types(t.int16, t.uint16)),
    "issubdtype": lambda t: [t.issubdtype(t.float32, t.inexact), t.issubdtype(t.int32, t.inexact),
                             t.issubdtype(t.int8, np.integer)],
    "iscomplexobj": lambda t: [t.iscomplexobj(t.asarray(C)), t.iscomplexobj(V), t.iscomplexobj(1j)],
    "isrealobj": lambda t: [t.isrealobj(t.asarray(C)), t.isrealobj(V)],
    "isscalar": lambda t: [t.isscalar(1), t.isscalar(V), t.isscalar(2.5), t.isscalar("x")],
    "iinfo": lambda t: [int(t.iinfo(t.int8).max), int(t.iinfo(t.uint16).min), int(t.iinfo(np.int32).bits)],
    "finfo": lambda t: [float(t.finfo(t.float32).eps), float(t.finfo(t.float64).max), int(t.finfo(t.float16).bits)],
    "scalar_types": lambda t: [t.bool_ is np.bool_, t.int_ is np.int64, t.float_ is np.float64,
                               t.complex_ is np.complex128, t.object_ is np.object_, t.string_ is np.bytes_,
                               t.unicode_ is np.str_, t.inexact is np.inexact, t.float32 is np.float32,
                               t.float16 is np.float16, t.float64 is np.float64, t.int8 is np.int8,
                               t.int16 is np.int16, t.int32 is np.int32, t.int64 is np.int64, t.uint8 is np.uint8,
                               t.uint16 is np.uint16, t.uint32 is np.uint32, t.uint64 is np.uint64,
                               t.complex64 is np.complex64, t.complex128 is np.complex128, t.iinfo is np.iinfo],
    "constants": lambda t: [t.pi, t.e, str(t.inf), t.newaxis],
    "ndarray_is_tensor": lambda t: [isinstance(t.array(1.0), t.ndarray), isinstance(1.0, t.ndarray)],
}

_UNARY_FLOAT = ["sqrt", "exp", "expm1", "log1p", "sin", "cos", "tan", "arctan", "sinh", "cosh", "tanh", "arcsinh",
                "ceil", "floor", "reciprocal", "exp2", "cbrt", "sinc", "fix", "deg2rad", "rad2deg", "fabs",
                "square", "negative", "positive", "abs", "absolute", "sign", "signbit", "isfinite", "isnan",
                "isinf", "isposinf", "isneginf", "around", "round", "real", "imag", "conj", "conjugate", "angle",
                "iscomplex", "isreal", "logical_not"]
for _name in _UNARY_FLOAT:
    EAGER[f"{_name}_f"] = (lambda n: lambda t: getattr(t, n)(t.asarray([0.5, -1.25, 2.0, 0.0])))(_name)
    if _name not in ("isinf", "isposinf", "isneginf", "rad2deg", "reciprocal"):  # TensorFlow fails on ints
        EAGER[f"{_name}_i32"] = (lambda n: lambda t: getattr(t, n)(I32))(_name)
for _name in ["log", "log2", "log10", "arcsin", "arccos", "arctanh"]:
    EAGER[f"{_name}_f"] = (lambda n: lambda t: getattr(t, n)(t.asarray(P)))(_name)
    EAGER[f"{_name}_i8"] = (lambda n: lambda t: getattr(t, n)(np.array([1, 0], np.int8)))(_name)
EAGER["arccosh_f"] = lambda t: t.arccosh([1.0, 2.5])
EAGER["sqrt_f32"] = lambda t: t.sqrt(F32 * F32)
EAGER["sin_f16"] = lambda t: t.sin(np.array([1.0], np.float16))
EAGER["exp_bool"] = lambda t: t.exp(BOOLS)
EAGER["abs_c"] = lambda t: t.abs(C)
EAGER["angle_c_deg"] = lambda t: t.angle(C, deg=True)
EAGER["real_c"] = lambda t: t.real(C)
EAGER["imag_c"] = lambda t: t.imag(C)
EAGER["conj_c"] = lambda t: t.conj(C)
EAGER["iscomplex_c"] = lambda t: t.iscomplex([1 + 1j, 2 + 0j])
EAGER["around_dec"] = lambda t: t.around([1.234, 2.5, 3.5, -0.125], 2)
EAGER["round_half"] = lambda t: t.round([0.5, 1.5, 2.5, -2.5])
EAGER["isnan_nan"] = lambda t: t.isnan([1.0, np.nan, np.inf])
EAGER["isinf_inf"] = lambda t: [t.isinf(t.asarray([np.inf, -np.inf, 1.0])), t.isposinf(t.asarray([np.inf, -np.inf])),
                                t.isneginf(t.asarray([np.inf, -np.inf])), t.isfinite(t.asarray([np.nan, 1.0]))]
EAGER["signbit_negzero"] = lambda t: t.signbit([-0.0, 0.0, -1.0, 2.0])
EAGER["sign_bool"] = lambda t: t.sign(t.asarray([0, 3, -4], t.int8))

_BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "floor_divide", "mod", "remainder", "equal",
           "not_equal", "less", "less_equal", "greater", "greater_equal", "true_divide", "divide", "arctan2",
           "power", "float_power", "divmod", "hypot", "logaddexp", "logaddexp2", "heaviside", "logical_and",
           "logical_or", "logical_xor", "nextafter"]
for _name in _BINARY:
    EAGER[f"{_name}_ff"] = (lambda n: lambda t: getattr(t, n)(t.asarray(A), t.asarray([1.5, 2.0, -1.0])))(_name)
    EAGER[f"{_name}_i32_f32"] = (lambda n: lambda t: getattr(t, n)(np.array([[2, 3], [-4, 5]], np.int32),
                                                                   np.array([2.0, 3.0], np.float32)))(_name)
    if _name not in ("arctan2", "nextafter"):  # TensorFlow fails on ints
        EAGER[f"{_name}_i32_pyint"] = (lambda n: lambda t: getattr(t, n)(I32, 2))(_name)
    EAGER[f"{_name}_f32_pyfloat"] = (lambda n: lambda t: getattr(t, n)(F32, 0.5))(_name)
for _name in ["bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"]:
    EAGER[f"{_name}_ii"] = (lambda n: lambda t: getattr(t, n)(t.asarray([12, 7, 0, -9]), t.asarray([8, 21, 5, 6])))(_name)
    EAGER[f"{_name}_bool"] = (lambda n: lambda t: getattr(t, n)(BOOLS, [True, True, False]))(_name)
    EAGER[f"{_name}_i8_pyint"] = (lambda n: lambda t: getattr(t, n)(np.array([6, 4], np.int8), 4))(_name)
EAGER["bitwise_not"] = lambda t: [t.bitwise_not(t.asarray([0, 5], t.uint8)), t.bitwise_not(BOOLS), t.bitwise_not(I32)]
EAGER["add_pyints"] = lambda t: t.add(1, 2)
EAGER["bool_arith"] = lambda t: [t.add(BOOLS, [True, False, False]), t.multiply(BOOLS, [True, False, False]),
                                 t.maximum(BOOLS, [False, False, True]), t.minimum(BOOLS, [True, True, False])]
EAGER["add_pymixed"] = lambda t: t.add(1, 2.5)
EAGER["add_list_float"] = lambda t: t.add([1, 2], 2.5)
EAGER["add_npf32_pyint"] = lambda t: t.add(np.float32(1), 1)
EAGER["add_i16_pyint"] = lambda t: t.add(np.array([1], np.int16), 1)
EAGER["add_bool_pyint"] = lambda t: t.add(BOOLS, 1)
EAGER["add_bool_pyfloat"] = lambda t: t.add(BOOLS, 1.5)
EAGER["add_f16_pyfloat"] = lambda t: t.add(np.array([1], np.float16), 1.5)
EAGER["add_u8_i8"] = lambda t: t.add(np.array([1], np.uint8), np.array([1], np.int8))
EAGER["add_i32_u32"] = lambda t: t.add(I32, np.array([1, 1, 1], np.uint32))
EAGER["add_i64_u64"] = lambda t: t.add(np.array([1], np.int64), np.array([1], np.uint64))
EAGER["add_f32_f64"] = lambda t: t.add(F32, np.array([1.0], np.float64))
EAGER["add_f32_c64"] = lambda t: t.add(F32, np.array([1j], np.complex64))
EAGER["multiply_bcast"] = lambda t: t.multiply(t.asarray(B)[:, None, :], t.asarray(V))
EAGER["true_divide_ints"] = lambda t: t.true_divide(B, 4)
EAGER["true_divide_i8"] = lambda t: t.true_divide(np.array([1], np.int8), np.array([2], np.int8))
EAGER["power_ints"] = lambda t: t.power(t.asarray([2, 3]), 3)
EAGER["mod_neg"] = lambda t: [t.mod(-7, 3), t.mod(7, -3), t.mod(-7.5, 2.0), t.floor_divide(-7, 2)]
EAGER["clip"] = lambda t: t.clip(t.asarray(A), -1, 4)
EAGER["clip_none"] = lambda t: [t.clip(I32, None, 1), t.clip(I32, 0, None)]
EAGER["clip_float_int"] = lambda t: t.clip(I32, 0.5, 2.5)
EAGER["clip_arrays"] = lambda t: t.clip(t.asarray(A), [0, 0, 1], 3.0)
EAGER["isclose"] = lambda t: t.isclose([1.0, 1.0001, np.nan, np.inf, 2.0], [1.0, 1.0, np.nan, np.inf, np.inf])
EAGER["isclose_nan"] = lambda t: t.isclose([np.nan, 1.0], [np.nan, 1.1], atol=0.2, equal_nan=True)
EAGER["allclose"] = lambda t: [t.allclose(V, [3.0, 1.0, 2.0000001]), t.allclose(V, [3.0, 1.1, 2.0])]
EAGER["array_equal"] = lambda t: [t.array_equal(B, B), t.array_equal(B, V), t.array_equal([1, 2], [1.0, 2.0])]

_M = lambda t: t.asarray([[3.0, 1.0, 2.0], [-1.0, 5.0, 0.5]])  # noqa: E731
_T = lambda t: t.reshape(t.arange(24), (2, 3, 4))  # noqa: E731
for _name in ["sum", "prod", "mean", "max", "min", "amax", "amin", "std", "var", "ptp", "all", "any",
              "nansum", "nanprod", "nanmean"]:
    EAGER[f"{_name}_all"] = (lambda n: lambda t: getattr(t, n)(_M(t)))(_name)
    EAGER[f"{_name}_axis0"] = (lambda n: lambda t: getattr(t, n)(_M(t), axis=0))(_name)
    EAGER[f"{_name}_axis_neg_keep"] = (lambda n: lambda t: getattr(t, n)(_T(t), axis=-1, keepdims=True))(_name)
    EAGER[f"{_name}_axes"] = (lambda n: lambda t: getattr(t, n)(_T(t), axis=(0, 2)))(_name)
    EAGER[f"{_name}_i32"] = (lambda n: lambda t: getattr(t, n)(np.array([[1, 2], [3, 4]], np.int32), axis=1))(_name)
    EAGER[f"{_name}_bool"] = (lambda n: lambda t: getattr(t, n)([[True, False], [True, True]]))(_name)
for _name in ["sum", "prod", "cumsum", "cumprod"]:
    EAGER[f"{_name}_u8"] = (lambda n: lambda t: getattr(t, n)(np.array([1, 2, 3], np.uint8)))(_name)
    EAGER[f"{_name}_i8"] = (lambda n: lambda t: getattr(t, n)(np.array([1, 2, 3], np.int8)))(_name)
    EAGER[f"{_name}_dtype"] = (lambda n: lambda t: getattr(t, n)(np.array([1, 2, 3], np.int32), dtype=t.float32))(_name)
EAGER["mean_dtype"] = lambda t: t.mean(B, dtype=t.float32)
EAGER["var_c"] = lambda t: t.var(C)
EAGER["std_keep"] = lambda t: t.std(A, axis=0, keepdims=True)
EAGER["nanmean_nan"] = lambda t: [t.nanmean([[1.0, np.nan], [3.0, 4.0]], axis=0), t.nansum([np.nan, 2.0]),
                                  t.nanprod([np.nan, 2.0, 3.0])]
EAGER["sum_axis_error"] = lambda t: err(lambda: t.sum(V, axis=3))
for _name in ["argmax", "argmin"]:
    EAGER[f"{_name}"] = (lambda n: lambda t: getattr(t, n)(_M(t)))(_name)
    EAGER[f"{_name}_axis"] = (lambda n: lambda t: getattr(t, n)(_M(t), axis=1))(_name)
    EAGER[f"{_name}_ties"] = (lambda n: lambda t: getattr(t, n)([2, 5, 5, 1, 1]))(_name)
for _name in ["cumsum", "cumprod"]:
    EAGER[f"{_name}"] = (lambda n: lambda t: getattr(t, n)(_M(t)))(_name)
    EAGER[f"{_name}_axis"] = (lambda n: lambda t: getattr(t, n)(_M(t), axis=1))(_name)
EAGER["count_nonzero"] = lambda t: [t.count_nonzero([[0, 1, 2], [0, 0, 3]]), t.count_nonzero([[0, 1], [2, 0.0]], axis=0),
                                    t.count_nonzero(BOOLS)]
EAGER["average"] = lambda t: [t.average(B), t.average(A, axis=1), t.average(V, weights=[1, 2, 1])]
EAGER["average_axis_w"] = lambda t: t.average(A, axis=1, weights=[1.0, 0.0, 3.0])
EAGER["average_returned"] = lambda t: t.average(B, axis=0, weights=[[1, 2, 3], [3, 2, 1]], returned=True)

EAGER.update({
    # shapes
    "reshape": lambda t: t.reshape(t.arange(6), (3, -1)), "reshape_F": lambda t: t.reshape(t.arange(6), (2, 3), order="F"),
    "reshape_error": lambda t: err(lambda: t.reshape(t.arange(6), (4, 2)))[:2],
    "ravel": lambda t: t.ravel(A), "flatten": lambda t: t.flatten(B), "flatten_F": lambda t: t.flatten(B, order="F"),
    "transpose": lambda t: t.transpose(B), "transpose_axes": lambda t: t.transpose(_T(t), (1, 0, 2)),
    "swapaxes": lambda t: t.swapaxes(_T(t), 0, -1), "moveaxis": lambda t: t.moveaxis(_T(t), 0, -1),
    "moveaxis_multi": lambda t: t.moveaxis(_T(t), [0, 1], [-1, -2]),
    "expand_dims": lambda t: [t.expand_dims(V, 0), t.expand_dims(B, -1)],
    "squeeze": lambda t: [t.squeeze([[[1], [2]]]), t.squeeze([[[1], [2]]], axis=0), t.squeeze([[[1], [2]]], 2)],
    "concatenate": lambda t: t.concatenate([B, A]), "concatenate_axis1": lambda t: t.concatenate([B, B], axis=1),
    "concatenate_i32_f32": lambda t: t.concatenate([I32, F32]),
    "stack": lambda t: t.stack([V, [1, 2, 3]]), "stack_axis": lambda t: t.stack([V, V], axis=1),
    "hstack": lambda t: [t.hstack([V, V]), t.hstack([B, B])], "vstack": lambda t: [t.vstack([V, V]), t.vstack([B, A])],
    "dstack": lambda t: [t.dstack([V, V]), t.dstack([B, B])],
    "atleast_1d": lambda t: [t.atleast_1d(1.0), t.atleast_1d(V, 2)],
    "atleast_2d": lambda t: [t.atleast_2d(1.0), t.atleast_2d(V)],
    "atleast_3d": lambda t: [t.atleast_3d(1.0), t.atleast_3d(V), t.atleast_3d(B)],
    "append": lambda t: [t.append(B, [7, 8]), t.append(B, [[7, 8, 9]], axis=0)],
    "split": lambda t: t.split(t.arange(6), 3), "split_idx": lambda t: t.split(t.arange(6), [1, 4]),
    "split_axis": lambda t: t.split(_T(t), 2, axis=-1), "split_error": lambda t: err(lambda: t.split(t.arange(5), 2))[:2],
    "split_idx_over": lambda t: t.split(t.arange(7), [2, 10]),
    "hsplit": lambda t: [t.hsplit(t.arange(4), 2), t.hsplit(_T(t), 3)], "vsplit": lambda t: t.vsplit(_T(t), 2),
    "dsplit": lambda t: t.dsplit(_T(t), [1, 3]),
    "tile": lambda t: [t.tile(V, 2), t.tile(B, (2, 1)), t.tile(V, (2, 1, 2))],
    "repeat": lambda t: [t.repeat(B, 2), t.repeat(B, 2, axis=0), t.repeat(B, [1, 2, 0], axis=1)],
    "broadcast_to": lambda t: t.broadcast_to(V, (2, 3)),
    "broadcast_arrays": lambda t: t.broadcast_arrays(V, [[1], [2]]),
    "flip": lambda t: [t.flip(B), t.flip(B, 1), t.flip(_T(t), -1)], "fliplr": lambda t: t.fliplr(B),
    "flipud": lambda t: t.flipud(B),
    "roll": lambda t: [t.roll(t.arange(5), 2), t.roll(B, 1), t.roll(B, -1, axis=1), t.roll(B, (1, 1), axis=(0, 1))],
    "rot90": lambda t: [t.rot90(B), t.rot90(B, 2), t.rot90(B, 3), t.rot90(B, -1), t.rot90(_T(t), 1, (1, 2))],
    "ndim": lambda t: [t.ndim(1.0), t.ndim(B), t.ndim(_T(t))], "shape": lambda t: [list(t.shape(B)), list(t.shape(3))],
    "size": lambda t: [int(t.size(B)), int(t.size(2.0)), err(lambda: t.size(B, 1))[:2]],
    # indexing
    "take": lambda t: [t.take(B, [0, 4]), t.take(B, [2, 0], axis=1), t.take(V, [5, -1])],
    "take_modes": lambda t: [t.take(V, [4, -1], mode="wrap"), t.take(V, [4, -1], mode="clip")],
    "take_along_axis": lambda t: t.take_along_axis(_M(t), t.argsort(_M(t), axis=1), axis=1),
    "take_along_axis0": lambda t: t.take_along_axis(_M(t), [[1, 0, 1]], axis=0),
    "where": lambda t: t.where([True, False, True], V, -1), "where_bcast": lambda t: t.where([[True], [False]], B, 0.5),
    "where_one": lambda t: t.where([[0, 1], [1, 1]]), "nonzero": lambda t: t.nonzero([[0, 3], [4, 0]]),
    "select": lambda t: t.select([t.less(V, 2), t.greater(V, 2)], [t.zeros(3), t.ones(3)], -1),
    "compress": lambda t: [t.compress([True, False, True], B, axis=1), t.compress([False, True], B, axis=0),
                           t.compress([True, False, True], B)],
    "sort": lambda t: [t.sort(_M(t)), t.sort(_M(t), axis=0), t.sort(_M(t), axis=None), t.sort(I32)],
    "argsort": lambda t: [t.argsort(_M(t)), t.argsort(_M(t), axis=0), t.argsort([3, 1, 2, 1])],
    "pad": lambda t: [t.pad(B, [[1, 1], [1, 1]], "constant"), t.pad(V, [[1, 2]], "constant", constant_values=9),
                      t.pad(B, ((0, 1), (2, 0)), "reflect"), t.pad(V, [[2, 2]], "symmetric")],
    "diff": lambda t: [t.diff([1, 4, 9, 16]), t.diff(B, axis=0), t.diff([1.0, 4.0, 9.0, 16.0], n=2), t.diff(BOOLS)],
    # linear algebra
    "matmul": lambda t: [t.matmul(B, [[1], [0], [2]]), t.matmul(V, [[1.0], [0.0], [2.0]]), t.matmul(A, V)],
    "matmul_batch": lambda t: t.matmul(_T(t), t.ones((4, 2), t.int64)),
    "matmul_i32_f32": lambda t: t.matmul(np.ones((2, 2), np.int32), np.ones((2, 2), np.float32)),
    "dot": lambda t: [t.dot(V, V), t.dot(B, V), t.dot(2, B), t.dot(B, [[1, 2], [3, 4], [5, 6]]),
                      t.dot(_T(t), t.ones((4, 2)))],
    "tensordot": lambda t: [t.tensordot(B, A, axes=([0], [0])), t.tensordot(V, V, axes=1), t.tensordot(V, V, axes=0)],
    "inner": lambda t: [t.inner(V, V), t.inner(B, A), t.inner(2, V)], "outer": lambda t: t.outer(V, [1, 2]),
    "einsum": lambda t: [t.einsum("ij,j->i", A, V), t.einsum("ij->ji", B), t.einsum("ii", [[1, 2], [3, 4]])],
    "vdot": lambda t: [t.vdot(B, B), t.vdot(C, C)],
    "cross": lambda t: [t.cross([1, 2, 3], [4, 5, 6]), t.cross([1.0, 2.0], [3.0, 4.0]),
                        t.cross([[1, 0, 0], [0, 1, 0]], [0, 0, 1])],
    "kron": lambda t: [t.kron([1, 10], [1, 2, 3]), t.kron(t.eye(2), [[1, 2], [3, 4]])],
    "trace": lambda t: [t.trace(B), t.trace(t.eye(3), offset=1), t.trace(_T(t), axis1=1, axis2=2),
                        t.trace(B, dtype=t.float32)],
    "diag": lambda t: [t.diag([1, 2]), t.diag([1, 2], k=1), t.diag(t.reshape(t.arange(9), (3, 3))),
                       t.diag(t.reshape(t.arange(9), (3, 3)), k=-1)],
    "diagflat": lambda t: [t.diagflat([[1, 2], [3, 4]]), t.diagflat([1, 2], -1)],
    "diagonal": lambda t: [t.diagonal(B), t.diagonal(B, 1), t.diagonal(_T(t), 0, 1, 2), t.diagonal(_T(t), -1, 2, 0)],
    "tril": lambda t: [t.tril(B), t.tril(B, -1), err(lambda: t.tril(V)), t.tril(_T(t), 1)],
    "triu": lambda t: [t.triu(B), t.triu(B, 1), err(lambda: t.triu(V))],
    "polyval": lambda t: [t.polyval([1, 2, 3], 2), t.polyval([1.0, -1.0], V), t.polyval([3], V)],
    # random: dtypes and shapes only
    "random_dtypes": lambda t: [(x.dtype.name, list(x.shape)) for x in (
        t.random.rand(2, 3), t.random.randn(4), t.random.random((2,)), t.random.standard_normal(3),
        t.random.uniform(1.0, 2.0, (2, 2)), t.random.randint(5, size=(3,)), t.random.randint(2, 9, (2,), t.int32),
        t.random.rand())],
    "random_ranges": lambda t: [bool(t.all(t.less(t.random.rand(100, 1), 1.0))),
                                bool(t.all(t.greater_equal(t.random.uniform(3.0, 4.0, (50,)), 3.0))),
                                bool(t.all(t.less(t.random.randint(2, 5, (100,)), 5))),
                                bool(t.all(t.greater_equal(t.random.randint(2, 5, (100,)), 2)))],
    "random_poisson": lambda t: [(x.dtype.name, list(x.shape)) for x in (t.random.poisson(3.0, (2, 3)),)] + [
        bool(t.all(t.greater_equal(t.random.poisson(2.0, (100,)), 0)))],
})

_X = np.array([[1.0, -2.5, 3.0], [4.0, 5.5, -6.0]])
_Y = np.array([0.5, 2.0, -1.0], np.float32)
_K = np.array([[3, 1, 2], [0, 5, 4]], np.int32)
TRACED = {  # name: (fn(tnp, *tensors), inputs); run inside tf.function
    "add": (lambda t, x, y: t.add(x, y), [_X, _Y]), "subtract": (lambda t, x, y: t.subtract(x, y), [_K, _Y]),
    "multiply": (lambda t, x: t.multiply(x, 2.5), [_K]), "true_divide": (lambda t, x: t.true_divide(x, 2), [_K]),
    "power": (lambda t, x: t.power(x, 2), [_K]), "maximum": (lambda t, x, y: t.maximum(x, y), [_X, _Y]),
    "less": (lambda t, x: t.less(x, 2.5), [_K]), "sqrt": (lambda t, x: t.sqrt(x), [_K]),
    "exp": (lambda t, x: t.exp(x), [_Y]), "log1p": (lambda t, x: t.log1p(t.abs(x)), [_X]),
    "sin": (lambda t, x: t.sin(x), [_K]), "tanh": (lambda t, x: t.tanh(x), [_X]),
    "abs": (lambda t, x: t.abs(x), [_K]), "sign": (lambda t, x: t.sign(x), [_X]),
    "clip": (lambda t, x: t.clip(x, 0, 3), [_X]), "round": (lambda t, x: t.round(x, 1), [_X]),
    "isclose": (lambda t, x, y: t.isclose(x, y), [_X, _Y]), "logaddexp": (lambda t, x, y: t.logaddexp(x, y), [_X, _Y]),
    "sum": (lambda t, x: t.sum(x, axis=1), [_K]), "mean": (lambda t, x: t.mean(x, axis=0, keepdims=True), [_K]),
    "max": (lambda t, x: t.max(x), [_X]), "min": (lambda t, x: t.min(x, axis=1), [_X]),
    "prod": (lambda t, x: t.prod(x), [_K]), "std": (lambda t, x: t.std(x, axis=0), [_X]),
    "var": (lambda t, x: t.var(x), [_K]), "argmax": (lambda t, x: t.argmax(x, axis=1), [_X]),
    "argmin": (lambda t, x: t.argmin(x), [_X]), "all": (lambda t, x: t.all(x, axis=0), [_K]),
    "any": (lambda t, x: t.any(x), [_K]), "cumsum": (lambda t, x: t.cumsum(x, axis=1), [_K]),
    "cumprod": (lambda t, x: t.cumprod(x), [_X]), "count_nonzero": (lambda t, x: t.count_nonzero(x), [_K]),
    "reshape": (lambda t, x: t.reshape(x, (3, 2)), [_X]), "transpose": (lambda t, x: t.transpose(x), [_K]),
    "swapaxes": (lambda t, x: t.swapaxes(x, 0, 1), [_X]), "moveaxis": (lambda t, x: t.moveaxis(x[None], 0, 2), [_X]),
    "expand_dims": (lambda t, x: t.expand_dims(x, 1), [_Y]), "squeeze": (lambda t, x: t.squeeze(x[None]), [_X]),
    "concatenate": (lambda t, x, y: t.concatenate([x, y[None]]), [_X, _Y]),
    "stack": (lambda t, x, y: t.stack([x, y]), [_Y, _Y]), "hstack": (lambda t, x: t.hstack([x, x]), [_K]),
    "vstack": (lambda t, x, y: t.vstack([x, y]), [_X, _Y]), "split": (lambda t, x: t.split(x, 3, axis=1), [_X]),
    "append": (lambda t, x: t.append(x, x, axis=0), [_K]), "tile": (lambda t, x: t.tile(x, (2, 1)), [_Y]),
    "repeat": (lambda t, x: t.repeat(x, 2, axis=1), [_K]), "broadcast_to": (lambda t, x: t.broadcast_to(x, (2, 3)), [_Y]),
    "flip": (lambda t, x: t.flip(x), [_X]), "roll": (lambda t, x: t.roll(x, 1), [_X]),
    "rot90": (lambda t, x: t.rot90(x), [_K]), "ravel": (lambda t, x: t.ravel(x), [_X]),
    "take": (lambda t, x: t.take(x, [0, 5]), [_X]),
    "take_along_axis": (lambda t, x: t.take_along_axis(x, t.argsort(x, axis=1), axis=1), [_X]),
    "where": (lambda t, x: t.where(t.greater(x, 0), x, 0), [_X]), "sort": (lambda t, x: t.sort(x, axis=0), [_X]),
    "argsort": (lambda t, x: t.argsort(x), [_K]), "pad": (lambda t, x: t.pad(x, [[1, 0], [0, 2]], "reflect"), [_K]),
    "diff": (lambda t, x: t.diff(x), [_X]), "dot": (lambda t, x, y: t.dot(x, y), [_X, _Y]),
    "matmul": (lambda t, x: t.matmul(x, t.transpose(x)), [_K]),
    "tensordot": (lambda t, x, y: t.tensordot(x, y, 1), [_X, _Y]), "inner": (lambda t, x, y: t.inner(x, y), [_Y, _Y]),
    "outer": (lambda t, x, y: t.outer(x, y), [_Y, _Y]), "einsum": (lambda t, x, y: t.einsum("ij,j->i", x, y), [_X, _Y]),
    "vdot": (lambda t, x: t.vdot(x, x), [_K]), "cross": (lambda t, x, y: t.cross(x, y), [_X, _Y]),
    "kron": (lambda t, x: t.kron(x, x), [_Y]), "trace": (lambda t, x: t.trace(x), [_K]),
    "diag": (lambda t, x: t.diag(x), [_Y]), "diagonal": (lambda t, x: t.diagonal(x, 1), [_X]),
    "tril": (lambda t, x: t.tril(x), [_K]), "triu": (lambda t, x: t.triu(x, 1), [_K]),
    "zeros_like": (lambda t, x: t.zeros_like(x), [_K]), "ones_like": (lambda t, x: t.ones_like(x, t.float64), [_Y]),
    "full_like": (lambda t, x: t.full_like(x, 2), [_Y]), "asarray": (lambda t, x: t.asarray(x, t.float64), [_K]),
    "array": (lambda t, x: t.array([x, x]), [_Y]), "linspace": (lambda t, x: t.linspace(x[0], x[1], 5), [_Y]),
    "polyval": (lambda t, x: t.polyval(t.asarray([1.0, 2.0], x.dtype), x), [_Y]), "heaviside": (lambda t, x: t.heaviside(x, 0.5), [_X]),
    "float_power": (lambda t, x: t.float_power(x, 2), [_K]), "mod": (lambda t, x: t.mod(x, 3), [_K]),
    "nonzero": (lambda t, x: t.nonzero(x), [_K]), "select": (lambda t, x: t.select([t.less(x, 0)], [x], 9.0), [_X]),
    "gcd": (lambda t, x: t.gcd(x, 6), [_K]), "meshgrid": (lambda t, x: t.meshgrid(x, x), [_Y]),
    "average": (lambda t, x: t.average(x, axis=1, weights=[1.0, 2.0, 3.0]), [_X]),
    "nanmean": (lambda t, x: t.nanmean(x, axis=0), [_X]), "ptp": (lambda t, x: t.ptp(x, axis=1), [_X]),
}


def _traced(tf, fn, inputs):
    tnp = tf.experimental.numpy
    return tf.function(lambda *xs: fn(tnp, *xs))(*[tf.constant(x) for x in inputs])


for _name, (_fn, _inputs) in TRACED.items():
    globals()[f"case_fn_{_name}"] = (lambda f, i: lambda tf: res(_traced(tf, f, i)))(_fn, _inputs)
for _name, _fn in EAGER.items():
    globals()[f"case_{_name}"] = (lambda f: lambda tf: err(lambda: f(tf.experimental.numpy)))(_fn)


def _prefer_float32(tf, fn):
    tnp = tf.experimental.numpy
    tnp.experimental_enable_numpy_behavior(prefer_float32=True)
    try:
        return err(lambda: fn(tnp))
    finally:
        tnp.experimental_enable_numpy_behavior(prefer_float32=False)


def case_prefer_float32(tf):
    return _prefer_float32(tf, lambda t: [
        x.dtype.name for x in (t.array(1.5), t.asarray([1.0, 2.0]), t.add(I32, 1.5), t.arange(3.0), t.zeros(2),
                               t.sqrt(I32), t.mean(I32), t.array(1), t.linspace(0, 1, 3), t.true_divide(I32, I32),
                               t.array(np.float64(1.0)), t.array(np.array([1.0])), t.array([1.0], dtype=float),
                               t.add(F32, 2.0))])


def case_prefer_float32_off_again(tf):
    tnp = tf.experimental.numpy
    _prefer_float32(tf, lambda t: t.array(1.0))
    return [tnp.array(1.5).dtype.name, tnp.arange(2.0).dtype.name]


def case_tensor_methods(tf):
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    return err(lambda: [int(x.size), x.data is x, x.reshape(3, 2), x.reshape((3, 2)), x.reshape(-1, order="F"), x.T,
                        x.astype(np.float32), x.astype("float64"), x.tolist(), x.ravel(), x.flatten(),
                        x.transpose(), x.transpose((1, 0)), x.clip(2, 4), x.max(), x.mean(), x.min(axis=0), +x])


def case_fn_tensor_methods(tf):
    f = tf.function(lambda x: [x.reshape([-1]), x.T, x.astype(np.float64), x.ravel(), x.mean(axis=1), x.clip(0, 2)])
    return res(f(tf.constant([[1, 2, 3], [4, 5, 6]])))


def case_operators_promote(tf):
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    y = tf.constant([1.5], tf.float32)
    return err(lambda: [x + 1.5, y + 1, y * 2.0, x / 2, x // 2, y + tf.constant([1.0], tf.float64), x < 2.5,
                        x + y, 2 - x, 1.5 ** y, x % 4])


def case_fn_operators_promote(tf):
    f = tf.function(lambda x, y: [x + 1.5, x * y, x / 2, y - x])
    return res(f(tf.constant([1, 2], tf.int32), tf.constant([0.5, 1.5], tf.float32)))


def case_gradient_square_sum(tf):
    tnp = tf.experimental.numpy
    x = tf.constant([1.0, 2.0, -3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(tnp.square(x) * 2) + tnp.mean(tnp.exp(x))
    return res(tape.gradient(y, x))


def case_gradient_matmul_reshape(tf):
    tnp = tf.experimental.numpy
    w = tf.Variable(np.arange(6.0).reshape(2, 3))
    with tf.GradientTape() as tape:
        y = tnp.sum(tnp.matmul(tnp.reshape(w, (3, 2)), tnp.transpose(tnp.reshape(w, (3, 2)))))
    return res(tape.gradient(y, w))


def case_gradient_where_clip_take(tf):
    tnp = tf.experimental.numpy
    x = tf.constant([[1.0, -2.0], [3.0, 0.5]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(tnp.where(tnp.greater(x, 0), tnp.clip(x, 0, 2), tnp.take(x, [0, 3]))) + tnp.max(x) \
            + tnp.sum(tnp.sqrt(tnp.abs(x))) + tnp.sum(tnp.cumsum(x, axis=1))
    return res(tape.gradient(y, x))


def case_gradient_in_function(tf):
    tnp = tf.experimental.numpy

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tnp.sum(tnp.tensordot(x, x, 1)) + tnp.var(x) + tnp.sum(tnp.stack([x, x]))
        return tape.gradient(y, x)
    return res(grad(tf.constant([1.0, 2.0, 4.0])))


def case_random_seed(tf):
    tnp = tf.experimental.numpy
    tnp.random.seed(7)
    first = tnp.random.rand(5).numpy().tolist()
    tnp.random.seed(7)
    return [first == tnp.random.rand(5).numpy().tolist(), err(lambda: tnp.random.seed("x"))[:2]]


def case_enable_bad_mode(tf):
    return err(lambda: tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="bogus"))


def all_cases() -> dict:
    """{name: case function}."""
    return {name[5:]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}


# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
