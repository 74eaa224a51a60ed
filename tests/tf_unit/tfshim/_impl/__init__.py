"""The shim modules that need code of their own (test_util, combinations, tf.data's test bases, eager.context)."""
