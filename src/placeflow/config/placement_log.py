"""The 'placeflow.placement' logger: placement lines and fallback warnings, to stderr by default.

Users can add handlers, filters or levels to it like any logger; placeflow adds one stderr
handler (that follows sys.stderr, so redirection and capture work) only when logging is enabled
and the logger has no handler of its own.
"""

from __future__ import annotations

import logging
import sys

logger = logging.getLogger("placeflow.placement")


class _CurrentStderrHandler(logging.StreamHandler):
    """A StreamHandler writing to whatever sys.stderr is at the time of each record."""

    def __init__(self):
        super().__init__(sys.stderr)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def ensure_handler() -> None:
    """Make INFO placement lines visible on stderr unless the user configured the logger."""
    if not logger.handlers:
        handler = _CurrentStderrHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    if logger.level == logging.NOTSET or logger.level > logging.INFO:
        logger.setLevel(logging.INFO)


def get_logger():
    """placeflow's logger ('placeflow'; TensorFlow's is named 'tensorflow'): set its level or add handlers."""
    return logging.getLogger("placeflow")
