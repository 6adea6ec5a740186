run tests/data/typed_params.ptx --kernel typed --grid 1 --block 1 --arg p=u8[4] --arg u32:1
