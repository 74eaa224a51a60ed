"""Seed 003: the simple placer, placement logging, device functions, a kernel-less int32 variable, soft placement."""

import placeflow as tf

print("--- pinned variable and constant on /cpu:0, the product on the default device")
with tf.compat.v1.Graph().as_default():
    with tf.device("/cpu:0"):
        a = tf.Variable(3.0, name="a")
        b = tf.constant(4.0, name="b")
    c = a * b
    config = tf.compat.v1.ConfigProto()
    config.log_device_placement = True
    sess = tf.compat.v1.Session(config=config)
    a.initializer.run(session=sess)  # the placer runs now and places every node
    print(sess.run(c))               # every node is placed already: nothing more is logged

print("--- a device function: variables on /cpu:0, everything else on /gpu:0")
with tf.compat.v1.Graph().as_default():
    def variables_on_cpu(op):
        # the seed tests op.type == "Variable", TensorFlow 0.x's name; ref variables are "VariableV2" since 1.0
        if op.type in ("Variable", "VariableV2"):
            return "/cpu:0"
        else:
            return "/gpu:0"

    with tf.device(variables_on_cpu):
        a = tf.Variable(3.0, name="a")
        b = tf.constant(4.0, name="b")
        c = a * b
    sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(log_device_placement=True))
    sess.run(tf.compat.v1.global_variables_initializer())
    print(sess.run(c))

print("--- an int32 variable has no GPU kernel")
with tf.compat.v1.Graph().as_default():
    with tf.device("/gpu:0"):
        i = tf.Variable(3)
    sess = tf.compat.v1.Session()
    try:
        sess.run(i.initializer)
    except tf.errors.InvalidArgumentError as error:
        print(f"InvalidArgumentError: {error.message.splitlines()[0]}")

    config = tf.compat.v1.ConfigProto()
    config.allow_soft_placement = True
    sess = tf.compat.v1.Session(config=config)
    sess.run(i.initializer)  # the placer runs and falls back to /cpu:0
    print(sess.run(i))
