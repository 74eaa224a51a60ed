"""tf.train.JobDef, tf.train.ClusterDef and tf.train.ServerDef: TensorFlow's cluster protocol-buffer messages,
encoded and decoded in its wire format (tf.train.ClusterSpec.as_cluster_def makes a ClusterDef). Map entries
(a job's tasks) are written by task index; TensorFlow's own order for them is not fixed."""

from __future__ import annotations

from ..framework.protobuf_wire import field_bytes, field_varint, fields, signed64


class _Message:
    """Keyword construction with type checks (each subclass's `_checked`), equality by content, FromString."""

    _FIELDS: dict = {}  # name: (number, kind) with kind "str", "int32", "message class"
    _REFUSED: dict = {}  # name: why placeflow lacks it

    def __init__(self, **given):
        for name in given:
            if name in self._REFUSED:
                raise NotImplementedError(f"{type(self).__name__}.{name} is not implemented in placeflow: "
                                          f"{self._REFUSED[name]}")
            if name not in self._FIELDS:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field; its fields are '
                                 f"{sorted(self._FIELDS)}.")
        for name in self._FIELDS:
            setattr(self, name, self._checked(name, given.get(name)))

    @classmethod
    def FromString(cls, data):  # noqa: N802 - protobuf's name
        """The message these protocol-buffer bytes encode."""
        message = cls()
        message.ParseFromString(data)
        return message

    def __eq__(self, other):
        return type(self) is type(other) and all(getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __repr__(self):
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._FIELDS)
        return f"{type(self).__name__}({shown})"


def _text(message: str, name: str, value) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if not isinstance(value, str):
        raise TypeError(f"{message}.{name} is a string field; got {value!r} of type {type(value).__name__}.")
    return value


def _int32(message: str, name: str, value) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not -(1 << 31) <= value < 1 << 31:
        raise TypeError(f"{message}.{name} is an int32 field; got {value!r}.")
    return int(value)


class JobDef(_Message):
    """One job: its `name` and `tasks`, a dict {task index: "host:port"}."""

    _FIELDS = {"name": 1, "tasks": 2}

    def _checked(self, name, value):
        if name == "name":
            return _text("JobDef", name, value)
        return {_int32("JobDef", "tasks key", k): _text("JobDef", "tasks value", v)
                for k, v in dict(value or {}).items()}

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The protocol-buffer bytes of this JobDef."""
        out = field_bytes(1, self.name) if self.name else b""
        return out + b"".join(field_bytes(2, field_varint(1, index) + field_bytes(2, address))
                              for index, address in sorted(self.tasks.items()))

    def ParseFromString(self, data) -> None:  # noqa: N802 - protobuf's name
        """Read these protocol-buffer bytes into this JobDef (replacing its contents)."""
        self.name, self.tasks = "", {}
        for number, _, value in fields(bytes(data)):
            if number == 1:
                self.name = value.decode("utf-8")
            elif number == 2:
                index, address = 0, ""
                for key, _, item in fields(value):
                    if key == 1:
                        index = signed64(item)
                    elif key == 2:
                        address = item.decode("utf-8")
                self.tasks[index] = address


class ClusterDef(_Message):
    """A cluster: `job`, a list of JobDef."""

    _FIELDS = {"job": 1}

    def _checked(self, name, value):
        jobs = list(value or [])
        for job in jobs:
            if not isinstance(job, JobDef):
                raise TypeError(f"ClusterDef.job holds JobDef messages; got {job!r}.")
        return jobs

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The protocol-buffer bytes of this ClusterDef."""
        return b"".join(field_bytes(1, job.SerializeToString()) for job in self.job)

    def ParseFromString(self, data) -> None:  # noqa: N802 - protobuf's name
        """Read these protocol-buffer bytes into this ClusterDef (replacing its contents)."""
        self.job = [JobDef.FromString(value) for number, _, value in fields(bytes(data)) if number == 1]


class ServerDef(_Message):
    """A server: its `cluster` (ClusterDef), `job_name`, `task_index`, `protocol`, `port` and `replica`."""

    _FIELDS = {"cluster": 1, "job_name": 2, "task_index": 3, "protocol": 5, "port": 6, "replica": 8}
    _REFUSED = {"default_session_config": "placeflow has no ConfigProto message; configure with tf.config.",
                "cluster_device_filters": "placeflow has no ClusterDeviceFilters message."}

    def _checked(self, name, value):
        if name == "cluster":
            if value is not None and not isinstance(value, ClusterDef):
                raise TypeError(f"ServerDef.cluster is a ClusterDef; got {value!r} (ClusterSpec.as_cluster_def() "
                                "makes one).")
            return value if value is not None else ClusterDef()
        if name in ("job_name", "protocol"):
            return _text("ServerDef", name, value)
        return _int32("ServerDef", name, value)

    def SerializeToString(self) -> bytes:  # noqa: N802 - protobuf's name
        """The protocol-buffer bytes of this ServerDef."""
        cluster = self.cluster.SerializeToString()
        out = field_bytes(1, cluster) if cluster else b""
        for name in ("job_name", "task_index", "protocol", "port", "replica"):
            value, number = getattr(self, name), self._FIELDS[name]
            if value:
                out += field_bytes(number, value) if isinstance(value, str) else field_varint(number, value)
        return out

    def ParseFromString(self, data) -> None:  # noqa: N802 - protobuf's name
        """Read these protocol-buffer bytes into this ServerDef (replacing its contents)."""
        self.__init__()
        by_number = {number: name for name, number in self._FIELDS.items()}
        for number, _, value in fields(bytes(data)):
            name = by_number.get(number)
            if name == "cluster":
                self.cluster = ClusterDef.FromString(value)
            elif name in ("job_name", "protocol"):
                setattr(self, name, value.decode("utf-8"))
            elif name is not None:
                setattr(self, name, signed64(value))  # int32: negative ones are sign-extended varints
            elif number in (4, 7):
                field = "default_session_config" if number == 4 else "cluster_device_filters"
                raise NotImplementedError(f"ServerDef.{field} is not implemented in placeflow: {self._REFUSED[field]}")


def cluster_def_of(jobs: dict) -> ClusterDef:
    """The ClusterDef of {job name: {task index: address}}, jobs by name."""
    return ClusterDef(job=[JobDef(name=name, tasks=dict(tasks)) for name, tasks in sorted(jobs.items())])


def jobs_of(cluster_def: ClusterDef) -> dict:
    """{job name: {task index: address}} of a ClusterDef."""
    return {job.name: dict(job.tasks) for job in cluster_def.job}
