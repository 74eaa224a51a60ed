"""Device performance models: peak FLOP/s, memory bandwidth, launch latency and links of a device.

Presets come from NVIDIA's datasheets and architecture whitepapers (dense peaks: sparsity peaks are halved;
see docs/performance-models.md for the table and `DeviceModel.source` for each preset's references). A model
is attached to a device by `PLACEFLOW_SIMULATED_GPUS=8:80GiB:H100` (or '8:H100') or by
`tf.config.experimental.set_performance_model(device, model)`; without one nothing is modelled.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ..framework import dtypes as _dtypes

GB = 10**9  # datasheets give GB/s and memory sizes in decimal units ...
GIB = 1 << 30  # ... but a GPU sold as '80GB' reports 80 GiB, less what the driver keeps
TFLOPS = 10**12


@dataclass(frozen=True)
class Link:
    """A copy path between two devices: one direction's bandwidth (bytes/s) and a fixed latency per transfer."""

    name: str
    bandwidth: float
    latency: float


@dataclass(frozen=True)
class DeviceModel:
    """What a device can do at peak: FLOP/s per dtype (vector and matrix units), bandwidths, latencies."""

    name: str
    memory: int
    flops: dict
    matmul_flops: dict
    bandwidth: float
    launch_latency: float
    peer_link: Link
    host_link: Link
    source: str

    def flops_for(self, dtype, matmul: bool, tensor_float_32: bool = True) -> float:
        """Peak FLOP/s of `dtype` for ordinary or matrix kernels; float32's for dtypes not listed. A float32
        matrix op runs at the 'tensorfloat32' rate where the model has one and TF32 is enabled (TF's default)."""
        name = dtype_name(dtype)
        table = self.matmul_flops if matmul else self.flops
        if matmul and name == "float32" and tensor_float_32 and "tensorfloat32" in table:
            return table["tensorfloat32"]
        return table.get(name, table["float32"])


def dtype_name(dtype) -> str:
    """'float32' for np.float32, tf.float32, 'float32' or np.dtype('float32'); 'tensorfloat32' passes through."""
    if dtype == "tensorfloat32":
        return dtype
    return _dtypes.as_dtype(dtype).name


def _pcie(generation: int, per_direction_gbs: float) -> Link:
    return Link(f"PCIe {generation}.0 x16", per_direction_gbs * GB, 10e-6)


# Latencies are not datasheet numbers: a kernel launch costs a few microseconds (5 us taken), a peer copy over
# NVLink about 3 us and a copy over PCIe about 10 us (cudaMemcpy's usual fixed cost); the CPU's 1 us is an
# op's dispatch. Link bandwidths are per direction: NVIDIA's NVLink/PCIe figures are both directions summed.
_GPU_LAUNCH = 5e-6

