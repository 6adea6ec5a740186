// The fast-math forms as 32-bit functions (see forms.h), built on the simulator's models.
#include "isa/sfu/forms.h"

#include "isa/sfu/approx.h"
#include "isa/sfu/chunk_hash.h"

namespace warpsim::isa::sfu {
namespace {

template <uint32_t (*F)(uint32_t, bool), bool Ftz>
uint32_t unary(uint32_t a) {
  return F(a, Ftz);
}
template <uint16_t (*F)(uint16_t)>
uint32_t pair(uint32_t a) {
  return uint32_t(F(uint16_t(a))) | uint32_t(F(uint16_t(a >> 16))) << 16;
}
template <uint64_t (*F)(uint64_t)>
uint32_t upperWord(uint32_t a) {
  const uint64_t r = F(uint64_t{a} << 32);
  return uint32_t(r >> 32) ^ uint32_t(r);
}
template <uint32_t (*F)(uint32_t, uint32_t, bool), bool Ftz>
uint32_t divPair(uint32_t k) {
  const uint64_t ab = mix64(k);
  return F(uint32_t(ab), uint32_t(ab >> 32), Ftz);
}

constexpr Form kForms[] = {
    {"rcp.approx.f32", unary<rcpApproxF32, false>},
    {"rcp.approx.ftz.f32", unary<rcpApproxF32, true>},
    {"rsqrt.approx.f32", unary<rsqrtApproxF32, false>},
    {"rsqrt.approx.ftz.f32", unary<rsqrtApproxF32, true>},
    {"sqrt.approx.f32", unary<sqrtApproxF32, false>},
    {"sqrt.approx.ftz.f32", unary<sqrtApproxF32, true>},
    {"ex2.approx.f32", unary<ex2ApproxF32, false>},
    {"ex2.approx.ftz.f32", unary<ex2ApproxF32, true>},
    {"lg2.approx.f32", unary<lg2ApproxF32, false>},
    {"lg2.approx.ftz.f32", unary<lg2ApproxF32, true>},
    {"sin.approx.f32", unary<sinApproxF32, false>},
    {"sin.approx.ftz.f32", unary<sinApproxF32, true>},
    {"cos.approx.f32", unary<cosApproxF32, false>},
    {"cos.approx.ftz.f32", unary<cosApproxF32, true>},
    {"tanh.approx.f32", unary<tanhApproxF32, false>},
    {"ex2.approx.f16x2", pair<ex2ApproxF16>},
    {"ex2.approx.ftz.bf16x2", pair<ex2ApproxFtzBF16>},
    {"tanh.approx.f16x2", pair<tanhApproxF16>},
    {"tanh.approx.bf16x2", pair<tanhApproxBF16>},
    {"rcp.approx.ftz.f64.hi", upperWord<rcpApproxFtzF64>},
    {"rsqrt.approx.ftz.f64.hi", upperWord<rsqrtApproxFtzF64>},
    {"div.approx.f32", divPair<divApproxF32, false>},
    {"div.approx.ftz.f32", divPair<divApproxF32, true>},
    {"div.full.f32", divPair<divFullF32, false>},
    {"div.full.ftz.f32", divPair<divFullF32, true>},
};

}  // namespace

std::span<const Form> fastmathForms() { return kForms; }

const Form* findForm(std::string_view name) {
  for (const Form& f : kForms)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace warpsim::isa::sfu
