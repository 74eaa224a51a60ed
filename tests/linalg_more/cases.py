"""Cases for the linalg-fft additions (sqrtm, logm, conjugate_gradient, eig/eigvals aliases, extract_volume_patches,
approx_max_k/min_k under tf.nn, parallel_stack, sampled_addmm, edit_distance, the FFTND family's errors), run by
TensorFlow 2.21 (record_tf_linalg_more.py) and placeflow (test_linalg_more.py): each `case_<name>(tf)` returns
JSON-able results: values rounded, dtypes, shapes, or [error class, first line]."""

import math

import numpy as np

from tests.helpers import error  # the recorded [class, first line] of a raised error

RNG = np.random.RandomState(5)
NONSYM = np.array([[4.0, 1.0, 0.5], [0.3, 3.0, 0.2], [0.1, -0.4, 2.0]])
BATCH = np.stack([NONSYM + 0.3 * RNG.randn(3, 3) for _ in range(2)]) + 2 * np.eye(3)
COMPLEX = NONSYM + 1j * np.array([[0.5, -0.2, 0.1], [0.0, 0.3, 0.4], [-0.1, 0.2, -0.6]])
ROTATION = np.array([[1.0, -2.0], [2.0, 1.0]])   # complex eigenvalues 1 +- 2i: a real square root exists
JORDAN = np.array([[4.0, 1.0], [0.0, 4.0]])      # not diagonalizable
SPD = np.array([[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1], [0.5, 0.2, 2.0, 0.3], [0.0, 0.1, 0.3, 1.5]])
VOLUME = np.arange(2 * 4 * 5 * 6 * 2, dtype=np.float32).reshape(2, 4, 5, 6, 2)


def _flat(a):
    return [("inf" if v > 0 else "-inf") if math.isinf(v) else ("nan" if math.isnan(v) else v)
            for v in np.round(a.astype(np.float64), 6).reshape(-1).tolist()]


def values(x, tol=None):
    """A tensor's values rounded to 6 decimals (complex: real and imaginary parts), with dtype and shape."""
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    dtype = getattr(x, "dtype", a.dtype)
    out = {"dtype": str(getattr(dtype, "name", dtype)), "shape": list(a.shape)}
    if a.dtype.kind == "c":
        out.update(real=_flat(a.real), imag=_flat(a.imag))
    elif a.dtype.kind in "OSU":
        out["values"] = [v.decode() if isinstance(v, bytes) else v for v in a.reshape(-1).tolist()]
    else:
        out["values"] = _flat(a)
    return out if tol is None else dict(out, tol=tol)


def grads(tf, fn, *arrays):
    """(fn(*xs), d sum(fn * weights) / d xs) under a GradientTape, xs constants."""
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
        w = tf.constant(np.arange(1, int(np.prod(y.shape)) + 1, dtype=np.float64).reshape(y.shape) / 7.0)
        total = tf.reduce_sum(y * tf.cast(w, y.dtype))
    return [values(y)] + [values(g) for g in tape.gradient(total, xs)]


def case_sqrtm_values(tf):
    return [values(tf.linalg.sqrtm(tf.constant(NONSYM))), values(tf.linalg.sqrtm(tf.constant(BATCH, tf.float32)),
                                                                 tol=1e-4),
            values(tf.linalg.sqrtm(tf.constant(COMPLEX))), values(tf.linalg.sqrtm(tf.constant(COMPLEX, tf.complex64)),
                                                                  tol=1e-4),
            values(tf.linalg.sqrtm(tf.constant(ROTATION))), values(tf.linalg.sqrtm(tf.constant(JORDAN))),
            values(tf.matrix_square_root(tf.constant(SPD))), values(tf.linalg.sqrtm(tf.zeros([2, 0, 0])))]


def case_sqrtm_without_a_real_root_is_nan(tf):
    return [values(tf.linalg.sqrtm(tf.constant([[1.0, 2.0], [3.0, 4.0]]))),
            values(tf.linalg.sqrtm(tf.constant([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, -3.0]], tf.float64))),
            values(tf.linalg.sqrtm(tf.constant([[[1.0, 2.0], [3.0, 4.0]], [[4.0, 1.0], [0.5, 3.0]]])))]