PRESETS: dict = {
    "H100": DeviceModel(
        name="H100-SXM-80GB", memory=80 * GIB,
        flops={"float64": 33.5 * TFLOPS, "float32": 66.9 * TFLOPS, "float16": 133.8 * TFLOPS,
               "bfloat16": 133.8 * TFLOPS},
        matmul_flops={"float64": 66.9 * TFLOPS, "float32": 66.9 * TFLOPS, "tensorfloat32": 494.7 * TFLOPS,
                      "float16": 989.4 * TFLOPS, "bfloat16": 989.4 * TFLOPS, "float8_e4m3fn": 1978.9 * TFLOPS,
                      "float8_e5m2": 1978.9 * TFLOPS, "int8": 1978.9 * TFLOPS},
        bandwidth=3350 * GB, launch_latency=_GPU_LAUNCH,
        peer_link=Link("NVLink 4 (H100 SXM)", 450 * GB, 3e-6), host_link=_pcie(5, 64),
        source=("NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column "
                "(https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet): FP64 34, "
                "FP64 Tensor 67, FP32 67, TF32/BF16/FP16/FP8/INT8 Tensor 989/1979/1979/3958/3958 with sparsity "
                "(halved here), 80GB HBM3 at 3.35TB/s, NVLink 900GB/s, PCIe Gen5 128GB/s (both directions); "
                "exact vector and matrix peaks (33.5/66.9/133.8 FP16 and BF16 vector) from the NVIDIA H100 "
                "Tensor Core GPU Architecture whitepaper's table, as listed at "
                "https://glennklockwood.com/garden/processors/h100"),
    ),
    "A100-80GB": DeviceModel(
        name="A100-SXM-80GB", memory=80 * GIB,
        flops={"float64": 9.7 * TFLOPS, "float32": 19.5 * TFLOPS, "float16": 78 * TFLOPS, "bfloat16": 39 * TFLOPS},
        matmul_flops={"float64": 19.5 * TFLOPS, "float32": 19.5 * TFLOPS, "tensorfloat32": 156 * TFLOPS,
                      "float16": 312 * TFLOPS, "bfloat16": 312 * TFLOPS, "int8": 624 * TFLOPS},
        bandwidth=2039 * GB, launch_latency=_GPU_LAUNCH,
        peer_link=Link("NVLink 3 (A100 SXM)", 300 * GB, 3e-6), host_link=_pcie(4, 32),
        source=("NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column "
                "(https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
                "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): FP64 9.7, FP64 Tensor 19.5, FP32 19.5, "
                "TF32/BF16/FP16 Tensor 156/312/312, INT8 624 (dense; sparsity doubles them), 80GB HBM2e at "
                "2,039GB/s, NVLink 600GB/s, PCIe Gen4 64GB/s (both directions); FP16 78 and BF16 39 vector from "
                "the NVIDIA A100 Tensor Core GPU Architecture whitepaper (Ampere), table 1"),
    ),
    "V100": DeviceModel(
        name="V100-SXM2-32GB", memory=32 * GIB,
        flops={"float64": 7.8 * TFLOPS, "float32": 15.7 * TFLOPS, "float16": 31.4 * TFLOPS},
        matmul_flops={"float64": 7.8 * TFLOPS, "float32": 15.7 * TFLOPS, "float16": 125 * TFLOPS},
        bandwidth=900 * GB, launch_latency=_GPU_LAUNCH,
        peer_link=Link("NVLink 2 (V100 SXM2)", 150 * GB, 3e-6), host_link=_pcie(3, 16),
        source=("NVIDIA Tesla V100 datasheet, V100 SXM2 column "
                "(https://images.nvidia.com/content/technologies/volta/pdf/"
                "volta-v100-datasheet-update-us-1165301-r5.pdf): "
                "double 7.8, single 15.7, Tensor (FP16) 125 TFLOPS, 32GB HBM2 at 900GB/s, NVLink 300GB/s, PCIe "
                "32GB/s (both directions); FP16 31.4 vector from the Ampere whitepaper's V100 column. No TF32 or "
                "BF16 tensor cores: those fall back to float32's rate"),
    ),
    "T4": DeviceModel(
        name="T4-16GB", memory=16 * GIB,
        flops={"float64": 0.254 * TFLOPS, "float32": 8.1 * TFLOPS, "float16": 16.2 * TFLOPS},
        matmul_flops={"float64": 0.254 * TFLOPS, "float32": 8.1 * TFLOPS, "float16": 65 * TFLOPS,
                      "int8": 130 * TFLOPS},
        bandwidth=320 * GB, launch_latency=_GPU_LAUNCH,
        peer_link=_pcie(3, 16), host_link=_pcie(3, 16),
        source=("NVIDIA T4 Tensor Core GPU datasheet "
                "(https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/"
                "t4-tensor-core-datasheet-951643.pdf): single precision 8.1, mixed precision (FP16/FP32) 65 "
                "TFLOPS, INT8 130 TOPS, 16GB GDDR6 at 320+GB/s, PCIe Gen3 x16 32GB/s (both directions), no "
                "NVLink; FP64 at 1/32 and FP16 vector at 2x of FP32 (Turing's rates, e.g. "
                "https://sysrqmts.com/en/gpus/nvidia/tesla/t4)"),
    ),
    "L4": DeviceModel(
        name="L4-24GB", memory=24 * GIB,
        flops={"float64": 0.473 * TFLOPS, "float32": 30.3 * TFLOPS, "float16": 30.3 * TFLOPS,
               "bfloat16": 30.3 * TFLOPS},
        matmul_flops={"float64": 0.473 * TFLOPS, "float32": 30.3 * TFLOPS, "tensorfloat32": 60 * TFLOPS,
                      "float16": 121 * TFLOPS, "bfloat16": 121 * TFLOPS, "float8_e4m3fn": 242.5 * TFLOPS,
                      "float8_e5m2": 242.5 * TFLOPS, "int8": 242.5 * TFLOPS},
        bandwidth=300 * GB, launch_latency=_GPU_LAUNCH,
        peer_link=_pcie(4, 32), host_link=_pcie(4, 32),
        source=("NVIDIA L4 Tensor Core GPU datasheet "
                "(https://resources.nvidia.com/en-us-data-center-overview/l4-gpu-datasheet): FP32 30.3, TF32 "
                "Tensor 120, FP16/BF16 Tensor 242, FP8/INT8 485 with sparsity (halved here), 24GB GDDR6 at "
                "300GB/s, PCIe Gen4 x16 64GB/s (both directions), no NVLink; FP64 at 1/64 and FP16 vector at 1x "
                "of FP32 (Ada's rates, e.g. https://fpsbench.com/compare/gpu/nvidia-l4-vs-nvidia-tesla-m40)"),
    ),
    "CPU": DeviceModel(
        name="CPU (generic 16-core AVX2 server)", memory=64 * GIB,
        flops={"float64": 0.64 * TFLOPS, "float32": 1.28 * TFLOPS},
        matmul_flops={"float64": 0.64 * TFLOPS, "float32": 1.28 * TFLOPS},
        bandwidth=50 * GB, launch_latency=1e-6,
        peer_link=Link("host memory", 25 * GB, 1e-6), host_link=Link("host memory", 25 * GB, 1e-6),
        source=("placeflow's modest default, not a datasheet: 16 cores at 2.5 GHz with two 256-bit FMA units "
                "(32 float32 / 16 float64 FLOPs per cycle per core), 50GB/s of memory bandwidth (copies between "
                "host devices read and write it: 25GB/s), 64GiB of memory. A real host differs: replace the "
                "numbers with placeflow.perf.custom('CPU', ...)"),
    ),
}
PRESETS["A100-40GB"] = dataclasses.replace(
    PRESETS["A100-80GB"], name="A100-SXM-40GB", memory=40 * GIB, bandwidth=1555 * GB,
    source=PRESETS["A100-80GB"].source.replace("A100 80GB SXM column", "A100 40GB SXM column").replace(
        "80GB HBM2e at 2,039GB/s", "40GB HBM2 at 1,555GB/s"))
