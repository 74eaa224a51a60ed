"""GradientTape, and a numerical check of every registered gradient (central differences in float64)."""

import numpy as np
import pytest

import placeflow as tf
from placeflow.ops.emit import emit as _emit
from placeflow.eager.execute import execute
from placeflow.ops.registry import differentiable_ops

RNG = np.random.RandomState(0)


def positive(*shape):
    return RNG.uniform(0.5, 2.0, size=shape)


def signed(*shape):
    values = RNG.uniform(0.3, 1.5, size=shape)
    return values * np.where(RNG.rand(*shape) < 0.5, -1.0, 1.0)


def distinct(*shape):
    return RNG.permutation(np.arange(1, int(np.prod(shape)) + 1, dtype=np.float64)).reshape(shape) / 3.0


W232, W25, W32, W46 = distinct(3, 2, 2), distinct(2, 5), distinct(3, 2), distinct(4, 6)
W33, W44 = distinct(3, 3), distinct(4, 4)
D1222, D1331, D1221 = distinct(1, 2, 2, 2) / 4.0, distinct(1, 3, 3, 1), distinct(1, 2, 2, 1)
D12222, D13221, D12221 = distinct(1, 2, 2, 2, 2) / 4.0, distinct(1, 3, 2, 2, 1), distinct(1, 2, 2, 2, 1)
D34 = distinct(3, 4)
D12331 = distinct(1, 2, 3, 3, 1)
D2221, D22121 = distinct(2, 2, 2, 1), distinct(2, 2, 1, 2, 1)
SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
RELU_AT = signed(2, 3)
LABELS = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])  # rows sum to 1, as the fused kernel assumes

def _complex_parts(tf, z):
    """A real function of a complex tensor that weighs its two parts differently."""
    return tf.math.real(z) * tf.constant(W32) + tf.math.imag(z) * tf.constant(W32 * -0.5 + 1.0)


