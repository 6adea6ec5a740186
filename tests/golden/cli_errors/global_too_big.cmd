run tests/data/huge_global.ptx --kernel k --grid 1 --block 1
