"""tensorflow.python.client.timeline: Chrome traces of RunMetadata.step_stats."""
from ...graph.timeline import Timeline, write_chrome_trace  # noqa: F401
