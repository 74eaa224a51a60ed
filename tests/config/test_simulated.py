"""PLACEFLOW_SIMULATED_GPUS parsing and the simulated GpuInfo records."""

import pytest

from placeflow.config.simulated import DEFAULT_MEMORY, parse_simulated_gpus, simulated_gpus


@pytest.mark.parametrize("value,expected", [
    (None, (0, DEFAULT_MEMORY)), ("", (0, DEFAULT_MEMORY)), ("0", (0, DEFAULT_MEMORY)),
    ("4", (4, DEFAULT_MEMORY)), ("4:2GiB", (4, 2 << 30)), ("2:512MiB", (2, 512 << 20)),
    ("1:1.5GiB", (1, 3 << 29)), ("3:2GB", (3, 2 * 10**9)), (" 2:2gib ", (2, 2 << 30)),
])
def test_parse(value, expected):
    assert parse_simulated_gpus(value) == expected


@pytest.mark.parametrize("value", ["four", "4:2", "4:2XB", "-1", "4:", "4:2GiB:1"])
def test_bad_values_quote_the_value_and_show_the_form(value):
    with pytest.raises(ValueError) as info:
        parse_simulated_gpus(value)
    assert repr(value) in str(info.value) and "'PLACEFLOW_SIMULATED_GPUS=4:2GiB'" in str(info.value)


def test_too_small_is_refused():
    with pytest.raises(ValueError, match="at least 1MiB"):
        parse_simulated_gpus("2:10KiB")


def test_simulated_gpus_are_labelled_and_distinct():
    gpus = simulated_gpus(3, 1 << 30)
    assert all(g.simulated and g.compute_capability is None for g in gpus)
    assert len({g.uuid for g in gpus}) == len({g.pci_bus_id for g in gpus}) == 3
    assert "simulated" in gpus[0].short_description(0)
