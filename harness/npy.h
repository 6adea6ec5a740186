// numpy's .npy format (version 1.0): `warpsim run --dump NAME:FILE.npy` writes a buffer so that
// numpy.load reads it back with its element type and length. numpy has no bfloat16, so a bf16
// buffer is written as uint16 bit patterns ('<u2').
#pragma once

#include <string>

#include "kernels/card.h"

namespace warpsim::harness {

// numpy's type string for an element type: "<f4", "<i4", "|u1", ...
std::string npyDescr(kernels::ElemType t);

// Whether a --dump path asks for numpy's format: it ends in ".npy".
bool isNpyPath(const std::string& path);

// The whole .npy file for a one-dimensional buffer: header and little-endian elements.
std::string npyFile(const kernels::HostBuffer& b);

}  // namespace warpsim::harness
