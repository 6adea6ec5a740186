suite vector_add --timing-config tests/data/timing/unknown_key.json
