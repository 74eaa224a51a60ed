"""tf.experimental.dtensor: not implemented in placeflow; every entry point says so by name.

Keras 3 imports the module (backend/tensorflow/distribution_lib.py) and uses it only for
`keras.distribution` layouts; placeflow's multi-device training is tf.distribute (MirroredStrategy).
"""

UNSHARDED = "unsharded"
MATCH = "match"


def _not_implemented(name):
    def refuse(*args, **kwargs):
        raise NotImplementedError(f"tf.experimental.dtensor.{name} is not implemented in placeflow: use "
                                  "tf.distribute.MirroredStrategy (or MultiWorkerMirroredStrategy) instead.")
    refuse.__name__ = name
    refuse.__doc__ = f"Not implemented in placeflow (tf.experimental.dtensor.{name})."
    return refuse


Layout = _not_implemented("Layout")
Mesh = _not_implemented("Mesh")
create_mesh = _not_implemented("create_mesh")
create_distributed_mesh = _not_implemented("create_distributed_mesh")
relayout = _not_implemented("relayout")
