"""tf.data.NumpyIterator: what Dataset.as_numpy_iterator returns."""


class NumpyIterator:
    """The elements of one pass over a dataset as NumPy structures (bytes for strings; a SparseTensor as its
    dense array and a RaggedTensor as its numpy(), as TF gives them)."""

    def __init__(self, dataset):
        self._elements = iter(dataset._make_iterator())

    def __iter__(self):
        return self

    def __next__(self):
        from .composite import as_numpy
        from .dataset import _map_structure
        return _map_structure(as_numpy, next(self._elements))

    def next(self):
        """The next element (TF's name)."""
        return next(self)
