"""runtime: logical device objects (name, type, array namespace) and copies between them."""
