suite vector_add --timing-config tests/data/timing/missing.json
