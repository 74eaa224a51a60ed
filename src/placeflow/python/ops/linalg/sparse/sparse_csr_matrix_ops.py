"""`tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops` (keras backend/tensorflow/numpy.py: sparse
`matmul`). placeflow has no CSR matrix type; each function says so by name when called."""


def _not_implemented(name):
    def refuse(*args, **kwargs):
        raise NotImplementedError(f"sparse_csr_matrix_ops.{name} is not implemented in placeflow (no CSR "
                                  "sparse matrices): densify with tf.sparse.to_dense first.")
    refuse.__name__ = name
    refuse.__doc__ = f"Not implemented in placeflow ({name})."
    return refuse


sparse_tensor_to_csr_sparse_matrix = _not_implemented("sparse_tensor_to_csr_sparse_matrix")
csr_sparse_matrix_to_sparse_tensor = _not_implemented("csr_sparse_matrix_to_sparse_tensor")
sparse_matrix_sparse_mat_mul = _not_implemented("sparse_matrix_sparse_mat_mul")
