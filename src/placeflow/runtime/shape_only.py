"""Shape-only arrays: what a tensor above a small size holds while placeflow estimates (PLACEFLOW_ESTIMATE=1).

A `ShapeOnly` array is a NumPy array whose memory is an anonymous mapping the kernels never write: the
pages stay the kernel's shared zero page, so a 1 GiB tensor costs address space and no RAM. It has the
shape, dtype, strides and views of a real array, so everything that only looks at arrays (charging a
device's pool, views, reshapes, copies between devices, forwarding) behaves as in a real run, while the
estimating devices (runtime/estimating.py) never run an expensive kernel on one: they make their outputs
from the op's shape rule. Reading one's data (`.numpy()`, `print`, `bool`, `float`) raises
`ShapeOnlyReadError` naming the line, unless zeros were asked for (PLACEFLOW_ESTIMATE=zeros): then the data
reads as zeros. Libraries' own reads (Keras's progress bar, callbacks and logs; tf.data's threads; anything
installed or in the standard library) always read zeros, so `fit` runs.
"""

from __future__ import annotations

import mmap
import sys

import numpy as np

MMAP_FROM = 1 << 16   # smaller shape-only arrays are ordinary zeroed NumPy memory (no mapping per tensor)


class ShapeOnlyReadError(ValueError):
    """A program read the data of a tensor that carries only its shape (shape-only estimation)."""


class ShapeOnly(np.ndarray):
    """A NumPy array standing for a tensor's buffer during estimation: shape, dtype and bytes, no data."""

    keeps_class = True   # a device's charge keeps it a ShapeOnly (other NumPy subclasses become plain arrays)

    def __repr__(self):
        return _refuse(self, "repr")

    def __str__(self):
        return _refuse(self, "str")

    def __format__(self, spec):
        return _refuse(self, "format") if not _reads_as_zeros() else format(self.view(np.ndarray), spec)

    def __bool__(self):
        return _refuse(self, "bool")

    def __float__(self):
        return _refuse(self, "float")

    def __int__(self):
        return _refuse(self, "int")

    def __index__(self):
        return _refuse(self, "index")

    def item(self, *args):
        """The element, or ShapeOnlyReadError."""
        return _refuse(self, "item", *args)

    def tolist(self):
        """The data as lists, or ShapeOnlyReadError."""
        return _refuse(self, "tolist")


def shape_only(shape, dtype) -> ShapeOnly:
    """A new shape-only array of `shape` and `dtype` that owns its (untouched, zero) memory."""
    dtype = np.dtype(dtype)
    shape = tuple(int(s) for s in shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if nbytes < MMAP_FROM or dtype.hasobject:
        array = np.ndarray.__new__(ShapeOnly, shape, dtype)  # owns its memory (base None), as a kernel output
        array.view(np.ndarray).fill(0)
        return array
    return np.ndarray.__new__(ShapeOnly, shape, dtype, buffer=mmap.mmap(-1, nbytes))


def is_shape_only(array) -> bool:
    """Whether `array` is (a view of) a shape-only buffer."""
    return isinstance(array, ShapeOnly)


def owns_memory(array) -> bool:
    """Whether a shape-only array is the root of its buffer (not a view of another array)."""
    return not isinstance(array.base, np.ndarray)


_zeros = False


def read_as_zeros(enabled: bool) -> None:
    """Let programs read shape-only data as zeros (PLACEFLOW_ESTIMATE=zeros) instead of raising."""
    global _zeros
    _zeros = bool(enabled)


def _reads_as_zeros() -> bool:
    return _zeros


def host_data(array) -> np.ndarray:
    """`array` as a plain NumPy array for a reader: zeros when asked for, else ShapeOnlyReadError."""
    if not _zeros:
        _refuse(array, "numpy")
    return np.zeros(array.shape, array.dtype)


def _refuse(array, what, *args):
    line = caller_line()
    if _zeros or _inside_keras(line):
        plain = np.zeros(array.shape, array.dtype)
        return getattr(plain, {"repr": "__repr__", "str": "__str__", "bool": "__bool__", "float": "__float__",
                               "int": "__int__", "index": "__index__", "item": "item", "tolist": "tolist",
                               "numpy": "copy", "format": "__format__"}[what])(*args)
    raise ShapeOnlyReadError(
        f"{line}: reads the data of a {np.dtype(array.dtype).name} tensor of shape {tuple(array.shape)} "
        f"that placeflow is estimating shape-only (PLACEFLOW_ESTIMATE=1 or `placeflow estimate`): it has a shape, "
        f"a dtype and a device but no values. Read only shapes while estimating, or set PLACEFLOW_ESTIMATE=zeros "
        f"(or estimate(..., zeros=True)) to read zeros instead.")


def _inside_keras(line: str) -> bool:
    """Libraries' own reads see zeros, so they keep working: Keras's (its progress bar, callbacks and logs read
    every metric), tf.data's worker threads, anything installed or in Python's standard library. A read by the
    program's own code raises."""
    path = line.rsplit(":", 1)[0].replace("\\", "/")
    return "/keras/" in path or path.startswith(_LIBRARY_DIRS) or "/site-packages/" in path or \
        "/dist-packages/" in path


def _library_dirs() -> tuple:
    import sysconfig
    paths = sysconfig.get_paths()
    return tuple(paths[key].replace("\\", "/") + "/" for key in ("stdlib", "platstdlib", "purelib", "platlib")
                 if paths.get(key))


_LIBRARY_DIRS = _library_dirs()


def caller_line() -> str:
    """'file.py:12' of the innermost frame outside placeflow and NumPy: the program's line that read data."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if "/placeflow/" not in name.replace("\\", "/") and "/numpy/" not in name.replace("\\", "/"):
            return f"{name}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown line>"
