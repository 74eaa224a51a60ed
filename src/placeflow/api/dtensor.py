"""tf.experimental.dtensor: not implemented in placeflow; every entry point says so by name.

Keras 3 imports the module (backend/tensorflow/distribution_lib.py) and uses it only for
`keras.distribution` layouts; placeflow's multi-device training is tf.distribute (MirroredStrategy).
"""

from ..framework.refusals import not_implemented

UNSHARDED = "unsharded"
MATCH = "match"


def _not_implemented(name):
    return not_implemented(f"tf.experimental.dtensor.{name}", "use tf.distribute.MirroredStrategy (or "
                           "MultiWorkerMirroredStrategy) instead.")


Layout = _not_implemented("Layout")
Mesh = _not_implemented("Mesh")
create_mesh = _not_implemented("create_mesh")
create_distributed_mesh = _not_implemented("create_distributed_mesh")
relayout = _not_implemented("relayout")
