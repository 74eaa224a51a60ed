"""Callbacks: History, the record fit returns."""

from __future__ import annotations


class History:
    """Per-epoch averages of the loss and metrics (and validation ones): `history.history['loss']`."""

    def __init__(self, model=None, epochs=None, steps=None):
        self.model = model
        self.epoch: list = []
        self.history: dict = {}
        self.params = {"epochs": epochs, "steps": steps, "verbose": 1}

    def on_epoch_end(self, epoch: int, logs: dict) -> None:
        """Record one epoch's averages."""
        self.epoch.append(epoch)
        for name, value in logs.items():
            self.history.setdefault(name, []).append(value)
