"""placement: device scopes, the placement policy shared by eager and graph mode, the report."""
