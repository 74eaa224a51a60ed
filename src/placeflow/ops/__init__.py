"""ops: every op declared once (kernels per device type with dtypes, shape rule, gradient, folding, cost)."""

import warnings

from . import (  # noqa: F401  (definitions)
    array, collective, complex, control_flow, conv, conv3d, debug, graph_nodes, image, image_codecs, indexing, io,
    ctc, iterators,
    linalg, linalg_decompositions, lookup, math, nn, ragged, random, script_ops, sorting, special, spectral, state,
    strings, unicode,
)
from . import special_bessel, special_incomplete, special_integrals  # noqa: F401,E402  (tf.math.special)
from . import nn_more, nn_sampling  # noqa: F401,E402  (more tf.nn kernels, candidate samplers)
from . import image_more, image_sample  # noqa: F401,E402  (tf.image's box, glimpse, SSIM-side kernels)
from . import audio  # noqa: F401,E402  (tf.audio's WAV kernels)
from . import random_more  # noqa: F401,E402  (gamma, poisson, shuffles, Sobol)
from . import fft_nd, linalg_more  # noqa: F401,E402  (FFTND family, sqrtm/logm, EditDistance)
from .registry import find_kernel, list_kernels, op_def, registered_ops  # noqa: F401

# TensorFlow's kernels return inf and nan silently (log(0), 1/0, inf - inf); NumPy's warn. The warnings of
# placeflow's kernels (this package's modules) are silenced, and only theirs: a user's own NumPy still warns.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"placeflow\.ops(\.|$)")
