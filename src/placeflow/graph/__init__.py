"""graph: compat.v1 Graph and Session, the placer, partitioning, the parallel executor, and `function`."""

