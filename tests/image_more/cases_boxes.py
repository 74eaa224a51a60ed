"""Non-max suppression and sampled-box cases of tests/image_more (collected into cases.CASES)."""

import numpy as np

from tests.image_more.helpers import error, values

NMS_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                      [0, 100, 1, 101], [0.5, 0.5, 0.9, 0.9], [1, 1, 0, 0]], np.float32)
NMS_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.8, 0.1], np.float32)


# -- combined_non_max_suppression -----------------------------------------------------------------------------

CBOXES = np.stack([NMS_BOXES[:6], NMS_BOXES[[6, 0, 1, 3, 4, 2]] * 0.5])[:, :, None, :]
CSCORES = np.array([[[0.9, 0.1, 0.35], [0.8, 0.6, 0.3], [0.55, 0.7, 0.05], [0.4, 0.95, 0.2], [0.45, 0.5, 0.25],
                     [0.15, 0.2, 0.33]],
                    [[0.12, 0.91, 0.5], [0.82, 0.61, 0.31], [0.52, 0.72, 0.06], [0.41, 0.93, 0.21],
                     [0.46, 0.51, 0.26], [0.16, 0.22, 0.34]]], np.float32)


def _combined(tf, *args, **kwargs):
    return [values(t) for t in tf.image.combined_non_max_suppression(*args, **kwargs)]


def case_combined_nms(tf):
    return _combined(tf, CBOXES, CSCORES, 3, 7, iou_threshold=0.5, score_threshold=0.2)


def case_combined_nms_pad_per_class(tf):
    return _combined(tf, CBOXES, CSCORES, 2, 10, iou_threshold=0.4, pad_per_class=True)


def case_combined_nms_no_clip(tf):
    return _combined(tf, CBOXES * 2.0, CSCORES, 4, 5, clip_boxes=False)


def case_combined_nms_per_class_boxes(tf):
    boxes = np.concatenate([CBOXES, CBOXES[:, ::-1] * 0.7, CBOXES * 1.1], axis=2)
    return _combined(tf, boxes, CSCORES, 3, 6, iou_threshold=0.3, score_threshold=0.25)


def case_combined_nms_function(tf):
    fn = tf.function(lambda b, s: tf.image.combined_non_max_suppression(b, s, 2, 4))
    return [values(t) for t in fn(CBOXES, CSCORES)]


def case_combined_nms_bad_q(tf):
    return error(lambda: tf.image.combined_non_max_suppression(np.concatenate([CBOXES, CBOXES], 2), CSCORES, 2, 4))


# -- non_max_suppression_padded -------------------------------------------------------------------------------

def _padded(tf, *args, **kwargs):
    boxes, scores = (tf.constant(a) for a in args[:2])
    return [values(t) for t in tf.image.non_max_suppression_padded(boxes, scores, *args[2:], **kwargs)]


def case_nms_padded(tf):
    return _padded(tf, NMS_BOXES, NMS_SCORES, 5)


def case_nms_padded_pad(tf):
    return _padded(tf, NMS_BOXES, NMS_SCORES, 6, iou_threshold=0.3, pad_to_max_output_size=True)


def case_nms_padded_score_threshold(tf):
    return _padded(tf, NMS_BOXES, NMS_SCORES, 8, score_threshold=0.55, pad_to_max_output_size=True)


def case_nms_padded_small_tiles(tf):
    return _padded(tf, NMS_BOXES, NMS_SCORES, 8, iou_threshold=0.2, tile_size=3)


def case_nms_padded_sorted_input(tf):
    order = np.argsort(-NMS_SCORES, kind="stable")
    return _padded(tf, NMS_BOXES[order], NMS_SCORES[order], 4, sorted_input=True, canonicalized_coordinates=True)


def case_nms_padded_flipped(tf):
    boxes = NMS_BOXES[[7, 0, 1, 2, 3, 4, 5, 6]][:, [2, 3, 0, 1]]
    return _padded(tf, boxes, NMS_SCORES, 5, iou_threshold=0.4)


def case_nms_padded_batched(tf):
    boxes = np.stack([NMS_BOXES, NMS_BOXES[::-1] * 2.0, NMS_BOXES * 0.5])[None]
    scores = np.stack([NMS_SCORES, NMS_SCORES, NMS_SCORES[::-1]])[None]
    return _padded(tf, boxes, scores, 4, pad_to_max_output_size=True, tile_size=4)


