"""Record TensorFlow 2.21's image decoding and encoding (run in the scratch TF venv, which needs Pillow for the GIF
and BMP inputs): python tests/api/record_tf_image_codecs.py tests/api/tf_image_codecs.json"""

import io
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402
from PIL import Image  # noqa: E402
rgb = (np.arange(6*5*3).reshape(6, 5, 3) * 13 % 256).astype(np.uint8)
smooth = (np.add.outer(np.arange(16), np.arange(16))[:, :, None] * np.array([8, 4, 2]) % 256).astype(np.uint8)
out = {}
png = tf.io.encode_png(rgb).numpy(); out["png_rgb"] = png.hex()
out["png_rgb_decoded"] = tf.io.decode_png(png).numpy().tolist()
out["png_gray_from_rgb"] = tf.io.decode_png(png, channels=1).numpy().tolist()
out["png_rgba_from_rgb"] = tf.io.decode_png(png, channels=4).numpy().tolist()
png16 = tf.io.encode_png(tf.constant((np.arange(12).reshape(3, 4, 1) * 5000).astype(np.uint16))).numpy(); out["png16"] = png16.hex()
out["png16_decoded"] = tf.io.decode_png(png16, dtype=tf.uint16).numpy().tolist()
out["png16_as_uint8"] = tf.io.decode_png(png16).numpy().tolist()
jpg = tf.io.encode_jpeg(smooth, quality=90).numpy(); out["jpeg"] = jpg.hex()
out["jpeg_decoded"] = tf.io.decode_jpeg(jpg).numpy().tolist()
out["jpeg_gray"] = tf.io.decode_jpeg(jpg, channels=1).numpy().tolist()
out["jpeg_ratio2"] = tf.io.decode_jpeg(jpg, ratio=2).numpy().tolist()
out["jpeg_roundtrip_q75"] = tf.io.decode_jpeg(tf.io.encode_jpeg(smooth, quality=75)).numpy().tolist()
out["jpeg_q75"] = tf.io.encode_jpeg(smooth, quality=75).numpy().hex()
out["jpeg_q90_444_progressive"] = tf.io.encode_jpeg(smooth, quality=90, chroma_downsampling=False,
                                                    progressive=True).numpy().hex()
out["jpeg_accurate"] = tf.io.decode_jpeg(jpg, dct_method="INTEGER_ACCURATE").numpy().tolist()
out["jpeg_accurate_gray"] = tf.io.decode_jpeg(jpg, channels=1, dct_method="INTEGER_ACCURATE").numpy().tolist()
out["jpeg_accurate_ratio2"] = tf.io.decode_jpeg(jpg, ratio=2, dct_method="INTEGER_ACCURATE").numpy().tolist()
out["jpeg_crop"] = tf.io.decode_and_crop_jpeg(jpg, [2, 3, 4, 5], dct_method="INTEGER_ACCURATE").numpy().tolist()
out["is_jpeg"] = [bool(tf.io.is_jpeg(jpg)), bool(tf.io.is_jpeg(png))]
out["jpeg_shape"] = tf.io.extract_jpeg_shape(jpg).numpy().tolist()
buf = io.BytesIO(); Image.fromarray(rgb).save(buf, format="GIF"); gif = buf.getvalue(); out["gif"] = gif.hex()
out["gif_decoded"] = tf.io.decode_gif(gif).numpy().tolist()
buf = io.BytesIO(); Image.fromarray(rgb).save(buf, format="BMP"); bmp = buf.getvalue(); out["bmp"] = bmp.hex()
out["bmp_decoded"] = tf.io.decode_bmp(bmp).numpy().tolist()
out["image_png"] = tf.io.decode_image(png).numpy().tolist()
out["image_gif"] = tf.io.decode_image(gif).numpy().tolist()
out["image_gif_shape"] = list(tf.io.decode_image(gif).shape)
out["image_expand"] = list(tf.io.decode_image(png, expand_animations=False).shape)
out["image_float"] = np.round(tf.io.decode_image(png, dtype=tf.float32).numpy(), 6).tolist()
def err(f):
    try: f(); return "no error"
    except Exception as e: return [type(e).__name__, str(e).split("}} ")[-1].split(" [Op:")[0]]
out["bad_png"] = err(lambda: tf.io.decode_png(b"not a png"))
out["bad_image"] = err(lambda: tf.io.decode_image(b"garbage!!"))
out["bad_jpeg"] = err(lambda: tf.io.decode_jpeg(b"\xff\xd8garbage"))
json.dump(out, open(sys.argv[1], "w"))
