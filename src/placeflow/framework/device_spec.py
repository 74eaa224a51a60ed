"""Device names: parsing every spelling TensorFlow accepts into one immutable DeviceSpec.

Grammar (TensorFlow's Python parser, made strict where TensorFlow accepts nonsense):
a name is '/'-separated pieces in any order, each one of
  job:NAME            NAME = [A-Za-z][A-Za-z0-9_]* or '*'
  replica:N, task:N   N = non-negative integer or '*'
  TYPE[:N]            TYPE one of CPU/GPU/TPU/... in any case ('gpu', '/CPU:0', 'GPU:*')
  device:TYPE[:N]     TYPE = [A-Za-z][A-Za-z0-9_]*; known types are upper-cased
Differences from TensorFlow are listed in docs/device-names.md.
"""

from __future__ import annotations

import difflib
import re

KNOWN_DEVICE_TYPES = ("CPU", "GPU", "TPU", "CUSTOM", "EPU")
LOCAL_JOB = "localhost"
_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_GLUED_RE = re.compile(r"(?i)(cpu|gpu|tpu)([0-9]+)\Z")
MAX_INDEX = 2**31 - 1
_EXAMPLES = "'/job:localhost/replica:0/task:0/device:GPU:0', '/device:GPU:0', '/GPU:0', 'GPU:0' or '/cpu:0'"


class _Problem(Exception):
    """One defect in one piece of a device name, with the piece that would fix it."""

    def __init__(self, reason: str, piece: str | None = None, fix: str | None = None, tf_text: str = ""):
        super().__init__(reason)
        self.reason, self.piece, self.fix, self.tf_text = reason, piece, fix, tf_text


def _index(text: str, piece: str, what: str) -> int | None:
    if text == "*":
        return None
    if text.isascii() and text.isdigit():
        if len(text) > 10 or int(text) > MAX_INDEX:  # TensorFlow parses indices as 32-bit integers
            shown = text if len(text) <= 24 else f"{text[:12]}...{text[-6:]} ({len(text)} digits)"
            raise _Problem(f"the {what} {shown} is larger than {MAX_INDEX}, the largest index a device name can "
                           f"hold", piece, piece[: len(piece) - len(text)] + "0")
        return int(text)
    if text.startswith("-") and text[1:].isdigit():
        fix = piece[: len(piece) - len(text)] + "0"
        raise _Problem(f"the {what} must be a non-negative integer or '*', not {text}", piece, fix)
    fix = piece[: len(piece) - len(text)] + "0"
    raise _Problem(f"the {what} {text!r} is not a non-negative integer or '*'", piece, fix)


def _device_type(text: str, piece: str) -> str | None:
    if text == "*":
        return None
    if not _NAME_RE.match(text):
        raise _Problem(f"the device type {text!r} must start with a letter and contain only "
                       "letters, digits and '_'", piece, None)
    upper = text.upper()
    return upper if upper in KNOWN_DEVICE_TYPES else text


def _parse_piece(piece: str, fields: dict, spec: str) -> None:
    parts = piece.split(":")
    key = parts[0]
    if key == "job" and len(parts) == 2:
        job = parts[1]
        if job == "":
            raise _Problem("the job name is empty", piece, "job:localhost")
        if job != "*" and not _NAME_RE.match(job):
            raise _Problem(f"the job name {job!r} must start with a letter and contain only "
                           "letters, digits and '_'", piece, "job:" + (re.sub(r"\W", "_", job).lstrip("0123456789_") or "localhost"))
        fields["job"] = None if job == "*" else job
    elif key in ("replica", "task") and len(parts) == 2:
        fields[key] = _index(parts[1], piece, f"{key} number")
    elif len(parts) <= 2 and key.upper() in KNOWN_DEVICE_TYPES:
        _set_type(fields, key.upper(), parts[1] if len(parts) == 2 else "*", piece, spec)
    elif key == "device" and len(parts) > 3:
        raise _Problem(f"{piece!r} has too many ':'-separated parts", piece, ":".join(parts[:3]),
                       f"Unknown attribute 'device' is encountered while parsing the device spec: '{spec}'.")
    elif key == "device" and len(parts) == 2:  # '/device:GPU' has no index: TensorFlow refuses it
        raise _Problem(f"{piece!r} names a device type without an index after 'device:'", piece, piece + ":0",
                       f"Unknown attribute 'device' is encountered while parsing the device spec: '{spec}'.")
    elif key == "device" and len(parts) == 3:
        _set_type(fields, _device_type(parts[1], piece), parts[2] if len(parts) == 3 else "*", piece, spec)
    else:
        raise _unknown_piece(piece, spec)


