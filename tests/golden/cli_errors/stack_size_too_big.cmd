run tests/data/recursive_depth.ptx --kernel rec_depth --grid 1 --block 1 --arg u32:1 --arg out=u32[1] --stack-size 600000