def case_nms_padded_function(tf):
    fn = tf.function(lambda b, s: tf.image.non_max_suppression_padded(b, s, 4, pad_to_max_output_size=True))
    return [values(t) for t in fn(NMS_BOXES, NMS_SCORES)]


def case_nms_padded_batched_unpadded(tf):
    return error(lambda: tf.image.non_max_suppression_padded(tf.constant(NMS_BOXES[None]),
                                                            tf.constant(NMS_SCORES[None]), 4))


# -- non_max_suppression_overlaps -----------------------------------------------------------------------------

OVERLAPS = np.array([[1.0, 0.7, 0.2, 0.4, 0.0], [0.3, 1.0, 0.6, 0.1, 0.2], [0.2, 0.55, 1.0, 0.8, 0.3],
                     [0.45, 0.1, 0.2, 1.0, 0.6], [0.0, 0.65, 0.3, 0.4, 1.0]], np.float32)
OSCORES = np.array([0.5, 0.9, 0.3, 0.8, 0.7], np.float32)


def case_nms_overlaps(tf):
    return values(tf.image.non_max_suppression_overlaps(OVERLAPS, OSCORES, 5))


def case_nms_overlaps_thresholds(tf):
    return values(tf.image.non_max_suppression_overlaps(OVERLAPS, OSCORES, 3, overlap_threshold=0.75,
                                                        score_threshold=0.4))


def case_nms_overlaps_function(tf):
    fn = tf.function(lambda o, s: tf.image.non_max_suppression_overlaps(o, s, 4, overlap_threshold=0.6))
    return values(fn(OVERLAPS, OSCORES))


def case_nms_overlaps_bad(tf):
    return error(lambda: tf.image.non_max_suppression_overlaps(OVERLAPS[:, :4], OSCORES, 3))


# -- sample_distorted_bounding_box ----------------------------------------------------------------------------

SBOXES = np.array([[[0.1, 0.2, 0.6, 0.9], [0.3, 0.3, 0.5, 0.4]]], np.float32)


def _sample(result):
    return [values(t) for t in result]


def case_stateless_sample_box(tf):
    out = []
    for seed in [(1, 2), (3, 4), (123, 456), (0, 0)]:
        out.append(_sample(tf.image.stateless_sample_distorted_bounding_box([100, 80, 3], SBOXES, seed=seed)))
    return out


def case_stateless_sample_box_options(tf):
    return [_sample(tf.image.stateless_sample_distorted_bounding_box(
        [37, 53, 1], SBOXES, seed=(s, 9), min_object_covered=0.5, aspect_ratio_range=(0.5, 2.0),
        area_range=(0.1, 0.9), max_attempts=7)) for s in range(6)]


def case_stateless_sample_box_no_boxes(tf):
    return _sample(tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([30, 40, 3], tf.int64), np.zeros([1, 0, 4], np.float32), seed=[5, 6],
        use_image_if_no_bounding_boxes=True, area_range=(0.3, 0.5)))


def case_stateless_sample_box_unsatisfiable(tf):
    return _sample(tf.image.stateless_sample_distorted_bounding_box(
        [10, 10, 3], [[[0.2, 0.2, 0.3, 0.3]]], seed=[5, 6], min_object_covered=1.0, area_range=(0.9, 1.0),
        max_attempts=3))


def case_stateless_sample_box_function(tf):
    fn = tf.function(lambda s: tf.image.stateless_sample_distorted_bounding_box([64, 48, 3], SBOXES, seed=s))
    return _sample(fn(tf.constant([8, 9])))


def case_stateless_sample_box_needs_boxes(tf):
    return error(lambda: tf.image.stateless_sample_distorted_bounding_box([30, 40, 3], np.zeros([1, 0, 4],
                                                                                                 np.float32), [1, 2]))


def case_stateless_sample_box_bad_coordinates(tf):
    return error(lambda: tf.image.stateless_sample_distorted_bounding_box([30, 40, 3], [[[0.1, 0.1, 1.5, 0.5]]],
                                                                          [1, 2]))


def case_sample_box_seeded(tf):
    tf.random.set_seed(5)
    return [_sample(tf.image.sample_distorted_bounding_box([37, 53, 3], SBOXES, seed=9, min_object_covered=0.3,
                                                           max_attempts=7)) for _ in range(3)]


def case_sample_box_seeded_function(tf):
    tf.random.set_seed(7)
    fn = tf.function(lambda: tf.image.sample_distorted_bounding_box([50, 50, 3], SBOXES, seed=3,
                                                                    min_object_covered=0.2))
    return [_sample(fn()) for _ in range(3)]