_ORDER = ("H100", "A100-40GB", "A100-80GB", "V100", "T4", "L4", "CPU")
PRESETS = {name: PRESETS[name] for name in _ORDER}


def preset(name: str) -> DeviceModel:
    """The preset `name` ('H100', 'a100-80gb', ...: case-insensitive); ValueError listing the presets."""
    if isinstance(name, str):
        for key, model in PRESETS.items():
            if key.lower() == name.strip().lower():
                return model
    raise ValueError(f"No performance-model preset is named {name!r}. Expected one of {', '.join(PRESETS)} "
                     "(case-insensitive), or build one with placeflow.perf.custom(base, **numbers).")


_NUMBER_FIELDS = ("memory", "bandwidth", "launch_latency")
_FIELDS = tuple(f.name for f in dataclasses.fields(DeviceModel))


def custom(base: str | DeviceModel | None = None, **numbers) -> DeviceModel:
    """A model from `base` (a preset name or a DeviceModel) with `numbers` replaced; without a base every field
    must be given. `flops`/`matmul_flops` entries merge into the base's; a link may be a Link or a dict."""
    unknown = sorted(set(numbers) - set(_FIELDS))
    if unknown:
        raise TypeError(f"custom() got unknown field(s) {unknown}; a DeviceModel has {', '.join(_FIELDS)}.")
    if base is None:
        return _complete_model(numbers)
    model = preset(base) if isinstance(base, str) else base
    if not isinstance(model, DeviceModel):
        raise TypeError(f"custom(base={base!r}): base must be a preset name, a DeviceModel or None.")
    changes = {key: _merged(key, getattr(model, key), value) for key, value in numbers.items()}
    changes.setdefault("name", f"{model.name} (custom)")
    if "source" not in numbers and numbers:
        changes["source"] = f"{model.source}; replaced by custom(): {', '.join(sorted(numbers))}"
    return validated(dataclasses.replace(model, **changes))


