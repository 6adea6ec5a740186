// The layered and cube-map mipmap probe (docs/FIDELITY.md, "Mipmaps"): tex1DLayeredLod,
// tex2DLayeredLod, their Grad forms, texCubemapLod and texCubemapLayeredLod on mipmapped arrays
// made with cudaArrayLayered / cudaArrayCubemap, as the chip does them. It reuses the mipmap
// probe's fetch kernel, texels, objects and sweeps (mipmap_probe.cu, included below with its main
// renamed); scripts/device_probe_diff.sh runs it on the chip and under `warpsim exec` and diffs
// the two outputs line by line.
//
// Covered: a 1-d layered array (64 texels x 3 layers, 7 levels) and a 2-d one (32 x 16 x 3
// layers, 6 levels) of f32 x 4 (level and layer in the integer part: 32 level + 4 layer +
// channel) and u8 x 4 (normalized reads), through point and linear filtering with point and
// linear mipmap filtering, a bias and clamps, over the level-of-detail sweep at the layers
// -1 .. 3 (an index past the last layer reads the last) and a gradient sweep at layer 1; a cube
// map (16 x 16, 5 levels) and a cube-map array (2 cubes of 8 x 8, 4 levels) at directions on
// every face, over the same sweep.
//
//   nvcc -arch=sm_90 -lineinfo -o mip_layered_probe scripts/probes/texture/mip_layered_probe.cu
//   ./mip_layered_probe > chip.txt;  warpsim exec ./mip_layered_probe > sim.txt;  diff ...
#define main mipmapProbeMain
#include "mipmap_probe.cu"
#undef main

namespace {

// A layered (or cube) mipmapped array: `layers` layers of w x h (h 0: 1-d), `levels` levels;
// f32/f16 texels of level l, layer k are those of "level" 8 l + k of texels(), u8 ones texels()
// of level l over the layers.
cudaMipmappedArray_t layeredMipmapped(Format f, unsigned w, unsigned h, unsigned layers,
                                      unsigned levels, unsigned flags) {
  const cudaChannelFormatDesc desc = channelDesc(f);
  cudaMipmappedArray_t m;
  CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(w, h, layers), levels, flags));
  for (unsigned l = 0; l < levels; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    const unsigned lw = std::max(1u, w >> l), lh = h ? std::max(1u, h >> l) : 1;
    std::vector<uint8_t> all;
    if (f == kU8) {
      all = texels(f, l, lw, lh, layers);
    } else {
      for (unsigned k = 0; k < layers; ++k) {
        const std::vector<uint8_t> one = texels(f, 8 * l + k, lw, lh, 1);
        all.insert(all.end(), one.begin(), one.end());
      }
    }
    copyIn(a, all, texelBytes(f), lw, lh, layers);
  }
  return m;
}

cudaTextureObject_t objectOver(cudaMipmappedArray_t m, Format f, const Sampling& s,
                               const char* shape) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = m;
  return makeObject(res, f, s, shape);
}

void layeredSuite(unsigned dims, Format f, const unsigned* size, unsigned levels,
                  const std::vector<Sampling>& objects) {
  const unsigned layers = 3;
  cudaMipmappedArray_t m =
      layeredMipmapped(f, size[0], dims == 2 ? size[1] : 0, layers, levels, cudaArrayLayered);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%ud-layered %ux%ux%u levels=%u", dims, size[0],
                dims == 2 ? size[1] : 1, layers, levels);
  for (const Sampling& s : objects) {
    const cudaTextureObject_t t = objectOver(m, f, s, shape);
    std::vector<Sample> in;
    for (int layer : {-1, 0, 1, 2, 3})
      for (float lod : lods(levels, false))
        for (unsigned i = 0; i < 2; ++i) {
          Sample q = at(kCoords[i], dims, size, true);
          q.layer = layer;
          q.lod = lod;
          in.push_back(q);
        }
    run(t, s.name, dims == 1 ? kLayerLod1 : kLayerLod2, in);
    if (s.full) {
      std::vector<Sample> g = gradients(dims, size, true, kCoords[0]);
      for (Sample& q : g) q.layer = 1;
      run(t, s.name, dims == 1 ? kLayerGrad1 : kLayerGrad2, g);
    }
    if (t) CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFreeMipmappedArray(m));
}

