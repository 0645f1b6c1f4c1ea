#include "backend/cuda/cuda_user_kernel.h"

#include <algorithm>
#include <mutex>
#include <set>

#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_user_kernel_vector.h"
#include "backend/cuda/kernel_families.h"
#include "backend/user_kernel_layout.h"
#include "backend/user_kernel_memo.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {
namespace {

constexpr unsigned kBlock = 256;

struct Plan : UserElementwiseLayout {
  bool index32 = true;
  int vec = 1;  // contiguous class: elements per thread (cuda_user_kernel_vector.h); 1: one each
};

Plan plan(const UserElementwiseJob& job, const UserVectorTraits& traits) {
  Plan p{user_elementwise_layout(job)};
  p.index32 = fits_index32(shape_size(job.shape));
  if (p.contiguous) p.vec = user_vector_width(job, traits);
  return p;
}

// The one-element loop: thread k handles elements k, k + grid, ... through references
// into memory (contiguous: direct indexing; strided: offsets from the collapsed layout).
void write_element_loop(SourceWriter& w, const UserElementwiseJob& job, const Plan& p) {
  const std::string k = std::to_string(p.arrays.size());
  w << "  const _I _step = static_cast<_I>(gridDim.x) * blockDim.x;\n"
       "  for (_I _k = static_cast<_I>(blockIdx.x) * blockDim.x + threadIdx.x; _k < static_cast<_I>(_n); _k += _step) {\n"
       "    const ptrdiff_t i = static_cast<ptrdiff_t>(_k);\n    _ind.set(i);\n";
  if (!p.contiguous)
    w << "    long long _off[" << k << "];\n    copper::kern::offsets<" << k << ", _I>(_layout, _k, _off);\n";
  for (std::size_t a = 0; a < p.arrays.size(); ++a) {
    const UserKernelArg& arg = job.args[p.arrays[a]];
    const std::string address = element_address(arg, p.contiguous, "_k", "_off[" + std::to_string(a) + "]");
    w << "    " << element_load(arg, address) << "\n";
  }
  w.user_block(job.code->name, job.code->operation);
  w << ";\n  }\n";
}

std::string make_source(const UserElementwiseJob& job, const Plan& p, const UserVectorTraits& traits) {
  const UserKernelCode& code = *job.code;
  SourceWriter w(code.name + "_generated.cu");
  w << user_kernel_prologue(true);
  add_preamble(w, code, job.typedefs);
  w << "extern \"C\" __global__ void __launch_bounds__(256) " << code.name << "(";
  for (const auto& a : job.args) w << param_decl(a) << ", ";
  w << "long long _n";
  if (!p.contiguous) w << ", copper::kern::StridedLayout<" << std::to_string(p.arrays.size()) << "> _layout";
  w << ") {\n";
  w << (p.index32 ? "  typedef unsigned _I;\n" : "  typedef long long _I;\n");
  w << "  copper::user::Indexer _ind{_n, 0};\n  (void)_ind;\n";
  if (!code.loop_prep.empty()) {
    w.user_block(code.name + "_loop_prep", code.loop_prep);
    w << ";\n";
  }
  if (p.vec > 1) write_vector_loop(w, job, traits, p.arrays, p.vec);
  else write_element_loop(w, job, p);
  if (!code.after_loop.empty()) {
    w.user_block(code.name + "_after_loop", code.after_loop);
    w << ";\n";
  }
  w << "}\n";
  return w.str();
}

struct Compiled {
  KernelKey key;
  std::string source;
};

}  // namespace

std::vector<std::array<unsigned, 3>> user_layout_fast_divs(const UserLayout& l) {
  std::vector<std::array<unsigned, 3>> divs;
  for (std::int64_t s : l.shape) {
    const FastDiv f = make_fast_div(static_cast<unsigned>(s <= 0xffffffffLL ? s : 1));
    divs.push_back({f.divisor, f.mul, f.shift});
  }
  return divs;
}

KernelKey user_kernel_key(unsigned family, const SourceHash& h) {
  KernelKey k;
  k.words[0] = (family & 0xff) | (h.length << 8);
  k.words[1] = h.h1;
  k.words[2] = h.h2;
  k.words[3] = h.h1 ^ ((h.h2 << 17) | (h.h2 >> 47)) ^ h.length;
  return k;
}

const char* interned_name(const std::string& name) {
  static std::mutex mutex;
  static std::set<std::string> names;  // nodes never move or die
  std::lock_guard lock(mutex);
  return names.insert(name).first->c_str();
}

void check_param_bytes(std::size_t bytes, const std::string& name) {
  // Every GPU takes 4 KiB of kernel parameters; newer drivers more, but not all.
  if (bytes > 4000)
    throw NotImplementedError("the kernel " + name + " needs " + std::to_string(bytes) +
                              " bytes of parameters (too many array arguments); at most 4000 are supported");
}

std::string user_elementwise_source(const UserElementwiseJob& job) {
  const UserVectorTraits traits = user_vector_traits(job);
  return make_source(job, plan(job, traits), traits);
}

void run_user_elementwise(int device, const UserElementwiseJob& job) {
  const std::int64_t n = shape_size(job.shape);
  if (n == 0) return;
  // Memo per kernel object and call signature: repeated calls build and hash no source
  // and tokenize the user's code once.
  static UserKernelMemo<std::shared_ptr<const UserVectorTraits>> traits_memo;
  static UserKernelMemo<std::shared_ptr<const Compiled>> memo;
  const std::string base_sig = call_signature(*job.code, job.typedefs, job.args);
  const std::shared_ptr<const UserVectorTraits> traits =
      traits_memo.get(base_sig, [&] { return std::make_shared<const UserVectorTraits>(user_vector_traits(job)); });
  const Plan p = plan(job, *traits);
  const std::string sig = base_sig + (p.contiguous ? "|C" : "|S") + std::to_string(p.arrays.size()) +
                          (p.index32 ? "i" : "l") + "v" + std::to_string(p.vec);
  const std::shared_ptr<const Compiled> compiled = memo.get(sig, [&] {
    auto c = std::make_shared<Compiled>();
    c->source = make_source(job, p, *traits);
    c->key = user_kernel_key(kFamilyUserElementwise, hash_source(c->source));
    return c;
  });
  const CUfunction fn = get_kernel(device, compiled->key, [&] { return compiled->source; }, job.code->name.c_str());

  ParamBlock block;
  for (const auto& a : job.args) block.add_arg(a);
  block.add(static_cast<long long>(n));
  if (!p.contiguous) block.add_layout(p.layout, user_layout_fast_divs(p.layout));
  check_param_bytes(block.total_bytes(), job.code->name);
  // Contiguous: a grid covering the elements (or vectors) once; strided: one wave of
  // resident blocks.
  const std::int64_t work = (n + p.vec - 1) / p.vec;
  const std::int64_t blocks = (work + kBlock - 1) / kBlock;
  const unsigned grid = p.contiguous ? static_cast<unsigned>(std::min<std::int64_t>(blocks, 1 << 30))
                                     : grid_for(device, n, kBlock, resident_blocks_per_sm(fn, kBlock));
  launch(device, fn, grid, kBlock, const_cast<void**>(block.pointers()), interned_name(job.code->name));
}

}  // namespace copper::backend::cuda
