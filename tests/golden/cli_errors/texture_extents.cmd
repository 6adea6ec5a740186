run tests/data/typed_params.ptx --kernel typed --grid 1 --block 1 --arg 't=tex2d[4]:f32:point:clamp:norm=0'