def case_sqrtm_errors(tf):
    return [error(lambda: tf.linalg.sqrtm(tf.constant([1.0, 2.0]))),
            error(lambda: tf.linalg.sqrtm(tf.ones([2, 3]))),
            error(lambda: tf.linalg.sqrtm(tf.constant([[1, 2], [3, 4]]))),
            error(lambda: tf.linalg.sqrtm(tf.constant([[1.0, 0.0], [0.0, 4.0]], tf.float16)))]


def case_sqrtm_gradient(tf):
    return grads(tf, tf.linalg.sqrtm, NONSYM) + grads(tf, tf.linalg.sqrtm, SPD)


def case_logm_values(tf):
    return [values(tf.linalg.logm(tf.constant(COMPLEX))), values(tf.linalg.logm(tf.constant(NONSYM, tf.complex128))),
            values(tf.linalg.logm(tf.constant(BATCH.astype(np.complex64))), tol=1e-4),
            values(tf.linalg.logm(tf.constant(ROTATION, tf.complex128))),
            values(tf.linalg.logm(tf.constant(JORDAN, tf.complex128))),
            values(tf.linalg.logm(tf.constant(1e-3 * NONSYM + np.eye(3), tf.complex128)))]


def case_logm_errors(tf):
    def gradient():
        a = tf.constant(NONSYM, tf.complex128)
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.linalg.logm(a)
        return tape.gradient(y, a)
    return [error(lambda: tf.linalg.logm(tf.constant(NONSYM))), error(lambda: tf.linalg.logm(tf.ones([2, 3],
                                                                                                      tf.complex64))),
            error(lambda: tf.linalg.logm(tf.constant([1.0], tf.complex64))), error(gradient)]


def _cg(tf, **kwargs):
    operator = tf.linalg.LinearOperatorFullMatrix(tf.constant(SPD), is_self_adjoint=True, is_positive_definite=True)
    state = tf.linalg.experimental.conjugate_gradient(operator, tf.constant(np.array([1.0, -2.0, 0.5, 3.0])), **kwargs)
    return [values(state.i), values(state.x), values(state.r, tol=1e-4), values(state.p, tol=1e-4),
            values(state.gamma, tol=1e-4), type(state).__name__, list(type(state)._fields)]


def case_conjugate_gradient(tf):
    diag = tf.linalg.LinearOperatorDiag(tf.constant(1.0 / np.diag(SPD)), is_self_adjoint=True,
                                        is_positive_definite=True)
    return [_cg(tf), _cg(tf, max_iter=2), _cg(tf, tol=1e-12), _cg(tf, preconditioner=diag),
            _cg(tf, x=tf.constant(np.array([0.1, -0.5, 0.2, 1.5])))]


def case_conjugate_gradient_batch(tf):
    operator = tf.linalg.LinearOperatorFullMatrix(tf.constant(np.stack([SPD, SPD + np.eye(4)])), is_self_adjoint=True,
                                                  is_positive_definite=True)
    state = tf.linalg.experimental.conjugate_gradient(operator, tf.constant(np.array([[1.0, 0.0, 0.5, 2.0],
                                                                                      [0.0, 1.0, -1.0, 0.5]])))
    return [values(state.i), values(state.x), values(state.gamma, tol=1e-4)]


def case_conjugate_gradient_errors_and_function(tf):
    plain = tf.linalg.LinearOperatorFullMatrix(tf.constant(SPD))
    rhs = tf.constant(np.array([1.0, -2.0, 0.5, 3.0]))
    operator = tf.linalg.LinearOperatorFullMatrix(tf.constant(SPD), is_self_adjoint=True, is_positive_definite=True)
    traced = tf.function(lambda b: tf.linalg.experimental.conjugate_gradient(operator, b, max_iter=3).x)
    return [error(lambda: tf.linalg.experimental.conjugate_gradient(plain, rhs)), values(traced(rhs))]


