// Compiles the CUDA backend's reduction and scan kernels with NVRTC for sm_90, as
// CudaBackend::reduce / scan generate them; needs NVRTC but no GPU.
//
// NVRTC spends ~0.1-0.3 s per kernel here, and the front end can ask for 626
// (op, input dtype, output dtype) reductions x 14 kernel shapes/modes, so the default
// run (the ctest) compiles a representative subset, well under a minute:
//   - every kernel shape x addressing mode, each with a fixed list covering every
//     reducer kind with its awkward dtypes (float16 in float32, bool, complex
//     ordering, the flagged complex nanmax/nanmin, cross-kind casts), and (except the
//     general mode) the sum of every input dtype into its default accumulator (every
//     vector-load width and conversion);
//   - the finalize kernel for sum/max/argmax/any of every input dtype, plus nan forms;
//   - every scan kernel for cumsum/cumprod of every dtype into itself and into its
//     default accumulator, plus cross-kind pairs.
// `--full` compiles everything the front end can ask for (626 x 14 + 626 finalize +
// 392 x 4 scan kernels; tens of minutes); `--all-types` every dtype combination in one
// shape only (a few minutes). Variants are batched many to a program (a
// namespace and entry-name suffix each). A failure prints NVRTC's log.
//
//   cuda_reduce_compile_check [--full | --all-types]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <iterator>
#include <utility>
#include <string>
#include <vector>

#include "api/reduction_support.h"
#include "backend/cuda/cuda_reduce.h"
#include "backend/cuda/kernel_cache.h"
#include "copper/errors.hpp"

using namespace copper;
using namespace copper::backend::cuda;
using ops::ReduceOp;
using ops::ScanOp;

