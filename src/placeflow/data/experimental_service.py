"""tf.data.experimental.service, refused as a whole: placeflow has no tf.data service (no dispatcher or worker
servers to run a pipeline on other machines). Every name raises NotImplementedError naming itself and saying so;
the classes still work in isinstance checks."""

_WHY = ("placeflow has no tf.data service (no dispatch or worker servers run pipelines remotely); run the "
        "pipeline in the training process, sharding it with Dataset.shard or tf.distribute's input functions.")


def _message(name: str) -> str:
    return f"tf.data.experimental.service.{name} is not implemented in placeflow: {_WHY}"


def _refused_class(name: str):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_message(name))
    return type(name, (), {"__init__": __init__, "__doc__": f"Not implemented in placeflow ({_message(name)}).",
                           "_placeflow_refusal": True})


def _refused_function(name: str):
    def refuse(*args, **kwargs):
        raise NotImplementedError(_message(name))
    refuse.__name__ = refuse.__qualname__ = name
    refuse.__doc__ = f"Not implemented in placeflow ({_message(name)})."
    refuse._placeflow_refusal = True  # counted as missing by the API coverage (framework/tf_api.py)
    return refuse


CrossTrainerCache = _refused_class("CrossTrainerCache")
DispatchServer = _refused_class("DispatchServer")
DispatcherConfig = _refused_class("DispatcherConfig")
ShardingPolicy = _refused_class("ShardingPolicy")
WorkerConfig = _refused_class("WorkerConfig")
WorkerServer = _refused_class("WorkerServer")
distribute = _refused_function("distribute")
from_dataset_id = _refused_function("from_dataset_id")
register_dataset = _refused_function("register_dataset")
