bench sgemm_tiled --size 1000000
