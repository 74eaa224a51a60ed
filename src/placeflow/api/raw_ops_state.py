"""tf.raw_ops, state/array/control family: variables, lookup tables, constants, control flow, slicing.

placeflow's variables and tables have no separate resource-handle tensors: where TF's raw op takes
`resource`/`var`/`table_handle` (v.handle, table.resource_handle), pass the placeflow Variable or table itself.
"""

from __future__ import annotations

import numpy as np

from ..framework import graph_mode
from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import array_ops, indexing, linalg_more, partition_ops
from .raw_ops_common import invalid, named, outputs, refuse


def _variable(op: str, resource):
    from ..eager.variables import Variable
    if not isinstance(resource, Variable):
        raise TypeError(f"tf.raw_ops.{op} expects a placeflow Variable as its resource (placeflow has no separate "
                        f"resource handles); got {type(resource).__name__}. Pass the variable itself.")
    return resource


def _assign_variable(*, resource, value, validate_shape=False, name=None):
    """AssignVariableOp: a value of another shape is refused (TF with validate_shape=False reshapes the variable;
    placeflow's variables keep their shape)."""
    variable = _variable("AssignVariableOp", resource)
    tensor = convert_to_tensor(value, dtype=variable.dtype)
    if not validate_shape and list(tensor.shape) != list(variable.shape):
        refuse("AssignVariableOp", "validate_shape", False, "values of the variable's own shape "
               f"{list(variable.shape)} (got {list(tensor.shape)}); create a new tf.Variable for another shape")
    variable.assign(tensor, read_value=False)


def _assign_add_variable(*, resource, value, name=None):
    _variable("AssignAddVariableOp", resource).assign_add(value, read_value=False)


def _assign_sub_variable(*, resource, value, name=None):
    _variable("AssignSubVariableOp", resource).assign_sub(value, read_value=False)


def _read_variable(*, resource, dtype, name=None):
    variable = _variable("ReadVariableOp", resource)
    if variable.dtype != dtypes.as_dtype(dtype):
        invalid(f"Trying to read variable with wrong dtype. Expected {dtypes.as_dtype(dtype).name} got "
                f"{variable.dtype.name}; pass dtype={variable.dtype.name}.")
    return variable.read_value()


def _apply_gradient_descent(*, var, alpha, delta, use_locking=False, name=None):
    """var -= alpha * delta; use_locking changes nothing (placeflow's updates always hold the variable's lock)."""
    variable = _variable("ResourceApplyGradientDescent", var)
    variable._update("ResourceApplyGradientDescent", delta, False, {"alpha": float(np.asarray(alpha))})


def _refuse_ref(op: str, first: str):
    """TF's reference-variable ops: eagerly TF's RuntimeError; in graphs NotImplementedError (no ref variables)."""
    if graph_mode.active() is None:
        raise RuntimeError(f"{op} op does not support eager execution. Arg '{first}' is a ref: use tf.Variable "
                           "(resource variables) instead.")
    raise NotImplementedError(f"tf.raw_ops.{op} (a reference variable) is not implemented in placeflow: its "
                              "variables are resource variables; use tf.Variable.")


def _variable_v2(*, shape, dtype, container="", shared_name="", name=None):
    _refuse_ref("VariableV2", "ref")


def _assign(*, ref, value, validate_shape=True, use_locking=True, name=None):
    _refuse_ref("Assign", "output_ref")


def _assign_add(*, ref, value, use_locking=False, name=None):
    _refuse_ref("AssignAdd", "output_ref")


def _assign_sub(*, ref, value, use_locking=False, name=None):
    _refuse_ref("AssignSub", "output_ref")


def _var_handle(*, dtype, shape, container="", shared_name="", debug_name="", allowed_devices=(), name=None):
    raise NotImplementedError("tf.raw_ops.VarHandleOp is not implemented in placeflow: its variables have no "
                              "separate, uninitialized handles; create one with tf.Variable(initial_value).")


def _table(op: str, handle):
    from .lookup import _Table
    table = getattr(handle, "_table", handle)
    if not isinstance(table, _Table):
        raise TypeError(f"tf.raw_ops.{op} expects a placeflow lookup table (or its resource_handle) as "
                        f"table_handle; got {type(handle).__name__}.")
    return table


def _stateful(op: str, table) -> dict:
    return {"table": _table(op, table), "_stateful": True}


