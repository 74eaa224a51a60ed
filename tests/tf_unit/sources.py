"""Which of TensorFlow's own test files the harness runs, and where their text comes from.

The files are never copied into this repository: `fetch()` reads each one into a cache outside it, from
(in order) an existing cache entry, a TensorFlow checkout named by $PLACEFLOW_TF_SOURCE_DIR, or GitHub's raw
file service at the pinned commit. Every file is checked against its recorded length before it is used.

The GitHub index this harness was built from holds single file versions, not whole releases, so each file is
pinned to the commit it was read at (the v2.21.0 tag, a481b10260d, is not available whole); `run.py --tf`
runs the same files on TensorFlow 2.21 through the same shim, so a test that the file's age breaks shows up
in the TF column and is not counted as a placeflow gap.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import tempfile
import urllib.error
import urllib.request

RAW_URL = "https://raw.githubusercontent.com/tensorflow/tensorflow/{commit}/{path}"


@dataclasses.dataclass(frozen=True)
class Source:
    """One TensorFlow test file: its area in the table, repository path, commit and length in characters."""

    area: str
    path: str
    commit: str
    chars: int

    @property
    def name(self) -> str:
        """The file's base name without .py (unique across SOURCES)."""
        return pathlib.PurePosixPath(self.path).stem


SOURCES = (
    Source("control_flow", "tensorflow/python/kernel_tests/control_flow/map_fn_test.py",
           "5f3dac2e210597405ffb238e09f0755f2ca40b03", 10572),
    Source("function", "tensorflow/python/eager/def_function_test.py",
           "003aa8da13634a0b310f599e3d6e3a48e70c54d5", 17659),
    Source("gradient_tape", "tensorflow/python/eager/backprop_test.py",
           "016bb3fc99d75a703956c00f0adf65736407da0f", 59067),
    Source("data", "tensorflow/python/data/kernel_tests/range_test.py",
           "463cad1324fcfbb082ae757484614f77bdc3929d", 6790),
    Source("data", "tensorflow/python/data/kernel_tests/take_test.py",
           "4e757284d0dc9c3e13a1a832e3ac147ae7ecf4fd", 4543),
    Source("data", "tensorflow/python/data/kernel_tests/filter_test.py",
           "19e21f7f3d3e2d18d2f9492733d2debc05e5a7d8", 6365),
    Source("data", "tensorflow/python/data/kernel_tests/batch_test.py",
           "cf79fcad5ae0fcbe1403825a9a348f4a7ae1a963", 9185),
    Source("math", "tensorflow/python/ops/math_ops_test.py",
           "00ed35853371147200b0c5aed21e6c45bbc908ad", 22913),
    Source("random", "tensorflow/python/kernel_tests/random/stateless_random_ops_test.py",
           "3175de162dde04be4720f9512a3997f5405adc15", 23242),
    Source("linalg", "tensorflow/python/kernel_tests/linalg/linalg_ops_test.py",
           "627125c8d70033891c28d3a3bdd0aadb77fba33d", 24907),
    # Added by issue 28's second pass (eager-heavy files of the areas it names):
    Source("data", "tensorflow/python/data/kernel_tests/zip_test.py",
           "010f3edcdc25a44755a4fc439a31be2282e9e9db", 5793),
    Source("data", "tensorflow/python/data/kernel_tests/concatenate_test.py",
           "010f3edcdc25a44755a4fc439a31be2282e9e9db", 7330),
    Source("math", "tensorflow/python/kernel_tests/math_ops/argmax_op_test.py",
           "0304934138cbfabd338ec432a630a9c3c1191564", 5533),
    Source("math", "tensorflow/python/kernel_tests/math_ops/topk_op_test.py",
           "4e1606f6ea28a52029cb17c205d1db9b2286818c", 10403),
    Source("random", "tensorflow/python/kernel_tests/random/random_ops_test.py",
           "00ed35853371147200b0c5aed21e6c45bbc908ad", 16354),
    Source("linalg", "tensorflow/python/kernel_tests/linalg/matrix_inverse_op_test.py",
           "08df8c40b4376ed012fa3ba03ff3e3068d8d2a94", 8247),
    Source("linalg", "tensorflow/python/kernel_tests/linalg/cholesky_op_test.py",
           "0ffe9f4a7fa180ce570980ae3d09bb129d46a8c8", 16029),
    Source("array", "tensorflow/python/kernel_tests/array_ops/unique_op_test.py",
           "609ec267e3588c2d41835a21d9c83f92c2683c10", 13624),
    Source("array", "tensorflow/python/kernel_tests/array_ops/where_op_test.py",
           "1d054e80cb5a63f3b1df886774e0f18675e8d674", 12065),
    Source("array", "tensorflow/python/kernel_tests/array_ops/broadcast_to_ops_test.py",
           "3a2c6ae8b910b9b325414c62dd6ea5a4604d3676", 8394),
    # Added by issue 28's third pass (helper 27):
    Source("data", "tensorflow/python/data/kernel_tests/shard_test.py",
           "0304934138cbfabd338ec432a630a9c3c1191564", 11629),
    Source("data", "tensorflow/python/data/kernel_tests/repeat_test.py",
           "0304934138cbfabd338ec432a630a9c3c1191564", 13770),
    Source("data", "tensorflow/python/data/kernel_tests/take_while_test.py",
           "153ddf8eec0dfe2d96716b9d6a1468e7fd30f7c8", 5460),
    Source("math", "tensorflow/python/kernel_tests/math_ops/cumulative_logsumexp_test.py",
           "00c5cd05231f16ef17ccbbd2c53fe0c4875b83f1", 4890),
    Source("math", "tensorflow/python/kernel_tests/math_ops/bucketize_op_test.py",
           "0304934138cbfabd338ec432a630a9c3c1191564", 3028),
    Source("math", "tensorflow/python/kernel_tests/math_ops/in_topk_op_test.py",
           "367004ae82afd75e13abc4fd0df2548ca416cfd8", 3448),
    Source("random", "tensorflow/python/kernel_tests/random/random_gamma_test.py",
           "0304934138cbfabd338ec432a630a9c3c1191564", 10092),
    Source("random", "tensorflow/python/kernel_tests/random/multinomial_op_test.py",
           "3a2c6ae8b910b9b325414c62dd6ea5a4604d3676", 11369),
    Source("linalg", "tensorflow/python/kernel_tests/linalg/determinant_op_test.py",
           "16aa9a40a8ca82ebae5111d4ea1991f9d393bd70", 9849),
)