# op -> (function of float64 tensors, list of input arrays)
CASES = {
    "AddV2": (lambda x, y: x + y, [signed(2, 3), signed(3)]),
    "Sub": (lambda x, y: x - y, [signed(2, 3), signed(2, 1)]),
    "Mul": (lambda x, y: x * y, [signed(2, 3), signed(1, 3)]),
    "RealDiv": (lambda x, y: x / y, [signed(2, 3), positive(2, 3)]),
    "Pow": (lambda x, y: tf.pow(x, y), [positive(2, 3), signed(2, 3)]),
    "Maximum": (lambda x, y: tf.maximum(x, y), [distinct(2, 3), distinct(2, 3) + 0.01]),
    "Minimum": (lambda x, y: tf.minimum(x, y), [distinct(2, 3), distinct(2, 3) + 0.01]),
    "SquaredDifference": (lambda x, y: tf.math.squared_difference(x, y), [signed(2, 3), signed(3)]),
    "Neg": (lambda x: -x, [signed(4)]),
    "Abs": (lambda x: tf.abs(x), [signed(4)]),
    "Square": (lambda x: tf.square(x), [signed(4)]),
    "Exp": (lambda x: tf.exp(x), [signed(4)]),
    "Log": (lambda x: tf.math.log(x), [positive(4)]),
    "Sqrt": (lambda x: tf.sqrt(x), [positive(4)]),
    "Rsqrt": (lambda x: tf.math.rsqrt(x), [positive(4)]),
    "Reciprocal": (lambda x: tf.math.reciprocal(x), [positive(4)]),
    "Identity": (lambda x: tf.identity(x), [signed(4)]),
    "ReadVariableOp": (None, [signed(2, 2)]),
    "Tanh": (lambda x: tf.tanh(x), [signed(4)]),
    "Sigmoid": (lambda x: tf.sigmoid(x), [signed(4)]),
    "Relu": (lambda x: tf.nn.relu(x), [signed(2, 3)]),
    "Softmax": (lambda x: tf.nn.softmax(x), [signed(2, 4)]),
    "LogSoftmax": (lambda x: tf.nn.log_softmax(x, axis=0), [signed(3, 2)]),
    "MatMul": (lambda a, b: tf.matmul(a, b), [signed(2, 3), signed(3, 4)]),
    "AddN": (lambda a, b, c: tf.add_n([a, b, c]), [signed(2, 2), signed(2, 2), signed(2, 2)]),
    "Sum": (lambda x: tf.reduce_sum(x, axis=1), [signed(2, 3)]),
    "Mean": (lambda x: tf.reduce_mean(x, axis=[0, 2], keepdims=True), [signed(2, 3, 2)]),
    "Max": (lambda x: tf.reduce_max(x, axis=0), [distinct(3, 2)]),
    "Min": (lambda x: tf.reduce_min(x), [distinct(3, 2)]),
    "Prod": (lambda x: tf.reduce_prod(x, axis=1), [positive(2, 3)]),
    "Reshape": (lambda x: tf.reshape(x, [3, 2]) * tf.constant([[1.0], [2.0], [3.0]], dtype=tf.float64),
                [signed(2, 3)]),
    "ExpandDims": (lambda x: tf.expand_dims(x, 1) * tf.constant([[1.0], [2.0]], dtype=tf.float64), [signed(2)]),
    "Squeeze": (lambda x: tf.squeeze(x) * tf.constant([1.0, 2.0], dtype=tf.float64), [signed(2, 1)]),
    "Transpose": (lambda x: tf.transpose(x, [1, 0, 2]) * tf.constant(W232), [signed(2, 3, 2)]),
    "ConcatV2": (lambda a, b: tf.concat([a, b], axis=1) * tf.constant(W25), [signed(2, 2), signed(2, 3)]),
    "Pack": (lambda a, b: tf.stack([a, b], axis=1) * tf.constant(W32), [signed(3), signed(3)]),
    "Split": (lambda x: tf.split(x, [1, 2], axis=1)[1] * 3.0 + tf.reduce_sum(tf.split(x, [1, 2], axis=1)[0]),
              [signed(2, 3)]),
    "StridedSlice": (lambda x: x[1:, ::2] * 2.0, [signed(3, 4)]),
    "Tile": (lambda x: tf.tile(x, [2, 3]) * tf.constant(W46), [signed(2, 2)]),
    "Cast": (lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64) * 2.0, [signed(3)]),
    "ClipByValue": (lambda x: tf.clip_by_value(x, -0.8, 0.8), [np.array([-1.2, -0.5, 0.3, 1.1])]),
    "SelectV2": (lambda x, y: tf.where(tf.constant([True, False, True]), x, y), [signed(3), signed(3)]),
    # gradient ops linear in their upstream (differentiated again by Hessians and ForwardAccumulator)
    "StridedSliceGrad": (lambda g: execute("StridedSliceGrad", (g,), tf.float64,
                                           {"shape": (3, 3), "key": (slice(0, 2), 1)}) * tf.constant(W33), [signed(2)]),
    "_TopKGrad": (lambda g: execute("_TopKGrad", (g, tf.constant([[2, 0], [1, 2]]), tf.zeros([2, 3], tf.float64)),
                                    tf.float64) * tf.constant(W32.T), [signed(2, 2)]),
    "_ConcatGrad": (lambda g: [p * w for p, w in zip(
        execute("_ConcatGrad", (g, tf.zeros([2, 2], tf.float64), tf.zeros([2, 3], tf.float64)), tf.float64,
                {"axis": 1, "parts": 2}), (tf.constant(W232[0]), tf.constant(W32.T)))][1] + 0.0, [signed(2, 5)]),
    "_BatchGatherGrad": (lambda g: execute("_BatchGatherGrad", (g, tf.constant([[1, 0], [2, 2]]),
                                                                tf.zeros([2, 3], tf.float64)), tf.float64,
                                           {"batch_dims": 1}) * tf.constant(W32.T), [signed(2, 2)]),
    "MaxPoolGrad": (lambda g: execute("MaxPoolGrad", (tf.constant(D1331), tf.nn.max_pool2d(D1331, 2, 1, "VALID"), g),
                                      tf.float64, {
        "ksize": (1, 2, 2, 1), "strides": (1, 1, 1, 1), "padding": "VALID"}) * tf.constant(D1331), [signed(1, 2, 2, 1)]),
    "_MaxPoolGradGrad": (lambda gg: execute("_MaxPoolGradGrad", (tf.constant(D1331), gg), tf.float64, {
        "ksize": (1, 2, 2, 1), "strides": (1, 1, 1, 1), "padding": "SAME"}) * tf.constant(D1331), [signed(1, 3, 3, 1)]),
    "MaxPool3DGrad": (lambda g: execute("MaxPool3DGrad", (tf.constant(D12331, tf.float32), tf.cast(g, tf.float32)),
                                        tf.float32, {"ksize": (1, 1, 2, 2, 1), "strides": (1, 1, 1, 1, 1),
                                                     "padding": "VALID"}) * tf.constant(D12331, tf.float32),
                      [signed(1, 2, 2, 2, 1)]),
    "_MaxPool3DGradGrad": (lambda gg: execute("_MaxPool3DGradGrad", (tf.constant(D12331, tf.float32),
                                                                     tf.cast(gg, tf.float32)), tf.float32,
                                              {"ksize": (1, 1, 2, 2, 1), "strides": (1, 1, 1, 1, 1), "padding": "VALID"})
                           * tf.constant(D1222.reshape(1, 2, 2, 2, 1), tf.float32), [signed(1, 2, 3, 3, 1)]),
    "AvgPool3DGrad": (lambda g: execute("AvgPool3DGrad", (g,), tf.float64, {
        "orig_input_shape": (1, 2, 3, 3, 1), "ksize": (1, 1, 2, 2, 1), "strides": (1, 1, 1, 1, 1),
        "padding": "VALID"}) * tf.constant(D12331), [signed(1, 2, 2, 2, 1)]),
    "PlaceholderWithDefault": (None, []),  # graph-only: its gradient (identity) is covered in tests/conformance
    "If": (None, []), "While": (None, []),  # control flow: gradients checked against TF in tests/conformance
    "Qr": (None, []), "Svd": (None, []), "SelfAdjointEigV2": (None, []),  # gradients not implemented: they raise
    "MatrixSolveLs": (None, []),  # raises (fast=False: TF's ValueError; fast=True: not implemented, lstsq composes)
    "ReluGrad": (lambda g: execute("ReluGrad", (g, tf.constant(RELU_AT)), tf.float64), [signed(2, 3)]),
    "BiasAdd": (lambda x, b: tf.nn.bias_add(x, b) * tf.constant(W32), [signed(3, 2), signed(2)]),
    "_ReduceGrad": (lambda g: execute("_ReduceGrad", (g, tf.constant(signed(2, 3))), tf.float64,
                                      {"axes": (1,), "mean": True}) * tf.constant(W32.T), [signed(2)]),
    "BiasAddGrad": (lambda g: execute("BiasAddGrad", (g,), tf.float64) * tf.constant([1.0, 2.0], dtype=tf.float64),
                    [signed(3, 2)]),
    "SparseSoftmaxCrossEntropyWithLogits": (
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([2, 0, 1]), x) * tf.constant(
            [1.0, 2.0, 3.0], dtype=tf.float64), [signed(3, 4)]),
    "Log1p": (lambda x: tf.math.log1p(x), [positive(4)]),
    "Sin": (lambda x: tf.sin(x), [signed(4)]),
    "Cos": (lambda x: tf.cos(x), [signed(4)]),
    "Tan": (lambda x: tf.tan(x), [signed(4) * 0.8]),
    "Asin": (lambda x: tf.asin(x), [signed(4) * 0.5]),
    "Acos": (lambda x: tf.acos(x), [signed(4) * 0.5]),
    "Atan": (lambda x: tf.atan(x), [signed(4)]),
    "Sinh": (lambda x: tf.sinh(x), [signed(4)]),
    "Cosh": (lambda x: tf.cosh(x), [signed(4)]),
    "Asinh": (lambda x: tf.asinh(x), [signed(4)]),
    "Acosh": (lambda x: tf.acosh(x), [positive(4) + 1.0]),
    "Atanh": (lambda x: tf.atanh(x), [signed(4) * 0.5]),
    "Atan2": (lambda y, x: tf.atan2(y, x), [signed(2, 3), signed(2, 3)]),
    "Expm1": (lambda x: tf.math.expm1(x), [signed(4)]),
    "Cumsum": (lambda x: tf.math.cumsum(x, axis=1, exclusive=True) * tf.constant(W32), [signed(3, 2)]),
    "Cumprod": (lambda x: tf.math.cumprod(x, axis=0, reverse=True) * tf.constant(W32), [positive(3, 2)]),
    "Relu6": (lambda x: tf.nn.relu6(x), [np.array([-1.0, 0.5, 3.0, 6.5, 7.0])]),
    "LeakyRelu": (lambda x: tf.nn.leaky_relu(x, alpha=0.3), [signed(2, 3)]),
    "Elu": (lambda x: tf.nn.elu(x), [signed(2, 3)]),
    "Selu": (lambda x: tf.nn.selu(x), [signed(2, 3)]),
    "Softplus": (lambda x: tf.nn.softplus(x), [signed(2, 3)]),
    "GatherV2": (lambda x: tf.gather(x, [2, 0, 2], axis=1) * tf.constant(W33), [signed(3, 3)]),
    "_GatherGrad": (lambda g: execute("_GatherGrad", (g, tf.constant([1, 1, 0]), tf.constant(signed(2, 2))),
                                      tf.float64, {"axis": 0}) * tf.constant(W32[:2]), [signed(3, 2)]),
    "GatherNd": (lambda x: tf.gather_nd(x, [[1, 0], [0, 1], [1, 0]]) * tf.constant([1.0, 2.0, 3.0],
                                                                                 dtype=tf.float64), [signed(2, 2)]),
    "ScatterNd": (lambda u: tf.scatter_nd([[1], [0], [1]], u, [3]) * tf.constant([1.0, 2.0, 3.0], dtype=tf.float64),
                  [signed(3)]),
    "TensorScatterUpdate": (lambda t, u: tf.tensor_scatter_nd_update(t, [[0], [2]], u) * tf.constant(
        [1.0, 2.0, 3.0], dtype=tf.float64), [signed(3), signed(2)]),
    "TensorScatterAdd": (lambda t, u: tf.tensor_scatter_nd_add(t, [[0], [0]], u) * tf.constant(
        [1.0, 2.0, 3.0], dtype=tf.float64), [signed(3), signed(2)]),
    "ReverseV2": (lambda x: tf.reverse(x, [1]) * tf.constant(W32), [signed(3, 2)]),
    "ReverseSequence": (lambda x: tf.reverse_sequence(x, [2, 1, 0], seq_axis=1) * tf.constant(W32), [signed(3, 2)]),
    "CumulativeLogsumexp": (lambda x: tf.math.cumulative_logsumexp(x, axis=0, reverse=True) * tf.constant(W32),
                            [signed(3, 2)]),
    "PadV2": (lambda x: tf.pad(x, [[1, 0], [0, 2]]) * tf.constant(W44), [signed(3, 2)]),
    "_PadGrad": (lambda g: execute("_PadGrad", (g,), tf.float64, {"paddings": ((1, 1),), "mode": "REFLECT"})
                 * tf.constant([1.0, 2.0, 3.0], dtype=tf.float64), [signed(5)]),
    "BroadcastTo": (lambda x: tf.broadcast_to(x, [3, 2]) * tf.constant(W32), [signed(1, 2)]),
    "Slice": (lambda x: tf.slice(x, [1, 0], [2, -1]) * tf.constant(W32[:2]), [signed(3, 2)]),
    "Unpack": (lambda x: tf.unstack(x, axis=1)[1] * tf.constant([1.0, 2.0, 3.0], dtype=tf.float64), [signed(3, 2)]),
    "TopKV2": (lambda x: tf.math.top_k(x, 2).values * tf.constant(W32[:2]), [distinct(2, 4)]),
    "UnsortedSegmentSum": (lambda x: tf.math.unsorted_segment_sum(x, [2, 0, 2], 3) * tf.constant(W32),
                           [signed(3, 2)]),
    "UnsortedSegmentMax": (lambda x: tf.math.unsorted_segment_max(x, [1, 0, 1], 2) * tf.constant(W32[:2]),
                           [distinct(3, 2)]),
    "UnsortedSegmentMin": (lambda x: tf.math.unsorted_segment_min(x, [1, 0, 1], 2) * tf.constant(W32[:2]),
                           [distinct(3, 2)]),
    "_BatchGather": (lambda x: tf.gather(x, [[2, 0], [1, 1], [0, 0]], batch_dims=1) * tf.constant(W32),
                     [signed(3, 3)]),
    "UnsortedSegmentProd": (None, []),  # not implemented: it raises
    "Angle": (lambda x, y: tf.math.angle(tf.complex(x, y)) * tf.constant(W32), [signed(3, 2), signed(3, 2)]),
    "ComplexAbs": (lambda x, y: tf.abs(tf.complex(x, y)) * tf.constant(W32), [signed(3, 2), signed(3, 2)]),
    "Sign": (lambda x: tf.sign(x) * tf.constant(W32), [signed(3, 2)]),   # zeros (TF), as differences away from 0
    "Complex": (lambda x, y: _complex_parts(tf, tf.complex(x, y)), [signed(3, 2), signed(3, 2)]),
    "Real": (lambda x, y: _complex_parts(tf, tf.complex(x, y)), [signed(3, 2), signed(3, 2)]),
    "Imag": (lambda x, y: _complex_parts(tf, tf.complex(x, y)), [signed(3, 2), signed(3, 2)]),
    "Conj": (lambda x, y: _complex_parts(tf, tf.math.conj(tf.complex(x, y))), [signed(3, 2), signed(3, 2)]),
    "MatrixInverse": (lambda x: tf.linalg.inv(x) * tf.constant(W33), [SPD + signed(3, 3) * 0.1]),
    "MatrixDeterminant": (lambda x: tf.linalg.det(x), [SPD + signed(3, 3) * 0.1]),
    "LogMatrixDeterminant": (lambda x: tf.linalg.slogdet(x)[1], [SPD + signed(3, 3) * 0.1]),
    "MatrixSolve": (lambda a, b: tf.linalg.solve(a, b) * tf.constant(W32), [SPD + signed(3, 3) * 0.1, signed(3, 2)]),
    "Cholesky": (lambda x: tf.linalg.cholesky((x + tf.transpose(x)) * 0.5) * tf.constant(W33), [SPD]),
    "MatrixTriangularSolve": (lambda a, b: tf.linalg.triangular_solve(a, b) * tf.constant(W32),
                              [SPD + signed(3, 3) * 0.1, signed(3, 2)]),
    "MatrixBandPart": (lambda x: tf.linalg.band_part(x, 1, 0) * tf.constant(W33), [signed(3, 3)]),
    "MatrixDiagPart": (lambda x: tf.linalg.diag_part(x) * tf.constant([1.0, 2.0], dtype=tf.float64), [signed(2, 3)]),
    "_MatrixDiagLike": (lambda g: execute("_MatrixDiagLike", (g, tf.constant(signed(2, 3))), tf.float64)
                        * tf.constant(W32.T), [signed(2)]),
    "MatrixDiag": (lambda x: tf.linalg.diag(x) * tf.constant(W33), [signed(3)]),
    "Einsum": (lambda a, b: tf.einsum("ij,jk->ik", a, b) * tf.constant(W32), [signed(3, 4), signed(4, 2)]),
    "Erf": (lambda x: tf.nn.gelu(x), [signed(2, 3)]),
    "CheckNumerics": (lambda x: tf.debugging.check_numerics(x, "x") * 2.0, [signed(3)]),
    "Conv2D": (lambda x, w: tf.nn.conv2d(x, w, 2, "SAME") * tf.constant(D1222),
               [signed(1, 4, 3, 2), signed(3, 2, 2, 2)]),
    "Conv2DBackpropInput": (lambda w, g: execute("Conv2DBackpropInput", (w, g), tf.float64, {
        "input_sizes": (1, 3, 3, 2), "strides": (1, 2, 2, 1), "padding": "SAME"}) * tf.constant(W33[None, :, :, None]),
        [signed(2, 2, 2, 1), signed(1, 2, 2, 1)]),
    "MaxPool": (lambda x: tf.nn.max_pool2d(x, 2, 1, "SAME") * tf.constant(D1331), [distinct(1, 3, 3, 1)]),
    "AvgPool": (lambda x: tf.nn.avg_pool2d(x, 2, 2, "SAME") * tf.constant(D1221), [signed(1, 3, 3, 1)]),
    "AvgPoolGrad": (lambda g: execute("AvgPoolGrad", (g,), tf.float64, {
        "orig_input_shape": (1, 3, 3, 1), "ksize": (1, 2, 2, 1), "strides": (1, 2, 2, 1), "padding": "SAME"})
        * tf.constant(W33[None, :, :, None]), [signed(1, 2, 2, 1)]),
    "SoftmaxCrossEntropyWithLogits": (
        lambda x, y: tf.nn.softmax_cross_entropy_with_logits(y, x), [signed(2, 3), LABELS]),
    "Conv2DBackpropFilter": (lambda x, g: execute("Conv2DBackpropFilter", (x, g), tf.float64, {
        "filter_sizes": (2, 2, 2, 1), "strides": (1, 2, 2, 1), "padding": "SAME"}) * tf.constant(D2221),
        [signed(1, 3, 3, 2), signed(1, 2, 2, 1)]),
    "Conv3DBackpropFilterV2": (lambda x, g: execute("Conv3DBackpropFilterV2", (x, g), tf.float64, {
        "filter_sizes": (2, 2, 1, 2, 1), "strides": (1, 2, 1, 1, 1), "padding": "SAME"}) * tf.constant(D22121),
        [signed(1, 3, 2, 2, 2), signed(1, 2, 2, 2, 1)]),
    "Conv3D": (lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 1, 1], "SAME") * tf.constant(D12222),
               [signed(1, 3, 2, 2, 2), signed(2, 2, 1, 2, 2)]),
    "Conv3DBackpropInputV2": (lambda w, g: execute("Conv3DBackpropInputV2", (w, g), tf.float64, {
        "input_sizes": (1, 3, 2, 2, 1), "strides": (1, 2, 1, 1, 1), "padding": "SAME"})
        * tf.constant(D13221), [signed(2, 2, 1, 1, 2), signed(1, 2, 2, 2, 2)]),
    "MaxPool3D": (lambda x: tf.nn.max_pool3d(tf.cast(x, tf.float32), 2, 1, "SAME") * tf.constant(D12221, tf.float32),
                  [distinct(1, 2, 2, 2, 1)]),
    "AvgPool3D": (lambda x: tf.nn.avg_pool3d(x, 2, [1, 1, 2, 1, 1], "SAME") * tf.constant(D12221[:, :1]),
                  [signed(1, 2, 2, 2, 1)]),
    "FFT": (lambda x, y: _complex_parts(tf, tf.signal.fft(tf.complex(x, y))), [signed(3, 2), signed(3, 2)]),
    "IFFT": (lambda x, y: _complex_parts(tf, tf.signal.ifft(tf.complex(x, y))), [signed(3, 2), signed(3, 2)]),
    "FFT2D": (lambda x, y: _complex_parts(tf, tf.signal.fft2d(tf.complex(x, y))), [signed(3, 2), signed(3, 2)]),
    "IFFT2D": (lambda x, y: _complex_parts(tf, tf.signal.ifft2d(tf.complex(x, y))), [signed(3, 2), signed(3, 2)]),
    "FFT3D": (lambda x, y: _complex_parts(tf, tf.reshape(tf.signal.fft3d(tf.reshape(tf.complex(x, y), [1, 3, 2])),
                                                         [3, 2])), [signed(3, 2), signed(3, 2)]),
    "IFFT3D": (lambda x, y: _complex_parts(tf, tf.reshape(tf.signal.ifft3d(tf.reshape(tf.complex(x, y), [1, 3, 2])),
                                                          [3, 2])), [signed(3, 2), signed(3, 2)]),
    "RFFT": (lambda x: _complex_parts(tf, tf.signal.rfft(x)), [signed(3, 3)]),
    "RFFT2D": (lambda x: _complex_parts(tf, tf.signal.rfft2d(x)), [signed(3, 2)]),
    "IRFFT": (lambda x, y: tf.signal.irfft(tf.complex(x, y), [3]) * tf.constant(W33), [signed(3, 2), signed(3, 2)]),
    "IRFFT2D": (lambda x, y: tf.signal.irfft2d(tf.complex(x, y), [3, 3]) * tf.constant(W33),
                [signed(3, 2), signed(3, 2)]),
    "_RFFTAdjoint": (lambda x, y: execute("_RFFTAdjoint", (tf.complex(x, y),), tf.complex128, {
        "lengths": (3,), "input_shape": (4,), "rank": 1}) * tf.constant(D34), [signed(3, 2), signed(3, 2)]),
    "RFFT3D": (None, []), "IRFFT3D": (None, []),  # TensorFlow registers no gradient: they raise LookupError
    "StatelessRandomGammaV2": (None, []),  # not implemented: it raises LookupError
    "TensorScatterMax": (None, []), "TensorScatterMin": (None, []),  # not implemented: they raise LookupError
    "Erfinv": (lambda x: tf.math.erfinv(x) * tf.constant(W32.T), [signed(2, 3) * 0.6]),
    "Lgamma": (lambda x: tf.math.lgamma(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) + 0.5]),
    "Digamma": (lambda x: tf.math.digamma(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) + 0.5]),
    "Polygamma": (lambda x: tf.math.polygamma(tf.constant(2.0, tf.float64), x) * tf.constant(W32.T),
                  [np.abs(signed(2, 3)) + 0.5]),
    "Zeta": (lambda q: tf.math.zeta(tf.constant(3.0, tf.float64), q) * tf.constant(W32.T), [np.abs(signed(2, 3)) + 0.5]),
    "Ndtri": (lambda x: tf.math.ndtri(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 0.4 + 0.05]),
    "Erfcinv": (lambda x: tf.math.erfcinv(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 0.8 + 0.1]),
    "MatrixExponential": (lambda x: tf.linalg.expm(x) * tf.constant(W33), [signed(3, 3) * 0.5]),
    "_MatrixExponentialGrad": (None, []),  # second order of expm: not implemented, it raises LookupError
    "Eig": (None, []),  # not implemented: it raises LookupError
    "Lu": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "DrawBoundingBoxesV2": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "ExtractGlimpseV2": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "CombinedNonMaxSuppression": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "EncodeJpegVariableQuality": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "DecodeWebP": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "StatelessSampleDistortedBoundingBox": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "BesselI0": (lambda x: tf.math.bessel_i0(x) * tf.constant(W32.T), [signed(2, 3) * 3.0]),
    "BesselI0e": (lambda x: tf.math.bessel_i0e(x) * tf.constant(W32.T), [signed(2, 3) * 3.0 + 0.1]),
    "BesselI1": (lambda x: tf.math.bessel_i1(x) * tf.constant(W32.T), [signed(2, 3) * 3.0]),
    "BesselI1e": (lambda x: tf.math.bessel_i1e(x) * tf.constant(W32.T), [signed(2, 3) * 3.0 + 0.1]),
    "_BesselI1Derivative": (None, []),  # second derivatives of I1/I1e: not implemented, they raise LookupError
    "_BesselI1eDerivative": (None, []),
    "BesselJ0": (lambda x: tf.math.special.bessel_j0(x) * tf.constant(W32.T), [signed(2, 3) * 3.0]),
    "BesselJ1": (lambda x: tf.math.special.bessel_j1(x) * tf.constant(W32.T), [signed(2, 3) * 3.0]),
    "BesselY0": (lambda x: tf.math.special.bessel_y0(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 3.0 + 0.5]),
    "BesselY1": (lambda x: tf.math.special.bessel_y1(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 3.0 + 0.5]),
    "BesselK0": (lambda x: tf.math.special.bessel_k0(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 3.0 + 0.5]),
    "BesselK0e": (lambda x: tf.math.special.bessel_k0e(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 3.0 + 0.5]),
    "BesselK1": (lambda x: tf.math.special.bessel_k1(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 3.0 + 0.5]),
    "BesselK1e": (lambda x: tf.math.special.bessel_k1e(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 3.0 + 0.5]),
    "Dawsn": (lambda x: tf.math.special.dawsn(x) * tf.constant(W32.T), [signed(2, 3) * 3.0]),
    "Expint": (lambda x: tf.math.special.expint(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 3.0 + 0.5]),
    "FresnelCos": (lambda x: tf.math.special.fresnel_cos(x) * tf.constant(W32.T), [signed(2, 3) * 2.0]),
    "FresnelSin": (lambda x: tf.math.special.fresnel_sin(x) * tf.constant(W32.T), [signed(2, 3) * 2.0]),
    "Spence": (lambda x: tf.math.special.spence(x) * tf.constant(W32.T), [np.abs(signed(2, 3)) * 2.0 + 0.2]),
    "Igamma": (lambda a, x: tf.math.igamma(a, x) * tf.constant(W32.T),
               [np.abs(signed(2, 3)) * 2.0 + 0.5, np.abs(signed(2, 3)) * 2.0 + 0.3]),
    "Igammac": (lambda a, x: tf.math.igammac(a, x) * tf.constant(W32.T),
                [np.abs(signed(2, 3)) * 2.0 + 0.5, np.abs(signed(2, 3)) * 2.0 + 0.3]),
    "IgammaGradA": (None, []),  # second derivatives of igamma: not implemented, they raise LookupError
    "_IgammaPartialX": (None, []),
    "Betainc": (lambda x: tf.math.betainc(tf.constant(np.full((2, 3), 2.5)), tf.constant(np.full((2, 3), 1.5)), x)
                * tf.constant(W32.T), [np.abs(signed(2, 3)) * 0.4 + 0.1]),
    "CTCLossDense": (lambda logits: tf.nn.ctc_loss(tf.constant([[1, 2], [2, 2]]), logits, tf.constant([2, 2]),
                                                   tf.constant([5, 5]), logits_time_major=False),
                     [np.random.default_rng(7).standard_normal((2, 5, 4)).astype(np.float32)]),
    "CTCLoss": (lambda logits: tf.nn.ctc_loss(tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 2, 2]),
                                                               [2, 2]), logits, None, tf.constant([5, 5]),
                                              logits_time_major=True, blank_index=-1),
                [np.random.default_rng(8).standard_normal((5, 2, 4)).astype(np.float32)]),
    "EagerPyFunc": (tf.function(lambda x: tf.py_function(lambda a: tf.sin(a) * a, [x], tf.float64)
                                * tf.constant(W32.T.astype(np.float64))), [signed(2, 3)]),
    "_ReduceToShapeOf": (lambda x: _emit("_ReduceToShapeOf", (x, tf.zeros([1, 3], tf.float64))) * tf.constant(W32.T[:1]),
                         [signed(2, 3)]),
    "Dilation2D": (lambda x, f: tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]) * tf.constant(D1331),
                   [distinct(1, 3, 3, 1), np.array([[[0.011], [0.052]], [[0.023], [0.037]]])]),
    "Dilation2DBackpropInput": (None, []), "Dilation2DBackpropFilter": (None, []),  # TF registers no gradient
    "MaxPoolWithArgmax": (lambda x: tf.nn.max_pool_with_argmax(x, 2, 1, "SAME")[0] * tf.constant(D1331),
                          [distinct(1, 3, 3, 1)]),
    "MaxPoolGradWithArgmax": (None, []),  # second-order: not implemented (marked)
    "IsotonicRegression": (lambda x: tf.nn.isotonic_regression(x)[0] * tf.constant(np.arange(1.0, 6.0)[None]),
                           [np.array([[1.0, 3.0, 2.5, 0.5, 0.7]])]),
    # linalg-fft (ops/linalg_more.py, ops/fft_nd.py): sqrtm and the Sylvester solve of its gradient
    "MatrixSquareRoot": (lambda x: tf.linalg.sqrtm(x) * tf.constant(W33),
                         [np.array([[4.0, 1.0, 0.5], [0.3, 3.0, 0.2], [0.1, -0.4, 2.0]])]),
    "_SylvesterSolve": (lambda b, g: execute("_SylvesterSolve", (b, g), tf.float64) * tf.constant(W33),
                        [np.array([[2.0, 0.5, 0.1], [0.2, 1.5, -0.3], [0.0, 0.4, 1.8]]), signed(3, 3)]),
    "MatrixLogarithm": (None, []),  # TensorFlow registers no gradient: it raises LookupError
    "FFTND": (None, []), "IFFTND": (None, []), "RFFTND": (None, []), "IRFFTND": (None, []),  # LookupError, as TF
    # random-rest (ops/random_more.py): gamma's sampled gradient is checked against TF's RandomGammaGrad values and
    # the CDF in tests/random_more; the truncated normal's samples are an inverse CDF, so central differences apply
    "RandomGamma": (None, []),  # sampled: a fresh draw per call (tests/random_more checks its gradient)
    "RandomGammaGrad": (None, []), "RandomPoissonV2": (None, []),  # TF registers no gradient: LookupError
    "StatelessShuffle": (None, []),  # TF registers no gradient: LookupError
    "StatelessParameterizedTruncatedNormal": (
        lambda m, s, lo, hi: tf.random.stateless_parameterized_truncated_normal([2, 3], [4, 5], m, s, lo, hi)
        * tf.constant(W32.T), [np.array([0.2, -0.3, 0.5]), np.array([1.0, 0.7, 1.5]), np.array([-1.0, -2.0, 0.0]),
                               np.array([1.5, 0.5, 3.0])]),
    "_TruncatedNormalPartial": (None, []),  # second derivatives of the truncated normal: LookupError
}


