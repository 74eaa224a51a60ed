"""`tensorflow.python.trackable.data_structures`: the list and dict wrappers Keras 3 registers as tree nodes
(keras tree/optree_impl.py and tree/dmtree_impl.py). placeflow never wraps an attribute's list or dict, so
these only need to exist and behave as the list and dict they are."""


class ListWrapper(list):
    """A list that TensorFlow's tracking would watch; here a plain list."""


class _DictWrapper(dict):
    """A dict that TensorFlow's tracking would watch; here a plain dict."""
