"""tf.linalg.LinearOperator and its structured subclasses. Each operator knows its dense matrix (`to_dense`);
matmul, solve, determinants, inverse, adjoint, diagonal, trace, Cholesky and eigenvalues are computed from it
with placeflow's dense ops (so gradients flow), which gives TF's values (TF's structured algorithms differ only
in cost and rounding). Subclasses of LinearOperator written by users override `_to_dense` (or `_matmul` and
`_shape`), as TF's do."""

from __future__ import annotations

import numpy as np

from ..eager.convert import convert_to_tensor
from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from . import array_ops, indexing, math_ops


def _linalg():
    from . import linalg
    return linalg


def _swap_last(x):
    rank = len(x.shape)
    return array_ops.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def _adjoint_of(x):
    x = _swap_last(x)
    return math_ops.conj(x) if x.dtype.is_complex else x


class LinearOperator:
    """A linear map given by a [..., M, N] matrix, with structure hints (non-singular, self-adjoint, ...)."""

    def __init__(self, dtype=None, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self._is_non_singular, self._is_self_adjoint = is_non_singular, is_self_adjoint
        self._is_positive_definite, self._is_square = is_positive_definite, is_square
        self._name = name or type(self).__name__
        self._parameters = dict(parameters or {})

    # -- description --------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The operator's name."""
        return self._name

    @property
    def dtype(self):
        """The matrix's dtype."""
        return self._dtype if self._dtype is not None else self.to_dense().dtype

    @property
    def parameters(self) -> dict:
        """The constructor arguments."""
        return dict(self._parameters)

    @property
    def is_non_singular(self):
        """Whether the operator is known to be invertible (None: unknown)."""
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        """Whether the operator equals its adjoint (None: unknown)."""
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        """Whether x^H A x > 0 for every x != 0 (None: unknown)."""
        return self._is_positive_definite

    @property
    def is_square(self):
        """Whether the matrix is square (known from the shape when not given)."""
        if self._is_square is not None:
            return self._is_square
        shape = self.shape
        return None if shape[-1] is None else shape[-1] == shape[-2]

    def _shape(self):
        return TensorShape(self.to_dense().shape)

    @property
    def shape(self):
        """The matrix's static shape [..., M, N]."""
        return self._shape()

    def shape_tensor(self, name="shape_tensor"):
        """The shape as an int32 tensor."""
        return convert_to_tensor(list(self.shape), dtype=dtypes.int32)

    @property
    def batch_shape(self):
        """The leading dimensions."""
        return TensorShape(self.shape[:-2])

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        """The batch shape as an int32 tensor."""
        return convert_to_tensor(list(self.batch_shape), dtype=dtypes.int32)

    @property
    def tensor_rank(self) -> int:
        """The rank of the matrix tensor."""
        return len(self.shape)

    @property
    def domain_dimension(self):
        """N: the size of the vectors the operator takes."""
        return self.shape[-1]

    @property
    def range_dimension(self):
        """M: the size of the vectors it gives."""
        return self.shape[-2]

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        """N as a tensor."""
        return convert_to_tensor(self.shape[-1], dtype=dtypes.int32)

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        """M as a tensor."""
        return convert_to_tensor(self.shape[-2], dtype=dtypes.int32)

    # -- the matrix and what is computed from it ----------------------------------------------------------------
    def _to_dense(self):
        raise NotImplementedError(f"{type(self).__name__} must define _to_dense (or _matmul and _shape).")

    def to_dense(self, name="to_dense"):
        """The [..., M, N] matrix."""
        return self._to_dense()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """A @ x (A^H with adjoint; x^H with adjoint_arg); x may be another LinearOperator (a composition)."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return LinearOperatorComposition([left, right])
        return self._matmul(convert_to_tensor(x, dtype=self.dtype), adjoint, adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec"):
        """A @ x for a vector (or batch of vectors) x."""
        x = convert_to_tensor(x, dtype=self.dtype)
        return array_ops.squeeze(self.matmul(array_ops.expand_dims(x, -1), adjoint=adjoint), -1)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """x with A x = rhs (A^H with adjoint; rhs^H with adjoint_arg)."""
        if isinstance(rhs, LinearOperator):
            return LinearOperatorComposition([(self.adjoint() if adjoint else self).inverse(),
                                              rhs.adjoint() if adjoint_arg else rhs])
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        rhs = convert_to_tensor(rhs, dtype=self.dtype)
        if adjoint_arg:
            rhs = _adjoint_of(rhs)
        return _linalg().solve(self.to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        """x with A x = rhs for a vector rhs."""
        rhs = convert_to_tensor(rhs, dtype=self.dtype)
        return array_ops.squeeze(self.solve(array_ops.expand_dims(rhs, -1), adjoint=adjoint), -1)

    def determinant(self, name="det"):
        """det(A)."""
        self._require_square("determinant")
        return _linalg().det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        """log |det(A)|."""
        self._require_square("log_abs_determinant")
        return _linalg().slogdet(self.to_dense())[1]

    def _require_square(self, what):
        if self.is_square is False:
            raise NotImplementedError(f"Determinant not implemented for an operator that is expected to not be "
                                      f"square." if what != "inverse" else "Cannot take the Inverse: This operator "
                                      "represents a non square matrix.")

    def inverse(self, name="inverse"):
        """The inverse operator."""
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        return LinearOperatorInversion(self)

    def adjoint(self, name="adjoint"):
        """The adjoint (conjugate transpose) operator; itself when self-adjoint."""
        if self.is_self_adjoint:
            return self
        return LinearOperatorAdjoint(self)

    H = property(adjoint)

    def diag_part(self, name="diag_part"):
        """The main diagonal."""
        return _linalg().diag_part(self.to_dense())

    def trace(self, name="trace"):
        """The sum of the main diagonal."""
        return math_ops.reduce_sum(self.diag_part(), axis=-1)

    def add_to_tensor(self, x, name="add_to_tensor"):
        """A + x."""
        return math_ops.add(self.to_dense(), convert_to_tensor(x, dtype=self.dtype))

    def cholesky(self, name="cholesky"):
        """The lower-triangular Cholesky factor L (A = L L^H), as an operator (A must be self-adjoint PD)."""
        if not self.is_positive_definite or not self.is_self_adjoint:
            raise ValueError("Cholesky decomposition only exists for self-adjoint positive definite matrices.")
        return LinearOperatorLowerTriangular(_linalg().cholesky(self.to_dense()), is_non_singular=True,
                                             is_square=True)

    def eigvals(self, name="eigvals"):
        """The eigenvalues of a self-adjoint operator, ascending."""
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return _linalg().eigvalsh(self.to_dense())

    def cond(self, name="cond"):
        """The condition number: largest over smallest singular value."""
        singular = _linalg().svd(self.to_dense(), compute_uv=False)
        return math_ops.reduce_max(singular, axis=-1) / math_ops.reduce_min(singular, axis=-1)

    def __repr__(self) -> str:
        return (f"<{type(self).__module__.split('.')[0]}.linalg.{type(self).__name__} '{self.name}' "
                f"batch_shape={list(self.batch_shape)} dtype={self.dtype.name}>")


def _hints(kwargs, **defaults) -> dict:
    keys = ("is_non_singular", "is_self_adjoint", "is_positive_definite", "is_square")
    return {k: kwargs.get(k, defaults.get(k)) for k in keys}


class LinearOperatorFullMatrix(LinearOperator):
    """The operator of a given [..., M, N] matrix."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = convert_to_tensor(matrix)
        super().__init__(self._matrix.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name, {"matrix": matrix})

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """A diagonal operator from its [..., N] diagonal."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorDiag"):
        self._diag = convert_to_tensor(diag)
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        if not self._diag.dtype.is_complex and is_self_adjoint is None:
            is_self_adjoint = True
        super().__init__(self._diag.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"diag": diag})

    @property
    def diag(self):
        """The diagonal."""
        return self._diag

    def _to_dense(self):
        return _linalg().diag(self._diag)

    def diag_part(self, name="diag_part"):
        return self._diag


class LinearOperatorIdentity(LinearOperator):
    """The N x N identity (batched by batch_shape)."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False, name="LinearOperatorIdentity"):
        self._rows = int(num_rows)
        self._batch = tuple(int(b) for b in (batch_shape or ()))
        for value, what in ((is_non_singular, "non-singular"), (is_self_adjoint, "self-adjoint"),
                            (is_positive_definite, "positive-definite"), (is_square, "square")):
            if not value:
                raise ValueError(f"An identity operator is always {what}.")
        super().__init__(dtypes.as_dtype(dtype or dtypes.float32), None, True, True, True, True, name,
                         {"num_rows": num_rows, "batch_shape": batch_shape, "dtype": dtype})

    def _to_dense(self):
        eye = array_ops.eye(self._rows, dtype=self._dtype)
        return indexing.broadcast_to(eye, list(self._batch) + [self._rows, self._rows]) if self._batch else eye

    def _shape(self):
        return TensorShape(list(self._batch) + [self._rows, self._rows])


class LinearOperatorScaledIdentity(LinearOperator):
    """multiplier * I (a scalar, or one per batch member)."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorScaledIdentity"):
        self._rows = int(num_rows)
        self._multiplier = convert_to_tensor(multiplier)
        super().__init__(self._multiplier.dtype, None, is_non_singular,
                         is_self_adjoint if is_self_adjoint is not None else (not self._multiplier.dtype.is_complex),
                         is_positive_definite, True, name, {"num_rows": num_rows, "multiplier": multiplier})

    @property
    def multiplier(self):
        """The scale."""
        return self._multiplier

    def _to_dense(self):
        eye = array_ops.eye(self._rows, dtype=self._multiplier.dtype)
        return self._multiplier[..., None, None] * eye


class LinearOperatorZeros(LinearOperator):
    """The M x N zero matrix."""

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        if is_non_singular:
            raise ValueError("A zeros operator is always singular.")
        if is_positive_definite:
            raise ValueError("A zeros operator is never positive-definite.")
        self._rows = int(num_rows)
        self._columns = self._rows if num_columns is None else int(num_columns)
        self._batch = tuple(int(b) for b in (batch_shape or ()))
        if is_square and self._rows != self._columns:
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got num_rows({self._rows}) != "
                             f"num_columns({self._columns})")
        super().__init__(dtypes.as_dtype(dtype or dtypes.float32), None, False, is_self_adjoint, False,
                         is_square, name, {"num_rows": num_rows, "num_columns": num_columns})

    def _to_dense(self):
        return array_ops.zeros(list(self._batch) + [self._rows, self._columns], self._dtype)


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle (diagonal included) of a square matrix; the rest is ignored."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self._tril = _linalg().band_part(convert_to_tensor(tril), -1, 0)
        super().__init__(self._tril.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"tril": tril})

    def _to_dense(self):
        return self._tril

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if isinstance(rhs, LinearOperator):
            return super().solve(rhs, adjoint, adjoint_arg)
        rhs = convert_to_tensor(rhs, dtype=self.dtype)
        if adjoint_arg:
            rhs = _adjoint_of(rhs)
        return _linalg().triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)


class LinearOperatorComposition(LinearOperator):
    """The product operators[0] @ operators[1] @ ... ."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operators = list(operators)
        if not self._operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {self._operators}")
        name = name or "_o_".join(op.name for op in self._operators)
        super().__init__(self._operators[0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name, {"operators": operators})

    @property
    def operators(self) -> list:
        """The factors."""
        return list(self._operators)

    def _to_dense(self):
        dense = self._operators[-1].to_dense()
        for op in reversed(self._operators[:-1]):
            dense = math_ops.matmul(op.to_dense(), dense)
        return dense


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint of an operator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operator = operator
        super().__init__(operator.dtype, None, operator.is_non_singular if is_non_singular is None else is_non_singular,
                         operator.is_self_adjoint if is_self_adjoint is None else is_self_adjoint,
                         operator.is_positive_definite if is_positive_definite is None else is_positive_definite,
                         operator.is_square if is_square is None else is_square, name or f"{operator.name}_adjoint",
                         {"operator": operator})

    @property
    def operator(self):
        """The operator adjointed."""
        return self._operator

    def _to_dense(self):
        return _adjoint_of(self._operator.to_dense())


class LinearOperatorInversion(LinearOperator):
    """The inverse of a (non-singular, square) operator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"operator and supplied hints must be 'non_singular'. Found: operator.is_non_singular "
                             f"= {operator.is_non_singular}, is_non_singular = {is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"operator and supplied hints must be 'square'. Found: operator.is_square = "
                             f"{operator.is_square}, is_square = {is_square}.")
        self._operator = operator
        super().__init__(operator.dtype, None, True, operator.is_self_adjoint if is_self_adjoint is None else
                         is_self_adjoint, operator.is_positive_definite if is_positive_definite is None else
                         is_positive_definite, True, name or f"{operator.name}_inv", {"operator": operator})

    @property
    def operator(self):
        """The operator inverted."""
        return self._operator

    def _to_dense(self):
        return _linalg().inv(self._operator.to_dense())

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        if adjoint_arg:
            x = _adjoint_of(x)
        return self._operator.solve(x, adjoint=adjoint)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if isinstance(rhs, LinearOperator):
            return super().solve(rhs, adjoint, adjoint_arg)
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product of operators (the first outermost)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operators = list(operators)
        super().__init__(self._operators[0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name or "_x_".join(op.name for op in self._operators), {"operators": operators})

    @property
    def operators(self) -> list:
        """The factors."""
        return list(self._operators)

    def _to_dense(self):
        dense = self._operators[0].to_dense()
        for op in self._operators[1:]:
            other = op.to_dense()
            rows = int(dense.shape[-2]) * int(other.shape[-2])
            columns = int(dense.shape[-1]) * int(other.shape[-1])
            product = dense[..., :, None, :, None] * other[..., None, :, None, :]
            dense = array_ops.reshape(product, list(dense.shape[:-2]) + [rows, columns])
        return dense


class LinearOperatorBlockDiag(LinearOperator):
    """The block-diagonal operator of square operators."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        self._operators = list(operators)
        super().__init__(self._operators[0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name or "_ds_".join(op.name for op in self._operators), {"operators": operators})

    @property
    def operators(self) -> list:
        """The blocks."""
        return list(self._operators)

    def _to_dense(self):
        denses = [op.to_dense() for op in self._operators]
        columns = sum(int(d.shape[-1]) for d in denses)
        rows, before = [], 0
        for dense in denses:
            width = int(dense.shape[-1])
            rows.append(indexing.pad(dense, [[0, 0]] * (len(dense.shape) - 2) +
                                     [[0, 0], [before, columns - before - width]]))
            before += width
        return array_ops.concat(rows, -2)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A block lower-triangular operator from rows of operators: row i holds blocks (i, 0) ... (i, i)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorBlockLowerTriangular"):
        self._operators = [list(row) for row in operators]
        super().__init__(self._operators[0][0].dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name, {"operators": operators})

    @property
    def operators(self) -> list:
        """The rows of blocks."""
        return [list(row) for row in self._operators]

    def _to_dense(self):
        widths = [int(row[-1].shape[-1]) for row in self._operators]
        total = sum(widths)
        rows = []
        for row in self._operators:
            denses = [op.to_dense() for op in row]
            used = sum(int(d.shape[-1]) for d in denses)
            joined = array_ops.concat(denses, -1)
            rows.append(indexing.pad(joined, [[0, 0]] * (len(joined.shape) - 2) + [[0, 0], [0, total - used]]))
        return array_ops.concat(rows, -2)


class LinearOperatorHouseholder(LinearOperator):
    """The reflection I - 2 v v^H / (v^H v) about the hyperplane orthogonal to `reflection_axis`."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        self._axis = convert_to_tensor(reflection_axis)
        if is_positive_definite:
            raise ValueError("A Householder operator is always non-positive definite.")
        super().__init__(self._axis.dtype, None, True, True, False, True, name, {"reflection_axis": reflection_axis})

    @property
    def reflection_axis(self):
        """v."""
        return self._axis

    def _to_dense(self):
        v = self._axis
        conj = math_ops.conj(v) if v.dtype.is_complex else v
        outer = v[..., :, None] * conj[..., None, :]
        norm = math_ops.reduce_sum(conj * v, axis=-1)[..., None, None]
        size = int(v.shape[-1])
        return array_ops.eye(size, dtype=v.dtype) - 2 * outer / norm


class LinearOperatorLowRankUpdate(LinearOperator):
    """base + U diag(diag_update) V^H (V = U when not given; diag_update ones when not given)."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        self._base, self._u = base_operator, convert_to_tensor(u, dtype=base_operator.dtype)
        self._v = self._u if v is None else convert_to_tensor(v, dtype=base_operator.dtype)
        self._diag = None if diag_update is None else convert_to_tensor(diag_update, dtype=base_operator.dtype)
        super().__init__(base_operator.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name, {"base_operator": base_operator, "u": u, "diag_update": diag_update, "v": v})

    def _to_dense(self):
        u = self._u if self._diag is None else self._u * self._diag[..., None, :]
        return self._base.to_dense() + math_ops.matmul(u, _adjoint_of(self._v))


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix P with P[i, perm[i]] = 1 (P @ x reorders x's rows as x[perm])."""

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        self._perm = convert_to_tensor(perm)
        super().__init__(dtypes.as_dtype(dtype), None, True, is_self_adjoint, is_positive_definite, True, name,
                         {"perm": perm, "dtype": dtype})

    @property
    def perm(self):
        """The permutation."""
        return self._perm

    def _to_dense(self):
        from .array_ops import one_hot
        return one_hot(self._perm, int(self._perm.shape[-1]), dtype=self._dtype)


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column `col` and first row `row` (row[0] is ignored for col[0])."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        self._col, self._row = convert_to_tensor(col), convert_to_tensor(row)
        super().__init__(self._col.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"col": col, "row": row})

    def _to_dense(self):
        size = int(self._col.shape[-1])
        values = array_ops.concat([indexing.reverse(self._row[..., 1:], [-1]), self._col], -1)  # row^R[1:] + col
        index = np.arange(size)[:, None] - np.arange(size)[None, :] + size - 1
        return indexing.gather(values, convert_to_tensor(index.astype(np.int32)), axis=-1, batch_dims=0)


class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal operator from its diagonals ('compact' [..., 3, N], 'sequence' or 'matrix')."""

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        from .linalg_banded import _tridiagonal_matrix
        self._matrix = _tridiagonal_matrix(diagonals, diagonals_format)
        super().__init__(self._matrix.dtype, None, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"diagonals": diagonals, "diagonals_format": diagonals_format})

    def _to_dense(self):
        return self._matrix


class LinearOperatorCirculant(LinearOperator):
    """The circulant operator with the given spectrum (its eigenvalues, the DFT of its first column)."""

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant"):
        self._spectrum = convert_to_tensor(spectrum)
        super().__init__(dtypes.as_dtype(input_output_dtype), None, is_non_singular, is_self_adjoint,
                         is_positive_definite, True, name, {"spectrum": spectrum})

    @property
    def spectrum(self):
        """The eigenvalues."""
        return self._spectrum

    def _to_dense(self):
        from . import signal
        spectrum = self._spectrum
        if not spectrum.dtype.is_complex:
            spectrum = math_ops.cast(spectrum, dtypes.complex64 if spectrum.dtype != dtypes.float64
                                     else dtypes.complex128)
        column = signal.ifft(spectrum)
        size = int(column.shape[-1])
        index = (np.arange(size)[:, None] - np.arange(size)[None, :]) % size
        dense = indexing.gather(column, convert_to_tensor(index.astype(np.int32)), axis=-1)
        if not self._dtype.is_complex:
            dense = math_ops.cast(math_ops.real(dense), self._dtype)
        return dense


class _RefusedCirculant(LinearOperator):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"tf.linalg.{type(self).__name__} is not implemented in placeflow; use "
                                  "LinearOperatorCirculant for one dimension.")


class LinearOperatorCirculant2D(_RefusedCirculant):
    """Not implemented (refused by name)."""


class LinearOperatorCirculant3D(_RefusedCirculant):
    """Not implemented (refused by name)."""
