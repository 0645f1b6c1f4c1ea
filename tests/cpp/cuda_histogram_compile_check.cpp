// The histogram kernel compiles under NVRTC for sm_90 in every shape the backend asks
// for: bin rules, edge and value dtypes, weights, accumulators, private copies or global
// atomics, shared or global edges, vector loads, several axes (needs NVRTC, no GPU).
#include <cstdio>
#include <string>

#include "backend/cuda/cuda_histogram.h"
#include "compile_tally.h"

using namespace copper;
using backend::HistogramBins;
using backend::cuda::HistogramKernelSpec;

int main() {
  testing::CompileTally tally;
  auto compile = [&](const std::string& what, const HistogramKernelSpec& spec) {
    tally.compile(what, [&] { return backend::cuda::histogram_source(spec); });
  };
  // One axis, every value dtype against every edge dtype, counts.
  for (DType x : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, float64})
    for (DType e : {int64, uint64, float32, float64})
      for (HistogramBins rule : {HistogramBins::edges, HistogramBins::uniform_edges}) {
        HistogramKernelSpec spec;
        spec.axes = {{x, e, rule}};
        spec.vector_loads = x != float64 && x != int64 && x != uint64 ? true : false;
        compile(std::string("values ") + std::string(name(x)) + " edges " + std::string(name(e)), spec);
      }
  // bincount: index bins, counts and float64 sums, privatized or not.
  for (bool weighted : {false, true})
    for (bool privatized : {false, true}) {
      HistogramKernelSpec spec;
      spec.axes = {{int64, int64, HistogramBins::index}};
      spec.weighted = weighted;
      spec.weights = float32;
      spec.acc = weighted ? float64 : int64;
      spec.privatized = privatized;
      spec.counts32 = privatized;
      spec.edges_shared = false;
      compile(std::string("bincount") + (weighted ? " weighted" : "") + (privatized ? " private" : " global"), spec);
    }
  // Bins hit (bool), as unique counts them: integers against int64 edges, vector loads or not.
  for (DType x : {uint8, int32, int64})
    for (bool vector_loads : {false, true}) {
      HistogramKernelSpec spec;
      spec.axes = {{x, int64, HistogramBins::uniform_edges}};
      spec.acc = bool_;
      spec.privatized = false;
      spec.counts32 = false;
      spec.edges_shared = false;
      spec.vector_loads = vector_loads;
      compile(std::string("bins hit ") + std::string(name(x)) + (vector_loads ? " vectors" : ""), spec);
    }
  // Weighted histograms into each accumulator, with global edges.
  for (auto [w, acc] : {std::pair{int16, int64}, std::pair{uint32, uint64}, std::pair{bool_, int64},
                        std::pair{float16, float64}, std::pair{float64, float64}, std::pair{complex64, complex128},
                        std::pair{complex128, complex128}}) {
    HistogramKernelSpec spec;
    spec.axes = {{float32, float32, HistogramBins::uniform_edges}};
    spec.weighted = true;
    spec.weights = w;
    spec.acc = acc;
    spec.edges_shared = false;
    compile(std::string("weights ") + std::string(name(w)), spec);
  }
  // histogramdd: three axes of mixed rules.
  HistogramKernelSpec dd;
  dd.axes = {{float64, float64, HistogramBins::uniform_edges},
             {int32, int64, HistogramBins::edges},
             {float32, float32, HistogramBins::edges}};
  dd.weighted = true;
  dd.weights = float64;
  dd.acc = float64;
  compile("histogramdd 3 axes", dd);
  dd.privatized = false;
  dd.edges_shared = false;
  compile("histogramdd 3 axes global", dd);
  std::printf("%d histogram kernels compiled, %d failed\n", tally.compiled, tally.failures);
  return tally.failures ? 1 : 0;
}
