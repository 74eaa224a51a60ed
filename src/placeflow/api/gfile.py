"""tf.io.gfile: TensorFlow's file API on local paths (Python's file system calls, with TensorFlow's error
classes and texts). Other schemes (gs://, s3://, hdfs://) are refused by name."""

from __future__ import annotations

import glob as _glob
import os
import shutil

from ..framework import errors


def _local(path) -> str:
    text = os.fspath(path.decode("utf-8") if isinstance(path, bytes) else path)
    scheme = text.split("://", 1)[0] if "://" in text else ""
    if scheme and scheme != "file":
        raise errors.UnimplementedError(None, None, f"File system scheme '{scheme}' not implemented (file: '{text}')"
                                                    f"\nplaceflow: tf.io.gfile handles local paths only.")
    return text[len("file://"):] if scheme == "file" else text


def _not_found(path: str, what: str = "No such file or directory"):
    return errors.NotFoundError(None, None, f"{path}; {what}")


class GFile:
    """A file object with TensorFlow's interface (read, readline, readlines, write, seek, tell, size, flush,
    close; iteration by lines; a context manager). Text modes give str, 'b' modes bytes."""

    def __init__(self, name, mode="r"):
        self.name, self.mode = _local(name), mode
        if mode.replace("b", "") not in ("r", "w", "a", "r+", "w+", "a+"):
            raise errors.InvalidArgumentError(None, None, f"Unsupported file mode {mode!r}")
        if "r" in mode and not os.path.exists(self.name):
            raise _not_found(self.name)
        self._handle = open(self.name, mode if "b" in mode else mode, **({} if "b" in mode else {"encoding": "utf-8"}))

    def read(self, n=-1):
        """Up to n characters (or bytes), all when n is -1."""
        return self._handle.read(n)

    def readline(self):
        """The next line."""
        return self._handle.readline()

    def readlines(self):
        """Every remaining line."""
        return self._handle.readlines()

    def write(self, file_content):
        """Write str or bytes (as the mode says)."""
        if "b" not in self.mode and isinstance(file_content, bytes):
            file_content = file_content.decode("utf-8")
        self._handle.write(file_content)

    def seek(self, offset=None, whence=0, position=None):
        """Move to `offset` (or TensorFlow's older `position`)."""
        self._handle.seek(position if offset is None else offset, whence)

    def tell(self):
        """The current position."""
        return self._handle.tell()

    def size(self):
        """The file's size in bytes."""
        return os.path.getsize(self.name)

    def flush(self):
        """Flush buffered writes."""
        self._handle.flush()

    def close(self):
        """Close the file."""
        self._handle.close()

    def __iter__(self):
        return iter(self._handle)

    def __next__(self):
        return next(self._handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def exists(path) -> bool:
    """Whether `path` exists."""
    return os.path.exists(_local(path))


def isdir(path) -> bool:
    """Whether `path` is a directory."""
    return os.path.isdir(_local(path))


def join(path, *paths) -> str:
    """The paths joined with '/'."""
    return os.path.join(path, *paths)


def listdir(path) -> list:
    """The entries of directory `path` (NotFoundError if it does not exist)."""
    local = _local(path)
    if not os.path.isdir(local):
        raise errors.NotFoundError(None, None, f"Could not find directory {local}")
    return os.listdir(local)


def glob(pattern) -> list:
    """The paths matching `pattern` (one pattern or a list of them)."""
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else list(pattern)
    return sorted({match for p in patterns for match in _glob.glob(_local(p))})


def makedirs(path) -> None:
    """Create `path` and its missing parents."""
    os.makedirs(_local(path), exist_ok=True)


def mkdir(path) -> None:
    """Create directory `path` (its parent must exist)."""
    local = _local(path)
    try:
        os.mkdir(local)
    except FileExistsError:
        pass
    except FileNotFoundError:
        raise _not_found(local) from None


def remove(path) -> None:
    """Delete the file `path`."""
    local = _local(path)
    try:
        os.remove(local)
    except FileNotFoundError:
        raise _not_found(local) from None


def rename(src, dst, overwrite=False) -> None:
    """Rename src to dst (AlreadyExistsError if dst exists and not overwrite)."""
    source, target = _local(src), _local(dst)
    if os.path.exists(target) and not overwrite:
        raise errors.AlreadyExistsError(None, None, "file already exists")
    if not os.path.exists(source):
        raise _not_found(source)
    os.replace(source, target)


def copy(src, dst, overwrite=False) -> None:
    """Copy the file src to dst (AlreadyExistsError if dst exists and not overwrite)."""
    source, target = _local(src), _local(dst)
    if os.path.exists(target) and not overwrite:
        raise errors.AlreadyExistsError(None, None, "file already exists")
    if not os.path.exists(source):
        raise _not_found(source)
    shutil.copyfile(source, target)


def rmtree(path) -> None:
    """Delete the directory `path` and everything under it."""
    local = _local(path)
    if not os.path.exists(local):
        raise _not_found(local)
    shutil.rmtree(local)


class FileStatistics:
    """A file's length, modification time (nanoseconds) and whether it is a directory."""

    def __init__(self, length, mtime_nsec, is_directory):
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory


def stat(path) -> FileStatistics:
    """The FileStatistics of `path`."""
    local = _local(path)
    if not os.path.exists(local):
        raise _not_found(local)
    info = os.stat(local)
    return FileStatistics(info.st_size, info.st_mtime_ns, os.path.isdir(local))


def walk(top, topdown=True, onerror=None):
    """(directory, subdirectories, files) for every directory under `top`, as os.walk."""
    return os.walk(_local(top), topdown=topdown, onerror=onerror)


def get_registered_schemes() -> list:
    """The file system schemes placeflow handles: local files only."""
    return ["file"]
