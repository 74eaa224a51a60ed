"""tf.data elements that are not dense tensors, as TensorFlow 2.21 supports them: SparseTensors, RaggedTensors
(any ragged rank), datasets (and batches of datasets) and None.

On the host a dataset holds them as HostSparse (indices, values, dense_shape arrays), HostRagged (flat values
and the row splits of each ragged dimension; no splits: a ragged_rank-0 value, which the pipeline hands out as a
dense tensor but batches into ragged rows, as TF's RaggedTensorSpec(ragged_rank=0) does), the Dataset itself,
DatasetBatch (an array of datasets: what batching dataset elements makes, TF's variant tensor) and None.
Each kind batches as TF batches it: SparseTensors into one SparseTensor with a batch dimension (each dimension
the batch's largest), RaggedTensors into a RaggedTensor of one more ragged dimension (their numbers of rows must
agree, as TF requires), datasets into a DatasetBatch; None stays None. Unbatching gives the rows back.
The element specs are TF's: SparseTensorSpec, RaggedTensorSpec, DatasetSpec and NoneTensorSpec."""

from __future__ import annotations

import numpy as np

from ..framework.errors import InvalidArgumentError


def _frozen(array) -> np.ndarray:
    array = np.array(array, copy=True)
    array.flags.writeable = False
    return array


class HostSparse:
    """A SparseTensor element on the host: int64 indices [N, rank], values [N], int64 dense_shape [rank]."""

    __slots__ = ("indices", "values", "dense_shape")

    def __init__(self, indices, values, dense_shape):
        self.indices = _frozen(np.asarray(indices, np.int64).reshape(-1, len(np.asarray(dense_shape).reshape(-1))))
        self.values, self.dense_shape = _frozen(values), _frozen(np.asarray(dense_shape, np.int64).reshape(-1))

    @property
    def shape(self) -> tuple:
        """The dense shape as a tuple."""
        return tuple(int(d) for d in self.dense_shape)

    def __len__(self) -> int:
        if not len(self.dense_shape):
            raise ValueError("Cannot unbatch an input with scalar components.")
        return int(self.dense_shape[0])

    def __getitem__(self, row: int) -> "HostSparse":
        keep = self.indices[:, 0] == row
        return HostSparse(self.indices[keep][:, 1:], self.values[keep], self.dense_shape[1:])


class HostRagged:
    """A RaggedTensor element on the host: flat values and the row splits of each ragged dimension (outermost
    first) with their static uniform row lengths; no splits: a ragged_rank-0 value (a dense tensor)."""

    __slots__ = ("flat_values", "splits", "uniform")

    def __init__(self, flat_values, splits=(), uniform=None):
        self.flat_values = _frozen(flat_values)
        self.splits = tuple(_frozen(s) for s in splits)
        self.uniform = tuple(uniform) if uniform is not None else (None,) * len(self.splits)

    @property
    def ragged_rank(self) -> int:
        """The number of ragged dimensions."""
        return len(self.splits)

    @property
    def shape(self) -> tuple:
        """[rows, each ragged dimension's uniform length or None, ...the flat values' inner dimensions]."""
        if not self.splits:
            return tuple(self.flat_values.shape)
        return (len(self.splits[0]) - 1,) + self.uniform + tuple(self.flat_values.shape[1:])

    def __len__(self) -> int:
        if self.splits:
            return len(self.splits[0]) - 1
        if self.flat_values.ndim == 0:
            raise ValueError("Cannot unbatch an input with scalar components.")
        return len(self.flat_values)

    def __getitem__(self, row: int):
        """Row `row`: a HostRagged of one ragged dimension fewer (a plain array below ragged_rank 0)."""
        if not self.splits:
            return self.flat_values[row]
        start, stop = int(self.splits[0][row]), int(self.splits[0][row + 1])
        inner = []
        for splits in self.splits[1:]:
            inner.append(splits[start:stop + 1] - splits[start])
            start, stop = int(splits[start]), int(splits[stop])
        return HostRagged(self.flat_values[start:stop], inner, self.uniform[1:])