def _find(*, table_handle, keys, default_value, name=None):
    table = _table("LookupTableFindV2", table_handle)
    default = convert_to_tensor(default_value, dtype=table.value_dtype).numpy()
    if default.reshape(-1).tolist() != [table.default]:
        refuse("LookupTableFindV2", "default_value", default.tolist(), f"the table's own default ({table.default!r})")
    keys = convert_to_tensor(keys, dtype=table.key_dtype)
    return execute("LookupTableFindV2", (keys,), keys.dtype, _stateful("LookupTableFindV2", table), name=name)


def _insert(*, table_handle, keys, values, name=None):
    table = _table("LookupTableInsertV2", table_handle)
    keys = convert_to_tensor(keys, dtype=table.key_dtype)
    values = convert_to_tensor(values, dtype=table.value_dtype)
    execute("LookupTableInsertV2", (keys, values), keys.dtype, _stateful("LookupTableInsertV2", table), name=name)


def _remove(*, table_handle, keys, name=None):
    table = _table("LookupTableRemoveV2", table_handle)
    keys = convert_to_tensor(keys, dtype=table.key_dtype)
    execute("LookupTableRemoveV2", (keys,), keys.dtype, _stateful("LookupTableRemoveV2", table), name=name)


def _size(*, table_handle, name=None):
    return execute("LookupTableSizeV2", (), dtypes.int64, _stateful("LookupTableSizeV2", table_handle), name=name)


def _export(*, table_handle, Tkeys, Tvalues, name=None):  # noqa: N803 - TensorFlow's attribute names
    table = _table("LookupTableExportV2", table_handle)
    if (dtypes.as_dtype(Tkeys), dtypes.as_dtype(Tvalues)) != (table.key_dtype, table.value_dtype):
        invalid(f"Conflicting key/value dtypes {dtypes.as_dtype(Tkeys).name}->{dtypes.as_dtype(Tvalues).name} with "
                f"{table.key_dtype.name}->{table.value_dtype.name}; pass the table's dtypes.")
    found = execute("LookupTableExportV2", (), dtypes.int64, _stateful("LookupTableExportV2", table), name=name)
    return outputs("LookupTableExportV2", "keys values", tuple(found))


def _const(*, value, dtype, name=None):
    """Const: `value` is a TensorProto (tf.make_tensor_proto), as TF's raw op requires."""
    import placeflow
    if type(value).__name__ != "TensorProto":
        raise TypeError(f"Don't know how to convert {value!r} to a TensorProto for argument 'value'; build one with "
                        "tf.make_tensor_proto.")
    array = placeflow.make_ndarray(value)
    return array_ops.constant(array, dtype=dtypes.as_dtype(dtype), name=name)


def _placeholder(*, dtype, shape=None, name=None):
    """Placeholder: in a TF1 graph, tf.compat.v1.placeholder; eagerly the error TF raises (nothing is fed)."""
    import placeflow
    if graph_mode.active() is None and placeflow.executing_eagerly():
        invalid(f"You must feed a value for placeholder tensor 'Placeholder' with dtype {dtypes.as_dtype(dtype).name}"
                "; placeholders exist in TF1 graphs only.")
    return placeflow.compat.v1.placeholder(dtype, shape, name)


