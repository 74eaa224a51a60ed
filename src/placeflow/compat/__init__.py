"""placeflow.compat: TensorFlow 1 names (compat.v1), TF's text/bytes helpers (as_bytes, as_text, as_str) and
the forward-compatibility date (forward_compatible, forward_compatibility_horizon)."""
from . import v1  # noqa: F401
from ..framework.forward_compat import forward_compatibility_horizon, forward_compatible  # noqa: F401


def as_bytes(bytes_or_text, encoding="utf-8") -> bytes:
    """`bytes_or_text` as bytes (text is encoded); TypeError for anything else."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8") -> str:
    """`bytes_or_text` as str (bytes are decoded); TypeError for anything else."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text
