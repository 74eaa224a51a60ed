"""tf.types.experimental: the types of tf.function objects and of their traces."""

from ..graph.function import ConcreteFunction, Function

GenericFunction = Function       # what tf.function returns
PolymorphicFunction = Function
ConcreteFunction = ConcreteFunction