def _placeholder_with_default(*, input, shape, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    dims = None if shape is None else tuple(None if d is None or d == -1 else int(d) for d in shape)
    return execute("PlaceholderWithDefault", (x,), x.dtype, {"shape": dims}, name=name)


def _if(*, cond, input, Tout, then_branch, else_branch, output_shapes=(), name=None):  # noqa: A002,N803
    """If: the branches are Python callables or placeflow.functions taking the `input` tensors."""
    from .control_flow import cond as if_
    values = list(input)
    found = if_(cond, lambda: then_branch(*values), lambda: else_branch(*values), name=name)
    return list(found) if isinstance(found, (list, tuple)) else [found]


def _while(*, input, cond, body, output_shapes=(), parallel_iterations=10, name=None):  # noqa: A002
    """While: `cond` and `body` are Python callables or placeflow.functions over the loop tensors."""
    from .control_flow import while_loop
    found = while_loop(cond, lambda *xs: body(*xs), list(input), parallel_iterations=parallel_iterations, name=name)
    return list(found) if isinstance(found, (list, tuple)) else [found]


def _refuse_token(op: str, token):
    refuse(op, "token", token, "no registry of Python callbacks by token: call tf.py_function or "
           "tf.numpy_function with the callable")


def _py_func(*, input, token, Tout, name=None):  # noqa: A002,N803 - TensorFlow's argument names
    _refuse_token("PyFunc", token)


def _py_func_stateless(*, input, token, Tout, name=None):  # noqa: A002,N803
    _refuse_token("PyFuncStateless", token)


def _eager_py_func(*, input, token, Tout, is_async=False, name=None):  # noqa: A002,N803
    _refuse_token("EagerPyFunc", token)


def _collective_reduce(*, input, group_size, group_key, instance_key, ordering_token, merge_op, final_op,  # noqa: A002
                       communication_hint="auto", timeout_seconds=0, is_stateless=False, max_subdivs_per_device=-1,
                       name=None):
    raise NotImplementedError("tf.raw_ops.CollectiveReduceV2 is not implemented in placeflow: its collectives run "
                              "inside a tf.distribute strategy; use strategy.reduce or the replica context's "
                              "all_reduce.")


def _bits(mask: int, index: int) -> bool:
    return bool(int(mask) >> index & 1)


def _static(value, what: str):
    known = array_ops.get_static_value(value) if hasattr(value, "dtype") else np.asarray(value)
    if known is None:
        raise NotImplementedError(f"StridedSlice with {what} known only when the graph runs is not implemented in "
                                  "placeflow; give it as Python ints or a constant.")
    return [int(v) for v in np.asarray(known).reshape(-1)]


def _key(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask) -> tuple:
    """The Python index TF's StridedSlice attributes stand for."""
    begin, end, strides = _static(begin, "begin"), _static(end, "end"), _static(strides, "strides")
    if not len(begin) == len(end) == len(strides):
        invalid(f"Expected begin, end, and strides to be 1D equal size tensors, but got shapes [{len(begin)}], "
                f"[{len(end)}], and [{len(strides)}] instead.")
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if _bits(ellipsis_mask, i):
            key.append(Ellipsis)
        elif _bits(new_axis_mask, i):
            key.append(None)
        elif _bits(shrink_axis_mask, i):
            key.append(b)
        else:
            if s == 0:
                invalid("strides[{}] must be non-zero".format(i))
            key.append(slice(None if _bits(begin_mask, i) else b, None if _bits(end_mask, i) else e, s))
    return tuple(key)


def _strided_slice(*, input, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,  # noqa: A002
                   new_axis_mask=0, shrink_axis_mask=0, name=None):
    key = _key(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    return array_ops.strided_slice(input, key, name=name)


def _strided_slice_grad(*, shape, begin, end, strides, dy, begin_mask=0, end_mask=0, ellipsis_mask=0,
                        new_axis_mask=0, shrink_axis_mask=0, name=None):
    key = _key(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    g = convert_to_tensor(dy)
    return execute("StridedSliceGrad", (g,), g.dtype, {"shape": tuple(_static(shape, "shape")),
                                                       "key": array_ops.slice_key(key)}, name=name)


def _scatter(op: str, fn):
    def raw(*, tensor, indices, updates, bad_indices_policy="", name=None):
        if bad_indices_policy not in ("", "DEFAULT", "ERROR"):
            refuse(op, "bad_indices_policy", bad_indices_policy, "'' (an error for an index out of range)")
        return fn(tensor, indices, updates, name=name)
    return raw


def _unique_along(op: str, x, axis, out_idx):
    """(y, idx, count) of the distinct slices of x along `axis` (a list of at most one axis), in order of first
    appearance, as TF's UniqueV2/UniqueWithCountsV2: slices compared all at once (an n x n equality table)."""
    from . import math_ops
    x = convert_to_tensor(x)
    axes = [int(a) for a in np.asarray(array_ops.get_static_value(axis) if hasattr(axis, "dtype") else axis,
                                       dtype=np.int64).reshape(-1)]
    rank = len(x.shape)
    if len(axes) > 1 or (not axes and rank != 1):
        refuse(op, "axis", axes, "one axis (or [] for a 1-D x)")
    along = axes[0] + rank if axes and axes[0] < 0 else (axes[0] if axes else 0)
    if not 0 <= along < rank:
        invalid(f"Expected axis in the range [{-rank}, {rank}), but got {axes[0]}")
    perm = [along] + [d for d in range(rank) if d != along]
    moved = array_ops.transpose(x, perm)
    rows = array_ops.reshape(moved, [array_ops.shape(moved)[0], -1])
    same = math_ops.reduce_all(math_ops.equal(array_ops.expand_dims(rows, 1), array_ops.expand_dims(rows, 0)), 2)
    index = array_ops.range(array_ops.shape(rows, out_type=dtypes.int64)[0], dtype=dtypes.int64)
    itself = math_ops.equal(array_ops.expand_dims(index, 1), array_ops.expand_dims(index, 0))
    same = math_ops.logical_or(same, itself)  # a slice holding NaN equals only itself (TF hashes slices)
    first = math_ops.argmax(math_ops.cast(same, dtypes.int32), 1, output_type=dtypes.int64)
    count_all = array_ops.shape(first, out_type=dtypes.int64)[0]
    is_first = math_ops.equal(first, array_ops.range(count_all, dtype=dtypes.int64))
    positions = array_ops.reshape(math_ops.where(is_first), [-1])
    rank_of = math_ops.cumsum(math_ops.cast(is_first, dtypes.int64)) - 1
    idx = indexing.gather(rank_of, first)
    kept = indexing.gather(moved, positions)
    inverse = [perm.index(d) for d in range(rank)]
    y = array_ops.transpose(kept, inverse)
    counts = indexing.gather(math_ops.reduce_sum(math_ops.cast(same, dtypes.int64), 1), positions)
    return y, math_ops.cast(idx, out_idx), math_ops.cast(counts, out_idx)


def _unique_v2(*, x, axis, out_idx=dtypes.int32, name=None):
    y, idx, _ = _unique_along("UniqueV2", x, axis, out_idx)
    return outputs("UniqueV2", "y idx", (y, idx))


def _unique_with_counts_v2(*, x, axis, out_idx=dtypes.int32, name=None):
    return outputs("UniqueWithCountsV2", "y idx count", _unique_along("UniqueWithCountsV2", x, axis, out_idx))


def _edit_distance(*, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
                   truth_shape, normalize=True, name=None):
    from .sparse import SparseTensor
    hypothesis = SparseTensor(hypothesis_indices, hypothesis_values, hypothesis_shape)
    truth = SparseTensor(truth_indices, truth_values, truth_shape)
    return linalg_more.edit_distance(hypothesis, truth, normalize, name=name or "edit_distance")


_OPS = {
    "AssignVariableOp": _assign_variable, "AssignAddVariableOp": _assign_add_variable,
    "AssignSubVariableOp": _assign_sub_variable, "ReadVariableOp": _read_variable,
    "ResourceApplyGradientDescent": _apply_gradient_descent, "VarHandleOp": _var_handle,
    "VariableV2": _variable_v2, "Assign": _assign, "AssignAdd": _assign_add, "AssignSub": _assign_sub,
    "LookupTableFindV2": _find, "LookupTableInsertV2": _insert, "LookupTableRemoveV2": _remove,
    "LookupTableSizeV2": _size, "LookupTableExportV2": _export,
    "Const": _const, "NoOp": lambda *, name=None: None, "Placeholder": _placeholder,
    "PlaceholderWithDefault": _placeholder_with_default,
    "If": _if, "While": _while, "PyFunc": _py_func, "PyFuncStateless": _py_func_stateless,
    "EagerPyFunc": _eager_py_func, "CollectiveReduceV2": _collective_reduce,
    "StridedSlice": _strided_slice, "StridedSliceGrad": _strided_slice_grad,
    "Split": lambda *, axis, value, num_split, name=None: array_ops.split(value, int(num_split), axis, name=name),
    "ReverseSequence": lambda *, input, seq_lengths, seq_dim, batch_dim=0, name=None: array_ops.reverse_sequence(
        input, seq_lengths, seq_dim, batch_dim, name=name),
    "TensorScatterMax": _scatter("TensorScatterMax", indexing.tensor_scatter_nd_max),
    "TensorScatterMin": _scatter("TensorScatterMin", indexing.tensor_scatter_nd_min),
    "Timestamp": lambda *, name=None: partition_ops.timestamp(name=name),
    "Unique": lambda *, x, out_idx=dtypes.int32, name=None: outputs("Unique", "y idx", tuple(
        indexing.unique(x, out_idx, name=name))),
    "EditDistance": _edit_distance,
    "UniqueV2": _unique_v2, "UniqueWithCountsV2": _unique_with_counts_v2,   # not ops of their own in placeflow
}


def table() -> dict:
    """The state/array/control family's raw ops by TF op name."""
    return {op: named(op, fn, f"tf.raw_ops.{op}, as TensorFlow's op of that name.") for op, fn in _OPS.items()}

