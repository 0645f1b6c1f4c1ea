// CUDA source of the reduction kernels: reduce.cuh's templates instantiated for one
// (op, input dtype, output dtype, shape, addressing mode).
#include <utility>

#include "backend/cuda/cuda_reduce.h"
#include "copper/errors.hpp"

namespace copper::backend::cuda {

namespace {

// The reducer of kernels/reduce.cuh for `op`, over typedefs In and Out.
std::string reducer_type(ops::ReduceOp op, DType in, DType out) {
  using ops::ReduceOp;
  auto need = [&](bool ok) {
    if (!ok)
      throw RuntimeError("CudaBackend::reduce: no kernel for " + std::string(ops::name(op)) + " from " +
                         std::string(name(in)) + " to " + std::string(name(out)));
  };
  switch (op) {
    case ReduceOp::sum: return "copper::kern::red::Sum<In, Out, false>";
    case ReduceOp::nansum: return "copper::kern::red::Sum<In, Out, true>";
    case ReduceOp::prod: return "copper::kern::red::Prod<In, Out, false>";
    case ReduceOp::nanprod: return "copper::kern::red::Prod<In, Out, true>";
    case ReduceOp::l2norm: return "copper::kern::red::Sum<In, Out, false, true, true>";
    case ReduceOp::max: need(in == out); return "copper::kern::red::Extremum<In, copper::kern::red::kMax>";
    case ReduceOp::min: need(in == out); return "copper::kern::red::Extremum<In, copper::kern::red::kMin>";
    case ReduceOp::nanmax: need(in == out); return "copper::kern::red::Extremum<In, copper::kern::red::kNanMax>";
    case ReduceOp::nanmin: need(in == out); return "copper::kern::red::Extremum<In, copper::kern::red::kNanMin>";
    case ReduceOp::all: need(out == DType::bool_); return "copper::kern::red::Logical<In, true>";
    case ReduceOp::any: need(out == DType::bool_); return "copper::kern::red::Logical<In, false>";
    case ReduceOp::argmax: need(out == DType::int64); return "copper::kern::red::Arg<In, true>";
    case ReduceOp::argmin: need(out == DType::int64); return "copper::kern::red::Arg<In, false>";
  }
  throw RuntimeError("CudaBackend::reduce: unknown reduction");
}

// The kernel template of `shape` and the template arguments after <R, In, Mode.
std::pair<const char*, const char*> shape_function(ReduceShape shape) {
  switch (shape) {
    case ReduceShape::rows: return {"reduce_rows", ""};
    case ReduceShape::block: return {"reduce_block", ""};
    case ReduceShape::cols: return {"reduce_cols", ""};
    case ReduceShape::cols_vec: return {"reduce_cols_vec", ""};
    case ReduceShape::rows_tile: return {"reduce_rows_tile", ""};
    case ReduceShape::cols_deep: return {"reduce_cols_vec", ", true"};
    case ReduceShape::rows_serial: break;  // generated with its feed (cuda_fused_chain.cpp)
  }
  throw RuntimeError("CudaBackend::reduce: unknown kernel shape");
}

}  // namespace

std::string reduce_source_head() {
  std::string s = source_prologue();
  s += "#include \"copper_kernels/reduce.cuh\"\n";
  // The host fills ReduceParams (cuda_reduce.h); a layout drift fails to compile here.
  s += "static_assert(sizeof(copper::kern::ReduceParams) == " + std::to_string(sizeof(ReduceParams)) +
       ", \"ReduceParams differs between host and device\");\n";
  s += "static_assert(sizeof(copper::kern::StridedLayout<2>) == " + std::to_string(sizeof(StridedLayoutParam<2>)) +
       " && sizeof(copper::kern::StridedLayout<1>) == " + std::to_string(sizeof(StridedLayoutParam<1>)) +
       ", \"StridedLayout differs between host and device\");\n";
  s += "static_assert(copper::kern::kRowsTileBytes == " + std::to_string(kRowsTileBytes) +
       ", \"kRowsTileBytes differs between host and device\");\n";
  return s;
}

std::string reducer_typedefs(const std::string& ns, ops::ReduceOp op, DType in, DType out) {
  std::string s = "namespace " + ns + " {\n";
  s += "typedef " + std::string(device_type_name(in)) + " In;\n";
  s += "typedef " + std::string(device_type_name(out)) + " Out;\n";
  s += "typedef " + reducer_type(op, in, out) + " R;\n}\n";
  return s;
}

std::string reduce_template_call(ReduceShape shape, ReduceMode mode, const std::string& ns, const std::string& source) {
  const auto [function, extra_args] = shape_function(shape);
  return std::string("copper::kern::") + function + "<" + ns + "::R, " + ns + "::In, " +
         std::to_string(static_cast<int>(mode)) + extra_args + ">(p" + (source.empty() ? "" : ", " + source) + ");";
}

int reduce_min_blocks(ReduceShape shape, DType in) {
  // Measured on an H200 (2026-12-03, sums): cols_deep's eight 16-byte loads in flight take
  // 80 registers, three blocks per SM; capped at 64 (four blocks, a few spilled registers)
  // an outer-axis float64 sum of (1e4, 1e4) went from 2370 to 3783 GB/s, and capped at 80
  // (three) float32 from 2791 to 3457 (four: 3168); a full float32 sum (block) from 3455 to
  // 3715 at three. Other types and shapes keep the compiler's choice (not measured).
  const bool real = is_floating(in) || is_integer(in);
  const int size = itemsize(in);
  if (!real) return 0;
  if (shape == ReduceShape::cols_deep) return size == 8 ? 4 : size == 4 ? 3 : 0;
  if (shape == ReduceShape::block) return size == 4 ? 3 : 0;
  return 0;
}

std::string reduce_kernel_definitions(ops::ReduceOp op, DType in, DType out, ReduceShape shape, ReduceMode mode,
                                      const std::string& suffix) {
  const std::string ns = "copper_reduce" + suffix;
  const int min_blocks = reduce_min_blocks(shape, in);
  const std::string bounds = min_blocks ? "256, " + std::to_string(min_blocks) : "256";
  return reducer_typedefs(ns, op, in, out) + "extern \"C\" __global__ void __launch_bounds__(" + bounds + ") " +
         kReduceMainEntry + suffix + "(const copper::kern::ReduceParams p) {\n  " +
         reduce_template_call(shape, mode, ns, "") + "\n}\n";
}

std::string reduce_finalize_definitions(ops::ReduceOp op, DType in, DType out, const std::string& suffix) {
  const std::string ns = "copper_fin" + suffix;
  return reducer_typedefs(ns, op, in, out) + "extern \"C\" __global__ void __launch_bounds__(256) " +
         kReduceFinalizeEntry + suffix + "(const copper::kern::ReduceParams p) {\n  copper::kern::reduce_finalize<" +
         ns + "::R>(p);\n}\n";
}

}  // namespace copper::backend::cuda
