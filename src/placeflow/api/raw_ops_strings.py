"""tf.raw_ops, strings, io and image family: string ops, codecs, files, image adjustments and debugging ops."""

from __future__ import annotations

from ..eager.convert import convert_to_tensor
from ..eager.execute import execute
from ..framework import dtypes
from . import (array_ops, audio, debugging_ops, image_codecs, image_more, image_random, image_sample, io, strings,
               unicode_strings)
from .raw_ops_common import named, outputs, refuse


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _reduce_join(*, inputs, reduction_indices, keep_dims=False, separator="", name=None):
    axes = reduction_indices.numpy().tolist() if hasattr(reduction_indices, "numpy") else reduction_indices
    return strings.reduce_join(inputs, axes, keep_dims, separator, name=name)


def _string_format(*, inputs, template="%s", placeholder="%s", summarize=3, name=None):
    return strings.format(template, list(inputs), placeholder, summarize, name=name)


def _string_ngrams(*, data, data_splits, separator, ngram_widths, left_pad, right_pad, pad_width,
                   preserve_short_sequences, name=None):
    values = convert_to_tensor(data, dtypes.string)
    splits = convert_to_tensor(data_splits)
    found = execute("StringNGrams", (values, splits), dtypes.string, {
        "separator": separator.encode("utf-8") if isinstance(separator, str) else separator,
        "ngram_widths": tuple(int(w) for w in ngram_widths), "left_pad": left_pad, "right_pad": right_pad,
        "pad_width": int(pad_width), "preserve_short_sequences": bool(preserve_short_sequences)}, name=name)
    return outputs("StringNGrams", "ngrams ngrams_splits", found)


def _unicode_decode_with_offsets(*, input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                                 replace_control_characters=False, Tsplits=dtypes.int64, name=None):  # noqa: N803
    tensor = convert_to_tensor(input, dtypes.string)
    found = execute("UnicodeDecodeWithOffsets", (array_ops.reshape(tensor, [-1]),), dtypes.string, {
        "input_encoding": _text(input_encoding), "errors": _text(errors), "replacement_char": int(replacement_char),
        "replace_control_characters": bool(replace_control_characters)}, name=name)
    splits = found[0] if dtypes.as_dtype(Tsplits) == dtypes.int64 else _cast(found[0], Tsplits)
    return outputs("UnicodeDecodeWithOffsets", "row_splits char_values char_to_byte_starts",
                   (splits, found[1], found[2]))


def _cast(x, dtype):
    from .math_ops import cast
    return cast(x, dtype)


def _unicode_encode(*, input_values, input_splits, output_encoding, errors="replace", replacement_char=65533,
                    name=None):
    codes = convert_to_tensor(input_values, dtypes.int32)
    splits = _cast(convert_to_tensor(input_splits), dtypes.int64)
    return execute("UnicodeEncode", (codes, splits), dtypes.int32, {
        "output_encoding": _text(output_encoding), "errors": _text(errors),
        "replacement_char": int(replacement_char)}, name=name)


def _assert(*, condition, data, summarize=3, name=None):
    return debugging_ops.Assert(condition, list(data), summarize, name=name)


def _print(*, input, output_stream="stderr", end="\n", name=None):  # noqa: A002
    if output_stream not in ("stderr", "stdout"):
        refuse("PrintV2", "output_stream", output_stream, "output_stream='stderr' or 'stdout'")
    tensor = convert_to_tensor(input, dtypes.string)
    execute("PrintV2", (tensor,), tensor.dtype, {"parts": (None,), "sep": " ", "end": end, "summarize": 3,
                                                 "stream": output_stream}, name=name)


def _decode_raw(*, bytes, out_type, little_endian=True, name=None):  # noqa: A002
    return io.decode_raw(bytes, out_type, little_endian, name=name)


def _decode_image(*, contents, channels=0, dtype=dtypes.uint8, expand_animations=True, name=None):
    return image_codecs.decode_image(contents, channels, dtype, name, expand_animations)


