"""placeflow.compat.v1: TensorFlow 1 names that placeflow supports."""

from ..config.proto import ConfigProto, GPUOptions, apply_config
from ..framework.device_spec import DeviceSpecV1 as DeviceSpec

__all__ = ["ConfigProto", "DeviceSpec", "GPUOptions", "enable_eager_execution"]


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """Eager execution is always on; a ConfigProto given here configures devices, memory and threads."""
    apply_config(config)
