"""The `placeflow` command: `placeflow run`, `placeflow devices`, `placeflow memory`, `placeflow demo`,
`placeflow launch`. `placeflow script.py` (and `python -m placeflow script.py`) is `placeflow run script.py`."""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    """Entry point of the `placeflow` command."""
    parser = argparse.ArgumentParser(prog="placeflow", description="TensorFlow's device system on NumPy and CuPy.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("run", help="run a TensorFlow/Keras program with `tensorflow` meaning placeflow")
    run.add_argument("script", help="the Python program (it may `import tensorflow` and `import keras`)")
    run.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    commands.add_parser("devices", help="list physical and logical devices, memory, growth, real or simulated")
    memory = commands.add_parser("memory", help="run a script (optional), then show every device's memory")
    memory.add_argument("script", nargs="?", help="a Python script to run first, as `python SCRIPT ARGS`")
    memory.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    demo = commands.add_parser("demo", help="walk through the seed programs")
    demo.add_argument("--simulated-gpus", type=int, default=4,
                      help="simulated GPUs to use when no CUDA GPU is usable (default 4)")
    launch = commands.add_parser("launch", help="run a script as the workers of a cluster, each with its TF_CONFIG")
    launch.add_argument("-n", "--num-workers", type=int, help="workers to start on this host (free ports)")
    launch.add_argument("--host", default="127.0.0.1", help="address of this host's workers (default 127.0.0.1)")
    launch.add_argument("--workers", help="the whole cluster, 'host:port,host:port,...' (with --index)")
    launch.add_argument("--index", type=int, help="start only this task of --workers (one launcher per host)")
    launch.add_argument("--chief", action="store_true", help="make the first task the 'chief' job")
    launch.add_argument("--ray", action="store_true", help="run each worker on a Ray actor (the `ray` extra)")
    launch.add_argument("--ray-address", help="join this Ray cluster ('auto': the local one; default: start one)")
    launch.add_argument("--gpus-per-worker", type=float, default=0, help="GPUs each Ray actor holds (default 0)")
    launch.add_argument("--cpus-per-worker", type=float, default=1, help="CPUs each Ray actor holds (default 1)")
    launch.add_argument("script", help="the Python program every worker runs")
    launch.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    commands.add_parser("estimate", help="will it fit? a script run shape-only: peaks, first OOM, step time "
                                         "(placeflow estimate --help)", add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].endswith(".py"):
        argv = ["run"] + argv
    if argv and argv[0] == "estimate":
        from .estimate import main as estimate_main
        return estimate_main(argv[1:])
    args = parser.parse_args(argv)
    if args.version:
        from ..framework.version import PLACEFLOW_VERSION, TF_API_VERSION
        print(f"placeflow {PLACEFLOW_VERSION} (TensorFlow {TF_API_VERSION} API)")
        return 0
    if args.command == "run":
        from .run_script import run_script
        return run_script(args.script, args.args)
    if args.command == "devices":
        from .devices_view import render
        print(render())
        return 0
    if args.command == "memory":
        return _memory(args.script, args.args)
    if args.command == "launch":
        return _launch(parser, args)
    if args.command == "demo":
        from .demo import run_demo
        return run_demo(args.simulated_gpus)
    parser.print_help()
    return 2


def _launch(parser, args) -> int:
    from .launch import launch
    if args.ray:
        if args.num_workers is None or args.workers is not None:
            parser.error("launch --ray needs -n N (the Ray cluster places the workers; --workers does not apply)")
        from .ray_launch import launch_on_ray
        return launch_on_ray(args.script, args.args, args.num_workers, args.ray_address, args.gpus_per_worker,
                             args.cpus_per_worker, args.chief)
    if (args.num_workers is None) == (args.workers is None):
        parser.error("launch needs either -n N (workers on this host) or --workers with --index")
    if args.workers is not None and args.index is None:
        parser.error("--workers needs --index: the task this host runs")
    if args.num_workers is not None and args.num_workers < 1:
        parser.error(f"-n must be at least 1, got {args.num_workers}")
    return launch(args.script, args.args, args.num_workers, args.host, args.workers, args.index, args.chief)


def _memory(script, script_args) -> int:
    import runpy
    from .memory_view import memory_summary
    namespace = {}  # the script's globals stay alive, so the table shows what it still holds
    if script:
        sys.argv = [script, *script_args]
        try:
            namespace = runpy.run_path(script, run_name="__main__")
        except SystemExit as stop:
            if stop.code not in (None, 0):
                print(f"placeflow memory: {script} exited with {stop.code}", file=sys.stderr)
    print(memory_summary())
    del namespace
    return 0


if __name__ == "__main__":
    sys.exit(main())
