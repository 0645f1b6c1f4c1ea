// Backend::histogram on the GPU (bincount, histogram, histogramdd). CUB's
// DeviceHistogram does not fit NumPy's rules (its last bin excludes the upper edge, it
// has no weights and its own bin arithmetic), so this is one generated kernel: a
// grid-stride loop finds each element's flat bin (ops/scalar_histogram.h, the rule the
// CPU backend uses), and adds it with shared-memory atomics into per-warp private copies
// of the histogram, which each block adds into the result at the end. Histograms too big
// for shared memory take global atomics directly. Edges are copied to shared memory when
// they fit. Float sums depend on the order atomics land in (not bit-reproducible). A bool
// histogram (which bins are hit) loads its bin and stores only when it is still clear:
// plain idempotent stores, no atomics, and a bin hit often stays a cached read.
#include "backend/cuda/cuda_histogram.h"

#include <algorithm>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_codegen.h"
#include "backend/cuda/cuda_context.h"
#include "backend/cuda/cuda_driver.h"
#include "backend/cuda/kernel_families.h"

namespace copper::backend::cuda {
namespace {

constexpr unsigned kBlock = 256;
constexpr int kMaxAxes = 16;                  // copper::kern::kHistMaxDims
constexpr int kMaxCopies = kBlock / 32;       // one private copy per warp at most
constexpr std::int64_t kSharedBudget = 40 << 10;  // below the 48 KiB dynamic-shared default
constexpr std::int64_t kSharedEdgesMax = 8 << 10;

struct HistAxisParam {  // mirrors copper::kern::HistAxis
  const void* x;
  long long stride;
  const void* edges;
  long long nbins, bin_stride;
  unsigned shared_offset, pad;
};
struct HistParams {  // mirrors copper::kern::HistArgs
  HistAxisParam ax[kMaxAxes];
  const void* w;
  long long w_stride;
  void* out;
  long long count, total_bins;
  int copies;
  unsigned edges_bytes;
};

int rule_code(HistogramBins b) {
  switch (b) {
    case HistogramBins::index: return 0;
    case HistogramBins::edges: return 1;
    case HistogramBins::uniform_edges: return 2;
  }
  return 0;
}

unsigned edges_code(DType t) {
  switch (t) {
    case DType::int64: return 0;
    case DType::uint64: return 1;
    case DType::float32: return 2;
    default: return 3;  // float64
  }
}

int lanes(DType acc) { return acc == DType::complex128 ? 2 : 1; }
// The global slot type: unsigned long long for integer sums (wrapping), double for floats.
const char* global_slot(DType acc) {
  if (acc == DType::bool_) return "unsigned char";
  return acc == DType::int64 || acc == DType::uint64 ? "unsigned long long" : "double";
}

}  // namespace

std::string histogram_source(const HistogramKernelSpec& spec) {
  const int d = static_cast<int>(spec.axes.size());
  std::string s = source_prologue() + "#include \"copper_kernels/histogram.cuh\"\n";
  s += std::string("typedef ") + global_slot(spec.acc) + " Global;\n";
  const bool counts = !spec.weighted;
  s += std::string("typedef ") + (spec.privatized && counts && spec.counts32 ? "unsigned" : "Global") + " Slot;\n";
  for (int k = 0; k < d; ++k) {
    const auto& ax = spec.axes[k];
    const std::string i = std::to_string(k);
    s += "typedef " + std::string(device_type_name(ax.x)) + " X" + i + ";\n";
    s += "typedef " + std::string(ax.bins == HistogramBins::index ? "long long" : device_type_name(ax.edges)) + " E" +
         i + ";\n";
  }
  if (spec.weighted) s += "typedef " + std::string(device_type_name(spec.weights)) + " W;\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) copper_histogram(copper::kern::HistArgs a) {\n"
       "  using namespace copper::kern;\n"
       "  extern __shared__ __align__(16) unsigned char smem[];\n";
  // Edges into shared memory (4-byte words: every edge dtype is 4 or 8 bytes).
  if (spec.edges_shared) {
    for (int k = 0; k < d; ++k) {
      if (spec.axes[k].bins == HistogramBins::index) continue;
      const std::string i = std::to_string(k);
      s += "  for (long long j = threadIdx.x; j < (a.ax[" + i + "].nbins + 1) * (long long)(sizeof(E" + i +
           ") / 4); j += blockDim.x)\n"
           "    reinterpret_cast<unsigned*>(smem + a.ax[" + i + "].shared_offset)[j] =\n"
           "        reinterpret_cast<const unsigned*>(a.ax[" + i + "].edges)[j];\n";
    }
  }
  for (int k = 0; k < d; ++k) {
    const std::string i = std::to_string(k);
    if (spec.axes[k].bins == HistogramBins::index) {
      s += "  const E" + i + "* e" + i + " = nullptr;\n  const copper::ops::UniformGuess g" + i + "{0, 0};\n";
    } else if (spec.edges_shared) {
      s += "  const E" + i + "* e" + i + " = reinterpret_cast<const E" + i + "*>(smem + a.ax[" + i + "].shared_offset);\n";
    } else {
      s += "  const E" + i + "* e" + i + " = static_cast<const E" + i + "*>(a.ax[" + i + "].edges);\n";
    }
  }
  const std::string lanes_text = std::to_string(lanes(spec.acc));
  s += "  const long long slots = a.total_bins * " + lanes_text + ";\n";
  if (spec.privatized) {
    s += "  Slot* local = reinterpret_cast<Slot*>(smem + ((a.edges_bytes + 15) & ~15u));\n"
         "  for (long long j = threadIdx.x; j < slots * a.copies; j += blockDim.x) local[j] = Slot(0);\n"
         "  __syncthreads();\n"
         "  Slot* hist = local + ((threadIdx.x >> 5) % a.copies) * slots;\n";
  } else {
    if (spec.edges_shared) s += "  __syncthreads();\n";
    s += "  Slot* hist = static_cast<Slot*>(a.out);\n";
  }
  for (int k = 0; k < d; ++k) {  // after the edges are in place
    if (spec.axes[k].bins == HistogramBins::index) continue;
    const std::string i = std::to_string(k);
    s += "  const copper::ops::UniformGuess g" + i + " = hist_guess(e" + i + ", a.ax[" + i + "].nbins);\n";
  }
  // The addition of one element, given its flat bin and index.
  std::string add;
  if (spec.acc == DType::bool_) {
    // Which bins are hit: a load first, so a bin hit again (cached) costs no store.
    add = "{ if (!hist[flat]) hist[flat] = Slot(1); }";
  } else if (counts) {
    add = "hist_atomic_add(hist + flat, Slot(1));";
  } else if (spec.acc == DType::complex128) {
    add = "{ const copper::ops::complex128 v = copper::ops::cast<copper::ops::complex128>("
          "copper::kern::load_element<W>(a.w + i * a.w_stride));\n"
          "        hist_atomic_add(hist + 2 * flat, v.re); hist_atomic_add(hist + 2 * flat + 1, v.im); }";
  } else {
    add = "hist_atomic_add(hist + flat, copper::ops::cast<Slot>(copper::kern::load_element<W>(a.w + i * a.w_stride)));";
  }
  auto axis_test = [&](int k, const std::string& raw) {
    const std::string i = std::to_string(k);
    return "hist_axis<" + std::to_string(rule_code(spec.axes[k].bins)) + ", E" + i + ">(a.ax[" + i + "], e" + i + ", g" +
           i + ", " + raw + ", flat)";
  };
  s += "  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
       "  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n"
       "  long long tail = first;\n";
  if (spec.vector_loads) {
    s += "  constexpr int V = sizeof(X0) >= 16 ? 1 : 16 / sizeof(X0);\n"
         "  const long long nvec = a.count / V;\n"
         "  const Vec<X0, V>* xv = reinterpret_cast<const Vec<X0, V>*>(a.ax[0].x);\n"
         "  for (long long j = first; j < nvec; j += step) {\n"
         "    const Vec<X0, V> chunk = xv[j];\n"
         "#pragma unroll\n"
         "    for (int k = 0; k < V; ++k) {\n"
         "      long long flat = 0;\n"
         "      if (" + axis_test(0, "chunk.v[k]") + ") " + add + "\n"
         "    }\n"
         "  }\n"
         "  tail = nvec * V + first;\n";
  }
  s += "  for (long long i = tail; i < a.count; i += step) {\n"
       "    long long flat = 0;\n";
  for (int k = 0; k < d; ++k) {
    const std::string i = std::to_string(k);
    s += "    if (!" + axis_test(k, "*reinterpret_cast<const X" + i + "*>(a.ax[" + i + "].x + i * a.ax[" + i + "].stride)") +
         ") continue;\n";
  }
  s += "    " + add + "\n  }\n";
  if (spec.privatized) s += "  hist_flush(local, static_cast<Global*>(a.out), slots, a.copies);\n";
  return s + "}\n";
}

void CudaBackend::histogram(std::span<const HistogramAxis> axes, const ArrayView* weights, const ArrayView& out) {
  const int d = static_cast<int>(axes.size());
  if (d > kMaxAxes)
    throw NotImplementedError("histograms of more than " + std::to_string(kMaxAxes) + " dimensions on the GPU");
  fill(out, Scalar(0));
  const std::int64_t count = axes[0].x.shape[0];
  const std::int64_t total = shape_size(out.shape);
  if (count == 0 || total == 0) return;

  HistogramKernelSpec spec;
  HistParams p{};
  std::int64_t edge_bytes = 0;
  for (int k = 0; k < d; ++k) {
    const HistogramAxis& ax = axes[k];
    spec.axes.push_back({ax.x.dtype, ax.edges.dtype, ax.bins});
    HistAxisParam& q = p.ax[k];
    q.x = ax.x.data;
    q.stride = ax.x.strides[0];
    q.nbins = out.shape[k];
    q.bin_stride = 1;
    for (int j = k + 1; j < d; ++j) q.bin_stride *= out.shape[j];
    if (ax.bins == HistogramBins::index) continue;
    q.edges = ax.edges.data;
    const std::int64_t n = ax.edges.shape[0] - 1;
    q.shared_offset = static_cast<unsigned>(edge_bytes);
    edge_bytes += ((n + 1) * itemsize(ax.edges.dtype) + 7) / 8 * 8;
  }
  spec.weighted = weights != nullptr;
  if (weights) spec.weights = weights->dtype;
  spec.acc = out.dtype;
  spec.edges_shared = edge_bytes <= kSharedEdgesMax;
  const std::int64_t slots = total * lanes(out.dtype);
  const DeviceInfo& info = device_info(index_);
  // 32-bit private counts hold any block's share: a block sees at most count / sm_count
  // elements (or one grid-stride step).
  spec.counts32 = !spec.weighted && std::max<std::int64_t>(count / info.sm_count, 1 << 16) < (1ll << 32);
  const std::int64_t slot_bytes = spec.counts32 && !spec.weighted ? 4 : 8;
  const std::int64_t budget = kSharedBudget - (spec.edges_shared ? edge_bytes : 0);
  const int copies =
      out.dtype == DType::bool_ ? 0 : static_cast<int>(std::min<std::int64_t>(kMaxCopies, budget / (slots * slot_bytes)));
  spec.privatized = copies > 0;
  if (!spec.privatized) spec.counts32 = false;
  spec.vector_loads = d == 1 && !spec.weighted && axes[0].x.strides[0] == itemsize(axes[0].x.dtype) &&
                      aligned(axes[0].x.data, 16) && itemsize(axes[0].x.dtype) < 16;

  KeyBuilder key;
  key.add(kFamilyHistogram).add(static_cast<unsigned>(d));
  for (const auto& ax : spec.axes)
    key.add(static_cast<unsigned>(ax.x) | static_cast<unsigned>(rule_code(ax.bins)) << 4 | edges_code(ax.edges) << 6);
  key.add(spec.weighted ? static_cast<unsigned>(spec.weights) : 0xffu).add(static_cast<unsigned>(spec.acc));
  key.add((spec.privatized ? 1u : 0u) | (spec.counts32 ? 2u : 0u) | (spec.edges_shared ? 4u : 0u) |
          (spec.vector_loads ? 8u : 0u));
  CUfunction fn = get_kernel(index_, key.key(), [&] { return histogram_source(spec); }, "copper_histogram");

  p.w = weights ? weights->data : nullptr;
  p.w_stride = weights ? weights->strides[0] : 0;
  p.out = out.data;
  p.count = count;
  p.total_bins = total;
  p.copies = copies;
  p.edges_bytes = spec.edges_shared ? static_cast<unsigned>(edge_bytes) : 0u;
  const unsigned shared = static_cast<unsigned>((p.edges_bytes + 15) / 16 * 16 + copies * slots * slot_bytes);
  int per_sm = 0;
  check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, static_cast<int>(kBlock), shared),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  const std::int64_t per_block = static_cast<std::int64_t>(kBlock) * (spec.vector_loads ? 16 / itemsize(axes[0].x.dtype) : 1);
  const std::int64_t needed = (count + per_block - 1) / per_block;
  const unsigned grid = static_cast<unsigned>(std::max<std::int64_t>(
      1, std::min<std::int64_t>(needed, static_cast<std::int64_t>(info.sm_count) * std::max(per_sm, 1))));
  void* args[] = {&p};
  launch(index_, fn, grid, kBlock, args, "histogram", shared);
}

}  // namespace copper::backend::cuda
