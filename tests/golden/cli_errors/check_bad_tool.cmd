check --tool memchek tests/data/typed_params.ptx --kernel typed --grid 1 --block 1
