// Automatic fusion's GPU kernels (cuda_fused_chain.cpp) compile under NVRTC for sm_90, no
// GPU needed: for every loop dtype, one chain through every one-output ufunc that has a
// loop of that dtype (memory operands read and rewritten, one-element broadcasts, values
// by parameter, errstate's checked steps), plus the shapes the recorder makes most:
// the in-place seed chain, temporaries kept in registers (scratch), casts and where, and a
// buffer read as two dtypes (which must fall back to the steps' own kernels: no source);
// and chains feeding a reduction, in every kernel shape and addressing mode.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "backend/cuda/cuda_fused_chain.h"
#include "backend/cuda/kernel_cache.h"
#include "ops/catalogue.h"

using namespace copper;
using namespace copper::backend;

namespace {

alignas(256) char fake_memory[1 << 15];

// A distinct 16-byte-aligned address per (dtype, role), so a dtype's operands share one.
void* address(DType t, int role) { return fake_memory + 256 * (static_cast<int>(t) + num_dtypes * role); }

ChainOperand memory(DType t, int role = 0) { return ChainOperand{address(t, role), t}; }
ChainOperand broadcast(DType t) { return ChainOperand{address(t, 2), t, true}; }
ChainOperand value(DType t) { return ChainOperand{nullptr, t, false, true}; }

int failures = 0, compiled = 0;

void compile_source(const std::string& source, const std::string& what) {
  if (source.empty()) {
    ++failures;
    std::printf("FAILED %s: no fused source\n", what.c_str());
    return;
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    cuda::compile_cubin(source, 90);
    ++compiled;
    std::printf("%-45s %6.1f s\n", what.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const std::exception& e) {
    ++failures;
    std::printf("FAILED %s:\n%.3000s\n", what.c_str(), e.what());
  }
}

void compile(const Chain& chain, const std::string& what) { compile_source(cuda::fused_chain_source(chain), what); }

ChainStep step(ops::UfuncId op, DType loop, std::initializer_list<ChainOperand> in, ChainOperand out,
               unsigned fp_mask = 0xf) {
  ChainStep s;
  s.op = op;
  s.loop = loop;
  s.nin = static_cast<int>(in.size());
  int k = 0;
  for (const ChainOperand& o : in) s.in[k++] = o;
  s.out = out;
  s.fp_mask = fp_mask;
  return s;
}

Chain chain_of(std::int64_t size) {
  Chain c;
  c.shape = {size};
  c.size = size;
  return c;
}

}  // namespace

int main() {
  // Every one-output ufunc over each loop dtype, chained: inputs alternate memory, value
  // and broadcast operands; each result overwrites its dtype's memory slot, so later steps
  // read it from a register.
  for (int t = 0; t < num_dtypes; ++t) {
    const DType loop = static_cast<DType>(t);
    Chain c = chain_of(1000);
    for (int o = 0; o < ops::num_ufuncs; ++o) {
      const auto op = static_cast<ops::UfuncId>(o);
      const auto& info = ops::info(op);
      if (info.nout != 1 || !info.out[t]) continue;
      ChainStep s;
      s.op = op;
      s.loop = loop;
      s.nin = info.nin;
      for (int k = 0; k < info.nin; ++k) {
        const DType in = ops::input_dtype(op, loop, k);
        s.in[k] = k == 0 ? memory(in) : (o + k) % 2 ? value(in) : broadcast(in);
      }
      s.out = memory(*info.out[t]);
      s.fp_mask = o % 3 ? 0xf : 0;
      c.steps.push_back(s);
    }
    if (!c.steps.empty()) compile(c, "every ufunc over " + std::string(name(loop)));
  }

  // x *= 5; x *= x; x += x in float32 and float64 (one slot loaded and stored).
  for (DType t : {DType::float32, DType::float64}) {
    Chain c = chain_of(1 << 20);
    const ChainOperand x = memory(t);
    c.steps.push_back(step(ops::UfuncId::multiply, t, {x, value(t)}, x));
    c.steps.push_back(step(ops::UfuncId::multiply, t, {x, x}, x));
    c.steps.push_back(step(ops::UfuncId::add, t, {x, x}, x));
    compile(c, "seed chain over " + std::string(name(t)));
  }

  // Temporaries in scratch slots, a held result, comparisons into bool and a second
  // input dtype; 64-bit positions.
  {
    Chain c = chain_of(std::int64_t{3} << 31);
    const DType f = DType::float64;
    ChainOperand t0 = memory(f, 1), t1 = memory(f, 3), mask = memory(DType::bool_, 1);
    t0.scratch = 0;
    t1.scratch = 1;
    c.scratch_itemsize = {8, 8};
    c.steps.push_back(step(ops::UfuncId::multiply, f, {memory(f), value(f)}, t0));
    c.steps.push_back(step(ops::UfuncId::sqrt, f, {t0}, t1));
    c.steps.push_back(step(ops::UfuncId::add, f, {t1, broadcast(f)}, memory(f, 4)));
    c.steps.push_back(step(ops::UfuncId::greater, f, {t0, t1}, mask));
    c.steps.push_back(step(ops::UfuncId::logical_and, DType::bool_, {mask, broadcast(DType::bool_)}, mask, 0));
    compile(c, "scratch, held results and bool masks");
  }

  // Integer division (checked for divide by zero), float16 and complex steps.
  {
    Chain c = chain_of(4097);
    c.steps.push_back(step(ops::UfuncId::floor_divide, DType::int32, {memory(DType::int32), value(DType::int32)},
                           memory(DType::int32, 1)));
    c.steps.push_back(step(ops::UfuncId::remainder, DType::int64, {memory(DType::int64), memory(DType::int64, 1)},
                           memory(DType::int64, 3)));
    c.steps.push_back(step(ops::UfuncId::multiply, DType::float16, {memory(DType::float16), value(DType::float16)},
                           memory(DType::float16)));
    c.steps.push_back(step(ops::UfuncId::exp, DType::complex64, {memory(DType::complex64)}, memory(DType::complex64, 1)));
    compile(c, "integer division, float16 and complex");
  }

  // isclose's start over one-element float16 operands (|y|, a == y, isfinite(y)): nothing
  // loaded per position, and float16's conversions branch. At 8 positions per thread NVRTC
  // spent minutes on it (the H200 run of CuPy's logic tests hung there); the values are
  // now computed once per thread and float16 chains take one position per thread. And the
  // same steps with one operand in memory, once elementwise and once feeding a reduction
  // one thread per row (its body called, not inlined into the unrolled rows).
  {
    const DType h = DType::float16, b = DType::bool_;
    auto isclose_start = [&](ChainOperand a, std::int64_t size) {
      Chain c = chain_of(size);
      c.steps.push_back(step(ops::UfuncId::absolute, h, {broadcast(h)}, memory(h, 1), 0));
      c.steps.push_back(step(ops::UfuncId::equal, h, {a, broadcast(h)}, memory(b, 3), 0));
      c.steps.push_back(step(ops::UfuncId::isfinite, h, {broadcast(h)}, memory(b, 4), 0));
      return c;
    };
    compile(isclose_start(broadcast(h), 1), "float16 one-element operands");
    compile(isclose_start(memory(h), 4096), "float16, one operand in memory");
    Chain fed = isclose_start(memory(h), 4096);
    fed.reduction = ChainReduction{ops::ReduceOp::all, ArrayView{address(b, 3), b, {256, 16}, {16, 1}}, 1,
                                   ArrayView{address(b, 5), b, {256}, {1}}};
    compile_source(cuda::fused_reduction_source(fed, cuda::ReduceShape::rows_serial, cuda::ReduceMode::contiguous),
                   "float16 feeding all(), one thread per row");
  }

  // Casts between every pair of dtypes (astype in a chain), and where over each dtype.
  {
    Chain c = chain_of(5000);
    for (int from = 0; from < num_dtypes; ++from)
      for (int to = 0; to < num_dtypes; ++to) {
        ChainStep s;
        s.kind = StepKind::cast;
        s.nin = 1;
        s.in[0] = memory(static_cast<DType>(from));
        s.out = memory(static_cast<DType>(to), 1);
        c.steps.push_back(s);
      }
    for (int t = 0; t < num_dtypes; ++t) {
      ChainStep s;
      s.kind = StepKind::where;
      s.nin = 3;
      s.in[0] = memory(DType::bool_, 3);
      s.in[1] = memory(static_cast<DType>(t), 1);
      s.in[2] = t % 2 ? value(static_cast<DType>(t)) : broadcast(static_cast<DType>(t));
      s.out = memory(static_cast<DType>(t), 4);
      c.steps.push_back(s);
    }
    compile(c, "casts between all dtypes, where over each");
  }

  // Chains feeding a reduction (its kernel computes its input from the steps), in every
  // kernel shape and addressing mode: a squared input kept in a register (checked for
  // overflow), a held result stored on the way, a broadcast and a value; a few reducers and
  // dtypes; and a long chain (called through one function).
  {
    using cuda::ReduceMode;
    using cuda::ReduceShape;
    auto fed = [](DType t, ops::ReduceOp op, DType out, int extra_steps) {
      Chain c = chain_of(1 << 16);
      ChainOperand sq = memory(t, 1);
      sq.scratch = 0;
      c.scratch_itemsize = {static_cast<int>(itemsize(t))};
      c.steps.push_back(step(ops::UfuncId::multiply, t, {memory(t), memory(t)}, sq));
      c.steps.push_back(step(ops::UfuncId::add, t, {sq, broadcast(t)}, memory(t, 4)));
      for (int i = 0; i < extra_steps; ++i)
        c.steps.push_back(step(i % 2 ? ops::UfuncId::add : ops::UfuncId::multiply, t, {sq, value(t)}, sq));
      c.reduction = ChainReduction{op, ArrayView{address(t, 1), t, {256, 256}, {256 * itemsize(t), itemsize(t)}}, 1,
                                   ArrayView{address(out, 3), out, {256}, {itemsize(out)}}};
      return c;
    };
    const ReduceShape shapes[] = {ReduceShape::rows, ReduceShape::block, ReduceShape::cols, ReduceShape::cols_vec,
                                  ReduceShape::cols_deep};
    const ReduceMode modes[] = {ReduceMode::contiguous, ReduceMode::strided, ReduceMode::general};
    const Chain sum64 = fed(DType::float64, ops::ReduceOp::sum, DType::float64, 0);
    for (ReduceShape shape : shapes)
      for (ReduceMode mode : modes)
        compile_source(cuda::fused_reduction_source(sum64, shape, mode),
                       "fed float64 sum, shape " + std::to_string(static_cast<int>(shape)) + " mode " +
                           std::to_string(static_cast<int>(mode)));
    struct Variant {
      DType in;
      ops::ReduceOp op;
      DType out;
      ReduceShape shape;
      ReduceMode mode;
      int extra_steps;
      const char* what;
    };
    const Variant variants[] = {
        {DType::float32, ops::ReduceOp::sum, DType::float32, ReduceShape::cols_deep, ReduceMode::contiguous, 0,
         "fed float32 sum, cols_deep"},
        {DType::float32, ops::ReduceOp::l2norm, DType::float32, ReduceShape::block, ReduceMode::contiguous, 0,
         "fed float32 l2norm, block"},
        {DType::int32, ops::ReduceOp::argmax, DType::int64, ReduceShape::rows, ReduceMode::contiguous, 0,
         "fed int32 argmax, rows"},
        {DType::float16, ops::ReduceOp::max, DType::float16, ReduceShape::cols_vec, ReduceMode::contiguous, 0,
         "fed float16 max, cols_vec"},
        {DType::complex128, ops::ReduceOp::sum, DType::complex128, ReduceShape::block, ReduceMode::strided, 0,
         "fed complex128 sum, block"},
        {DType::float64, ops::ReduceOp::any, DType::bool_, ReduceShape::rows, ReduceMode::general, 0,
         "fed float64 any, rows"},
        {DType::float64, ops::ReduceOp::sum, DType::float64, ReduceShape::block, ReduceMode::contiguous, 20,
         "fed float64 sum after 22 steps"},
    };
    for (const Variant& v : variants)
      compile_source(cuda::fused_reduction_source(fed(v.in, v.op, v.out, v.extra_steps), v.shape, v.mode), v.what);
    // The reduced buffer last written as another dtype than the reduction reads: unfed.
    Chain mismatched = fed(DType::float64, ops::ReduceOp::sum, DType::float64, 0);
    mismatched.reduction->in.dtype = DType::float32;
    if (!cuda::fused_reduction_source(mismatched, ReduceShape::rows, ReduceMode::contiguous).empty()) {
      ++failures;
      std::printf("FAILED: a reduction reading float32 was fed a float64 result\n");
    }
  }

  // Strided views (Chain::views): the k-means distance's subtract of two broadcast views,
  // squared in a register, elementwise (32- and 64-bit positions) and feeding its sum; and
  // more views than a kernel takes (no source: the steps run one by one).
  {
    const DType f = DType::float64;
    auto kmeans = [&](std::int64_t n) {
      Chain c;
      c.shape = {n, 8, 2};
      c.size = n * 16;
      c.views = {{16, 0, 8}, {0, 16, 8}};
      ChainOperand x = memory(f, 5), centres = memory(f, 6), diff = memory(f, 1);
      x.view = 0;
      centres.view = 1;
      diff.scratch = 0;
      c.scratch_itemsize = {8};
      c.steps.push_back(step(ops::UfuncId::subtract, f, {x, centres}, diff));
      c.steps.push_back(step(ops::UfuncId::square, f, {diff}, memory(f, 4)));
      return c;
    };
    compile(kmeans(1000), "k-means difference, two views");
    compile(kmeans(std::int64_t{1} << 29), "k-means difference, 64-bit positions");
    Chain fed = kmeans(1 << 12);
    fed.reduction = ChainReduction{ops::ReduceOp::sum, ArrayView{address(f, 4), f, {1 << 12, 8, 2}, {128, 16, 8}}, 1,
                                   ArrayView{address(f, 3), f, {1 << 12, 8}, {64, 8}}};
    compile_source(cuda::fused_reduction_source(fed, cuda::ReduceShape::rows, cuda::ReduceMode::strided),
                   "k-means distance feeding its sum");
    // One thread per row (rows_serial): the sum alone; then with the sqrt after it, the sum
    // in a register (scratch) and then held (stored), the sqrt checked for invalid values;
    // and rows that do not lie along the innermost axis (positions per element).
    compile_source(cuda::fused_reduction_source(fed, cuda::ReduceShape::rows_serial, cuda::ReduceMode::strided),
                   "k-means distance, one thread per row");
    Chain tailed = fed;
    tailed.after_shape = {1 << 12, 8};
    tailed.after_size = 8 << 12;
    tailed.scratch_itemsize.push_back(8);
    tailed.reduction->out_scratch = 1;
    ChainOperand sum_out{address(f, 3), f};
    sum_out.scratch = 1;
    tailed.after.push_back(step(ops::UfuncId::sqrt, f, {sum_out}, memory(f, 7)));
    tailed.after.push_back(step(ops::UfuncId::multiply, f, {memory(f, 7), value(f)}, memory(f, 7)));
    compile_source(cuda::fused_reduction_source(tailed, cuda::ReduceShape::rows_serial, cuda::ReduceMode::strided),
                   "k-means distance with its sqrt, the sum in a register");
    tailed.reduction->out_scratch = -1;
    tailed.after[0].in[0].scratch = -1;
    tailed.after[0].fp_mask = 0xf;
    compile_source(cuda::fused_reduction_source(tailed, cuda::ReduceShape::rows_serial, cuda::ReduceMode::strided),
                   "k-means distance with its checked sqrt, the sum stored");
    Chain across = tailed;
    across.reduction->in = ArrayView{address(f, 4), f, {1 << 12, 16}, {128, 8}};
    across.reduction->out = ArrayView{address(f, 3), f, {1 << 12}, {8}};
    across.after_shape = {1 << 12};
    across.after_size = 1 << 12;
    compile_source(cuda::fused_reduction_source(across, cuda::ReduceShape::rows_serial, cuda::ReduceMode::contiguous),
                   "rows across two axes, one thread per row, with steps after");
    Chain many = chain_of(64);
    for (int i = 0; i < 5; ++i) {
      many.views.push_back({8 * (i + 1)});
      ChainOperand v = memory(f, 5);
      v.view = i;
      many.steps.push_back(step(ops::UfuncId::add, f, {memory(f, 4), v}, memory(f, 4)));
    }
    if (!cuda::fused_chain_source(many).empty()) {
      ++failures;
      std::printf("FAILED: a chain reading five strided views got a fused kernel\n");
    }
  }

  // One address read as two dtypes: no fused source (the steps run one by one).
  {
    Chain c = chain_of(100);
    c.steps.push_back(step(ops::UfuncId::add, DType::float64, {memory(DType::float64), value(DType::float64)},
                           ChainOperand{address(DType::float64, 0), DType::float64}));
    c.steps.push_back(step(ops::UfuncId::add, DType::int64,
                           {ChainOperand{address(DType::float64, 0), DType::int64}, value(DType::int64)},
                           memory(DType::int64, 1)));
    if (!cuda::fused_chain_source(c).empty()) {
      ++failures;
      std::printf("FAILED: a buffer read as float64 and int64 got a fused kernel\n");
    }
  }

  std::printf("%d chain kernels compiled, %d failures\n", compiled, failures);
  return failures ? 1 : 0;
}
