"""The BFC allocator on its own: rounding, bins, best fit, splitting, coalescing, growth, limits."""

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from placeflow.memory.bfc import (
    CACHED, FREE, IN_USE, MIN_ALLOCATION, BFCAllocator, VirtualAddressSpace, bin_for_size, rounded_size, size_class,
)

MIB = 1 << 20


def make(limit=64 * MIB, growth=True):
    return BFCAllocator("GPU_0_bfc", limit, growth, VirtualAddressSpace(0x7F0000000000))


def check_invariants(allocator):
    """Chunks tile their regions, never overlap, free ones are binned and coalesced, stats add up."""
    chunks = allocator.chunks()  # settles: queued frees applied, cache coalesced
    in_use = 0
    for region in allocator.regions:
        chunk, cursor, previous = region.first, region.ptr, None
        while chunk is not None:
            assert chunk.ptr == cursor and chunk.region is region and chunk.prev is previous
            assert chunk.ptr % MIN_ALLOCATION == 0 and chunk.size % MIN_ALLOCATION == 0 and chunk.size > 0
            assert chunk.state in (IN_USE, FREE)
            if chunk.state == FREE:
                assert allocator._free[chunk.ptr] is chunk
                assert (chunk.size, chunk.ptr) in allocator._bins[bin_for_size(chunk.size)]
                assert previous is None or previous.state != FREE, "two free neighbours were not coalesced"
            else:
                in_use += chunk.size
            cursor, previous, chunk = cursor + chunk.size, chunk, chunk.next
        assert cursor == region.ptr + region.size
    spans = sorted((c.ptr, c.ptr + c.size) for c in chunks)
    assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:])), "chunks overlap"
    assert in_use == allocator.in_use <= allocator.reserved <= allocator.limit
    assert sum(len(b) for b in allocator._bins) == len(allocator._free)
    assert allocator.reserved == sum(r.size for r in allocator.regions)


def test_sizes_round_up_to_256_bytes_and_bins_are_powers_of_two():
    assert [rounded_size(n) for n in (0, 1, 256, 257, 1000)] == [256, 256, 256, 512, 1024]
    assert [bin_for_size(n) for n in (256, 511, 512, 1 << 20, 256 << 20, 1 << 40)] == [0, 0, 1, 12, 20, 20]


def test_cache_classes_are_eighths_of_a_power_of_two():
    assert [size_class(n) for n in (256, 3840, 4096, 4352, 4608, 8191 & ~255, 1 << 20, (1 << 20) + 300)] == [
        256, 3840, 4096, 4096, 4608, 7680, 1 << 20, 1 << 20]


def test_a_freed_chunk_serves_an_equal_request_from_the_cache_and_a_smaller_one_by_best_fit():
    allocator = make()
    first = allocator.allocate(1 << 20)
    allocator.free(first)
    again = allocator.allocate(1 << 20)
    assert again is first                          # the free-then-allocate pair: a few list operations
    allocator.free(again)
    smaller = allocator.allocate((1 << 20) - 4096)  # TF's best fit: the coalesced 2 MiB region, split
    assert smaller.size == (1 << 20) - 4096 and allocator.in_use == (1 << 20) - 4096
    check_invariants(allocator)


def test_growth_starts_with_a_2_mib_region_and_doubles():
    allocator = make()
    allocator.allocate(1000)
    assert [r.size for r in allocator.regions] == [2 * MIB]
    allocator.allocate(2 * MIB)
    allocator.allocate(3 * MIB)
    assert [r.size for r in allocator.regions] == [2 * MIB, 4 * MIB, 8 * MIB]
    check_invariants(allocator)


def test_preallocation_reserves_the_whole_limit_at_once():
    allocator = make(limit=16 * MIB, growth=False)
    assert allocator.reserved == 16 * MIB and len(allocator.regions) == 1
    allocator.allocate(5 * MIB)
    assert allocator.reserved == 16 * MIB and len(allocator.regions) == 1


def test_best_fit_takes_the_smallest_free_chunk_that_fits():
    allocator = make(growth=False)
    a, gap1, b, gap2, c = (allocator.allocate(n) for n in (4096, 256, 1024, 256, 2048))
    allocator.free(a)
    allocator.free(b)
    allocator.free(c)
    allocator.settle()
    chosen = allocator.allocate(1000)
    assert chosen.ptr == b.ptr and chosen.size == 1024
    check_invariants(allocator)


def test_a_chunk_is_split_only_when_the_rest_is_at_least_as_big():
    allocator = make(growth=False)
    big = allocator.allocate(4096)
    allocator.allocate(256)  # keeps big's neighbour in use
    allocator.free(big)
    allocator.settle()
    small = allocator.allocate(2560)  # 4096 - 2560 < 2560: the whole chunk is handed out
    assert small.size == 4096 and small.requested == 2560
    allocator.free(small)
    allocator.settle()
    assert allocator.allocate(2048).size == 2048  # 4096 - 2048 >= 2048: split


def test_freeing_coalesces_neighbours_back_into_one_region_chunk():
    allocator = make(growth=False)
    chunks = [allocator.allocate(n) for n in (1000, 5000, 300, 70000)]
    for chunk in (chunks[1], chunks[3], chunks[0], chunks[2]):
        allocator.free(chunk)
    found = allocator.chunks()
    assert len(found) == 1 and found[0].state == FREE and found[0].size == allocator.limit
    check_invariants(allocator)


