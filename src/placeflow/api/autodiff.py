"""tf.autodiff: ForwardAccumulator (forward-mode, eager/forward_accumulator.py) and GradientTape (tf.GradientTape)."""

from ..eager.forward_accumulator import ForwardAccumulator  # noqa: F401
from ..eager.tape import GradientTape  # noqa: F401
