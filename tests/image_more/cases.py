"""tf.image cases (SSIM, boxes, glimpses, NMS variants, distorted boxes, JPEG quality, WebP) run by TensorFlow 2.21
(record_tf_image_more.py) and placeflow (test_image_more.py): each `case_<name>(tf)` returns JSON-able results."""

import base64

import numpy as np

RNG = np.random.RandomState(11)
IMG_A = RNG.uniform(0, 1, (2, 16, 17, 3)).astype(np.float32)
IMG_B = np.clip(IMG_A + RNG.normal(0, 0.1, IMG_A.shape), 0, 1).astype(np.float32)
U8_A = RNG.randint(0, 256, (20, 21, 1)).astype(np.uint8)
U8_B = np.clip(U8_A.astype(np.int32) + RNG.randint(-30, 30, U8_A.shape), 0, 255).astype(np.uint8)
BIG_A = RNG.uniform(0, 1, (1, 177, 183, 2)).astype(np.float32)
BIG_B = np.clip(BIG_A * 0.8 + RNG.uniform(0, 0.2, BIG_A.shape), 0, 1).astype(np.float32)
MID_A = RNG.uniform(0, 1, (2, 45, 51, 1)).astype(np.float32)
MID_B = np.clip(MID_A + RNG.normal(0, 0.2, MID_A.shape), 0, 1).astype(np.float32)
GLIMPSE_IN = np.arange(2 * 8 * 10 * 2, dtype=np.float32).reshape(2, 8, 10, 2)
PHOTO = (np.add.outer(np.arange(16), np.arange(18))[..., None] * np.array([7, 3, 5]) % 256).astype(np.uint8)

WEBP = {
    "lossless_rgb": "UklGRrYAAABXRUJQVlA4TKoAAAAvBQABAO/AJgDAJHMX3BrA71zelxqk4F8FgjANADDJFEvuRM3+AG/wIxdRtbkD29ra0uDSWUUL/"
                    "yasQMscmSpLpE7ttoafM/+Rgz89ipUHaXnr3Y96gPF6pWw1/aV0V505+L8qqsFdWJvogMZIloRw2jtytmKCSrA/a6MH/F"
                    "oT23mmU2ijL/aw0CA0gMJIkszY3ds2IvofJYLc/nDsQ1Cm1zcuv3lDtSSpBg==",
    "lossless_rgba": "UklGRoYAAABXRUJQVlA4THoAAAAvAsAAEF+gKLLVhqKCwTekeImA3OKkHpsNJZEkOaLO8rk4nP89PM2JPlITSZJypODcwL+M1"
                     "0rpZ2TmFBiKbON/yqgkgT7mh3GWQhW3OC9tc6b8Kp32nPeYib52b/VXAd1a1mU63bEFFLVtAyfb7qaw99guov/xFbZzCQ==",
    "lossy_rgb": "UklGRkIAAABXRUJQVlA4IDYAAABwAgCdASoQABAAAoBCJbACdLoBEgAMDge7UiSAAP78AlzsX/bJqvLIV/qdUp4WFx1KPe5QwAA=",
}


from tests.image_more.helpers import error, grad, values  # noqa: E402,F401


# -- ssim ------------------------------------------------------------------------------------------------------

def case_ssim_float(tf):
    return values(tf.image.ssim(tf.constant(IMG_A), tf.constant(IMG_B), 1.0))


def case_ssim_uint8_single(tf):
    return values(tf.image.ssim(U8_A, U8_B, 255))


def case_ssim_options(tf):
    return values(tf.image.ssim(IMG_A, IMG_B, 2.0, filter_size=5, filter_sigma=0.8, k1=0.02, k2=0.05))


def case_ssim_index_map(tf):
    return values(tf.image.ssim(IMG_A[:1], IMG_B[:1], 1.0, filter_size=7, return_index_map=True))


def case_ssim_gradient(tf):
    return grad(tf, lambda x: tf.reduce_sum(tf.image.ssim(x, tf.constant(IMG_B), 1.0)), IMG_A)


def case_ssim_function(tf):
    return values(tf.function(lambda a, b: tf.image.ssim(a, b, 1.0, filter_size=3))(IMG_A, IMG_B))


def case_ssim_too_small(tf):
    return error(lambda: tf.image.ssim(IMG_A[:, :8, :8], IMG_B[:, :8, :8], 1.0))