// Directions at the centre and off-centre on every face, and on an edge and a corner.
std::vector<Sample> cubeDirections() {
  const float d[][3] = {{1, 0.25f, -0.5f},     {-1, 0.6f, 0.1f},  {0.3f, 1, -0.7f},
                        {-0.45f, -1, 0.2f},    {0.1f, -0.35f, 1}, {0.8f, 0.5f, -1},
                        {0.0f, 0.0f, 1},       {1, 1, 0.3f},      {0.7f, -0.7f, 0.7f},
                        {0.123f, 0.9f, -0.4f}, {-1, -0.2f, -0.9f}};
  std::vector<Sample> v;
  for (const auto& c : d) {
    Sample q = {};
    for (int a = 0; a < 3; ++a) q.c[a] = c[a];
    v.push_back(q);
  }
  return v;
}

void cubeSuite(unsigned size, unsigned cubes, unsigned levels,
               const std::vector<Sampling>& objects) {
  const unsigned flags = cudaArrayCubemap | (cubes > 1 ? cudaArrayLayered : 0);
  cudaMipmappedArray_t m = layeredMipmapped(kF32, size, size, 6 * cubes, levels, flags);
  char shape[64];
  std::snprintf(shape, sizeof shape, "cube %ux%u cubes=%u levels=%u", size, size, cubes, levels);
  for (const Sampling& s : objects) {
    const cudaTextureObject_t t = objectOver(m, kF32, s, shape);
    std::vector<Sample> in;
    for (int cube = cubes > 1 ? -1 : 0; cube <= (cubes > 1 ? int(cubes) : 0); ++cube)
      for (float lod : lods(levels, false))
        for (const Sample& d : cubeDirections()) {
          Sample q = d;
          q.layer = cube;
          q.lod = lod;
          in.push_back(q);
        }
    run(t, s.name, cubes > 1 ? kCubeLayerLod : kCubeLod, in);
    if (t) CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFreeMipmappedArray(m));
}

}  // namespace

int main() {
  const auto P = cudaFilterModePoint, L = cudaFilterModeLinear;
  const auto Cl = cudaAddressModeClamp, Wr = cudaAddressModeWrap;
  // {name, filter, mipFilter, address, bias, minClamp, maxClamp, normalized, full, seamless};
  // `full` here: also the gradient sweep.
  {
    const unsigned size[3] = {64, 1, 1};
    layeredSuite(1, kF32, size, 7,
                 {{"Mp1", P, P, Cl, 0, 0, 6, true, false, false},
                  {"Ml1", L, L, Cl, 0, 0, 6, true, true, false},
                  {"Mb1", L, L, Wr, 0.5f, 0.5f, 5.5f, true, false, false}});
  }
  {
    const unsigned size[3] = {32, 16, 1};
    layeredSuite(2, kF32, size, 6,
                 {{"Mp2", P, P, Cl, 0, 0, 5, true, false, false},
                  {"Ml2", L, L, Cl, 0, 0, 5, true, true, false},
                  {"Mlp2", L, P, Wr, 0.25f, 0.25f, 4.5f, true, false, false}});
    layeredSuite(2, kU8, size, 6, {{"Mu2", L, L, Cl, 0, 0, 5, true, false, false}});
  }
  cubeSuite(16, 1, 5,
            {{"MCp", P, P, Cl, 0, 0, 4, true, false, false},
             {"MCl", L, L, Cl, 0, 0, 4, true, false, false}});
  cubeSuite(8, 2, 4, {{"MCAl", L, L, Cl, 0.5f, 0, 3, true, false, false}});
  return 0;
}