class DatasetBatch:
    """Datasets batched together (TF batches dataset elements into a variant tensor): an object array of them."""

    __slots__ = ("datasets",)

    def __init__(self, datasets):
        self.datasets = datasets

    @property
    def shape(self) -> tuple:
        """The batch dimensions."""
        return self.datasets.shape

    def __len__(self) -> int:
        return len(self.datasets)

    def __getitem__(self, row: int):
        item = self.datasets[row]
        return DatasetBatch(item) if isinstance(item, np.ndarray) else item

    def __repr__(self) -> str:
        return f"<placeflow.data DatasetBatch shape={self.datasets.shape}: datasets batched as a tf.data element>"


# -- values in and out ------------------------------------------------------------------------------------------

def _kind(value):
    """'sparse', 'ragged', 'dataset' or None for what is none of these."""
    from .dataset import Dataset
    if isinstance(value, (Dataset, DatasetBatch)):
        return "dataset"
    name = type(value).__name__
    if name in ("SparseTensor", "SparseTensorValue"):
        return "sparse"
    if name in ("RaggedTensor", "RaggedTensorValue"):
        return "ragged"
    return None


def is_value_tuple(value) -> bool:
    """A tuple that is one value (TF1's SparseTensorValue), not a structure of components."""
    return type(value).__name__ in ("SparseTensorValue", "IndexedSlicesValue")


def to_host(value):
    """A sparse, ragged, dataset or None component as the dataset holds it; NotImplemented for anything else
    (a dense value), NotImplementedError for composite values tf.data does not hold here."""
    if value is None or isinstance(value, (HostSparse, HostRagged)):
        return value
    kind = _kind(value)
    if kind == "dataset":
        return value
    if kind == "sparse":
        return HostSparse(_array(value.indices), _array(value.values), _array(value.dense_shape))
    if kind == "ragged":
        splits = tuple(_array(s) for s in value.nested_row_splits)
        uniform = value._uniform_lengths() if hasattr(value, "_uniform_lengths") else None
        return HostRagged(_array(value.flat_values), splits, uniform)
    if not hasattr(value, "numpy") and (hasattr(value, "_type_spec") or hasattr(value, "dense_shape")):
        raise NotImplementedError(f"A dataset of {type(value).__name__} values is not implemented in placeflow (its "
                                  f"elements may be tensors, SparseTensors, RaggedTensors, datasets and None); "
                                  f"got {value!r}.")
    return NotImplemented


def _array(part) -> np.ndarray:
    """A component's part (a tensor, array or list) as an array; Python ints and floats as TF converts them."""
    if hasattr(part, "numpy"):
        return np.asarray(part.numpy())
    if isinstance(part, np.ndarray):
        return part
    from ..eager.convert import convert_to_tensor
    return np.asarray(convert_to_tensor(part).numpy())


def to_value(leaf):
    """A host component as the pipeline hands it out: SparseTensor, RaggedTensor (a tensor for ragged_rank 0),
    the dataset, a DatasetBatch, or None."""
    from ..eager.convert import constant
    if isinstance(leaf, HostSparse):
        from ..api.sparse import SparseTensor
        return SparseTensor(constant(leaf.indices), constant(leaf.values), constant(leaf.dense_shape))
    if isinstance(leaf, HostRagged):
        from ..api.ragged import RaggedTensor
        value = constant(leaf.flat_values)
        for splits, uniform in zip(reversed(leaf.splits), reversed(leaf.uniform)):
            value = RaggedTensor(value, constant(splits), internal=True, uniform_row_length=uniform)
        return value
    return leaf


def is_host_composite(leaf) -> bool:
    """Whether a host component is one of this module's kinds (or None or a dataset)."""
    return leaf is None or isinstance(leaf, (HostSparse, HostRagged, DatasetBatch)) or _kind(leaf) == "dataset"


def as_numpy(leaf):
    """A host component as Dataset.as_numpy_iterator gives it (TF: the dense array of a SparseTensor, a
    RaggedTensor's numpy())."""
    if isinstance(leaf, HostSparse):
        dense = np.zeros(leaf.shape, dtype=leaf.values.dtype)
        for index, value in zip(leaf.indices, leaf.values):
            dense[tuple(index)] = value
        return dense
    if isinstance(leaf, HostRagged):
        return to_value(leaf).numpy()
    return leaf


# -- specs ------------------------------------------------------------------------------------------------------

