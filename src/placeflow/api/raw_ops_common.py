"""Helpers shared by the tf.raw_ops families: TF's output namedtuples, argument refusals and table builders."""

from __future__ import annotations

import collections
import functools
import inspect

from ..framework import errors


@functools.lru_cache(maxsize=None)
def _output_type(op: str, fields: tuple):
    return collections.namedtuple(op, fields)


def outputs(op: str, fields: str, values):
    """`values` as the namedtuple TF's raw op `op` returns (type name `op`, `fields` space-separated)."""
    return _output_type(op, tuple(fields.split()))(*values)


def refuse(op: str, argument: str, value, honoured: str):
    """NotImplementedError: placeflow's `op` cannot honour `argument=value`; `honoured` says what it can."""
    raise NotImplementedError(f"tf.raw_ops.{op}({argument}={value!r}) is not implemented in placeflow: "
                              f"it supports {honoured}; call it with that (or use the public function).")


def no_kernel(op: str, attrs: str):
    """NotFoundError, as TF raises when no kernel of `op` takes these attribute values (e.g. a Tout that does not
    match the input)."""
    raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = {op}[{attrs}]; "
                                           "no kernel of the op takes these attribute values.")


def invalid(message: str):
    """InvalidArgumentError with `message`, as TF's kernels raise for bad attribute values."""
    raise errors.InvalidArgumentError(None, None, message)


def nhwc_only(op: str, data_format: str, default: str = "NHWC"):
    """Refuses a data_format other than the channels-last default (placeflow's kernels are channels-last)."""
    if data_format != default:
        refuse(op, "data_format", data_format, f"data_format={default!r} only")


def named(op: str, fn, doc: str):
    """`fn` named `op` with a one-line docstring (its own if it has one), so help(tf.raw_ops.<op>) reads well;
    a public function from another module is wrapped rather than renamed."""
    if not getattr(fn, "__module__", "").startswith("placeflow.api.raw_ops"):
        inner = fn

        def fn(**kwargs):
            return inner(**kwargs)
        fn.__signature__ = inspect.signature(inner).replace(parameters=[
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in inspect.signature(inner).parameters.values()])
        doc = f"{doc[:-1]} (placeflow's {inner.__module__}.{inner.__name__})."
    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = fn.__doc__ or doc
    return fn


def unary(op: str, fn, arg: str = "x"):
    """A raw op `op(*, <arg>, name=None)` calling `fn(value, name=name)`."""
    if arg == "x":
        def raw(*, x, name=None):
            return fn(x, name=name)
    else:
        def raw(*, input, name=None):  # noqa: A002 - TensorFlow's argument name
            return fn(input, name=name)
    return named(op, raw, f"tf.raw_ops.{op}, as TensorFlow's op of that name.")


def binary(op: str, fn, args: str = "x y"):
    """A raw op `op(*, a, b, name=None)` calling `fn(a, b, name=name)`; `args` names TF's two arguments."""
    first, second = args.split()
    keyword = inspect.Parameter.KEYWORD_ONLY
    signature = inspect.Signature([inspect.Parameter(first, keyword), inspect.Parameter(second, keyword),
                                   inspect.Parameter("name", keyword, default=None)])

    def raw(**kwargs):
        bound = signature.bind(**kwargs)   # TypeError naming a missing or unexpected argument, as Python's own
        bound.apply_defaults()
        return fn(bound.arguments[first], bound.arguments[second], name=bound.arguments["name"])
    raw.__signature__ = signature
    return named(op, raw, f"tf.raw_ops.{op}: elementwise over ({first}, {second}), as TensorFlow's op.")