def numerical_gradients(fn, arrays, eps=1e-6):
    grads = []
    for index, array in enumerate(arrays):
        grad = np.zeros_like(array)
        for position in np.ndindex(array.shape):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[index][position] += eps
            minus[index][position] -= eps
            high = float(tf.reduce_sum(fn(*[tf.constant(a) for a in plus])).numpy())
            low = float(tf.reduce_sum(fn(*[tf.constant(a) for a in minus])).numpy())
            grad[position] = (high - low) / (2 * eps)
        grads.append(grad)
    return grads


def test_every_registered_gradient_has_a_numerical_check():
    assert differentiable_ops() <= set(CASES), sorted(differentiable_ops() - set(CASES))


@pytest.mark.parametrize("op", sorted(op for op, (fn, _) in CASES.items() if fn is not None))
def test_gradient_matches_central_differences(op):
    fn, arrays = CASES[op]
    eps, rtol = (1e-2, 1e-4) if op in ("Cast", "MaxPool3D", "MaxPool3DGrad", "_MaxPool3DGradGrad") else (1e-6, 1e-5)  # these go through float32
    if op in ("CTCLoss", "CTCLossDense"):  # float32 only (as TF): central differences of float32 sums
        eps, rtol = 1e-2, 2e-3
    tensors = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for t in tensors:
            tape.watch(t)
        y = tf.reduce_sum(fn(*tensors))
    analytic = tape.gradient(y, tensors)
    for got, expected in zip(analytic, numerical_gradients(fn, arrays, eps)):
        np.testing.assert_allclose(got.numpy(), expected, rtol=rtol, atol=1e-6)


