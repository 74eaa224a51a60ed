"""Callbacks: the `Callback` hooks fit/evaluate/predict call in Keras's order, History, EarlyStopping,
ReduceLROnPlateau, LearningRateScheduler and TerminateOnNaN, with Keras 3's rules.

Order (Keras 3): on_train_begin; per epoch on_epoch_begin, per batch on_train_batch_begin/end,
then validation's on_test_begin, on_test_batch_begin/end..., on_test_end, then on_epoch_end;
finally on_train_end. evaluate calls the on_test_* hooks and predict the on_predict_* ones. The
History callback comes after the user's (it records what they add to the logs, e.g. learning_rate).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

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
    def on_batch_begin(self, batch, logs=None): """Called before each training batch (on_train_batch_begin)."""
    def on_batch_end(self, batch, logs=None): """Called after each training batch (on_train_batch_end)."""

    def on_train_batch_begin(self, batch, logs=None):
        """Called before each training batch (calls on_batch_begin, as Keras)."""
        self.on_batch_begin(batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        """Called after each training batch, with running averages (calls on_batch_end, as Keras)."""
        self.on_batch_end(batch, logs)

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


class MonitorCallback(Callback):
    """A callback that watches one logged quantity: improvement is `mode`'s direction by more than min_delta
    ('auto': down for losses, the metric's own direction otherwise)."""

    def __init__(self, monitor, mode="auto", baseline=None, min_delta=0.0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=3)
            mode = "auto"
        self.monitor, self.mode, self.baseline = monitor, mode, baseline
        self.min_delta = abs(float(min_delta))
        self.best = None
        self.monitor_op = None

    def _set_monitor_op(self) -> None:
        if self.mode == "min":
            self.monitor_op = np.less
        elif self.mode == "max":
            self.monitor_op = np.greater
        else:
            name = self.monitor[4:] if self.monitor.startswith("val_") else self.monitor
            if name == "loss":
                self.monitor_op = np.less
            for metric in getattr(self.model, "_metric_fns", []) or []:
                if metric.name == name and getattr(metric, "_direction", None):
                    self.monitor_op = np.greater if metric._direction == "up" else np.less
            if self.monitor_op is None:
                raise ValueError(f"{type(self).__name__} callback received monitor={self.monitor}, but Keras isn't "
                                 f"able to automatically determine whether that metric should be maximized or "
                                 f"minimized. Pass `mode='max'` in order to monitor based on the highest metric "
                                 f"value, or pass `mode='min'` in order to use the lowest value.")
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference) -> bool:
        if reference is None:
            return True
        return bool(self.monitor_op(value - self.min_delta, reference))


class EarlyStopping(MonitorCallback):
    """Stop training when `monitor` has not improved for `patience` epochs (optionally restoring the best
    epoch's weights at the end)."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, baseline, min_delta)
        self.patience, self.verbose = int(patience), int(verbose)
        self.restore_best_weights, self.start_from_epoch = bool(restore_best_weights), int(start_from_epoch)
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best_weights = None

    def on_train_begin(self, logs=None):
        """A fresh watch for each fit."""
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best, self.best_weights = None, None

    def on_epoch_end(self, epoch, logs=None):
        """Count epochs without improvement; stop after `patience` of them."""
        if self.monitor_op is None:
            self._set_monitor_op()
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. Available "
                          f"metrics are: {','.join(list((logs or {}).keys()))}", stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        """Say where training stopped, and restore the best weights when asked."""
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class ReduceLROnPlateau(MonitorCallback):
    """Multiply the learning rate by `factor` (down to min_lr) after `patience` epochs without improvement,
    then wait `cooldown` epochs; logs the learning rate."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0.0, **kwargs):
        if kwargs:
            raise TypeError(f"ReduceLROnPlateau got unexpected keyword arguments {sorted(kwargs)}.")
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor, self.min_lr, self.patience = float(factor), float(min_lr), int(patience)
        self.verbose, self.cooldown = int(verbose), int(cooldown)
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs=None):
        """A fresh watch for each fit."""
        self.best, self.cooldown_counter, self.wait = None, 0, 0

    def on_epoch_end(self, epoch, logs=None):
        """Log the learning rate; reduce it after `patience` epochs without improvement."""
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(list(logs.keys()))}.", stacklevel=2)
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best, self.wait = current, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience and self._reduce(epoch):
                self.cooldown_counter, self.wait = self.cooldown, 0

    def _reduce(self, epoch) -> bool:
        optimizer = self.model.optimizer
        old = float(np.asarray(optimizer.learning_rate))
        if old <= np.float32(self.min_lr):
            return False
        new = max(old * self.factor, self.min_lr)
        optimizer.learning_rate = new
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
        return True


