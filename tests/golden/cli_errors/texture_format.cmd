run tests/data/typed_params.ptx --kernel typed --grid 1 --block 1 --arg 'tex2d[4,4]:u8x3:linear:clamp:norm=1'