def test_a_freed_chunk_of_the_same_size_is_reused_first():
    allocator = make()
    first = allocator.allocate(10000)
    allocator.free(first)
    assert first.state == CACHED
    assert allocator.allocate(9999) is first


def test_the_limit_is_never_exceeded_and_a_miss_returns_none():
    allocator = make(limit=8 * MIB)
    held = [allocator.allocate(3 * MIB), allocator.allocate(3 * MIB)]
    assert allocator.allocate(3 * MIB) is None
    assert allocator.allocate(9 * MIB) is None
    # each 3 MiB request got a whole 4 MiB region: a 1 MiB rest is too small to split off
    assert allocator.in_use == 8 * MIB and allocator.reserved == 8 * MIB
    allocator.free(held.pop())
    assert allocator.allocate(3 * MIB) is not None


def test_wholly_free_regions_are_released_and_make_room_for_a_bigger_one():
    allocator = make(limit=8 * MIB)
    small = allocator.allocate(MIB)
    allocator.allocate(2 * MIB)
    assert [r.size for r in allocator.regions] == [2 * MIB, 4 * MIB]
    allocator.free(small)
    assert allocator.release_free_regions() == 2 * MIB
    assert [r.size for r in allocator.regions] == [4 * MIB]
    check_invariants(allocator)


def test_a_miss_releases_free_regions_instead_of_failing():
    allocator = make(limit=6 * MIB)
    chunks = [allocator.allocate(MIB), allocator.allocate(2 * MIB)]  # regions of 2 and 4 MiB
    for chunk in chunks:
        allocator.free(chunk)
    assert allocator.allocate(5 * MIB) is not None  # neither region fits; both go back, one of 6 MiB comes
    assert [r.size for r in allocator.regions] == [6 * MIB]


def test_double_free_is_refused():
    allocator = make()
    chunk = allocator.allocate(100)
    allocator.free(chunk)
    with pytest.raises(RuntimeError, match="freed twice"):
        allocator.free(chunk)


def test_stats_track_use_peaks_and_fragmentation():
    allocator = make(limit=8 * MIB, growth=False)
    chunks = [allocator.allocate(MIB) for _ in range(8)]
    for chunk in chunks[::2]:
        allocator.free(chunk)
    stats = allocator.stats()
    assert stats["bytes_in_use"] == 4 * MIB and stats["peak_bytes_in_use"] == 8 * MIB
    assert stats["largest_free_block_bytes"] == MIB and stats["fragmentation"] == pytest.approx(0.75)
    assert stats["num_allocs"] == 8 and stats["live_allocations"] == 4
    allocator.reset_peaks()
    assert allocator.stats()["peak_bytes_in_use"] == 4 * MIB


def test_frees_queued_from_other_threads_are_applied_by_the_next_call():
    allocator = make()
    chunks = [allocator.allocate(4096) for _ in range(200)]
    threads = [threading.Thread(target=lambda part=chunks[i::4]: [allocator.queue_free(c) for c in part])
               for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert allocator.stats()["bytes_in_use"] == 0
    check_invariants(allocator)


operations = st.lists(st.tuples(st.booleans(), st.integers(1, 3 * MIB), st.integers(0, 1000)), max_size=120)


@settings(max_examples=120, deadline=None)
@given(operations, st.booleans(), st.sampled_from([4 * MIB, 16 * MIB, 16 * MIB + 300]))
def test_random_allocate_free_sequences_keep_every_invariant(ops, growth, limit):
    allocator = make(limit=limit, growth=growth)
    live = []
    for allocate, size, pick in ops:
        if allocate or not live:
            chunk = allocator.allocate(size)
            if chunk is not None:
                assert chunk.size >= size and chunk.state == IN_USE
                live.append(chunk)
            else:  # a refusal is honest: no free chunk fits and the limit leaves no room for a region
                needed = rounded_size(size)
                assert allocator.largest_free_block() < needed and allocator.limit - allocator.reserved < needed
        else:
            allocator.free(live.pop(pick % len(live)))
        assert allocator.in_use <= allocator.limit
    check_invariants(allocator)
    for chunk in live:
        allocator.queue_free(chunk)
    check_invariants(allocator)
    for region in allocator.regions:  # all freed: one free chunk per region
        assert region.first.state == FREE and region.first.size == region.size and region.first.next is None
    assert allocator.in_use == 0


def test_trim_gives_back_the_unused_tail_of_a_best_fit_chunk_and_coalesces_it():
    allocator = make(growth=False)
    first = allocator.allocate(7 * MIB)
    allocator.allocate(MIB)                       # a neighbour keeps the 7 MiB chunk from merging away
    allocator.free(first)
    value = allocator.allocate(4 * MIB)           # best fit: the 7 MiB chunk, not split (3 MiB < 4 MiB)
    assert value.size == 7 * MIB and allocator.in_use == 8 * MIB
    assert allocator.trim(value) == 3 * MIB
    assert value.size == 4 * MIB and allocator.in_use == 5 * MIB
    tail = value.next
    assert tail.state == FREE and tail.ptr == value.ptr + 4 * MIB and tail.size == 3 * MIB
    check_invariants(allocator)
    assert allocator.trim(value) == 0             # nothing left to give back
    allocator.free(value)
    check_invariants(allocator)


def test_trim_leaves_a_freed_chunk_alone():
    allocator = make()
    chunk = allocator.allocate(MIB)
    allocator.free(chunk)
    assert allocator.trim(chunk) == 0
    check_invariants(allocator)
