"""Base classes that carry TensorFlow's class names and module paths.

Keras 3 recognizes TensorFlow values by walking a value's class hierarchy for a class named `Tensor`,
`DatasetV2` or `DistributedDataset` whose module path contains "tensorflow.python." (keras
trainers/data_adapters: `is_tf_dataset`, `is_tensorflow_tensor`). placeflow's tensors, datasets and
distributed datasets inherit these empty bases so that Keras takes its TensorFlow paths for them; the
bases add no behaviour, and placeflow's own classes keep their own names and modules. The same
classes are importable under those paths when `tensorflow` means placeflow (python/...)."""


class Tensor:
    """Base of placeflow's eager and graph tensors (TF's tensorflow.python.framework.tensor.Tensor)."""

    __slots__ = ()


class DatasetV2:
    """Base of placeflow.data.Dataset (TF's tensorflow.python.data.ops.dataset_ops.DatasetV2)."""

    __slots__ = ()


class DistributedDataset:
    """Base of placeflow's distributed datasets (TF's tensorflow.python.distribute.input_lib.DistributedDataset)."""

    __slots__ = ()


Tensor.__module__ = "tensorflow.python.framework.tensor"
DatasetV2.__module__ = "tensorflow.python.data.ops.dataset_ops"
DistributedDataset.__module__ = "tensorflow.python.distribute.input_lib"
