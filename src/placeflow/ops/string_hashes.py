"""The string hashes TensorFlow's ops use, bit for bit: FarmHash's Fingerprint64 (to_hash_bucket_fast,
tf.fingerprint, sparse.cross_hashed), FingerprintCat64 (combining crossed features) and SipHash-2-4
(to_hash_bucket_strong).

Written from the published algorithms (FarmHash's farmhashna::Hash64, which Fingerprint64 is; SipHash by
Aumasson and Bernstein) and checked against values recorded from TensorFlow 2.21 (the case_string_* hash cases of tests/conformance).
Pure Python on 64-bit integers masked to their width: a few microseconds per short string."""

from __future__ import annotations

import struct

MASK = (1 << 64) - 1
K0, K1, K2 = 0xC3A5C85C97CB3127, 0xB492B66FBE98F273, 0x9AE16A3B2F90404F
CAT_MUL = 0xC6A4A7935BD1E995


def _fetch64(data: bytes, at: int) -> int:
    return struct.unpack_from("<Q", data, at)[0]


def _fetch32(data: bytes, at: int) -> int:
    return struct.unpack_from("<I", data, at)[0]


def _rotate(value: int, shift: int) -> int:
    return value if shift == 0 else ((value >> shift) | (value << (64 - shift))) & MASK


def _shift_mix(value: int) -> int:
    return value ^ (value >> 47)


def _hash_len16(u: int, v: int, mul: int) -> int:
    a = ((u ^ v) * mul) & MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & MASK
    b ^= b >> 47
    return (b * mul) & MASK


def _len_0_to_16(data: bytes) -> int:
    size = len(data)
    if size >= 8:
        mul = K2 + size * 2
        a = (_fetch64(data, 0) + K2) & MASK
        b = _fetch64(data, size - 8)
        c = (_rotate(b, 37) * mul + a) & MASK
        d = ((_rotate(a, 25) + b) * mul) & MASK
        return _hash_len16(c, d, mul)
    if size >= 4:
        mul = K2 + size * 2
        return _hash_len16((size + (_fetch32(data, 0) << 3)) & MASK, _fetch32(data, size - 4), mul)
    if size > 0:
        y = (data[0] + (data[size >> 1] << 8)) & 0xFFFFFFFF
        z = (size + (data[size - 1] << 2)) & 0xFFFFFFFF
        return (_shift_mix(((y * K2) ^ (z * K0)) & MASK) * K2) & MASK
    return K2


def _len_17_to_32(data: bytes) -> int:
    size = len(data)
    mul = K2 + size * 2
    a = (_fetch64(data, 0) * K1) & MASK
    b = _fetch64(data, 8)
    c = (_fetch64(data, size - 8) * mul) & MASK
    d = (_fetch64(data, size - 16) * K2) & MASK
    return _hash_len16((_rotate((a + b) & MASK, 43) + _rotate(c, 30) + d) & MASK,
                       (a + _rotate((b + K2) & MASK, 18) + c) & MASK, mul)


def _len_33_to_64(data: bytes) -> int:
    size = len(data)
    mul = K2 + size * 2
    a = (_fetch64(data, 0) * K2) & MASK
    b = _fetch64(data, 8)
    c = (_fetch64(data, size - 8) * mul) & MASK
    d = (_fetch64(data, size - 16) * K2) & MASK
    y = (_rotate((a + b) & MASK, 43) + _rotate(c, 30) + d) & MASK
    z = _hash_len16(y, (a + _rotate((b + K2) & MASK, 18) + c) & MASK, mul)
    e = (_fetch64(data, 16) * mul) & MASK
    f = _fetch64(data, 24)
    g = ((y + _fetch64(data, size - 32)) * mul) & MASK
    h = ((z + _fetch64(data, size - 24)) * mul) & MASK
    return _hash_len16((_rotate((e + f) & MASK, 43) + _rotate(g, 30) + h) & MASK,
                       (e + _rotate((f + a) & MASK, 18) + g) & MASK, mul)


def _weak_len32_with_seeds(data: bytes, at: int, a: int, b: int) -> tuple:
    w, x, y, z = (_fetch64(data, at + 8 * i) for i in range(4))
    a = (a + w) & MASK
    b = _rotate((b + a + z) & MASK, 21)
    c = a
    a = (a + x + y) & MASK
    b = (b + _rotate(a, 44)) & MASK
    return (a + z) & MASK, (b + c) & MASK


