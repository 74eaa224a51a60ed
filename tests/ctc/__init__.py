"""CTC loss and decoders against TensorFlow 2.21 (cases.py, recorded by record_tf_ctc.py)."""