def _complete_model(numbers: dict) -> DeviceModel:
    numbers = {"name": "custom", "source": "placeflow.perf.custom() numbers", **numbers}
    missing = [f for f in _FIELDS if f not in numbers]
    if missing:
        raise TypeError(f"custom() without a base needs every field of a DeviceModel; missing {missing}. Give "
                        "them, or start from a preset: custom('H100', bandwidth=2e12).")
    links = {k: _merged(k, None, numbers[k]) for k in ("peer_link", "host_link")}
    return validated(DeviceModel(**{**numbers, **links, "flops": dict(numbers["flops"]),
                                    "matmul_flops": dict(numbers["matmul_flops"])}))


def _merged(key: str, old, new):
    if key in ("flops", "matmul_flops"):
        if not isinstance(new, dict):
            raise TypeError(f"custom({key}={new!r}): expected a dict of dtype name -> FLOP/s, e.g. "
                            f"{{'float32': 2e13}}.")
        return {**(old or {}), **{dtype_name(k): v for k, v in new.items()}}
    if key in ("peer_link", "host_link"):
        if isinstance(new, Link):
            return new
        if not isinstance(new, dict):
            raise TypeError(f"custom({key}={new!r}): expected a placeflow.perf.Link or a dict of its fields "
                            "(name, bandwidth, latency).")
        if old is None:
            return Link(**{"name": key, **new})
        return dataclasses.replace(old, **new)
    return new


def validated(model: DeviceModel) -> DeviceModel:
    """`model` when every number is positive and finite and float32 has peaks; ValueError naming the bad one."""
    for field in _NUMBER_FIELDS:
        _positive(f"{field}", getattr(model, field))
    if not isinstance(model.memory, int):
        raise ValueError(f"A performance model's memory is a whole number of bytes (an int, e.g. 80 << 30), got "
                         f"{model.memory!r}.")
    for table in ("flops", "matmul_flops"):
        if "float32" not in getattr(model, table):
            raise ValueError(f"{model.name}: {table} needs a 'float32' entry (the rate dtypes not listed fall back "
                             f"to); got {getattr(model, table)!r}.")
        for dtype, value in getattr(model, table).items():
            _positive(f"{table}[{dtype!r}]", value)
    for link in ("peer_link", "host_link"):
        _positive(f"{link}.bandwidth", getattr(model, link).bandwidth)
        if not _number(getattr(model, link).latency) or getattr(model, link).latency < 0:
            raise ValueError(f"{link}.latency must be a number of seconds >= 0, got "
                             f"{getattr(model, link).latency!r}.")
    return model


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _positive(label: str, value) -> None:
    if not _number(value) or value <= 0:
        raise ValueError(f"A performance model's {label} must be a positive finite number, got {value!r}.")


def as_model(model, base: DeviceModel | None = None) -> DeviceModel:
    """A preset name, a DeviceModel or a dict of numbers (custom(base, **dict); 'base' may be in the dict)."""
    if isinstance(model, str):
        return preset(model)
    if isinstance(model, DeviceModel):
        return validated(model)
    if isinstance(model, dict):
        numbers = dict(model)
        return custom(numbers.pop("base", base), **numbers)
    raise TypeError(f"A performance model must be a preset name ({', '.join(PRESETS)}), a "
                    f"placeflow.perf.DeviceModel or a dict of numbers; got {model!r}.")


# -- which model a device has ---------------------------------------------------------------------------------

def model_of(device) -> DeviceModel | None:
    """The model of a runtime Device (or its name): the one set with set_performance_model, else a simulated
    GPU's preset; a CPU gets the 'CPU' preset when any device has a model; None when nothing is modelled."""
    from ..config.context import context
    ctx = context()
    info = _logical_info(ctx, device)
    if info is None:
        return None  # a device of another task: not modelled
    models = ctx.performance_models
    chosen = models.get(info.name) or models.get(info.physical.device.name)
    if chosen is not None:
        return chosen
    gpu = info.physical.gpu
    if gpu is not None and gpu.model:
        return preset(gpu.model)
    if info.device_type == "CPU" and _anything_modelled(ctx):
        return PRESETS["CPU"]
    return None


def _anything_modelled(ctx) -> bool:
    return bool(ctx.performance_models) or any(i.gpu is not None and i.gpu.model for i in ctx.physical_infos())


