"""`tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops` (keras backend/tensorflow/numpy.py: sparse
`matmul`). placeflow has no CSR matrix type; each function says so by name when called."""


from .....framework.refusals import not_implemented


def _not_implemented(name):
    return not_implemented(f"sparse_csr_matrix_ops.{name}", "no CSR sparse matrices; densify with "
                           "tf.sparse.to_dense first.")


sparse_tensor_to_csr_sparse_matrix = _not_implemented("sparse_tensor_to_csr_sparse_matrix")
csr_sparse_matrix_to_sparse_tensor = _not_implemented("csr_sparse_matrix_to_sparse_tensor")
sparse_matrix_sparse_mat_mul = _not_implemented("sparse_matrix_sparse_mat_mul")