def _set_type(fields: dict, device_type: str | None, index_text: str, piece: str, spec: str) -> None:
    if "device_type" in fields:
        raise _Problem("it names more than one device type", piece, "",
                       f"Multiple device types are not allowed while parsing the device spec: {spec}.")
    fields["device_type"] = device_type
    if index_text == "":
        raise _Problem("the device index after ':' is empty", piece, piece + "0")
    fields["device_index"] = _index(index_text, piece, "device index")


def _unknown_piece(piece: str, spec: str) -> _Problem:
    key = piece.split(":")[0]
    tf_text = f"Unknown attribute '{key}' is encountered while parsing the device spec: '{spec}'."
    glued = _GLUED_RE.match(piece)
    if glued:
        return _Problem(f"{piece!r} lacks the ':' between type and index", piece,
                        f"{glued.group(1)}:{glued.group(2)}", tf_text)
    close = difflib.get_close_matches(key.lower(), ["job", "replica", "task", "device", "cpu", "gpu"], 1, 0.6)
    fix = None
    if close:
        fix = piece.replace(key, close[0], 1)
    return _Problem(f"{key!r} is not a part of a device name", piece, fix, tf_text)


def _parse(spec: str) -> tuple:
    if spec != spec.strip():
        raise _Problem("it has surrounding whitespace", spec, spec.strip())
    fields: dict = {}
    for piece in spec.split("/"):
        if piece:
            _parse_piece(piece, fields, spec)
    return (fields.get("job"), fields.get("replica"), fields.get("task"),
            fields.get("device_type"), fields.get("device_index"))


def _suggest(spec: str, problem: _Problem) -> str | None:
    """Repair one defect at a time until the name parses; None when no repair is known."""
    candidate = spec
    for _ in range(6):
        if problem.fix is None:
            return None
        if problem.piece == candidate:
            candidate = problem.fix
        else:
            pieces = candidate.split("/")
            at = pieces.index(problem.piece)
            pieces[at] = problem.fix
            candidate = "/".join(p for i, p in enumerate(pieces) if p or i == 0)
        try:
            _parse(candidate)
        except _Problem as again:
            problem = again
            continue
        return candidate or None
    return None


def _name_error(spec: str, problem: _Problem) -> ValueError:
    lead = problem.tf_text + "\n" if problem.tf_text else ""
    text = f"{lead}Invalid device name {spec!r}: {problem.reason}. A device name looks like {_EXAMPLES}."
    suggestion = _suggest(spec, problem)
    if suggestion:
        text += f" Did you mean {suggestion!r}?"
    for part in sorted({spec, *spec.split("/"), *spec.split(":")}, key=len, reverse=True):
        if len(part) > 64:  # quote a pathological name in part: the message stays readable
            text = text.replace(part, f"{part[:24]}...{part[-8:]} ({len(part)} characters)")
    return ValueError(text)


_PARSE_CACHE: dict = {}


def parse_device_name(spec) -> tuple:
    """Parse a device name into (job, replica, task, device_type, device_index); raise ValueError."""
    if spec is None:
        return (None,) * 5
    cached = _PARSE_CACHE.get(spec)
    if cached is not None:
        return cached
    if not isinstance(spec, str):
        raise ValueError(f"Expecting a string device name. Got {type(spec)}({spec!r})")
    try:
        fields = _parse(spec)
    except _Problem as problem:
        raise _name_error(spec, problem) from None
    if len(_PARSE_CACHE) < 4096:
        _PARSE_CACHE[spec] = fields
    return fields


def _format(job, replica, task, device_type, device_index) -> str:
    out = []
    if job is not None:
        out.append(f"/job:{job}")
    if replica is not None:
        out.append(f"/replica:{replica}")
    if task is not None:
        out.append(f"/task:{task}")
    if device_type is not None:
        out.append(f"/device:{device_type}:{'*' if device_index is None else device_index}")
    return "".join(out)


def _check_field(name: str, value, kind):
    if value is None:
        return None
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"DeviceSpec {name} must be a non-negative int or None, got {value!r}.")
        return value
    if not isinstance(value, str) or not _NAME_RE.match(value):
        raise ValueError(f"DeviceSpec {name} must be a name like 'localhost' or 'GPU' "
                         f"(a letter, then letters, digits or '_'), got {value!r}.")
    if name == "device_type" and value.upper() in KNOWN_DEVICE_TYPES:
        return value.upper()
    return value


