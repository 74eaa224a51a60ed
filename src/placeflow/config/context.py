"""The process Context: device configuration that freezes when the runtime initializes.

Nothing here touches a device until asked: physical devices are discovered on the first
listing, logical devices are numbered on initialization (first op or first logical-device
query). After that, changing the configuration raises RuntimeError with TensorFlow's words
and says where the runtime was initialized.
"""

from __future__ import annotations

import logging
import os
import sys
import threading

from . import logical, physical
from .logical import LogicalDeviceConfiguration

_log = logging.getLogger("placeflow.config")
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROWTH_ENV_VAR = "TF_FORCE_GPU_ALLOW_GROWTH"
ESTIMATE_ENV_VAR = "PLACEFLOW_ESTIMATE"
DEFAULT_MEMORY_GROWTH = True  # TensorFlow preallocates; placeflow grows (docs/divergences.md)
MAX_THREADS = 4096  # inter-/intra-op thread counts above this are refused (each inter-op thread is a real thread)


def caller_site() -> str:
    """'file.py:12' of the innermost frame outside the placeflow package."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else "<unknown>"


class Context:
    """Device configuration of this process and the logical devices it produced."""

    def __init__(self, environ=None):
        self.environ = os.environ if environ is None else environ
        self._lock = threading.RLock()
        self._physical = None
        self.gpu_reason = ""
        self._visible = None  # None: all physical devices visible
        self._memory_growth: dict = {}
        self._logical_configs: dict = {}
        self._memory_fraction = None
        self._inter_op_threads = 0
        self._intra_op_threads = 0
        self.soft_device_placement = True  # what eager ops and functions use
        self.soft_placement_set = None  # the value set by set_soft_device_placement/ConfigProto, if any
        self.strict_placement = False
        self.placer = "simple"  # which placer places graphs (placement/placers.py)
        self.device_policy = "silent"  # implicit eager copies: silent, warn, explicit, silent_for_int32
        self.log_device_placement = False
        self.op_determinism = False  # tf.config.experimental.enable_op_determinism (unseeded random ops raise)
        self.tensor_float_32 = True  # tf.config.experimental.enable_tensor_float_32_execution (recorded only)
        self.synchronous_execution = True
        self.placement_cache: dict = {}  # filled by the placement layer; cleared when a flag changes
        self.performance_models: dict = {}  # device name -> placeflow.perf DeviceModel (set_performance_model)
        self._logical = None
        self.init_site = None

    @property
    def estimating(self) -> str:
        """'' (ops compute), 'shape-only' (PLACEFLOW_ESTIMATE=1: ops run shape-only, reading data raises) or 'zeros'
        (PLACEFLOW_ESTIMATE=zeros: reading data gives zeros): see runtime/estimating.py. Real GPUs are estimated as
        simulated ones of their memory: no kernel runs on them."""
        value = (self.environ.get(ESTIMATE_ENV_VAR) or "").strip().lower()
        if value in ("", "0", "false", "no"):
            return ""
        if value not in ("1", "true", "yes", "zeros"):
            raise ValueError(f"{ESTIMATE_ENV_VAR}={value!r} is not understood: expected 1 (estimate shape-only; "
                             f"reading a tensor's data raises) or zeros (reading data gives zeros), or unset.")
        return "zeros" if value == "zeros" else "shape-only"

    def set_placement_flag(self, name: str, value: bool) -> None:
        """Set soft_device_placement or strict_placement; cached placement decisions are dropped."""
        setattr(self, name, bool(value))
        if name == "soft_device_placement":
            self.soft_placement_set = bool(value)
        self.placement_cache = {}

    # -- physical devices -------------------------------------------------------------------
    def physical_infos(self) -> list:
        """Every physical device, discovered once (never initializes the runtime)."""
        if self._physical is None:
            with self._lock:
                if self._physical is None:
                    infos, self.gpu_reason = physical.discover(self.environ)
                    self._physical = infos
        return self._physical

    def physical_info(self, device) -> physical.PhysicalDeviceInfo:
        """The info of a PhysicalDevice from list_physical_devices(); ValueError otherwise."""
        for info in self.physical_infos():
            if info.device == device:
                return info
        known = ", ".join(repr(i.device) for i in self.physical_infos())
        raise ValueError(f"Unrecognized device: {device!r}. Expected one of placeflow.config."
                         f"list_physical_devices(): {known}.")

    # -- initialization ---------------------------------------------------------------------
    @property
    def initialized(self) -> bool:
        """True once logical devices exist and configuration is frozen."""
        return self._logical is not None

    def ensure_initialized(self, trigger: str = "the first op") -> list:
        """Create the logical devices (once) and freeze configuration; return them."""
        if self._logical is None:
            with self._lock:
                if self._logical is None:
                    devices = self.plan()
                    self.init_site = f"{caller_site()} (by {trigger})"
                    self._logical = devices
        return self._logical

    def plan(self) -> list:
        """The logical devices the current configuration gives, without freezing anything."""
        if self._logical is not None:
            return self._logical
        visible = self.visible_infos()
        self._check_growth_agrees(visible)
        return logical.plan(visible, self._logical_configs, self.memory_growth, self.environ,
                            lambda _physical: self._memory_fraction)

    def _refuse_if_initialized(self, message: str) -> None:
        if self._logical is not None:
            raise RuntimeError(
                f"{message}\nplaceflow: the runtime was initialized at {self.init_site}; "
                "configure devices before that line (listing physical devices does not initialize)."
            )

    # -- visible devices --------------------------------------------------------------------
    def visible_infos(self) -> list:
        """Physical devices that will become logical devices, in physical order."""
        infos = self.physical_infos()
        if self._visible is None:
            return list(infos)
        return [i for i in infos if i.device in self._visible]

    def set_visible_devices(self, devices, device_type=None) -> None:
        """Make exactly `devices` visible (only devices of `device_type` when given)."""
        devices = [devices] if isinstance(devices, physical.PhysicalDevice) else list(devices)
        for device in devices:
            info = self.physical_info(device)
            if device_type is not None and info.device.device_type != device_type:
                raise ValueError(f"Unrecognized device: {device!r}: it is not of type {device_type!r}.")
        kept = [] if device_type is None else [
            i.device for i in self.visible_infos() if i.device.device_type != device_type]
        wanted = {*kept, *devices}
        if wanted == {i.device for i in self.visible_infos()}:
            return
        self._refuse_if_initialized("Visible devices cannot be modified after being initialized")
        if not any(d.device_type == "CPU" for d in wanted):
            raise ValueError("The CPU must stay visible: placeflow runs host work and copies on "
                             f"/physical_device:CPU:0. Keep it in set_visible_devices({devices!r}).")
        self._visible = wanted

    # -- memory growth ----------------------------------------------------------------------
    def memory_growth(self, info) -> bool:
        """Effective growth of a physical GPU: TF_FORCE_GPU_ALLOW_GROWTH, else the setting, else on."""
        forced = self.environ.get(GROWTH_ENV_VAR)
        explicit = self._memory_growth.get(info.device)
        if forced is not None and forced.lower() in ("true", "false"):
            if explicit is not None and explicit != (forced.lower() == "true"):
                _log.warning("Overriding allow_growth setting because the %s environment variable is set. "
                             "Original config value was %d.", GROWTH_ENV_VAR, explicit)
            return forced.lower() == "true"
        if forced is not None:
            _log.error("%s=%r is not 'true' or 'false'; using the configured memory growth.",
                       GROWTH_ENV_VAR, forced)
        return DEFAULT_MEMORY_GROWTH if explicit is None else explicit

    def set_memory_growth(self, device, enable: bool) -> None:
        """Set memory growth of one physical GPU."""
        info = self.physical_info(device)
        if info.device.device_type != "GPU":
            raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
        if self._logical_configs.get(device):
            raise ValueError("Cannot set memory growth on device when virtual devices configured")
        if self._memory_growth.get(device, self.memory_growth(info)) == bool(enable):
            return
        self._refuse_if_initialized("Physical devices cannot be modified after being initialized")
        self._memory_growth[device] = bool(enable)

    def _check_growth_agrees(self, visible: list) -> None:
        plain = [i for i in visible if i.device.device_type == "GPU" and not self._logical_configs.get(i.device)]
        growth = {i.device.name: self.memory_growth(i) for i in plain}
        if len(set(growth.values())) > 1:
            raise ValueError(f"Memory growth cannot differ between GPU devices: {growth}. "
                             "Call set_memory_growth(gpu, same_value) for every GPU.")

    # -- memory fraction --------------------------------------------------------------------
    @property
    def memory_fraction(self) -> float | None:
        """The fraction of each GPU's total memory the process may use (None: free less a reserve)."""
        return self._memory_fraction

    def set_memory_fraction(self, fraction) -> None:
        """Limit every unsplit GPU to `fraction` of its total memory (0 or None: the default limit)."""
        if fraction is not None and (isinstance(fraction, bool) or not isinstance(fraction, (int, float))):
            raise TypeError(f"per_process_gpu_memory_fraction must be a number in (0, 1], got {fraction!r}.")
        fraction = float(fraction) if fraction else None
        if fraction is not None and not 0 < fraction <= 1:
            raise ValueError(
                f"per_process_gpu_memory_fraction={fraction!r} is outside (0, 1]. TensorFlow reads a value above 1 "
                "as oversubscription through unified memory, which placeflow does not support; pass a fraction "
                "such as 0.4, or 0 for the default limit.")
        if fraction is not None and any(c for d, c in self._logical_configs.items() if d.device_type == "GPU"):
            raise ValueError("It's invalid to set per_process_gpu_memory_fraction when virtual_devices is set.\n"
                             "placeflow: a GPU split into logical devices takes each one's memory_limit instead.")
        if fraction == self._memory_fraction:
            return
        self._refuse_if_initialized("Physical devices cannot be modified after being initialized")
        self._memory_fraction = fraction

    # -- logical (virtual) device configuration ---------------------------------------------
    def logical_configuration(self, device) -> list | None:
        """The LogicalDeviceConfiguration list of a physical device, or None."""
        self.physical_info(device)
        configs = self._logical_configs.get(device)
        return list(configs) if configs else None

    def set_logical_configuration(self, device, configs) -> None:
        """Split one physical device into several logical ones."""
        info = self.physical_info(device)
        configs = list(configs) if configs is not None else []
        for config in configs:
            _validate_config(info, config, configs)
        if info.device.device_type == "GPU":
            _check_fits(info, configs)
        if (self._logical_configs.get(device) or []) == configs:
            return
        if configs and info.device.device_type == "GPU" and self._memory_fraction is not None:
            raise ValueError("It's invalid to set per_process_gpu_memory_fraction when virtual_devices is set.\n"
                             "placeflow: call set_per_process_memory_fraction(0) first, or leave this GPU unsplit.")
        self._refuse_if_initialized("Virtual devices cannot be modified after being initialized")
        self._logical_configs[device] = configs

    # -- threading --------------------------------------------------------------------------
    def threads(self, kind: str) -> int:
        """Configured inter-op or intra-op thread count (0: let placeflow choose)."""
        return self._inter_op_threads if kind == "inter" else self._intra_op_threads

    def set_threads(self, kind: str, count: int) -> None:
        """Set the inter-op or intra-op thread count before initialization."""
        check_thread_count(kind, count)
        if self.threads(kind) == count:
            return
        label = "Inter" if kind == "inter" else "Intra"
        self._refuse_if_initialized(f"{label} op parallelism cannot be modified after initialization.")
        setattr(self, f"_{kind}_op_threads", count)


