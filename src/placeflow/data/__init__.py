"""placeflow.data: tf.data pipelines over host data (see dataset.py), usable in loops inside `function`."""

from . import experimental  # noqa: F401
from .dataset import AUTOTUNE, Dataset  # noqa: F401
from .iterator import Iterator  # noqa: F401
from .options import Options, ThreadingOptions  # noqa: F401
from .numpy_iterator import NumpyIterator  # noqa: F401
from .tfrecord import tfrecord_dataset as TFRecordDataset  # noqa: F401,N812 - TensorFlow's name
from .file_datasets import fixed_length_record_dataset as FixedLengthRecordDataset  # noqa: F401,N812
from .file_datasets import text_line_dataset as TextLineDataset  # noqa: F401,N812
from .experimental import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY  # noqa: F401,E402
from ..api.type_specs import DatasetSpec, IteratorSpec, register_data_types as _register  # noqa: F401,E402
from .owned_iterator import OwnedIterator as _OwnedIterator  # noqa: E402

_register(Dataset, _OwnedIterator)  # DatasetSpec.value_type and type_spec_from_value know tf.data's classes
