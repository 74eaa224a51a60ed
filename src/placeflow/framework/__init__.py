"""framework: dtypes, device names and error classes (the bottom layer)."""
