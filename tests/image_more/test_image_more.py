"""placeflow's SSIM, box, glimpse, NMS, sampled-box, JPEG-quality and WebP functions equal TensorFlow 2.21's recorded
results (cases.py, record_tf_image_more.py): floats within 1e-5 (relative or absolute), everything else exactly;
errors by class."""

import json
import pathlib

import numpy as np
import pytest

import placeflow as tf
from tests.helpers import same_as_recorded as _same
from tests.image_more.cases import CASES, GLIMPSE_IN, TRACED_DIVERGENT, TRACED_EXCLUDED
from tests.traced_api import traced_tests

RECORDED = json.loads(pathlib.Path(__file__).with_name("tf_2_21.json").read_text())["cases"]




def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_equals_tensorflow(name):
    _same(json.loads(json.dumps(CASES[name](tf))), RECORDED[name], name)


test_every_case_was_recorded_in_a_function, test_case_in_a_function_equals_tensorflow = traced_tests(
    __file__, CASES, TRACED_EXCLUDED, TRACED_DIVERGENT, _same)


def test_random_glimpse_noise_outside_the_image_is_refused_by_name():
    for noise in ("uniform", "gaussian"):
        with pytest.raises(NotImplementedError, match="noise"):
            tf.image.extract_glimpse(GLIMPSE_IN, [3, 3], [[0.9, 0.9], [0.0, 0.0]], noise=noise)


def test_animated_webp_is_refused_by_name():
    import io
    from PIL import Image
    frames = [Image.fromarray(np.full((4, 5, 3), c, np.uint8)) for c in (10, 200)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "WEBP", save_all=True, append_images=frames[1:], lossless=True, duration=50)
    with pytest.raises(NotImplementedError, match="animated"):
        tf.image.decode_webp(buffer.getvalue())


@pytest.mark.parametrize("method", ["", "INTEGER_FAST"])
def test_jpeg_fast_idct_is_refused_by_name(method):
    """TF's default ('') decodes with libjpeg's fast IDCT, which placeflow's Pillow decoder does not reproduce."""
    with pytest.raises(NotImplementedError, match="dct_method"):
        tf.image.adjust_jpeg_quality(np.zeros([4, 4, 3], np.uint8), 50, dct_method=method)


def test_random_jpeg_quality_is_refused_by_name():
    for name in ("random_jpeg_quality", "stateless_random_jpeg_quality"):
        with pytest.raises(NotImplementedError, match=name):
            getattr(tf.image, name)(np.zeros([4, 4, 3], np.uint8), 10, 90, (1, 2))


def test_box_ops_have_no_gradient_as_in_tensorflow():
    images = tf.zeros([1, 4, 4, 3])
    with tf.GradientTape() as tape:
        tape.watch(images)
        out = tf.image.draw_bounding_boxes(images, [[[0.0, 0.0, 1.0, 1.0]]], [[1.0, 0.0, 0.0, 1.0]])
    with pytest.raises(LookupError):
        tape.gradient(out, images)