def _decode_webp(*, contents, channels=0, dtype=dtypes.uint8, name=None):
    """DecodeWebP: a WebP file by placeflow's WebP decoder; TF 2.21's kernel also decodes the other formats
    (PNG, JPEG, ...) as a still image, and so does this."""
    known = array_ops.get_static_value(contents) if hasattr(contents, "dtype") else contents
    data = known.item() if hasattr(known, "item") else known
    if not isinstance(data, bytes) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        return image_sample.decode_webp(contents, channels, dtype, name=name)
    if dtypes.as_dtype(dtype) != dtypes.uint8:
        from .raw_ops_common import invalid
        invalid(f"Value for attr 'dtype' of {dtypes.as_dtype(dtype).name} is not in the list of allowed values: "
                "uint8")
    return image_codecs.decode_image(contents, int(channels) or None, dtypes.uint8, name, expand_animations=False)


def _encode_jpeg_variable_quality(*, images, quality, name=None):
    pixels = convert_to_tensor(images, dtypes.uint8)
    return execute("EncodeJpegVariableQuality", (pixels, convert_to_tensor(quality, dtypes.int32)), dtypes.uint8, {},
                   name=name)


def _combined_nms(*, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold,
                  pad_per_class=False, clip_boxes=True, name=None):
    found = image_more.combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                                    iou_threshold, score_threshold, pad_per_class, clip_boxes, name)
    return outputs("CombinedNonMaxSuppression", "nmsed_boxes nmsed_scores nmsed_classes valid_detections",
                   tuple(found))


def _extract_glimpse(*, input, size, offsets, centered=True, normalized=True, uniform_noise=True,  # noqa: A002
                     noise="uniform", name=None):
    if noise == "" and not uniform_noise:   # TF: the empty noise string defers to uniform_noise
        noise = "gaussian"
    elif noise == "":
        noise = "uniform"
    elif noise != "uniform" and uniform_noise:
        from .raw_ops_common import invalid
        invalid(f"The uniform_noise and noise should not be specified at the same time; got noise={noise!r} with "
                "uniform_noise=True")
    return image_more.extract_glimpse(input, size, offsets, centered, normalized, noise, name=name)


def _decode_wav(*, contents, desired_channels=-1, desired_samples=-1, name=None):
    return outputs("DecodeWav", "audio sample_rate", tuple(audio.decode_wav(contents, desired_channels,
                                                                           desired_samples, name)))


