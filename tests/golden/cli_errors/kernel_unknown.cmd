run tests/data/typed_params.ptx --kernel typo --grid 1 --block 1 --arg p=u8[4] --arg u32:2 --arg f32:1 --arg u32:2 --arg f64:1 --arg u8:1 --arg f16:1