def test_variables_are_watched_when_read_and_their_reads_add_up():
    v = tf.Variable(np.array([1.0, 2.0]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v) + tf.reduce_sum(v * 3.0)  # ReadVariableOp twice
    assert tape.gradient(y, v).numpy().tolist() == [5.0, 7.0]
    assert tape.watched_variables() == (v,)


def test_tape_options_persistent_nested_and_unconnected():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)          # 3x^2, recorded by the outer tape
        z = y * 2.0
    assert float(dy) == 27.0
    assert float(outer.gradient(dy, x)) == 18.0  # 6x
    assert float(outer.gradient(z, x)) == 54.0   # persistent: a second gradient works
    other = tf.constant(1.0)
    assert outer.gradient(z, other) is None
    assert float(outer.gradient(z, other, unconnected_gradients=tf.UnconnectedGradients.ZERO)) == 0.0
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used to compute one set"):
        inner.gradient(y, x)


def test_unwatched_and_untrainable_are_ignored_and_structures_are_kept():
    frozen = tf.Variable(2.0, trainable=False)
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        y = frozen * x
    assert tape.gradient(y, {"frozen": frozen, "x": x}) == {"frozen": None, "x": None}
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(frozen)
        y = frozen * 4.0
    assert float(tape.gradient(y, [frozen])[0]) == 4.0