def case_ssim_shape_mismatch(tf):
    return error(lambda: tf.image.ssim(IMG_A, IMG_B[:, :15], 1.0))


def case_ssim_multiscale_default(tf):
    return values(tf.image.ssim_multiscale(BIG_A, BIG_B, 1.0))


def case_ssim_multiscale_three(tf):
    return values(tf.image.ssim_multiscale(MID_A, MID_B, 1.0, power_factors=(0.2, 0.3, 0.5), filter_size=7))


def case_ssim_multiscale_uint8(tf):
    a, b = (np.repeat(np.repeat(u, 3, 0), 3, 1)[:58, :60] for u in (U8_A, U8_B))
    return values(tf.image.ssim_multiscale(a, b, 255, power_factors=(0.5, 0.5), filter_size=5))


def case_ssim_multiscale_gradient(tf):
    return grad(tf, lambda x: tf.reduce_sum(tf.image.ssim_multiscale(x, MID_B, 1.0, power_factors=(0.4, 0.6),
                                                                     filter_size=5)), MID_A)


def case_ssim_multiscale_function(tf):
    fn = tf.function(lambda a, b: tf.image.ssim_multiscale(a, b, 1.0, power_factors=(0.3, 0.7), filter_size=5))
    return values(fn(MID_A, MID_B))


# -- draw_bounding_boxes --------------------------------------------------------------------------------------

BOXES = np.array([[[0.1, 0.1, 0.5, 0.6], [0.0, 0.0, 1.0, 1.0], [0.6, 0.7, 0.3, 0.9]],
                  [[-0.2, 0.3, 0.5, 1.4], [1.2, 0.1, 1.5, 0.5], [0.25, 0.25, 0.26, 0.26]]], np.float32)


def case_draw_boxes_colors(tf):
    images = tf.zeros([2, 10, 12, 3])
    return values(tf.image.draw_bounding_boxes(images, BOXES, [[1.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0]]))


def case_draw_boxes_default_colors(tf):
    boxes = np.array([[[0.05 * i, 0.05 * i, 0.05 * i + 0.3, 0.05 * i + 0.4] for i in range(12)]], np.float32)
    return values(tf.image.draw_bounding_boxes(np.full([1, 14, 15, 4], 0.25, np.float32), boxes,
                                               np.zeros([0, 4], np.float32)))


def case_draw_boxes_gray(tf):
    return values(tf.image.draw_bounding_boxes(np.full([2, 7, 6, 1], 0.5, np.float32), BOXES,
                                               [[0.3, 0.2, 0.1, 1.0]]))


def case_draw_boxes_half(tf):
    out = tf.image.draw_bounding_boxes(tf.zeros([2, 5, 5, 3], tf.float16), BOXES, [[0.5, 0.25, 1.0, 1.0]])
    return values(out)


def case_draw_boxes_function(tf):
    fn = tf.function(lambda i, b: tf.image.draw_bounding_boxes(i, b, [[1.0, 1.0, 0.0, 1.0]]))
    return values(fn(tf.zeros([2, 6, 6, 3]), BOXES))


def case_draw_boxes_bad_depth(tf):
    return error(lambda: tf.image.draw_bounding_boxes(tf.zeros([1, 5, 5, 2]), BOXES[:1], [[1.0, 0, 0, 1]]))


def case_draw_boxes_bad_boxes(tf):
    return error(lambda: tf.image.draw_bounding_boxes(tf.zeros([1, 5, 5, 3]), BOXES[:1, :, :3], [[1.0, 0, 0, 1]]))


def case_draw_boxes_short_colors(tf):
    return error(lambda: tf.image.draw_bounding_boxes(tf.zeros([1, 5, 5, 3]), BOXES[:1], [[1.0, 0.0]]))


# -- extract_glimpse ------------------------------------------------------------------------------------------

OFFSETS = np.array([[0.1, -0.3], [-0.9, 0.8]], np.float32)
PIXEL_OFFSETS = np.array([[2.7, 3.2], [-1.5, 7.9]], np.float32)


def case_glimpse_centered_normalized(tf):
    return values(tf.image.extract_glimpse(GLIMPSE_IN, [3, 4], OFFSETS, noise="zero"))


def case_glimpse_normalized(tf):
    return values(tf.image.extract_glimpse(GLIMPSE_IN, [3, 4], np.abs(OFFSETS), centered=False, noise="zero"))