def case_traced(tf):
    """sqrtm, logm and extract_volume_patches inside a tf.function."""
    sqrt = tf.function(tf.linalg.sqrtm)
    log = tf.function(tf.linalg.logm)
    patches = tf.function(lambda v: tf.extract_volume_patches(v, [1, 2, 2, 2, 1], [1, 2, 1, 3, 1], "SAME"))
    return [values(sqrt(tf.constant(NONSYM))), values(log(tf.constant(COMPLEX))),
            values(patches(tf.constant(VOLUME)))]


def case_conjugate_gradient_complex(tf):
    hermitian = SPD + 1j * np.array([[0.0, 0.3, -0.1, 0.2], [-0.3, 0.0, 0.4, 0.0], [0.1, -0.4, 0.0, 0.1],
                                     [-0.2, 0.0, -0.1, 0.0]])
    operator = tf.linalg.LinearOperatorFullMatrix(tf.constant(hermitian), is_self_adjoint=True,
                                                  is_positive_definite=True)
    rhs = tf.constant(np.array([1.0, 2j, -1.0, 0.5 + 0.5j]))
    return error(lambda: tf.linalg.experimental.conjugate_gradient(operator, rhs))  # TF 2.21 compares complex norms


def case_eig_aliases(tf):
    vals = tf.eigvals(tf.constant(NONSYM)).numpy()
    e_vals, vecs = tf.eig(tf.constant(NONSYM))
    residual = np.abs(NONSYM @ vecs.numpy() - vecs.numpy() * e_vals.numpy()[None, :]).max()
    return [values(np.sort_complex(vals)), str(tf.eig(tf.constant(NONSYM, tf.float32))[1].dtype.name),
            bool(residual < 1e-10), values(np.linalg.norm(vecs.numpy(), axis=0))]


def case_extract_volume_patches(tf):
    x = tf.constant(VOLUME)
    return [values(tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")),
            values(tf.extract_volume_patches(x, [1, 2, 3, 2, 1], [1, 1, 2, 3, 1], "SAME")),
            values(tf.extract_volume_patches(x, [1, 3, 1, 4, 1], [1, 2, 3, 1, 1], "SAME")),
            values(tf.extract_volume_patches(tf.constant(VOLUME.astype(np.int32)), [1, 1, 2, 2, 1], [1, 3, 3, 3, 1],
                                             "VALID")),
            values(tf.extract_volume_patches(x, [1, 5, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"))]


def case_extract_volume_patches_gradient(tf):
    rng = np.random.RandomState(173)  # its own draws: a case's values never depend on order
    x = rng.randn(1, 3, 4, 3, 2)
    return grads(tf, lambda t: tf.extract_volume_patches(t, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"), x)


def case_extract_volume_patches_errors(tf):
    x = tf.constant(VOLUME)
    return [error(lambda: tf.extract_volume_patches(x, [2, 2, 2, 2, 1], [1, 1, 1, 1, 1], "SAME")),
            error(lambda: tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 1, 1, 1, 2], "SAME")),
            error(lambda: tf.extract_volume_patches(x, [1, 2, 2, 2], [1, 1, 1, 1, 1], "SAME")),
            error(lambda: tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "FULL")),
            error(lambda: tf.extract_volume_patches(tf.ones([1, 2, 2, 2, 1], tf.complex64), [1, 1, 1, 1, 1],
                                                    [1, 1, 1, 1, 1], "SAME")),
            error(lambda: tf.extract_volume_patches(tf.ones([1, 2, 2, 2], tf.float32), [1, 1, 1, 1, 1],
                                                    [1, 1, 1, 1, 1], "SAME"))]


def case_approx_max_k_under_nn(tf):
    """TF 2.21's CPU kernel is exact, for max_k over the last dimension only (approx_min_k: NotFoundError)."""
    x = tf.constant([[1.0, 5.0, 3.0, 5.0], [4.0, 2.0, 6.0, -1.0]])
    top = tf.nn.approx_max_k(x, 2)
    return [values(top[0]), values(top[1]),
            tf.nn.approx_max_k is tf.math.approx_max_k, tf.nn.approx_min_k is tf.math.approx_min_k]


def case_parallel_stack(tf):
    traced = tf.function(lambda: tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4]), tf.constant([5, 6])]))
    return [error(lambda: tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])])), values(traced()),
            values(tf.function(lambda a, b: tf.parallel_stack([a, b]))(tf.constant(1.5), tf.constant(2.5)))]


