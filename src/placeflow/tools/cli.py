"""The `placeflow` command: `placeflow devices`, `placeflow demo`."""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    """Entry point of the `placeflow` command."""
    parser = argparse.ArgumentParser(prog="placeflow", description="TensorFlow's device system on NumPy and CuPy.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("devices", help="list physical and logical devices, memory, growth, real or simulated")
    demo = commands.add_parser("demo", help="walk through the seed programs")
    demo.add_argument("--simulated-gpus", type=int, default=4,
                      help="simulated GPUs to use when no CUDA GPU is usable (default 4)")
    args = parser.parse_args(argv)
    if args.version:
        from .. import __version__
        print(f"placeflow {__version__}")
        return 0
    if args.command == "devices":
        from .devices_view import render
        print(render())
        return 0
    if args.command == "demo":
        from .demo import run_demo
        return run_demo(args.simulated_gpus)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
