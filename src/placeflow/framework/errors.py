"""TensorFlow's error classes: OpError and one subclass per canonical error code."""

from __future__ import annotations

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """An error raised while running an op; carries the op, its node and an error code."""

    error_code = UNKNOWN

    def __init__(self, node_def=None, op=None, message: str = "", *args):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        if args:
            self.error_code = args[0]

    @property
    def message(self) -> str:
        """The error message."""
        return self._message

    @property
    def op(self):
        """The operation that failed, or None."""
        return self._op

    @property
    def node_def(self):
        """The node of the failed operation, or None."""
        return self._node_def

    def __str__(self) -> str:
        if not self._message.startswith("Graph execution error:"):
            return self._message
        frames = getattr(self._op, "creation_frames", None)
        if not frames:
            return self._message
        return f"{self._message}\n\nOriginal stack trace for '{self._op.name}':\n{format_frames(frames, '  ')}"

    def __reduce__(self):
        return type(self), (self._node_def, None, self._message)


def format_frames(frames, indent: str, gap: str = "") -> str:
    """TensorFlow's frame lines: `File "<file>", line <n>, in <function>`, each indented and followed by `gap`."""
    return "".join(f'{indent}File "{name}", line {line}, in {function}\n{gap}' for name, line, function in frames)


def _subclass(name: str, code: int, doc: str) -> type:
    return type(name, (OpError,), {"error_code": code, "__doc__": doc, "__module__": __name__})


CancelledError = _subclass("CancelledError", CANCELLED, "An operation or step was cancelled.")
UnknownError = _subclass("UnknownError", UNKNOWN, "An error of an unknown kind.")
InvalidArgumentError = _subclass("InvalidArgumentError", INVALID_ARGUMENT, "An op got an invalid argument.")
DeadlineExceededError = _subclass("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _subclass("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _subclass("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _subclass("PermissionDeniedError", PERMISSION_DENIED, "The caller lacks permission.")
ResourceExhaustedError = _subclass("ResourceExhaustedError", RESOURCE_EXHAUSTED, "A resource (e.g. memory) ran out.")
FailedPreconditionError = _subclass(
    "FailedPreconditionError", FAILED_PRECONDITION, "The system is not in a state to run the op."
)
AbortedError = _subclass("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _subclass("OutOfRangeError", OUT_OF_RANGE, "An operation went past the valid range.")
UnimplementedError = _subclass("UnimplementedError", UNIMPLEMENTED, "The operation is not implemented.")
InternalError = _subclass("InternalError", INTERNAL, "The runtime broke an internal invariant.")
UnavailableError = _subclass("UnavailableError", UNAVAILABLE, "The runtime is currently unavailable.")
DataLossError = _subclass("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")
UnauthenticatedError = _subclass("UnauthenticatedError", UNAUTHENTICATED, "The request lacks credentials.")



class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation on a symbolic tensor that needs its value (bool(), iteration) while tracing."""


_BY_CODE = {cls.error_code: cls for cls in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
    AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError,
    DataLossError, UnauthenticatedError,
)}


def exception_type_from_error_code(error_code: int) -> type:
    """The OpError subclass for a canonical error code."""
    try:
        return _BY_CODE[error_code]
    except KeyError:
        raise KeyError(f"Unknown error code {error_code!r}; expected one of {sorted(_BY_CODE)}.") from None


def error_code_from_exception_type(cls: type) -> int:
    """The canonical error code of an OpError subclass."""
    if not (isinstance(cls, type) and issubclass(cls, OpError)):
        raise TypeError(f"Expected an OpError subclass, got {cls!r}.")
    return cls.error_code