namespace {

constexpr DType kAllTypes[] = {DType::bool_,   DType::int8,    DType::uint8,   DType::int16,     DType::uint16,
                               DType::int32,   DType::uint32,  DType::int64,   DType::uint64,    DType::float16,
                               DType::float32, DType::float64, DType::complex64, DType::complex128};

bool inexact(DType t) {
  return t == DType::float16 || t == DType::float32 || t == DType::float64 || t == DType::complex64 ||
         t == DType::complex128;
}

struct ReduceVariant {
  ReduceOp op;
  DType in, out;
};

std::vector<ReduceVariant> reduce_variants() {
  std::vector<ReduceVariant> v;
  for (DType in : kAllTypes) {
    for (DType out : kAllTypes) {
      v.push_back({ReduceOp::sum, in, out});
      v.push_back({ReduceOp::prod, in, out});
      if (inexact(in)) {
        v.push_back({ReduceOp::nansum, in, out});
        v.push_back({ReduceOp::nanprod, in, out});
      }
    }
    v.push_back({ReduceOp::max, in, in});
    v.push_back({ReduceOp::min, in, in});
    if (inexact(in)) {
      v.push_back({ReduceOp::nanmax, in, in});
      v.push_back({ReduceOp::nanmin, in, in});
    }
    if (inexact(in)) {  // linalg.norm's 2-norm: real output for complex input
      const DType real = in == DType::complex64 ? DType::float32 : in == DType::complex128 ? DType::float64 : in;
      v.push_back({ReduceOp::l2norm, in, real});
    }
    v.push_back({ReduceOp::all, in, DType::bool_});
    v.push_back({ReduceOp::any, in, DType::bool_});
    v.push_back({ReduceOp::argmax, in, DType::int64});
    v.push_back({ReduceOp::argmin, in, DType::int64});
  }
  return v;
}

struct ShapeMode {
  ReduceShape shape;
  ReduceMode mode;
  const char* name;
};
constexpr ShapeMode kShapeModes[] = {
    {ReduceShape::rows, ReduceMode::contiguous, "rows/contiguous"},
    {ReduceShape::rows, ReduceMode::strided, "rows/strided"},
    {ReduceShape::rows, ReduceMode::general, "rows/general"},
    {ReduceShape::block, ReduceMode::contiguous, "block/contiguous"},
    {ReduceShape::block, ReduceMode::strided, "block/strided"},
    {ReduceShape::block, ReduceMode::general, "block/general"},
    {ReduceShape::cols, ReduceMode::contiguous, "cols/contiguous"},  // a broadcast (stride 0) kept axis
    {ReduceShape::cols, ReduceMode::strided, "cols/strided"},
    {ReduceShape::cols, ReduceMode::general, "cols/general"},
    {ReduceShape::cols_vec, ReduceMode::strided, "cols_vec/strided"},
    {ReduceShape::cols_vec, ReduceMode::general, "cols_vec/general"},
    {ReduceShape::cols_deep, ReduceMode::strided, "cols_deep/strided"},
    {ReduceShape::cols_deep, ReduceMode::general, "cols_deep/general"},
    {ReduceShape::rows_tile, ReduceMode::contiguous, "rows_tile/contiguous"},
};

struct Program {
  std::string label;
  std::string source;
};

struct Outcome {
  std::string label;
  bool ok;
  std::string log;
};

Outcome compile(const Program& prog) {
  try {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<char> cubin = compile_cubin(prog.source, 90);
    if (std::getenv("COPPER_CHECK_VERBOSE"))
      std::printf("%s: %.2f s\n", prog.label.c_str(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (cubin.empty()) return {prog.label, false, "empty cubin"};
    return {prog.label, true, {}};
  } catch (const std::exception& e) {
    return {prog.label, false, e.what()};
  }
}

// The dtype sum and cumsum accumulate in by default (the front end's rule).
DType default_sum(DType t) { return copper::api::default_sum_dtype(t); }

// The subset every shape and mode compiles in the default run.
std::vector<ReduceVariant> representative_variants() {
  std::vector<ReduceVariant> v;
  for (DType in : kAllTypes) v.push_back({ReduceOp::sum, in, default_sum(in)});
  const ReduceVariant extras[] = {
      {ReduceOp::max, DType::float16, DType::float16},      {ReduceOp::min, DType::uint64, DType::uint64},
      {ReduceOp::max, DType::bool_, DType::bool_},          {ReduceOp::nanmax, DType::float32, DType::float32},
      {ReduceOp::nanmin, DType::complex64, DType::complex64}, {ReduceOp::min, DType::complex128, DType::complex128},
      {ReduceOp::min, DType::int8, DType::int8},            {ReduceOp::argmin, DType::complex128, DType::int64},
      {ReduceOp::argmax, DType::float16, DType::int64},     {ReduceOp::argmax, DType::bool_, DType::int64},
      {ReduceOp::argmin, DType::int16, DType::int64},       {ReduceOp::all, DType::complex128, DType::bool_},
      {ReduceOp::any, DType::bool_, DType::bool_},          {ReduceOp::all, DType::float16, DType::bool_},
      {ReduceOp::prod, DType::complex64, DType::complex64}, {ReduceOp::prod, DType::int32, DType::int64},
      {ReduceOp::nanprod, DType::float32, DType::float64},  {ReduceOp::nansum, DType::float16, DType::float16},
      {ReduceOp::nansum, DType::complex128, DType::complex128}, {ReduceOp::sum, DType::float64, DType::float16},
      {ReduceOp::sum, DType::int8, DType::bool_},           {ReduceOp::sum, DType::complex64, DType::float32},
      {ReduceOp::sum, DType::uint8, DType::complex128},     {ReduceOp::sum, DType::float32, DType::float64},
  };
  v.insert(v.end(), std::begin(extras), std::end(extras));
  return v;
}

std::vector<ReduceVariant> representative_finalize_variants() {
  std::vector<ReduceVariant> v;
  for (DType in : kAllTypes) {
    v.push_back({ReduceOp::sum, in, default_sum(in)});
    v.push_back({ReduceOp::max, in, in});
    v.push_back({ReduceOp::argmax, in, DType::int64});
    v.push_back({ReduceOp::any, in, DType::bool_});
  }
  for (DType in : {DType::float16, DType::float64, DType::complex64}) {
    v.push_back({ReduceOp::nanmin, in, in});
    v.push_back({ReduceOp::nanprod, in, in});
    v.push_back({ReduceOp::prod, in, in});
  }
  return v;
}

struct ScanVariant {
  ScanOp op;
  DType in, out;
};
std::vector<ScanVariant> scan_variants(bool full) {
  std::vector<ScanVariant> v;
  for (ScanOp op : {ScanOp::cumsum, ScanOp::cumprod}) {
    for (DType in : kAllTypes) {
      if (full) {
        for (DType out : kAllTypes) v.push_back({op, in, out});
        continue;
      }
      v.push_back({op, in, in});
      if (default_sum(in) != in) v.push_back({op, in, default_sum(in)});
    }
    if (!full)
      for (auto [in, out] : {std::pair{DType::float16, DType::float32}, {DType::float64, DType::int32},
                             {DType::int32, DType::float32}, {DType::complex64, DType::float64}})
        v.push_back({op, in, out});
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const bool full = argc > 1 && std::strcmp(argv[1], "--full") == 0;
  // --all-types: every (op, input, output) in the cheapest shape (rows/strided), every
  // finalize, and every scan pair's lines and tiles kernels (a few minutes).
  const bool all_types = argc > 1 && std::strcmp(argv[1], "--all-types") == 0;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Program> programs;
  std::size_t nkernels = 0;
  // Batches kernels into programs of at most `per_program` kernels.
  auto add_batched = [&](const std::string& label, const std::string& head, std::size_t count, std::size_t per_program,
                         const std::function<std::string(std::size_t)>& definition) {
    for (std::size_t first = 0; first < count; first += per_program) {
      Program p{label + " #" + std::to_string(first / per_program), head};
      for (std::size_t i = first; i < std::min(count, first + per_program); ++i) {
        p.source += definition(i);
        ++nkernels;
      }
      programs.push_back(std::move(p));
    }
  };
  const std::vector<ReduceVariant> variants = full ? reduce_variants() : representative_variants();
  if (all_types) {
    const std::vector<ReduceVariant> every = reduce_variants();
    add_batched("reduce rows/strided (all types)", reduce_source_head(), every.size(), 40, [&](std::size_t i) {
      const ReduceVariant& v = every[i];
      return reduce_kernel_definitions(v.op, v.in, v.out, ReduceShape::rows, ReduceMode::strided, "_" + std::to_string(i));
    });
    add_batched("reduce finalize (all types)", reduce_source_head(), every.size(), 40, [&](std::size_t i) {
      const ReduceVariant& v = every[i];
      return reduce_finalize_definitions(v.op, v.in, v.out, "_" + std::to_string(i));
    });
    const std::vector<ScanVariant> scans = scan_variants(true);
    for (ScanKernel k : {ScanKernel::lines, ScanKernel::tiles})
      add_batched(std::string("scan (all types) ") + scan_entry(k), scan_source_head(), scans.size(), 40,
                  [&](std::size_t i) {
                    const ScanVariant& v = scans[i];
                    return scan_kernel_definitions(v.op, v.in, v.out, k, "_" + std::to_string(i));
                  });
  }
  for (const ShapeMode& sm : kShapeModes) {
    if (all_types) break;
    // The general mode's addressing does not depend on the dtypes, and its kernels are
    // the slowest to compile: the quick run gives it the fixed list without the sums.
    const std::size_t first = !full && sm.mode == ReduceMode::general ? std::size(kAllTypes) : 0;
    add_batched(std::string("reduce ") + sm.name, reduce_source_head(), variants.size() - first, 20, [&](std::size_t k) {
      const std::size_t i = first + k;
      const ReduceVariant& v = variants[i];
      return reduce_kernel_definitions(v.op, v.in, v.out, sm.shape, sm.mode, "_" + std::to_string(i));
    });
  }
  const std::vector<ReduceVariant> fin =
      all_types ? std::vector<ReduceVariant>{} : full ? reduce_variants() : representative_finalize_variants();
  add_batched("reduce finalize", reduce_source_head(), fin.size(), 40, [&](std::size_t i) {
    const ReduceVariant& v = fin[i];
    return reduce_finalize_definitions(v.op, v.in, v.out, "_" + std::to_string(i));
  });
  const std::vector<ScanVariant> scans = all_types ? std::vector<ScanVariant>{} : scan_variants(full);
  for (ScanKernel k : {ScanKernel::lines, ScanKernel::tile_totals, ScanKernel::totals, ScanKernel::tiles}) {
    add_batched(std::string("scan ") + scan_entry(k), scan_source_head(), scans.size(), 20, [&](std::size_t i) {
      const ScanVariant& v = scans[i];
      return scan_kernel_definitions(v.op, v.in, v.out, k, "_" + std::to_string(i));
    });
  }
  // Two programs at a time (NVRTC is thread-safe; the build machines have few cores).
  int failures = 0;
  std::vector<std::future<Outcome>> running;
  auto drain = [&](std::size_t keep) {
    while (running.size() > keep) {
      Outcome o = running.front().get();
      running.erase(running.begin());
      if (!o.ok) {
        ++failures;
        std::fprintf(stderr, "FAILED: %s\n%s\n", o.label.c_str(), o.log.substr(0, 20000).c_str());
      }
    }
  };
  for (const Program& prog : programs) {
    drain(1);
    running.push_back(std::async(std::launch::async, compile, std::cref(prog)));
  }
  drain(0);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%zu reduction and scan kernels in %zu programs compiled for sm_90 in %.1f s: %d programs failed\n",
              nkernels, programs.size(), secs, failures);
  return failures ? 1 : 0;
}
