// ReductionKernel on the GPU: groups of TPR threads (a power of two, 32..256; 256 / TPR
// groups per block) each reduce one output row: a strided loop of map + reduce per
// thread, warp shuffles, then shared memory across the group's warps. Few long rows are
// split across blocks (phase 1 writes one partial per row chunk; phase 2 combines a
// row's partials and applies post_map), so the input is read once in every case.
#include <algorithm>

#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_user_kernel.h"
#include "backend/cuda/kernel_families.h"
#include "backend/user_kernel_layout.h"
#include "backend/user_kernel_memo.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

constexpr unsigned kBlock = 256;
constexpr std::size_t kPartialBytes = 128;  // per partial, checked by a static_assert in the source
constexpr long long kSplitChunk = 4096;     // least elements per split chunk

struct Plan : UserReductionLayout {
  bool index32 = true;
  int tpr = 256;      // threads per row
  long long splits = 1;
};

int threads_per_row(long long n) {
  int t = 32;
  while (t < 256 && t < n) t *= 2;
  return t;
}

Plan plan(const UserReductionJob& job, int sm_count) {
  Plan p{user_reduction_layout(job)};
  const long long nrows = shape_size(job.kept), nred = shape_size(job.reduced);
  // Split rows when whole rows would leave most SMs idle and each chunk still has work.
  const long long groups = kBlock / threads_per_row(nred);
  const long long blocks = (nrows + groups - 1) / groups;
  if (blocks < 2LL * sm_count && nred >= 4 * kSplitChunk) {
    const long long want = (4LL * sm_count + nrows - 1) / std::max<long long>(nrows, 1);  // ~4 chunks per SM
    p.splits = std::clamp<long long>(std::min(want, nred / kSplitChunk), 2, 4096);
  }
  p.tpr = threads_per_row(p.splits > 1 ? (nred + p.splits - 1) / p.splits : nred);
  p.index32 = fits_index32(nrows) && fits_index32(nred) && fits_index32(nrows * p.splits);
  return p;
}

// acc <- reduce(acc, value) where value may be missing (reductions without identity).
std::string combine(const std::string& value, const std::string& valid, bool has_identity) {
  if (has_identity) return "_acc = _copper_reduce(_acc, " + value + ");";
  return "if (" + valid + ") { if (_valid) _acc = _copper_reduce(_acc, " + value + "); else { _acc = " + value +
         "; _valid = 1; } }";
}