def case_sampled_addmm(tf):
    rng = np.random.RandomState(204)  # its own draws: a case's values never depend on order
    m1, m2 = rng.randn(3, 4).astype(np.float32), rng.randn(4, 5).astype(np.float32)
    out = tf.sparse.sampled_addmm(tf.constant([[0, 0], [1, 2], [2, 4]]), tf.constant([1.0, 2.0, 3.0]),
                                  tf.constant([3, 5]), m1, m2, beta=0.5, alpha=2.0)
    batch = tf.sparse.sampled_addmm(tf.constant([[[0, 0]], [[1, 1]]]), np.array([[1.0], [2.0]]),
                                    tf.constant([[2, 2], [2, 2]]), np.ones((2, 2, 3)), np.ones((2, 3, 2)),
                                    output_type=tf.float64)
    return [values(t) for t in out] + [values(t) for t in batch]


def case_sampled_addmm_errors(tf):
    m1, m2 = np.ones((3, 4), np.float32), np.ones((4, 5), np.float32)
    idx, vals = tf.constant([[0, 0]]), tf.constant([1.0])
    return [error(lambda: tf.sparse.sampled_addmm(idx, vals, tf.constant([3, 4]), m1, m2)),
            error(lambda: tf.sparse.sampled_addmm(idx, vals, tf.constant([3, 5], tf.int64), m1, m2)),
            error(lambda: tf.sparse.sampled_addmm(idx, vals, [3, 5], m1, np.ones((3, 5), np.float32)))]


def _sparse(tf, indices, vals, shape):
    return tf.SparseTensor(np.asarray(indices, np.int64).reshape(-1, len(shape)), vals, shape)


def case_edit_distance(tf):
    h = _sparse(tf, [[0, 0], [0, 1], [1, 0]], ["a", "b", "c"], [2, 2])
    t = _sparse(tf, [[0, 0], [1, 0], [1, 1]], ["a", "c", "d"], [2, 3])
    empty = _sparse(tf, [], tf.constant([], tf.string), [3, 2])
    h3 = _sparse(tf, [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2]], [1, 2, 3, 4, 5, 6],
                 [2, 2, 3])
    t3 = _sparse(tf, [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 0], [1, 0, 1], [1, 1, 0]], [1, 3, 2, 5, 5, 7],
                 [2, 2, 3])
    return [values(tf.edit_distance(h, t)), values(tf.edit_distance(h, t, normalize=False)),
            values(tf.edit_distance(h, empty)), values(tf.edit_distance(h, empty, normalize=False)),
            values(tf.edit_distance(h3, t3)), values(tf.edit_distance(h3, t3, normalize=False)),
            values(tf.edit_distance(t3, h3))]


def case_edit_distance_errors(tf):
    h = _sparse(tf, [[0, 0], [0, 1]], ["a", "b"], [1, 2])
    return [error(lambda: tf.edit_distance(h, _sparse(tf, [[0, 0]], [1], [1, 2]))),
            error(lambda: tf.edit_distance(h, tf.constant([1]))),
            error(lambda: tf.edit_distance(tf.constant([1]), h)),
            error(lambda: tf.edit_distance(h, _sparse(tf, [[0, 0, 0]], ["a"], [1, 1, 2])))]


def case_fftnd_dtype_errors(tf):
    """TF 2.21 has no CPU kernels for the FFTND family (NotFoundError on values); its dtype checks come first."""
    return [error(lambda: tf.fftnd(tf.ones([2, 2]), [2, 2], [0, 1])),
            error(lambda: tf.ifftnd(tf.ones([2, 2], tf.float64), [2, 2], [0, 1])),
            error(lambda: tf.rfftnd(tf.ones([2, 2], tf.complex64), [2, 2], [0, 1])),
            error(lambda: tf.irfftnd(tf.ones([2, 2]), [2, 2], [0, 1]))]


CASES = {name[5:]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
