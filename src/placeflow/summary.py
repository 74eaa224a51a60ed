"""tf.summary: not implemented in placeflow yet; every entry point says so by name.

Keras's TensorBoard callback imports this module (`import tensorflow.summary`) and fails at its first
write with the message below, rather than with a missing module."""


def _not_implemented(name):
    def refuse(*args, **kwargs):
        raise NotImplementedError(f"tf.summary.{name} is not implemented in placeflow: TensorBoard event files "
                                  "cannot be written yet (use a CSVLogger callback, or log the History).")
    refuse.__name__ = name
    refuse.__doc__ = f"Not implemented in placeflow (tf.summary.{name})."
    return refuse


for _name in ("create_file_writer", "create_noop_writer", "scalar", "histogram", "image", "text", "audio", "write",
              "flush", "record_if", "should_record_summaries", "trace_on", "trace_off", "trace_export",
              "graph", "get_step", "set_step"):
    globals()[_name] = _not_implemented(_name)
del _name


class SummaryWriter:
    """tf.summary.SummaryWriter: not implemented in placeflow."""

    def __init__(self, *args, **kwargs):
        _not_implemented("SummaryWriter")()


class experimental:  # noqa: N801 - TF's namespace name
    """tf.summary.experimental: not implemented in placeflow."""

    summary_scope = staticmethod(_not_implemented("experimental.summary_scope"))
    get_step = staticmethod(_not_implemented("experimental.get_step"))
    set_step = staticmethod(_not_implemented("experimental.set_step"))
    write_raw_pb = staticmethod(_not_implemented("experimental.write_raw_pb"))
