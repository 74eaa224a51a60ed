"""Entry points placeflow has not implemented: each refuses by name when called (never silently)."""


def not_implemented(qualified_name: str, advice: str):
    """A function named after the last part of `qualified_name` that raises NotImplementedError naming it."""
    def refuse(*args, **kwargs):
        raise NotImplementedError(f"{qualified_name} is not implemented in placeflow: {advice}")
    refuse.__name__ = qualified_name.rpartition(".")[2]
    refuse._placeflow_refusal = True  # counted as missing by the API coverage (framework/tf_api.py)
    refuse.__doc__ = f"Not implemented in placeflow ({qualified_name})."
    return refuse
