suite vector_add --size 1000000000000