def test_gradient_ops_run_on_the_forward_ops_device(make_context):
    make_context(PLACEFLOW_SIMULATED_GPUS="2")
    tf.experimental.reset_placement_report()
    with tf.device("/gpu:1"):
        w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant([[1.0, 1.0]])
    with tf.GradientTape() as tape:
        with tf.device("/gpu:1"):
            y = tf.reduce_sum(tf.matmul(x, w))
    grad = tape.gradient(y, w)
    assert grad.device.endswith("GPU:1") and grad.numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_gradient_inside_a_traced_function():
    w = tf.Variable([1.0, -2.0])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(x * w))
        grad = tape.gradient(loss, w)
        w.assign_sub(0.1 * grad)
        return loss

    loss = step(tf.constant([1.0, 1.0]))
    assert float(loss) == 5.0
    np.testing.assert_allclose(w.numpy(), [0.8, -1.6], rtol=1e-6)


def test_grouped_convolution_gradients_match_central_differences():
    x, w = signed(1, 3, 3, 4), signed(2, 2, 2, 4)  # input depth 4, filter depth 2: two groups of 2 outputs
    weights = tf.constant(W44[0].reshape(1, 1, 1, 4))  # a different weight per output channel

    def fn(a, b):
        return tf.nn.conv2d(a, b, 1, "SAME") * weights
    tensors = [tf.constant(x), tf.constant(w)]
    with tf.GradientTape() as tape:
        for t in tensors:
            tape.watch(t)
        y = tf.reduce_sum(fn(*tensors))
    for got, expected in zip(tape.gradient(y, tensors), numerical_gradients(fn, [x, w])):
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, atol=1e-6)


