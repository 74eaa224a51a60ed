"""Progress output of fit/evaluate/predict: a tqdm bar per epoch (the `keras` extra), else Keras-style lines.

verbose=1: a live bar with the running loss and metrics ('auto' means 1); verbose=2: one line per
epoch; verbose=0: silent. Without tqdm installed, or when stdout is not a terminal, verbose=1 prints
the one-line-per-epoch form (no '\r' redraws in logs).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import time


def has_tqdm() -> bool:
    """Whether live progress bars are available (tqdm, from placeflow[keras], is imported only to draw one)."""
    return importlib.util.find_spec("tqdm") is not None


@functools.lru_cache(maxsize=1)
def _tqdm_class():
    from tqdm.auto import tqdm
    return tqdm


def _interactive() -> bool:
    """Whether stdout is a terminal: only there does a live bar redraw itself (with '\\r'); in a log file or a
    pipe each epoch is one line, as Keras does."""
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def _format(values: dict) -> str:
    return " - ".join(f"{name}: {value:.4f}" for name, value in values.items())


class EpochProgress:
    """Progress of one epoch of `total` steps (None when unknown)."""

    def __init__(self, epoch: int, epochs: int, total, verbose):
        self.verbose = 1 if verbose == "auto" else int(verbose)
        self.total = total
        self.start = time.perf_counter()
        self.steps = 0
        self._bar = None
        if self.verbose >= 1 and epochs:
            print(f"Epoch {epoch}/{epochs}", file=sys.stdout, flush=True)
        if self.verbose == 1 and _interactive() and has_tqdm():
            self._bar = _tqdm_class()(total=total, unit="step", file=sys.stdout, leave=True, dynamic_ncols=True,
                              mininterval=0.2, bar_format="{n_fmt}/{total_fmt} [{bar:30}] - {elapsed} {postfix}")

    def update(self, values: dict) -> None:
        """One more step done; `values` are the running averages so far."""
        self.steps += 1
        if self._bar is not None:
            self._bar.update(1)
            if self._bar.n == self.total or self.steps % 10 == 0:
                self._bar.set_postfix_str(_format(values), refresh=False)

    def close(self, values: dict) -> None:
        """End of the epoch: final averages (with validation results, if any)."""
        elapsed = time.perf_counter() - self.start
        per_step = elapsed / max(self.steps, 1)
        if self._bar is not None:
            self._bar.set_postfix_str(_format(values), refresh=True)
            self._bar.close()
        elif self.verbose >= 1:
            suffix = f" - {_format(values)}" if values else ""
            print(f"{self.steps}/{self.total or self.steps} - {elapsed:.0f}s {per_step * 1000:.0f}ms/step{suffix}",
                  file=sys.stdout, flush=True)