class DeviceSpec:
    """An immutable, hashable (possibly partial) device name: job, replica, task, type, index."""

    __slots__ = ("_fields", "_string")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        fields = (
            _check_field("job", job, str),
            _check_field("replica", replica, int),
            _check_field("task", task, int),
            _check_field("device_type", device_type, str),
            _check_field("device_index", device_index, int),
        )
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_string", _format(*fields))

    @classmethod
    def _from_fields(cls, fields: tuple) -> "DeviceSpec":
        spec = object.__new__(cls)
        object.__setattr__(spec, "_fields", fields)
        object.__setattr__(spec, "_string", _format(*fields))
        return spec

    @classmethod
    def from_string(cls, spec: str) -> "DeviceSpec":
        """Parse any accepted spelling ('/gpu:0', 'GPU:1', '/job:w/task:3', ...) into a DeviceSpec."""
        return cls._from_fields(parse_device_name(spec))

    def parse_from_string(self, spec: str) -> "DeviceSpec":
        """A new DeviceSpec parsed from `spec` (TensorFlow 2 semantics: self is unchanged)."""
        return type(self).from_string(spec)

    def to_string(self) -> str:
        """Canonical form: '/job:J/replica:R/task:T/device:TYPE:N', unset parts omitted."""
        return self._string

    def make_merged_spec(self, dev: "DeviceSpec") -> "DeviceSpec":
        """A new spec: this one with every field that `dev` sets taking `dev`'s value."""
        return type(self)._from_fields(tuple(b if b is not None else a for a, b in zip(self._fields, dev._fields)))

    def replace(self, **kwargs) -> "DeviceSpec":
        """A new spec with the given fields replaced (None clears a field)."""
        unknown = set(kwargs) - set(_FIELD_NAMES)
        if unknown:
            raise TypeError(f"DeviceSpec.replace() got unknown field(s) {sorted(unknown)}; "
                            f"expected some of {list(_FIELD_NAMES)}.")
        values = dict(zip(_FIELD_NAMES, self._fields))
        values.update(kwargs)
        return type(self)(**values)

    job = property(lambda self: self._fields[0], doc="The job name, or None.")
    replica = property(lambda self: self._fields[1], doc="The replica number, or None.")
    task = property(lambda self: self._fields[2], doc="The task number, or None.")
    device_type = property(lambda self: self._fields[3], doc="The device type ('CPU', 'GPU', ...), or None.")
    device_index = property(lambda self: self._fields[4], doc="The device index, or None.")

    def __setattr__(self, name, value):
        raise AttributeError(f"DeviceSpec is immutable; use spec.replace({name}=...) for a changed copy.")

    def __eq__(self, other) -> bool:
        return isinstance(other, DeviceSpec) and other._string == self._string

    def __hash__(self) -> int:
        return hash(self._string)

    def __repr__(self) -> str:
        job, replica, task, device_type, device_index = self._fields
        return (f"<DeviceSpec(job={job}, replica={replica}, task={task}, "
                f"device_type={device_type}, device_index={device_index})>")

    def __reduce__(self):
        return type(self)._from_fields, (self._fields,)


_FIELD_NAMES = ("job", "replica", "task", "device_type", "device_index")


class DeviceSpecV1(DeviceSpec):
    """TensorFlow 1's mutable DeviceSpec (compat.v1): settable fields, in-place merge and parse."""

    __slots__ = ()

    def __setattr__(self, name, value):
        if name not in _FIELD_NAMES:
            raise AttributeError(f"DeviceSpec has no field {name!r}; fields are {list(_FIELD_NAMES)}.")
        values = dict(zip(_FIELD_NAMES, self._fields))
        values[name] = value
        self._reset(DeviceSpec(**values)._fields)

    def _reset(self, fields: tuple) -> None:
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_string", _format(*fields))

    def merge_from(self, dev: DeviceSpec) -> None:
        """Merge `dev` into this spec in place: its set fields win."""
        self._reset(self.make_merged_spec(dev)._fields)

    def parse_from_string(self, spec: str) -> "DeviceSpecV1":
        """Replace this spec's fields with those parsed from `spec`; returns self."""
        self._reset(parse_device_name(spec))
        return self

    def __hash__(self) -> int:
        return hash(self._string)


LOCAL_HOST_SPEC = DeviceSpec(job=LOCAL_JOB, replica=0, task=0)


def canonical_name(spec, default_type: str = "CPU", default_index: int = 0) -> str:
    """Fully qualified name '/job:localhost/replica:0/task:0/device:T:N', defaults filling gaps."""
    if not isinstance(spec, DeviceSpec):
        spec = DeviceSpec.from_string(spec)
    job, replica, task, device_type, device_index = spec._fields
    return _format(job or LOCAL_JOB, 0 if replica is None else replica, 0 if task is None else task,
                   device_type or default_type, default_index if device_index is None else device_index)


def is_complete_specification(pattern: DeviceSpec, name: DeviceSpec) -> bool:
    """True when every field set in `pattern` equals the same field of `name`."""
    return all(p is None or p == n for p, n in zip(pattern._fields, name._fields))


def short_name(full_name: str) -> str:
    """'/job:localhost/replica:0/task:0/device:GPU:0' -> '/device:GPU:0' (local job stripped)."""
    spec = DeviceSpec.from_string(full_name)
    if spec.job in (None, LOCAL_JOB):
        return _format(None, None, None, spec.device_type, spec.device_index)
    return full_name
