"""Tools over the runtime: the CLI, device_lib, the devices table and the demo."""
