"""api: the public op functions (placeflow.add, placeflow.nn.relu, ...), thin over eager dispatch."""