def check_thread_count(kind: str, count) -> None:
    """An inter- or intra-op thread count must be an int of at most MAX_THREADS (0: one per core)."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"Thread count must be an int, got {count!r}.")
    if abs(count) > MAX_THREADS:
        raise ValueError(f"{'Inter' if kind == 'inter' else 'Intra'} op parallelism of {count} threads is more "
                         f"than placeflow starts ({MAX_THREADS} at most); 0 means one per core.")


def _validate_config(info, config, configs) -> None:
    if not isinstance(config, LogicalDeviceConfiguration):
        raise ValueError(f"Expected placeflow.config.LogicalDeviceConfiguration entries, got {config!r}.")
    device_type = info.device.device_type
    if device_type == "CPU":
        if config.memory_limit is not None:
            raise ValueError("Setting memory limit on CPU virtual devices is currently not supported")
        if config.experimental_priority is not None:
            raise ValueError("Setting experimental_priority on CPU virtual  devices is currently not supported")
        if config.experimental_device_ordinal is not None:
            raise ValueError("Setting experimental_device_ordinal on CPU virtual  devices is currently not supported")
        return
    if device_type != "GPU":
        raise ValueError(f"Virtual devices are not supported for {device_type}")
    if config.memory_limit is None:
        raise ValueError("Setting memory limit is required for GPU virtual devices")
    if isinstance(config.memory_limit, bool) or not isinstance(config.memory_limit, int) or config.memory_limit <= 0:
        raise ValueError(f"memory_limit must be a positive number of MB (an int, e.g. memory_limit=1024), got "
                         f"{config.memory_limit!r}.")
    for field, label in (("experimental_priority", "priority"), ("experimental_device_ordinal", "device_ordinals")):
        given = [getattr(c, field) is not None for c in configs]
        if any(given) and not all(given):
            raise ValueError(f"{label} must be specified for all virtual devices")


def _check_fits(info, configs) -> None:
    asked = sum(c.memory_limit for c in configs) * logical.MIB
    if asked > info.total_memory:
        raise ValueError(
            f"The logical devices configured for {info.device.name} ask for {asked >> 20} MB in all "
            f"({[c.memory_limit for c in configs]}), but the device has {info.total_memory >> 20} MB. "
            "Lower the memory_limit values so they fit."
        )


_context: Context | None = None
_context_lock = threading.Lock()


def context() -> Context:
    """The process-wide Context, created on first use."""
    global _context
    if _context is None:
        with _context_lock:
            if _context is None:
                _context = Context()
    return _context


def reset_context(environ=None) -> Context:
    """Replace the process Context with a fresh one (for tests and tools; not thread-safe)."""
    global _context
    _context = Context(environ)
    return _context