def fingerprint64(data: bytes) -> int:
    """FarmHash's Fingerprint64 of `data` (an unsigned 64-bit int), as TensorFlow's Fingerprint64."""
    size = len(data)
    if size <= 16:
        return _len_0_to_16(data)
    if size <= 32:
        return _len_17_to_32(data)
    if size <= 64:
        return _len_33_to_64(data)
    seed = 81
    x = seed
    y = (seed * K1 + 113) & MASK
    z = (_shift_mix((y * K2 + 113) & MASK) * K2) & MASK
    v, w = (0, 0), (0, 0)
    x = (x * K2 + _fetch64(data, 0)) & MASK
    end = ((size - 1) // 64) * 64
    last64 = end + ((size - 1) & 63) - 63
    at = 0
    while True:
        x = (_rotate((x + y + v[0] + _fetch64(data, at + 8)) & MASK, 37) * K1) & MASK
        y = (_rotate((y + v[1] + _fetch64(data, at + 48)) & MASK, 42) * K1) & MASK
        x ^= w[1]
        y = (y + v[0] + _fetch64(data, at + 40)) & MASK
        z = (_rotate((z + w[0]) & MASK, 33) * K1) & MASK
        v = _weak_len32_with_seeds(data, at, (v[1] * K1) & MASK, (x + w[0]) & MASK)
        w = _weak_len32_with_seeds(data, at + 32, (z + w[1]) & MASK, (y + _fetch64(data, at + 16)) & MASK)
        z, x = x, z
        at += 64
        if at == end:
            break
    mul = K1 + ((z & 0xFF) << 1)
    at = last64
    w = ((w[0] + ((size - 1) & 63)) & MASK, w[1])
    v = ((v[0] + w[0]) & MASK, v[1])
    w = ((w[0] + v[0]) & MASK, w[1])
    x = (_rotate((x + y + v[0] + _fetch64(data, at + 8)) & MASK, 37) * mul) & MASK
    y = (_rotate((y + v[1] + _fetch64(data, at + 48)) & MASK, 42) * mul) & MASK
    x ^= (w[1] * 9) & MASK
    y = (y + v[0] * 9 + _fetch64(data, at + 40)) & MASK
    z = (_rotate((z + w[0]) & MASK, 33) * mul) & MASK
    v = _weak_len32_with_seeds(data, at, (v[1] * mul) & MASK, (x + w[0]) & MASK)
    w = _weak_len32_with_seeds(data, at + 32, (z + w[1]) & MASK, (y + _fetch64(data, at + 16)) & MASK)
    z, x = x, z
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * K0 + z) & MASK,
                       (_hash_len16(v[1], w[1], mul) + x) & MASK, mul)


def fingerprint_cat64(first: int, second: int) -> int:
    """TensorFlow's FingerprintCat64: two fingerprints combined into one (order matters)."""
    result = first ^ CAT_MUL
    result ^= (_shift_mix((second * CAT_MUL) & MASK) * CAT_MUL) & MASK
    result = (result * CAT_MUL) & MASK
    result = (_shift_mix(result) * CAT_MUL) & MASK
    return _shift_mix(result)


def _sip_round(v0, v1, v2, v3):
    v0 = (v0 + v1) & MASK
    v1 = _rotate_left(v1, 13) ^ v0
    v0 = _rotate_left(v0, 32)
    v2 = (v2 + v3) & MASK
    v3 = _rotate_left(v3, 16) ^ v2
    v0 = (v0 + v3) & MASK
    v3 = _rotate_left(v3, 21) ^ v0
    v2 = (v2 + v1) & MASK
    v1 = _rotate_left(v1, 17) ^ v2
    v2 = _rotate_left(v2, 32)
    return v0, v1, v2, v3


def _rotate_left(value: int, shift: int) -> int:
    return ((value << shift) | (value >> (64 - shift))) & MASK


def siphash24(key: tuple, data: bytes) -> int:
    """SipHash-2-4 of `data` under the 128-bit key (k0, k1), as TensorFlow's StrongKeyedHash."""
    k0, k1 = (int(k) & MASK for k in key)
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573
    size = len(data)
    whole = size - size % 8
    for at in range(0, whole, 8):
        m = _fetch64(data, at)
        v3 ^= m
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
        v0 ^= m
    last = int.from_bytes(data[whole:], "little") | ((size & 0xFF) << 56)
    v3 ^= last
    v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
    v0 ^= last
    v2 ^= 0xFF
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def hash64(data: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TensorFlow's own Hash64 (a MurmurHash64A variant) with its default seed: tf.strings.to_hash_bucket."""
    mul = CAT_MUL
    size = len(data)
    h = (seed ^ (size * mul)) & MASK
    whole = size - size % 8
    for at in range(0, whole, 8):
        k = (_fetch64(data, at) * mul) & MASK
        k = ((k ^ (k >> 47)) * mul) & MASK
        h = ((h ^ k) * mul) & MASK
    if size % 8:
        h = ((h ^ int.from_bytes(data[whole:], "little")) * mul) & MASK
    h = ((h ^ (h >> 47)) * mul) & MASK
    return h ^ (h >> 47)