def case_glimpse_centered_pixels(tf):
    return values(tf.image.extract_glimpse(GLIMPSE_IN, [4, 3], PIXEL_OFFSETS - 4, normalized=False, noise="zero"))


def case_glimpse_pixels(tf):
    return values(tf.image.extract_glimpse(GLIMPSE_IN, [4, 5], PIXEL_OFFSETS, centered=False, normalized=False,
                                           noise="zero"))


def case_glimpse_bigger_than_image(tf):
    return values(tf.image.extract_glimpse(GLIMPSE_IN, [10, 12], [[0.0, 0.0], [0.3, 0.2]], noise="zero"))


def case_glimpse_uniform_inside(tf):
    return values(tf.image.extract_glimpse(GLIMPSE_IN, [2, 2], [[0.0, 0.0], [0.2, -0.2]]))


def case_glimpse_function(tf):
    fn = tf.function(lambda x, o: tf.image.extract_glimpse(x, [3, 3], o, noise="zero"))
    return values(fn(GLIMPSE_IN, OFFSETS))


def case_glimpse_bad_noise(tf):
    return error(lambda: tf.image.extract_glimpse(GLIMPSE_IN, [3, 3], OFFSETS, noise="pink"))


def case_glimpse_bad_offsets(tf):
    return error(lambda: tf.image.extract_glimpse(GLIMPSE_IN, [3, 3], OFFSETS[:1], noise="zero"))


# -- JPEG quality ---------------------------------------------------------------------------------------------

def case_adjust_jpeg_quality_uint8(tf):
    return values(tf.image.adjust_jpeg_quality(PHOTO, 40, dct_method="INTEGER_ACCURATE"))


def case_adjust_jpeg_quality_float(tf):
    return values(tf.image.adjust_jpeg_quality(tf.image.convert_image_dtype(PHOTO, tf.float32), 75,
                                                  dct_method="INTEGER_ACCURATE"))


def case_adjust_jpeg_quality_batch(tf):
    return error(lambda: tf.image.adjust_jpeg_quality(np.stack([PHOTO, PHOTO[::-1]]), tf.constant(20),
                                                          dct_method="INTEGER_ACCURATE"))


def case_adjust_jpeg_quality_function(tf):
    fn = tf.function(lambda x, q: tf.image.adjust_jpeg_quality(x, q, dct_method="INTEGER_ACCURATE"))
    return values(fn(PHOTO[:, :, :1], tf.constant(90)))


def case_adjust_jpeg_quality_bad_channels(tf):
    return error(lambda: tf.image.adjust_jpeg_quality(np.zeros([4, 4, 2], np.uint8), 50,
                                                          dct_method="INTEGER_ACCURATE"))


# -- decode_webp ----------------------------------------------------------------------------------------------

def _webp(key):
    return base64.b64decode(WEBP[key])


def case_decode_webp_lossless(tf):
    return [values(tf.image.decode_webp(_webp("lossless_rgb"))),
            values(tf.image.decode_webp(_webp("lossless_rgba"))),
            error(lambda: tf.image.decode_webp(_webp("lossless_rgba"), channels=3)),
            values(tf.image.decode_webp(_webp("lossless_rgba"), channels=4)),
            error(lambda: tf.image.decode_webp(_webp("lossless_rgb"), channels=4))]


def case_decode_webp_lossy(tf):
    return values(tf.image.decode_webp(_webp("lossy_rgb"), channels=3))


def case_decode_webp_function(tf):
    return values(tf.function(lambda c: tf.image.decode_webp(c))(tf.constant(_webp("lossless_rgb"))))


def case_decode_webp_bad(tf):
    return [error(lambda: tf.image.decode_webp(b"not a webp file")),
            error(lambda: tf.image.decode_webp(_webp("lossless_rgb"), channels=1)),
            error(lambda: tf.image.decode_webp(_webp("lossless_rgb"), dtype=tf.float32))]


from tests.image_more.cases_boxes import *  # noqa: E402,F401,F403 - the NMS and sampled-box cases

CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}

# Cases not also run with tests.traced_api.traced(tf) (every function inside tf.function), by name, with the reason.
TRACED_EXCLUDED: dict = {}
# Documented divergences (docs/divergences.md) in those runs: {case: {path in its result: (placeflow's, reason)}}.
TRACED_DIVERGENT: dict = {}
