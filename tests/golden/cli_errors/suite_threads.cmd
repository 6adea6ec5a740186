suite vector_add --threads 100000
