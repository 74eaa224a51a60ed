"""Task servers and remote devices: tf.distribute.Server and tf.config.experimental_connect_to_cluster."""

from .client import connect_to_cluster, connect_to_host, disconnect  # noqa: F401
from .server import Server  # noqa: F401