AREAS = tuple(dict.fromkeys(source.area for source in SOURCES))


def cache_dir() -> pathlib.Path:
    """Where fetched files are kept: $PLACEFLOW_TF_UNIT_SOURCES, else <tmp>/placeflow-tf-unit-sources."""
    named = os.environ.get("PLACEFLOW_TF_UNIT_SOURCES")
    return pathlib.Path(named) if named else pathlib.Path(tempfile.gettempdir()) / "placeflow-tf-unit-sources"


def cached_path(source: Source, cache: pathlib.Path | None = None) -> pathlib.Path:
    """The cache entry for `source` (it may not exist yet)."""
    return (cache or cache_dir()) / source.commit[:12] / source.path


def _check(source: Source, text: str, origin: str) -> str:
    if len(text) != source.chars:
        raise RuntimeError(f"{source.path} from {origin} has {len(text)} characters, expected {source.chars} "
                           f"(commit {source.commit}): delete it and fetch again")
    return text


def fetch(source: Source, cache: pathlib.Path | None = None, timeout: float = 30.0) -> pathlib.Path:
    """The path of `source`'s text in the cache, reading it there first if needed; RuntimeError if no origin has it."""
    target = cached_path(source, cache)
    if target.exists():
        _check(source, target.read_text(encoding="utf-8"), str(target))
        return target
    checkout = os.environ.get("PLACEFLOW_TF_SOURCE_DIR")
    if checkout and (pathlib.Path(checkout) / source.path).exists():
        text = _check(source, (pathlib.Path(checkout) / source.path).read_text(encoding="utf-8"), checkout)
    else:
        url = RAW_URL.format(commit=source.commit, path=source.path)
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - a fixed https URL
                text = _check(source, response.read(1 << 22).decode("utf-8"), url)
        except (urllib.error.URLError, OSError, UnicodeDecodeError) as error:
            raise RuntimeError(f"cannot read {source.path}@{source.commit[:12]}: not in {target.parent.parent}, "
                               f"$PLACEFLOW_TF_SOURCE_DIR unset or without it, and {url} failed ({error})") from error
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target
