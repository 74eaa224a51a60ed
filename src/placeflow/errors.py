"""placeflow.errors: TensorFlow's error classes and codes."""
from .framework.errors import *  # noqa: F401,F403
from .framework.errors import OpError  # noqa: F401
