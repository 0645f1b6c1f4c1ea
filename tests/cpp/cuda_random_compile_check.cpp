// The random-number kernels compile under NVRTC for sm_90 for every kind, output dtype
// and layout variant the backend asks for: block draws, per-element-parameter draws
// (including the rejection samplers) and the row gather (needs NVRTC, no GPU).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "backend/cuda/cuda_random.h"
#include "compile_tally.h"

using namespace copper;
using RKind = ops::philox::Kind;

int main() {
  testing::CompileTally tally;
  // COPPER_DUMP_CUBINS=dir writes each cubin there, for `cuobjdump -sass` instruction counts.
  const char* dump_dir = std::getenv("COPPER_DUMP_CUBINS");
  auto compile = [&](const std::string& what, const std::function<std::string()>& source) {
    const std::vector<char> cubin = tally.compile(what, source);
    if (dump_dir && !cubin.empty()) {
      std::string file = std::string(dump_dir) + "/" + what + ".cubin";
      for (std::size_t i = std::string(dump_dir).size() + 1; i < file.size(); ++i)
        if (file[i] == ' ') file[i] = '_';
      std::ofstream(file, std::ios::binary).write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
    }
  };
  auto block = [&](DType t, RKind kind, int per) {
    for (bool vec : {true, false}) {
      compile("random " + std::string(name(t)) + " kind " + std::to_string(static_cast<unsigned>(kind)) + " per " +
                  std::to_string(per) + (vec ? " vector" : " scalar"),
              [=] { return backend::cuda::random_source(t, kind, per, vec); });
    }
  };
  auto params = [&](DType t, RKind kind, int per, bool only_index32 = false) {
    const int nparams = ops::philox::is_stream_kind(kind) ? ops::philox::stream_param_count(kind) : 2;
    for (bool index32 : {true, false}) {
      if (only_index32 && !index32) continue;
      compile("random_params " + std::string(name(t)) + " kind " + std::to_string(static_cast<unsigned>(kind)) +
                  " per " + std::to_string(per) + (index32 ? " i32" : " i64"),
              [=] { return backend::cuda::random_params_source(t, kind, per, index32, nparams); });
    }
  };
  block(uint64, RKind::raw, 2);
  for (DType t : {float32, float64}) {
    block(t, RKind::uniform, t == float32 ? 4 : 2);
    block(t, RKind::normal, ops::philox::elements_per_group(RKind::normal, t == float32 ? 4 : 8, 0));
    block(t, RKind::exponential, 2);
  }
  for (DType t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64}) {
    block(t, RKind::integers, 2);
    block(t, RKind::integers, 1);
    params(t, RKind::integers, 2);
    params(t, RKind::integers, 1);
  }
  for (RKind k : {RKind::uniform, RKind::normal, RKind::exponential})
    params(float64, k, ops::philox::elements_per_group(k, 8, 0));
  // Every stream kind: float ones to float64 and float32, discrete ones to int64 and int8.
  for (std::uint32_t k = static_cast<std::uint32_t>(RKind::gamma); k <= ops::philox::kLastKind; ++k) {
    const auto kind = static_cast<RKind>(k);
    const bool discrete = ops::philox::kind_is_discrete(kind);
    params(discrete ? int64 : float64, kind, 1);
    params(discrete ? int8 : float32, kind, 1, true);
  }
  for (int bytes : {1, 2, 4, 8, 16})
    for (bool index32 : {true, false}) {
      compile("take_rows " + std::to_string(bytes) + (index32 ? " i32" : " i64"),
              [=] { return backend::cuda::take_rows_source(bytes, false, index32); });
    }
  compile("take_rows 16 aligned", [] { return backend::cuda::take_rows_source(16, true, true); });
  std::printf("%d random kernels compiled, %d failed\n", tally.compiled, tally.failures);
  return tally.failures ? 1 : 0;
}
