"""Callbacks: the `Callback` hooks fit/evaluate/predict call in Keras's order, and History.

Order (Keras 3): on_train_begin; per epoch on_epoch_begin, per batch on_train_batch_begin/end,
then validation's on_test_begin, on_test_batch_begin/end..., on_test_end, then on_epoch_end;
finally on_train_end. evaluate calls the on_test_* hooks and predict the on_predict_* ones.
"""

from __future__ import annotations

HOOKS = ("on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
         "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
         "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end")


class Callback:
    """Base class: override the hooks you need; `self.model` and `self.params` are set by fit."""

    def __init__(self):
        self.model = None
        self.params: dict = {}

    def set_model(self, model) -> None:
        """The model being trained."""
        self.model = model

    def set_params(self, params: dict) -> None:
        """fit's parameters: epochs, steps, verbose."""
        self.params = params

    def on_train_begin(self, logs=None): """Called once before the first epoch."""
    def on_train_end(self, logs=None): """Called once after the last epoch, with its logs."""
    def on_epoch_begin(self, epoch, logs=None): """Called at the start of each epoch."""
    def on_epoch_end(self, epoch, logs=None): """Called at the end of each epoch, with its averages (and val_*)."""
    def on_train_batch_begin(self, batch, logs=None): """Called before each training batch."""
    def on_train_batch_end(self, batch, logs=None): """Called after each training batch, with running averages."""
    def on_test_begin(self, logs=None): """Called when evaluation (or fit's validation) starts."""
    def on_test_end(self, logs=None): """Called when evaluation ends, with its averages."""
    def on_test_batch_begin(self, batch, logs=None): """Called before each evaluation batch."""
    def on_test_batch_end(self, batch, logs=None): """Called after each evaluation batch, with running averages."""
    def on_predict_begin(self, logs=None): """Called when predict starts."""
    def on_predict_end(self, logs=None): """Called when predict ends."""
    def on_predict_batch_begin(self, batch, logs=None): """Called before each predict batch."""
    def on_predict_batch_end(self, batch, logs=None): """Called after each predict batch, with its outputs."""


class History(Callback):
    """Per-epoch averages of the loss and metrics (and validation ones): `history.history['loss']`."""

    def __init__(self):
        super().__init__()
        self.epoch: list = []
        self.history: dict = {}

    def on_train_begin(self, logs=None) -> None:
        """A new fit: start a fresh record."""
        self.epoch, self.history = [], {}

    def on_epoch_end(self, epoch: int, logs=None) -> None:
        """Record one epoch's averages."""
        self.epoch.append(epoch)
        for name, value in (logs or {}).items():
            self.history.setdefault(name, []).append(value)


class CallbackList:
    """The callbacks of one fit/evaluate/predict call, called in the order given."""

    def __init__(self, callbacks, model, params: dict):
        self.callbacks = list(callbacks or [])
        for callback in self.callbacks:
            if not all(callable(getattr(callback, hook, None)) for hook in HOOKS):
                raise TypeError(f"Callbacks must be instances of placeflow.keras.callbacks.Callback (or define every "
                                f"hook); got {callback!r}.")
            callback.set_model(model)
            callback.set_params(params)

    def __getattr__(self, hook: str):
        if hook not in HOOKS:
            raise AttributeError(hook)

        def call(*args):
            for callback in self.callbacks:
                getattr(callback, hook)(*args)
        return call
