// Found only through -I tests/data/nvcc_flags/include (the nvcc-flag tests).
#pragma once
constexpr float kScaleFactor = 3.0f;
