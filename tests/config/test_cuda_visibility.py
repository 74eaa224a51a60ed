"""CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER rules, on made-up GPU lists."""

import pytest

from placeflow.config.cuda_visibility import apply_visible_devices, order_gpus
from placeflow.config.gpu_info import GpuInfo


def gpu(name, bus, cc, memory=16 << 30, uuid=None):
    return GpuInfo(name, uuid or f"GPU-{name}", bus, memory, memory, cc)


A100 = gpu("a100", "0000:81:00.0", (8, 0), uuid="GPU-aaaa1111")
T4 = gpu("t4", "0000:04:00.0", (7, 5), uuid="GPU-bbbb2222")
H100 = gpu("h100", "0000:41:00.0", (9, 0), uuid="GPU-aaaa3333")
ALL = [A100, T4, H100]


def test_pci_bus_id_order_sorts_by_bus():
    assert order_gpus(ALL, "PCI_BUS_ID") == [T4, H100, A100]


@pytest.mark.parametrize("order", [None, "", "FASTEST_FIRST"])
def test_fastest_first_is_the_default(order):
    assert order_gpus(ALL, order) == [H100, A100, T4]


def test_unknown_order_warns_and_uses_fastest_first(caplog):
    assert order_gpus(ALL, "SLOWEST_FIRST") == [H100, A100, T4]
    assert "Ignoring CUDA_DEVICE_ORDER='SLOWEST_FIRST'" in caplog.text


def test_fastest_first_ties_break_by_bus_id():
    twins = [gpu("b", "0000:02:00.0", (8, 0)), gpu("a", "0000:01:00.0", (8, 0))]
    assert [g.name for g in order_gpus(twins, None)] == ["a", "b"]


ORDERED = [T4, H100, A100]


@pytest.mark.parametrize("value,expected", [
    (None, [T4, H100, A100]),
    ("0,1,2", [T4, H100, A100]),
    ("2,0", [A100, T4]),
    ("1", [H100]),
    (" 1 , 0 ", [H100, T4]),
    ("", []),
    ("-1", []),
    ("0,-1,2", [T4]),          # the first invalid entry ends the list
    ("0,7,1", [T4]),           # an index past the end is invalid
    ("1,1,2", [H100]),         # a repeated device is invalid
    ("GPU-bbbb2222", [T4]),
    ("GPU-bbbb", [T4]),        # a unique UUID prefix is enough
    ("GPU-aaaa", []),          # an ambiguous prefix is invalid
    ("gpu-AAAA3333,0", [H100, T4]),
    ("1,GPU-nope,0", [H100]),
])
def test_visible_devices(value, expected):
    assert apply_visible_devices(ORDERED, value) == expected