def _gradients_eagerly(fn, arrays):
    tensors = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for t in tensors:
            tape.watch(t)
        y = tf.reduce_sum(fn(*tensors))
    return [None if g is None else g.numpy() for g in tape.gradient(y, tensors)]


def _gradients_in_a_function(fn, arrays):
    @tf.function
    def gradients(*tensors):
        with tf.GradientTape() as tape:
            for t in tensors:
                tape.watch(t)
            y = tf.reduce_sum(fn(*tensors))
        return tape.gradient(y, list(tensors))
    return [None if g is None else g.numpy() for g in gradients(*[tf.constant(a) for a in arrays])]


def _gradients_in_a_session(fn, arrays):
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        holders = [tf.compat.v1.placeholder(tf.as_dtype(a.dtype), shape=a.shape) for a in arrays]
        grads = tf.gradients(tf.reduce_sum(fn(*holders)), holders)
        values = iter(tf.compat.v1.Session(graph=graph).run([g for g in grads if g is not None],
                                                             dict(zip(holders, arrays))))
        return [None if g is None else next(values) for g in grads]


@pytest.mark.parametrize("op", sorted(op for op, (fn, _) in CASES.items() if fn is not None))
def test_gradients_agree_in_eager_function_and_session(op):
    fn, arrays = CASES[op]
    eager = _gradients_eagerly(fn, arrays)
    for mode in (_gradients_in_a_function, _gradients_in_a_session):
        for ours, other in zip(eager, mode(fn, arrays)):
            assert (ours is None) == (other is None), (op, mode.__name__)
            if ours is not None:
                np.testing.assert_allclose(other, ours, rtol=1e-6, atol=1e-9, err_msg=f"{op} {mode.__name__}")