std::string make_source(const UserReductionJob& job, const Plan& p) {
  const UserKernelCode& code = *job.code;
  const bool id = !code.identity.empty();
  const std::string kio = std::to_string(p.inputs.size() + p.outputs.size()), ki = std::to_string(p.inputs.size());
  SourceWriter w(code.name + "_generated.cu");
  w << user_kernel_prologue(true);
  add_preamble(w, code, job.typedefs);
  w << "typedef " << code.reduce_type << " _type_reduce;\n";
  w << "struct _copper_partial { _type_reduce v; int valid; };\n";
  w << "static_assert(sizeof(_copper_partial) <= " << std::to_string(kPartialBytes - 8)
    << ", \"ReductionKernel: reduce_type is too large for copper's partial results\");\n";
  w << "__device__ __forceinline__ _type_reduce _copper_reduce(const _type_reduce& a, const _type_reduce& b) {\n"
       "  return (\n";
  w.user_block(code.name + "_reduce", code.reduce_expr);
  w << "  );\n}\n";
  w << "extern \"C\" __global__ void __launch_bounds__(256) " << code.name << "(";
  for (const auto& a : job.args) w << param_decl(a) << ", ";
  w << "long long _nrows, long long _nred, int _phase, long long _splits, void* _partials_raw";
  if (!p.contiguous)
    w << ", copper::kern::StridedLayout<" << kio << "> _out_layout, copper::kern::StridedLayout<" << ki
      << "> _red_layout";
  w << ") {\n";
  w << (p.index32 ? "  typedef unsigned _I;\n" : "  typedef long long _I;\n");
  w << "  constexpr int _TPR = " << std::to_string(p.tpr) << ", _GROUPS = 256 / _TPR, _WARPS = _TPR / 32;\n"
       "  __shared__ alignas(16) unsigned char _smem_raw[8 * sizeof(_copper_partial)];\n"
       "  _copper_partial* _smem = reinterpret_cast<_copper_partial*>(_smem_raw);\n"
       "  _copper_partial* _partials = static_cast<_copper_partial*>(_partials_raw);\n"
       "  const int _lane = threadIdx.x & 31, _warp = threadIdx.x >> 5;\n"
       "  const int _g = threadIdx.x / _TPR, _t = threadIdx.x % _TPR;\n"
       "  (void)_warp; (void)_smem; (void)_partials;\n"
       "  const long long _items = _phase == 1 ? _nrows * _splits : _nrows;\n"
       "  const long long _chunk = (_nred + _splits - 1) / _splits;\n"
       "  copper::user::Indexer _in_ind{_nrows * _nred, 0};\n  (void)_in_ind;\n"
       "  for (long long _base = static_cast<long long>(blockIdx.x) * _GROUPS; _base < _items;"
       " _base += static_cast<long long>(gridDim.x) * _GROUPS) {\n"
       "    const long long _item = _base + _g;\n"
       "    const bool _active = _item < _items;\n"
       "    const long long _row = _active ? (_phase == 1 ? _item / _splits : _item) : 0;\n";
  w << "    _type_reduce _acc = _type_reduce(" << code.identity << ");\n    int _valid = " << (id ? "1" : "0") << ";\n";
  w << "    if (_active && _phase == 2) {\n"
       "      for (long long _s = _t; _s < _splits; _s += _TPR) {\n"
       "        const _copper_partial _q = _partials[_row * _splits + _s];\n        "
    << combine("_q.v", "_q.valid", false) << "\n      }\n"
    << "    } else if (_active) {\n"
       "      const long long _j0 = _phase == 1 ? (_item % _splits) * _chunk : 0;\n"
       "      const long long _j1 = _phase == 1 ? (_j0 + _chunk < _nred ? _j0 + _chunk : _nred) : _nred;\n";
  if (!p.contiguous)
    w << "      long long _ooff[" << kio << "];\n      copper::kern::offsets<" << kio
      << ", _I>(_out_layout, static_cast<_I>(_row), _ooff);\n";
  w << "      for (long long _j = _j0 + _t; _j < _j1; _j += _TPR) {\n        _in_ind.set(_row * _nred + _j);\n";
  if (!p.contiguous)
    w << "        long long _roff[" << ki << "];\n        copper::kern::offsets<" << ki
      << ", _I>(_red_layout, static_cast<_I>(_j), _roff);\n";
  for (std::size_t a = 0; a < p.inputs.size(); ++a) {
    const UserKernelArg& arg = job.args[p.inputs[a]];
    const std::string as = std::to_string(a);
    const std::string address =
        element_address(arg, p.contiguous, "_row * _nred + _j", "_ooff[" + as + "] + _roff[" + as + "]");
    w << "        " << element_load(arg, address) << "\n";
  }
  w << "        const _type_reduce _m = static_cast<_type_reduce>(\n";
  w.user_block(code.name + "_map", code.map_expr);
  w << "        );\n        " << combine("_m", "1", id) << "\n      }\n    }\n";
  // The group's total: warp shuffles (every lane of the warp takes part), then across warps.
  w << "    for (int _d = 16; _d > 0; _d >>= 1) {\n"
       "      const _type_reduce _o = copper::user::shfl_down(_acc, _d);\n"
       "      const int _ov = __shfl_down_sync(0xffffffffu, _valid, _d);\n"
       "      if (_lane + _d < 32) { "
    << combine("_o", "_ov", id) << " }\n    }\n";
  if (p.tpr > 32) {
    w << "    if (_lane == 0) { _smem[_warp].v = _acc; _smem[_warp].valid = _valid; }\n    __syncthreads();\n"
         "    if (_t == 0) {\n      for (int _w = 1; _w < _WARPS; ++_w) {\n"
         "        const _copper_partial _q = _smem[_warp + _w];\n        "
      << combine("_q.v", "_q.valid", id) << "\n      }\n    }\n";
  }
  w << "    if (_t == 0 && _active) {\n"
       "      if (_phase == 1) {\n        _partials[_item].v = _acc;\n        _partials[_item].valid = _valid;\n"
       "      } else {\n"
       "        const copper::user::Indexer _out_ind{_nrows, _row};\n        (void)_out_ind;\n";
  if (!p.contiguous)
    w << "        long long _ooff[" << kio << "];\n        copper::kern::offsets<" << kio
      << ", _I>(_out_layout, static_cast<_I>(_row), _ooff);\n";
  for (std::size_t a = 0; a < p.outputs.size(); ++a) {
    const UserKernelArg& arg = job.args[p.outputs[a]];
    const std::string address =
        element_address(arg, p.contiguous, "_row", "_ooff[" + std::to_string(p.inputs.size() + a) + "]");
    w << "        " << element_load(arg, address) << "\n";
  }
  w << "        const _type_reduce& a = _acc;\n        (void)a;\n";
  w.user_block(code.name + "_post_map", code.post_map_expr);
  w << "        ;\n      }\n    }\n";
  if (p.tpr > 32) w << "    __syncthreads();  // _smem is reused by the next rows\n";
  w << "  }\n}\n";
  return w.str();
}