_OPS = {
    "AsString": lambda *, input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None:
        strings.as_string(input, precision, scientific, shortest, width, fill, name=name),
    "ReduceJoin": _reduce_join, "StringFormat": _string_format, "StringNGrams": _string_ngrams,
    "StringLower": lambda *, input, encoding="", name=None: strings.lower(input, encoding, name=name),
    "StringUpper": lambda *, input, encoding="", name=None: strings.upper(input, encoding, name=name),
    "StringStrip": lambda *, input, name=None: strings.strip(input, name=name),
    "StringToHashBucket": lambda *, string_tensor, num_buckets, name=None: strings.to_hash_bucket(
        string_tensor, num_buckets, name=name),
    "StringToHashBucketFast": lambda *, input, num_buckets, name=None: strings.to_hash_bucket_fast(
        input, num_buckets, name=name),
    "StringToHashBucketStrong": lambda *, input, num_buckets, key, name=None: strings.to_hash_bucket_strong(
        input, num_buckets, list(key), name=name),
    "StringToNumber": lambda *, string_tensor, out_type=dtypes.float32, name=None: strings.to_number(
        string_tensor, out_type, name=name),
    "Substr": lambda *, input, pos, len, unit="BYTE", name=None: strings.substr(input, pos, len, unit, name=name),
    "StaticRegexFullMatch": lambda *, input, pattern, name=None: strings.regex_full_match(input, pattern, name=name),
    "StaticRegexReplace": lambda *, input, pattern, rewrite, replace_global=True, name=None: strings.regex_replace(
        input, pattern, rewrite, replace_global, name=name),
    "Fingerprint": lambda *, data, method, name=None: strings.fingerprint(data, _text(convert_to_tensor(
        method).numpy()) if hasattr(method, "dtype") else method, name=name),
    "UnicodeDecodeWithOffsets": _unicode_decode_with_offsets, "UnicodeEncode": _unicode_encode,
    "UnicodeTranscode": lambda *, input, input_encoding, output_encoding, errors="replace", replacement_char=65533,
        replace_control_characters=False, name=None: unicode_strings.unicode_transcode(
            input, input_encoding, output_encoding, errors, replacement_char, replace_control_characters, name=name),
    "UnsortedSegmentJoin": lambda *, inputs, segment_ids, num_segments, separator="", name=None:
        unicode_strings.unsorted_segment_join(inputs, segment_ids, num_segments, separator, name=name),
    "EncodeBase64": lambda *, input, pad=False, name=None: io.encode_base64(input, pad, name=name),
    "DecodeBase64": lambda *, input, name=None: io.decode_base64(input, name=name),
    "DecodeCSV": lambda *, records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
        select_cols=(), name=None: io.decode_csv(records, list(record_defaults), field_delim, use_quote_delim, name,
                                                 na_value, list(select_cols) or None),
    "DecodeCompressed": lambda *, bytes, compression_type="", name=None: io.decode_compressed(  # noqa: A002
        bytes, compression_type, name=name),
    "DecodeRaw": _decode_raw,
    "ParseTensor": lambda *, serialized, out_type, name=None: io.parse_tensor(serialized, out_type, name=name),
    "SerializeTensor": lambda *, tensor, name=None: io.serialize_tensor(tensor, name=name),
    "ReadFile": lambda *, filename, name=None: io.read_file(filename, name=name),
    "WriteFile": lambda *, filename, contents, name=None: io.write_file(filename, contents, name=name),
    "DecodeImage": _decode_image,
    "DecodeWebP": _decode_webp,
    "EncodePng": lambda *, image, compression=-1, name=None: image_codecs.encode_png(image, compression, name=name),
    "EncodeJpeg": lambda *, image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
        chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata="", name=None:
        image_codecs.encode_jpeg(image, format, quality, progressive, optimize_size, chroma_downsampling,
                                 density_unit, x_density, y_density, xmp_metadata, name=name),
    "EncodeJpegVariableQuality": _encode_jpeg_variable_quality,
    "ExtractJpegShape": lambda *, contents, output_type=dtypes.int32, name=None: image_codecs.extract_jpeg_shape(
        contents, output_type, name=name),
    "DecodeWav": _decode_wav,
    "EncodeWav": lambda *, audio, sample_rate, name=None: _encode_wav(audio, sample_rate, name),
    "AdjustHue": lambda *, images, delta, name=None: image_random.adjust_hue(images, delta, name=name),
    "AdjustSaturation": lambda *, images, scale, name=None: image_random.adjust_saturation(images, scale, name=name),
    "DrawBoundingBoxesV2": lambda *, images, boxes, colors, name=None: image_more.draw_bounding_boxes(
        images, boxes, colors, name=name),
    "CombinedNonMaxSuppression": _combined_nms, "ExtractGlimpseV2": _extract_glimpse,
    "NonMaxSuppressionWithOverlaps": lambda *, overlaps, scores, max_output_size, overlap_threshold, score_threshold,
        name=None: image_more.non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold,
                                                           score_threshold, name=name),
    "Assert": _assert, "PrintV2": _print,
    "CheckNumerics": lambda *, tensor, message, name=None: debugging_ops.check_numerics(tensor, message, name=name),
}


def _encode_wav(samples, sample_rate, name):
    return audio.encode_wav(samples, sample_rate, name=name)


def table() -> dict:
    """The strings/io/image family's raw ops by TF op name."""
    return {op: named(op, fn, f"tf.raw_ops.{op}, as TensorFlow's op of that name.") for op, fn in _OPS.items()}
