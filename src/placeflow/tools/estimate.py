"""Will it fit? `placeflow estimate`: a program run shape-only on modelled simulated GPUs (runtime/estimating.py),
reporting each device's peak, limit and what was alive at the peak, the first OOM, and the modelled step time.

    placeflow estimate [--gpus 4:40GiB:A100] [--batch-sweep 32,64,128] [--plot memory.png] script.py [args]

A sweep runs the script once per batch size, each in its own process: the script reads the batch size from the
environment variable PLACEFLOW_BATCH, or from its arguments, where `{batch}` is replaced by it
(`placeflow estimate --batch-sweep 64,128 train.py --batch-size {batch}`). Python API: `estimate(program)` for a
callable in this process (it builds the model and returns the step function to time), `estimate_script(path)`
for a script in a child process; both return an `Estimate`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field

REPORT_ENV_VAR = "PLACEFLOW_ESTIMATE_REPORT"   # a child estimating a script writes its report (JSON) there
BATCH_ENV_VAR = "PLACEFLOW_BATCH"
DEFAULT_GPUS = "1:80GiB:H100"


@dataclass
class DeviceEstimate:
    """One device's predicted memory: peak and limit in bytes, the largest buffers alive at the peak."""

    device: str
    peak: int
    limit: int
    at_peak: list = field(default_factory=list)   # [{'bytes', 'op', 'shape', 'dtype'}]
    timeline: list = field(default_factory=list)  # [(modelled seconds, bytes in use)]


@dataclass
class Estimate:
    """A program's estimate: per-device memory, the first OOM (or None), modelled step times and phases."""

    devices: list
    first_oom: dict | None
    step_seconds: list
    step_phases: dict
    wall_seconds: float
    error: str | None = None

    @property
    def fits(self) -> bool:
        """Whether the program ran to its end without running out of memory."""
        return self.first_oom is None and self.error is None

    def to_json(self) -> str:
        """The estimate as JSON."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "Estimate":
        """An estimate from `to_json`'s text."""
        data = json.loads(text)
        data["devices"] = [DeviceEstimate(**entry) for entry in data["devices"]]
        return cls(**data)

    def report(self) -> str:
        """The estimate as the CLI prints it."""
        lines = []
        for device in self.devices:
            lines.append(f"{device.device}: peak {_size(device.peak)} of {_size(device.limit)} "
                         f"({100.0 * device.peak / max(device.limit, 1):.1f}%)")
            for entry in device.at_peak[:5]:
                lines.append(f"    {_size(entry['bytes']):>10}  {entry['dtype']}{list(entry['shape'])}  made by "
                             f"{entry['op']}")
        if self.first_oom:
            oom = self.first_oom
            asked = _size(oom["bytes_asked"]) if oom.get("bytes_asked") else "?"
            lines.append(f"first OOM: {oom['name']} on {oom['device']}: asked {asked}, {_size(oom['bytes_free'])} "
                         f"free")
        if self.error:
            lines.append(f"stopped: {self.error}")
        if self.step_seconds:
            step = self.step_seconds[-1]
            phases = ", ".join(f"{name} {seconds * 1e3:.3f} ms" for name, seconds in self.step_phases.items())
            lines.append(f"predicted step: {step * 1e3:.3f} ms (busy time summed over devices: {phases}); "
                         f"{len(self.step_seconds)} steps")
        else:
            lines.append("predicted step: no step ran (no function, Session or Keras step was called)")
        lines.append(f"estimated in {self.wall_seconds:.2f} s")
        return "\n".join(lines)


