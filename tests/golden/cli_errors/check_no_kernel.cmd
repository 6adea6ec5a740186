check tests/data/typed_params.ptx --grid 1 --block 1
