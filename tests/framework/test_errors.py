"""errors: TensorFlow's classes, codes and attributes."""

import pickle

import pytest

import placeflow as tf

CODES = {
    "CancelledError": 1, "UnknownError": 2, "InvalidArgumentError": 3, "DeadlineExceededError": 4,
    "NotFoundError": 5, "AlreadyExistsError": 6, "PermissionDeniedError": 7, "ResourceExhaustedError": 8,
    "FailedPreconditionError": 9, "AbortedError": 10, "OutOfRangeError": 11, "UnimplementedError": 12,
    "InternalError": 13, "UnavailableError": 14, "DataLossError": 15, "UnauthenticatedError": 16,
}


@pytest.mark.parametrize("name,code", CODES.items())
def test_each_class_has_its_code_and_is_an_op_error(name, code):
    cls = getattr(tf.errors, name)
    assert issubclass(cls, tf.errors.OpError)
    assert cls.error_code == code
    assert tf.errors.exception_type_from_error_code(code) is cls
    assert tf.errors.error_code_from_exception_type(cls) == code


def test_op_error_carries_node_op_and_message():
    error = tf.errors.InvalidArgumentError(None, "an op", "Could not satisfy device specification")
    assert str(error) == error.message == "Could not satisfy device specification"
    assert error.op == "an op" and error.node_def is None
    with pytest.raises(tf.errors.OpError):
        raise error


def test_errors_pickle():
    error = pickle.loads(pickle.dumps(tf.errors.ResourceExhaustedError(None, None, "OOM")))
    assert type(error) is tf.errors.ResourceExhaustedError and error.message == "OOM"


def test_unknown_code_is_refused():
    with pytest.raises(KeyError, match="Unknown error code 99"):
        tf.errors.exception_type_from_error_code(99)