struct Compiled {
  KernelKey key;
  std::string source;
};

}  // namespace

std::string user_reduction_source(const UserReductionJob& job, int sm_count) {
  return make_source(job, plan(job, sm_count));
}

void run_user_reduction(int device, const UserReductionJob& job) {
  const long long nrows = shape_size(job.kept), nred = shape_size(job.reduced);
  if (nrows == 0) return;
  const int sm_count = device_info(device).sm_count;
  const Plan p = plan(job, sm_count);
  static UserKernelMemo<std::shared_ptr<const Compiled>> memo;
  const std::string sig = "reduce|" + call_signature(*job.code, job.typedefs, job.args) + (p.contiguous ? "|C" : "|S") +
                          std::to_string(p.inputs.size()) + "," + std::to_string(p.outputs.size()) + "|" +
                          std::to_string(p.tpr) + (p.index32 ? "i" : "l");
  const std::shared_ptr<const Compiled> compiled = memo.get(sig, [&] {
    auto c = std::make_shared<Compiled>();
    c->source = make_source(job, p);
    c->key = user_kernel_key(kFamilyUserReduction, hash_source(c->source));
    return c;
  });
  const CUfunction fn = get_kernel(device, compiled->key, [&] { return compiled->source; }, job.code->name.c_str());

  std::shared_ptr<Buffer> partials;
  if (p.splits > 1)
    partials = backend_for(Device{DeviceType::cuda, device}).allocate(kPartialBytes * static_cast<std::size_t>(nrows * p.splits));
  const unsigned resident = resident_blocks_per_sm(fn, kBlock);
  auto run_phase = [&](int phase) {
    ParamBlock block;
    for (const auto& a : job.args) block.add_arg(a);
    block.add(nrows);
    block.add(nred);
    block.add(phase);
    block.add(p.splits);
    block.add(partials ? partials->data() : static_cast<void*>(nullptr));
    if (!p.contiguous) {
      block.add_layout(p.out_layout, user_layout_fast_divs(p.out_layout));
      block.add_layout(p.red_layout, user_layout_fast_divs(p.red_layout));
    }
    check_param_bytes(block.total_bytes(), job.code->name);
    const long long items = phase == 1 ? nrows * p.splits : nrows;
    const unsigned grid = grid_for(device, items * p.tpr, kBlock, resident);
    launch(device, fn, grid, kBlock, const_cast<void**>(block.pointers()), interned_name(job.code->name));
  };
  if (p.splits > 1) {
    run_phase(1);
    run_phase(2);
  } else {
    run_phase(0);
  }
}

}  // namespace copper::backend::cuda
