"""`tensorflow.python.trackable.data_structures`: the list and dict wrappers of attribute tracking, which
Keras 3 registers as tree nodes (keras tree/optree_impl.py and tree/dmtree_impl.py)."""

from ...framework.tracked_structures import ListWrapper, _DictWrapper, wrap_or_unwrap  # noqa: F401
from ...framework.tracking import NoDependency, sticky_attribute_assignment  # noqa: F401
