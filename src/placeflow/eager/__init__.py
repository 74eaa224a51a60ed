"""eager: tensors and op dispatch (place -> copy inputs -> run kernel -> log)."""