class LearningRateScheduler(Callback):
    """Set the learning rate at each epoch's start to schedule(epoch, lr) (or schedule(epoch)); logs it."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, int(verbose)

    def on_epoch_begin(self, epoch, logs=None):
        """Apply the schedule."""
        optimizer = self.model.optimizer
        try:
            rate = self.schedule(epoch, float(np.asarray(optimizer.learning_rate)))
        except TypeError:
            rate = self.schedule(epoch)
        if hasattr(rate, "numpy"):
            rate = rate.numpy()
        if not isinstance(rate, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {rate}")
        optimizer.learning_rate = float(rate)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {rate}.")

    def on_epoch_end(self, epoch, logs=None):
        """Log the learning rate."""
        if logs is not None:
            logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate))


class TerminateOnNaN(Callback):
    """Stop training (or raise, with raise_error=True) when a batch's loss is NaN or infinite."""

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = bool(raise_error)

    def on_batch_end(self, batch, logs=None):
        """Check the batch's loss."""
        loss = (logs or {}).get("loss")
        if loss is not None and (math.isnan(loss) or math.isinf(loss)):
            if self.raise_error:
                raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. Terminating "
                                   f"training immediately.")
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class ModelCheckpoint(MonitorCallback):
    """Save the model (or its weights) after each epoch, or only when `monitor` improves (save_best_only);
    `filepath` may hold {epoch} and log names, e.g. 'ckpt-{epoch:02d}-{val_loss:.2f}.weights.h5'."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__(monitor, mode)
        if save_freq != "epoch":
            raise NotImplementedError("ModelCheckpoint(save_freq=<batches>) is not implemented in placeflow; it saves "
                                      "at the end of epochs.")
        suffix = ".weights.h5" if save_weights_only else ".keras"
        if not str(filepath).endswith(suffix):
            raise ValueError(f"When using `save_weights_only={save_weights_only}` in `ModelCheckpoint`, the filepath "
                             f"provided must end in `{suffix}`. Received: filepath={filepath}")
        self.filepath, self.verbose = str(filepath), int(verbose)
        self.save_best_only, self.save_weights_only = bool(save_best_only), bool(save_weights_only)
        self.best = initial_value_threshold

    def on_epoch_end(self, epoch, logs=None):
        """Save now (when the monitored value improved, with save_best_only)."""
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            if self.monitor_op is None:
                self._set_monitor_op()
            current = logs.get(self.monitor)
            if current is None:
                warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=2)
                return
            if not self._is_improvement(current, self.best):
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best} to {current:.5f}, saving model "
                      f"to {path}")
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}")
        if not self.model.distribute_strategy.extended.should_checkpoint:
            return  # a multi-worker strategy's other workers hold the same weights: the chief writes them
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)


class TensorBoard(Callback):
    """Write each epoch's logs as TensorBoard scalars (`epoch_<name>`) under log_dir/train and
    log_dir/validation (val_ logs), as Keras 3 does, through tensorboardX's event writer (the `keras`
    extra). Graphs, histograms, images, profiles and embeddings are not written."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        super().__init__()
        unsupported = {"histogram_freq": histogram_freq, "write_images": write_images,
                       "write_steps_per_second": write_steps_per_second, "profile_batch": profile_batch,
                       "embeddings_freq": embeddings_freq, "embeddings_metadata": embeddings_metadata}
        given = sorted(k for k, v in unsupported.items() if v)
        if given or update_freq != "epoch":
            raise NotImplementedError(f"TensorBoard({', '.join(given + ['update_freq'] * (update_freq != 'epoch'))}) "
                                      f"is not implemented in placeflow: it writes epoch scalars only.")
        try:
            import tensorboardX
        except ImportError:
            raise ImportError("The TensorBoard callback writes event files with tensorboardX: pip install "
                              "'placeflow[keras]' (or pip install tensorboardX).") from None
        self._writer_class = tensorboardX.SummaryWriter
        self.log_dir, self.write_graph = str(log_dir), bool(write_graph)
        self._writers: dict = {}

    def _writer(self, kind):
        if kind not in self._writers:
            import os
            self._writers[kind] = self._writer_class(os.path.join(self.log_dir, kind))
        return self._writers[kind]

    def on_epoch_end(self, epoch, logs=None):
        """Write the epoch's scalars (on the chief only, under a multi-worker strategy)."""
        if not self.model.distribute_strategy.extended.should_save_summary:
            return
        for name, value in (logs or {}).items():
            kind, tag = ("validation", name[4:]) if name.startswith("val_") else ("train", name)
            self._writer(kind).add_scalar(f"epoch_{tag}", float(value), epoch)
        for writer in self._writers.values():
            writer.flush()

    def on_train_end(self, logs=None):
        """Close the event files."""
        for writer in self._writers.values():
            writer.close()
        self._writers = {}


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
