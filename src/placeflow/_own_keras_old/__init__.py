"""placeflow.keras: the Keras subset the seed programs use (Input, Dense, Model, Sequential, compile, fit)."""

from . import activations, callbacks, initializers, layers, losses, metrics, models, optimizers, regularizers, utils  # noqa: F401,E501
from .layers import Input  # noqa: F401
from .models import Model, Sequential  # noqa: F401
