"""placeflow.sysconfig: how this placeflow was built (tf.sysconfig.get_build_info)."""

from .config.cuda_probe import build_info as get_build_info  # noqa: F401
