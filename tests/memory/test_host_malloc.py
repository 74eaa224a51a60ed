"""placeflow keeps glibc's malloc from giving a step's freed buffers back to the OS (memory/host_malloc.py):
blocks under 32 MiB come from the heap, and up to 64 MiB of free heap top is kept for the next step."""

import os
import subprocess
import sys
import textwrap

import pytest

from placeflow.memory import host_malloc

def _has_mallinfo2() -> bool:
    import ctypes
    return host_malloc._is_glibc() and hasattr(ctypes.CDLL(None), "mallinfo2")


pytestmark = pytest.mark.skipif(not _has_mallinfo2(), reason="glibc 2.33 or later only (mallinfo2 reads the heap)")

_PROBE = textwrap.dedent("""
    import ctypes, json
    import numpy as np
    import placeflow as tf

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
            "keepcost")]

    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = MallInfo2
    tf.constant(1.0).numpy()                    # makes the host device
    block = np.ones(20 << 20, np.uint8)         # 20 MiB
    mapped_while_alive = mallinfo2().hblkhd
    del block
    print(json.dumps({"mapped_while_alive": mapped_while_alive, "kept_after_free": mallinfo2().keepcost}))
""")


def _probe(**env) -> dict:
    import json
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **env))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_freed_block_stays_in_the_heap_for_the_next_step():
    figures = _probe()
    assert figures["mapped_while_alive"] < 20 << 20, figures   # from the heap, not a mapping of its own
    assert figures["kept_after_free"] >= 20 << 20, figures     # its pages kept, not given back


def test_placeflow_host_malloc_system_leaves_malloc_as_it_was():
    figures = _probe(PLACEFLOW_HOST_MALLOC="system")
    assert figures["mapped_while_alive"] >= 20 << 20, figures  # glibc's own first threshold: 128 KiB
    assert figures["kept_after_free"] < 20 << 20, figures


def test_the_thresholds_are_set_once(monkeypatch):
    monkeypatch.setattr(host_malloc, "_applied", None)
    monkeypatch.setenv("PLACEFLOW_HOST_MALLOC", "system")
    assert host_malloc.keep_step_buffers() is False
    monkeypatch.delenv("PLACEFLOW_HOST_MALLOC")
    assert host_malloc.keep_step_buffers() is False   # decided once per process
    monkeypatch.setattr(host_malloc, "_applied", None)
    assert host_malloc.keep_step_buffers() is True