def spec_of(leaf, exact: bool = True):
    """The TypeSpec of a host component: its static shape when `exact`, else every dimension unknown."""
    from ..api import type_specs
    from ..framework import dtypes
    if leaf is None:
        return type_specs.NoneTensorSpec()
    if isinstance(leaf, HostSparse):
        shape = list(leaf.shape) if exact else [None] * len(leaf.shape)
        return type_specs.SparseTensorSpec(shape, dtypes.as_dtype(leaf.values.dtype))
    if isinstance(leaf, HostRagged):
        shape = list(leaf.shape) if exact else [None] * len(leaf.shape)
        splits_dtype = dtypes.as_dtype(leaf.splits[0].dtype) if leaf.splits else dtypes.int64
        return type_specs.RaggedTensorSpec(shape, _dtype_of(leaf.flat_values), leaf.ragged_rank, splits_dtype)
    if isinstance(leaf, DatasetBatch):
        first = leaf.datasets.reshape(-1)[0] if leaf.datasets.size else None
        element = first.element_spec if first is not None else None
        dims = list(leaf.datasets.shape) if exact else [None] * leaf.datasets.ndim
        return type_specs.DatasetSpec(element, dims)
    return type_specs.DatasetSpec(leaf.element_spec)


def _dtype_of(array):
    from ..framework import dtypes
    return dtypes.string if array.dtype == object or array.dtype.kind in "SU" else dtypes.as_dtype(array.dtype)


def is_composite_spec(spec) -> bool:
    """Whether an element spec component describes one of this module's kinds."""
    return type(spec).__name__ in ("SparseTensorSpec", "RaggedTensorSpec", "DatasetSpec", "NoneTensorSpec")


def batched_spec(spec, rows):
    """The spec of `spec` components batched `rows` (None: unknown) at a time."""
    from ..api import type_specs
    name = type(spec).__name__
    if name == "NoneTensorSpec":
        return spec
    if name == "SparseTensorSpec":
        return type_specs.SparseTensorSpec(_prepend(rows, spec.shape), spec.dtype)
    if name == "RaggedTensorSpec":
        return type_specs.RaggedTensorSpec(_prepend(rows, spec.shape), spec.dtype, spec.ragged_rank + 1,
                                           spec.row_splits_dtype)
    return type_specs.DatasetSpec(spec.element_spec, _prepend(rows, spec._dataset_shape))


def unbatched_spec(spec):
    """The spec of one row of `spec` components (ValueError for scalar ones, as TF's unbatch)."""
    from ..api import type_specs
    from ..framework.tensor_spec import TensorSpec
    name = type(spec).__name__
    if name == "NoneTensorSpec":
        return spec
    shape = spec._dataset_shape if name == "DatasetSpec" else spec.shape
    if shape.rank == 0:
        raise ValueError("Cannot unbatch an input with scalar components.")
    rest = None if shape.rank is None else shape.as_list()[1:]
    if name == "SparseTensorSpec":
        return type_specs.SparseTensorSpec(rest, spec.dtype)
    if name == "RaggedTensorSpec":
        if spec.ragged_rank == 0:  # placeflow hands the rows out as tensors (TF: a ragged_rank of -1)
            return TensorSpec(rest, spec.dtype)
        return type_specs.RaggedTensorSpec(rest, spec.dtype, spec.ragged_rank - 1, spec.row_splits_dtype)
    return type_specs.DatasetSpec(spec.element_spec, rest)


def _prepend(rows, shape):
    return None if shape.rank is None else [rows] + shape.as_list()


def merged_spec(a, b):
    """The spec describing components of spec `a` and of spec `b` (concatenate); TypeError when none does."""
    common = a.most_specific_common_supertype([b]) if type(a) is type(b) else None
    if common is None:
        raise TypeError(f"Incompatible dataset elements for concatenate: {a} and {b}; the structures and types "
                        f"must match.")
    return common


# -- batching ---------------------------------------------------------------------------------------------------

def batch(column: list, component: int, spec=None):
    """The host components `column` (one kind) batched along a new first dimension; a ragged batch's uniform
    row lengths are the static dimensions of `spec` (the components' spec, when known), as TF's are."""
    first = column[0]
    if first is None:
        if any(leaf is not None for leaf in column):
            raise InvalidArgumentError(None, None, f"Cannot batch None with a value in component {component}.")
        return None
    if isinstance(first, HostSparse):
        return _batch_sparse(column, component)
    if isinstance(first, HostRagged):
        return _batch_ragged(column, component, spec)
    return _batch_datasets(column, component)


