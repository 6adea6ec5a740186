run tests/data/typed_params.ptx --kernel typed --grid 1 --block 1 --arg 'tex1d[16]:f32:point:wrap:norm=0'