def estimate(program, *, gpus: str = DEFAULT_GPUS, steps: int = 3, zeros: bool = False, environ=None) -> Estimate:
    """Estimate `program()` (which builds a model and returns its step function) shape-only on `gpus`: the step
    runs `steps` times; the result holds each GPU's peak and the modelled time of the last step. It makes a new
    process Context for the estimate (as reset_context does): run it before configuring devices yourself."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ValueError(f"estimate(steps={steps!r}): expected a whole number of steps >= 1, e.g. steps=3.")
    from ..config.context import reset_context
    from ..framework.errors import ResourceExhaustedError
    from ..runtime import estimating, step_clock
    env = {**(dict(os.environ) if environ is None else environ), "PLACEFLOW_SIMULATED_GPUS": gpus,
           "PLACEFLOW_ESTIMATE": "zeros" if zeros else "1", "PLACEFLOW_DISABLE_CUDA": "1"}
    reset_context(env)
    step_clock.reset()
    estimating.first_oom.clear()
    start = time.perf_counter()
    try:
        step = program()
        for _ in range(steps):
            step_clock.begin_step()
            try:
                step()
            finally:
                step_clock.end_step()
    except ResourceExhaustedError:
        pass   # the first OOM is in the estimate (estimating.first_oom)
    return collect(time.perf_counter() - start)


def collect(wall_seconds: float, error: str | None = None) -> Estimate:
    """The estimate of what ran in this process since the context was made."""
    from ..config.context import context
    from ..runtime import estimating, registry, step_clock
    devices = []
    for device in registry.devices(context()):
        record = getattr(device, "record", None)
        if record is None:
            continue
        stats = device.memory.allocator.stats()
        devices.append(DeviceEstimate(
            device.name, stats["peak_bytes_in_use"], stats["bytes_limit"],
            [{"bytes": b, "op": op, "shape": list(shape), "dtype": dtype} for b, op, shape, dtype in record.at_peak],
            _thinned(record.timeline)))
    clock = step_clock.summary()
    phases = clock["step_phases"][-1] if clock["step_phases"] else {}
    return Estimate(devices, dict(estimating.first_oom) or None, clock["steps"], phases, wall_seconds, error)


def _thinned(timeline: list, points: int = 2000) -> list:
    stride = max(1, len(timeline) // points)
    return [list(entry) for entry in timeline[::stride]]


def estimate_script(path: str, args=(), *, gpus: str = DEFAULT_GPUS, batch=None, zeros: bool = False,
                    timeout: float | None = None) -> Estimate:
    """Estimate the script at `path` (run with `args`, TensorFlow meaning placeflow) in a child process."""
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "estimate.json")
        env = dict(os.environ, PLACEFLOW_SIMULATED_GPUS=gpus, PLACEFLOW_ESTIMATE="zeros" if zeros else "1",
                   PLACEFLOW_DISABLE_CUDA="1", **{REPORT_ENV_VAR: report})
        if batch is not None:
            env[BATCH_ENV_VAR] = str(batch)
            args = [a.replace("{batch}", str(batch)) for a in args]
        command = [sys.executable, "-m", "placeflow", "run", path, *args]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
        if os.path.exists(report):
            with open(report) as handle:
                return Estimate.from_json(handle.read())
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return Estimate([], None, [], {}, 0.0, f"the script exited with status {done.returncode}: {tail[0]}")


def write_report_at_exit() -> None:
    """In a child run by estimate_script: write this process's estimate when the script ends (or fails)."""
    path = os.environ.get(REPORT_ENV_VAR)
    if not path:
        return
    import atexit
    start = time.perf_counter()

    def write():
        error = getattr(sys, "last_value", None)
        message = None if error is None or _is_oom(error) else f"{type(error).__name__}: {error}".splitlines()[0]
        with open(path, "w") as handle:
            handle.write(collect(time.perf_counter() - start, message).to_json())
    atexit.register(write)


def _is_oom(error) -> bool:
    from ..framework.errors import ResourceExhaustedError
    return isinstance(error, ResourceExhaustedError)


def largest_batch(estimates: dict):
    """The largest batch whose estimate fits, or None."""
    fitting = [batch for batch, result in estimates.items() if result.fits]
    return max(fitting) if fitting else None