def _logical_info(ctx, device):
    """The LogicalDeviceInfo of a runtime Device, a LogicalDevice or a device name (without initializing); None
    for a device of another task."""
    if hasattr(device, "physical") and hasattr(device, "device_type"):
        return device  # a LogicalDeviceInfo already
    info = getattr(device, "info", None)
    if info is not None and hasattr(info, "physical"):
        return info
    if hasattr(device, "info"):
        return None  # a runtime device of another task (runtime/remote_device.py has no local info)
    name = getattr(device, "name", device)
    if not isinstance(name, str):
        raise TypeError(f"Expected a runtime device, a LogicalDevice or a device name like '/GPU:0'; got "
                        f"{device!r}.")
    from ..framework.device_spec import LOCAL_JOB, DeviceSpec, canonical_name
    full = canonical_name(name)
    if DeviceSpec.from_string(full).job != LOCAL_JOB:
        return None
    for candidate in ctx.plan():
        if candidate.name == full:
            return candidate
    known = ", ".join(i.name for i in ctx.plan())
    raise ValueError(f"No device of this process is named {name!r} ({full}). Known devices: {known}.")


def link_between(src, dst) -> Link | None:
    """The link a copy from `src` to `dst` takes (runtime devices or names): a GPU's host link to or from a CPU,
    the slower peer link between GPUs, device memory between logical devices of one GPU, host memory between
    CPUs; None for the same device or where neither end is modelled."""
    from ..config.context import context
    ctx = context()
    a, b = _logical_info(ctx, src), _logical_info(ctx, dst)
    if a is None or b is None or a.name == b.name:
        return None
    ma, mb = model_of(a), model_of(b)
    if ma is None and mb is None:
        return None
    if a.device_type == "GPU" and b.device_type == "GPU":
        if a.physical.device == b.physical.device:
            model = ma or mb
            return Link("device memory (one GPU)", model.bandwidth / 2, model.launch_latency)
        links = [m.peer_link for m in (ma, mb) if m is not None]
        return min(links, key=lambda link: link.bandwidth)
    if a.device_type == "GPU" or b.device_type == "GPU":
        gpu_model = ma if a.device_type == "GPU" else mb
        return gpu_model.host_link if gpu_model is not None else None
    return (ma or mb).peer_link


# -- tf.config.experimental.set_performance_model / get_performance_model -------------------------------------

def set_performance_model(device, model) -> None:
    """Model `device` (a PhysicalDevice, a LogicalDevice, a runtime device or a name like '/GPU:0') as `model`:
    a preset name, a DeviceModel or a dict of numbers (replacing those of the device's current model, or of
    the dict's 'base' preset); None removes the model set before."""
    from ..config.context import context
    ctx = context()
    key, current = _model_key(ctx, device)
    if model is None:
        ctx.performance_models.pop(key, None)
    else:
        ctx.performance_models[key] = as_model(model, current)
    ctx.placement_cache = {}  # placement decisions made under the former models are dropped


def get_performance_model(device) -> DeviceModel | None:
    """The model `device` (as set_performance_model takes it) is costed with, or None when it has none."""
    from ..config.context import context
    return _model_key(context(), device)[1]


def _model_key(ctx, device) -> tuple:
    """(the performance_models key of `device`, its current model): a physical device's own name, else the
    logical device's full name."""
    if getattr(device, "name", "").startswith("/physical_device:"):
        info = ctx.physical_info(device)
        chosen = ctx.performance_models.get(info.device.name)
        if chosen is None and info.gpu is not None and info.gpu.model:
            chosen = preset(info.gpu.model)
        if chosen is None and info.device.device_type == "CPU" and _anything_modelled(ctx):
            chosen = PRESETS["CPU"]
        return info.device.name, chosen
    info = _logical_info(ctx, device)
    if info is None:
        raise ValueError(f"{getattr(device, 'name', device)!r} is a device of another task: performance models "
                         "describe this process's devices only.")
    return info.name, model_of(info)


def preset_memories() -> dict:
    """{preset name: bytes of memory}: what PLACEFLOW_SIMULATED_GPUS=8:H100 gives each simulated GPU."""
    return {name: model.memory for name, model in PRESETS.items()}