def _shape_text(shape) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _differ(component, first, position, other):
    return InvalidArgumentError(None, None, f"Cannot batch tensors with different shapes in component {component}. "
                                            f"First element had shape {_shape_text(first)} and element {position} "
                                            f"had shape {_shape_text(other)}.")


def _same_kind(column, kind, component):
    for position, leaf in enumerate(column):
        if not isinstance(leaf, kind):
            raise InvalidArgumentError(None, None, f"Cannot batch component {component}: element {position} is "
                                                   f"{type(leaf).__name__}, element 0 {kind.__name__}.")


def _batch_sparse(column, component) -> HostSparse:
    _same_kind(column, HostSparse, component)
    rank = len(column[0].dense_shape)
    for position, leaf in enumerate(column[1:], start=1):
        if len(leaf.dense_shape) != rank:
            raise _differ(component, [rank], position, [len(leaf.dense_shape)])
    indices = [np.concatenate([np.full((len(leaf.indices), 1), row, np.int64), leaf.indices], axis=1)
               for row, leaf in enumerate(column)]
    dense = np.max(np.stack([leaf.dense_shape for leaf in column]), axis=0) if rank else np.zeros(0, np.int64)
    return HostSparse(np.concatenate(indices).reshape(-1, rank + 1),
                      np.concatenate([leaf.values for leaf in column]), np.concatenate([[len(column)], dense]))


def _batch_ragged(column, component, spec) -> HostRagged:
    _same_kind(column, HostRagged, component)
    first = column[0]
    for position, leaf in enumerate(column[1:], start=1):
        if leaf.ragged_rank != first.ragged_rank or leaf.flat_values.shape[1:] != first.flat_values.shape[1:] \
                or (first.ragged_rank and len(leaf) != len(first)):
            raise _differ(component, _ragged_dims(first), position, _ragged_dims(leaf))
    if not first.splits:  # ragged_rank 0: each element's rows become one row of the batch
        if first.flat_values.ndim == 0:
            raise InvalidArgumentError(None, None, f"Cannot batch scalar RaggedTensor components into rows "
                                                   f"(component {component}).")
        lengths = [len(leaf.flat_values) for leaf in column]
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return HostRagged(np.concatenate([leaf.flat_values for leaf in column]), [splits])
    levels = []
    for level in range(first.ragged_rank):
        parts, offset = [], 0
        for index, leaf in enumerate(column):
            splits = leaf.splits[level]
            parts.append(splits + offset if index == 0 else splits[1:] + offset)
            offset += int(splits[-1])
        levels.append(np.concatenate(parts).astype(first.splits[level].dtype))
    rows = len(first)
    outer = (np.arange(len(column) + 1, dtype=np.int64) * rows).astype(first.splits[0].dtype)
    known = spec.shape.as_list() if type(spec).__name__ == "RaggedTensorSpec" and spec.shape.rank else None
    uniform = tuple(known[:first.ragged_rank + 1]) if known is not None else (None,) + first.uniform
    return HostRagged(np.concatenate([leaf.flat_values for leaf in column]), [outer] + levels, uniform)


def _ragged_dims(leaf) -> list:
    return [len(leaf)] + list(leaf.flat_values.shape[1:]) if leaf.splits else list(leaf.flat_values.shape)


def _batch_datasets(column, component) -> DatasetBatch:
    from .dataset import Dataset
    arrays = []
    for leaf in column:
        if isinstance(leaf, DatasetBatch):
            arrays.append(leaf.datasets)
        elif isinstance(leaf, Dataset):
            single = np.empty((), dtype=object)
            single[()] = leaf
            arrays.append(single)
        else:
            raise InvalidArgumentError(None, None, f"Cannot batch component {component}: {leaf!r} is not a "
                                                   f"dataset like the first element's.")
    for position, array in enumerate(arrays[1:], start=1):
        if array.shape != arrays[0].shape:
            raise _differ(component, arrays[0].shape, position, array.shape)
    out = np.empty((len(arrays),) + arrays[0].shape, dtype=object)
    for row, array in enumerate(arrays):
        if array.ndim:
            out[row] = array
        else:
            out[row] = array[()]  # the dataset itself (assigning the 0-d array would store the array)
    return DatasetBatch(out)