def plot_memory(result: Estimate, path: str) -> None:
    """A PNG of each device's bytes in use over the run (modelled time when the devices are modelled)."""
    from PIL import Image, ImageDraw
    width, height, margin = 900, 360, 50
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f"]
    top = max([d.limit for d in result.devices] + [1])
    draw.rectangle([margin, margin // 2, width - 10, height - margin], outline="black")
    for index, device in enumerate(result.devices):
        points = device.timeline or [[0.0, 0]]
        use_time = points[-1][0] > points[0][0]
        xs = [p[0] for p in points] if use_time else list(range(len(points)))
        span = (max(xs) - min(xs)) or 1
        line = [(margin + (x - min(xs)) / span * (width - margin - 10),
                 height - margin - p[1] / top * (height - 1.5 * margin)) for x, p in zip(xs, points)]
        draw.line(line if len(line) > 1 else line * 2, fill=colours[index % len(colours)], width=2)
        draw.text((margin + 5, margin // 2 + 5 + 12 * index), f"{device.device.split('device:')[-1]} peak "
                  f"{_size(device.peak)}", fill=colours[index % len(colours)])
    draw.text((margin, height - margin + 8), "modelled time" if result.step_seconds else "allocations and frees",
              fill="black")
    draw.text((5, 5), f"bytes in use (top: {_size(top)}, the largest limit)", fill="black")
    image.save(path, "PNG")


def _size(nbytes) -> str:
    nbytes = float(nbytes or 0)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(nbytes) < 1024 or unit == "TiB":
            return f"{nbytes:.1f} {unit}" if unit != "B" else f"{int(nbytes)} B"
        nbytes /= 1024


def main(argv=None) -> int:
    """`placeflow estimate`: print the estimate of a script (per batch size with --batch-sweep)."""
    parser = argparse.ArgumentParser(prog="placeflow estimate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpus", default=DEFAULT_GPUS, help="simulated GPUs: COUNT[:MEMORY][:MODEL], e.g. 4:40GiB:A100")
    parser.add_argument("--batch-sweep", default=None, help="comma-separated batch sizes, e.g. 32,64,128")
    parser.add_argument("--plot", default=None, help="write a PNG of each device's memory over the run")
    parser.add_argument("--zeros", action="store_true", help="let the script read zeros from shape-only tensors")
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    if not options.batch_sweep:
        result = estimate_script(options.script, options.args, gpus=options.gpus, zeros=options.zeros)
        print(result.report())
        if options.plot and result.devices:
            plot_memory(result, options.plot)
        return 0 if result.error is None else 1
    batches = _batches(options.batch_sweep)
    results = {}
    for index, batch in enumerate(batches):
        print(f"[{index + 1}/{len(batches)}] batch {batch} ...", end="", flush=True)
        results[batch] = estimate_script(options.script, options.args, gpus=options.gpus, batch=batch,
                                         zeros=options.zeros)
        print(" fits" if results[batch].fits else " does not fit", flush=True)
    for batch, result in results.items():
        peak = max((d.peak for d in result.devices), default=0)
        step = f"{result.step_seconds[-1] * 1e3:.3f} ms" if result.step_seconds else "-"
        print(f"batch {batch:>6}: peak {_size(peak):>10}  step {step:>12}  {'fits' if result.fits else 'OOM'}")
    best = largest_batch(results)
    print(f"largest batch that fits: {best if best is not None else 'none of those tried'}")
    if options.plot and best is not None:
        plot_memory(results[best], options.plot)
    return 0


def _batches(text: str) -> list:
    try:
        batches = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"--batch-sweep {text!r}: expected comma-separated whole numbers, e.g. 32,64,128") from None
    if not batches or any(b <= 0 for b in batches):
        raise SystemExit(f"--batch-sweep {text!r}: expected positive batch sizes, e.g. 32,64,128")
    return sorted(set(batches))
