// Compiles src/ops/scalar_ops.h (with scalar_types.h and scalar_math.h) under
// NVRTC, the way the CUDA backend will: the headers' text concatenated, our own
// #include lines stripped, no standard library. A kernel instantiates every
// functor for every loop type it accepts. Needs no GPU.
//
//   g++ -std=c++20 -I/usr/local/cuda/include tests/cpp/nvrtc_compile_check.cpp
//       -L/usr/local/cuda/lib64 -lnvrtc -o nvrtc_compile_check
//   ./nvrtc_compile_check [REPO_ROOT] [nvrtc options...]
//
// With a GPU, `--eval IN OUT` after REPO_ROOT also runs the functors there on the
// record files of tests/cpp/scalar_ops_check.cpp (libcuda is loaded at run time),
// so tests/python/scalar_ops_oracle.py --outputs OUT can check the device results.
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../include/copper/ufunc_list.hpp"

static std::string read_stripped(const std::string& path) {
  std::ifstream f(path);
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::stringstream out;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("#include \"ops/", 0) == 0 || line.rfind("#pragma once", 0) == 0) line = "// " + line;
    out << line << '\n';
  }
  return out.str();
}

static const char* kKernel = R"(
namespace copper_check {
using namespace copper::ops;
template <class T> struct slot { T v[3]; };

template <class Op, class T, int K> using in_t = op_input_t<Op, T, K>;
template <class Op, class T> __device__ void run1(slot<T>* in, void* out, int k) {
  if constexpr (takes_stored<Op, in_t<Op, T, 0>> || takes_widened<Op, in_t<Op, T, 0>>) {
    auto r = call_stored<Op>(static_cast<in_t<Op, T, 0>>(in[k].v[0]));
    reinterpret_cast<decltype(r)*>(out)[k] = r;
  }
}
template <class Op, class T> __device__ void run2(slot<T>* in, void* out, int k) {
  if constexpr (takes_stored<Op, in_t<Op, T, 0>, in_t<Op, T, 1>> || takes_widened<Op, in_t<Op, T, 0>, in_t<Op, T, 1>>) {
    auto r = call_stored<Op>(in_t<Op, T, 0>(in[k].v[0]), in_t<Op, T, 1>(in[k].v[1]));
    reinterpret_cast<decltype(r)*>(out)[k] = r;
  }
}
template <class Op, class T> __device__ void run3(slot<T>* in, void* out, int k) {
  if constexpr (takes_stored<Op, T, T, T> || takes_widened<Op, T, T, T>) {
    auto r = call_stored<Op>(in[k].v[0], in[k].v[1], in[k].v[2]);
    reinterpret_cast<decltype(r)*>(out)[k] = r;
  }
}

template <class T> __device__ void all_ops(void* in, void* out, int k) {
  slot<T>* s = reinterpret_cast<slot<T>*>(in);
#define CHECK1(name) run1<copper::ops::name, T>(s, out, k);
#define CHECK2(name) run2<copper::ops::name, T>(s, out, k);
#define CHECK3(name) run3<copper::ops::name, T>(s, out, k);
  COPPER_UNARY_UFUNCS(CHECK1) COPPER_BINARY_UFUNCS(CHECK2) COPPER_TERNARY_UFUNCS(CHECK3)
  COPPER_UNARY2_UFUNCS(CHECK1) COPPER_BINARY2_UFUNCS(CHECK2)
}
}  // namespace copper_check

// dtype codes: the order of the record files' names (bool ... complex128)
template <class T> constexpr int code = -1;
template <> constexpr int code<bool> = 0;
template <> constexpr int code<int8_t> = 1;
template <> constexpr int code<uint8_t> = 2;
template <> constexpr int code<int16_t> = 3;
template <> constexpr int code<uint16_t> = 4;
template <> constexpr int code<int32_t> = 5;
template <> constexpr int code<uint32_t> = 6;
template <> constexpr int code<int64_t> = 7;
template <> constexpr int code<uint64_t> = 8;
template <> constexpr int code<copper::ops::half> = 9;
template <> constexpr int code<float> = 10;
template <> constexpr int code<double> = 11;
template <> constexpr int code<copper::ops::complex64> = 12;
template <> constexpr int code<copper::ops::complex128> = 13;

namespace copper_eval {
using namespace copper::ops;
template <class Op, int N, class T, int K> using in_t = op_input_t<Op, T, (K < N ? K : 0)>;
template <class Op, int N, class T> __device__ constexpr bool has() {
  if constexpr (N == 1) return takes_stored<Op, in_t<Op, N, T, 0>> || takes_widened<Op, in_t<Op, N, T, 0>>;
  else if constexpr (N == 2)
    return takes_stored<Op, in_t<Op, N, T, 0>, in_t<Op, N, T, 1>> || takes_widened<Op, in_t<Op, N, T, 0>, in_t<Op, N, T, 1>>;
  else return takes_stored<Op, T, T, T> || takes_widened<Op, T, T, T>;
}
template <class R> struct parts { using first = R; using second = R; static constexpr bool two = false; };
template <class A, class B> struct parts<pair<A, B>> { using first = A; using second = B; static constexpr bool two = true; };
template <class Op, int N, class T> __device__ auto result() {
  if constexpr (N == 1) return call_stored<Op>(in_t<Op, N, T, 0>());
  else if constexpr (N == 2) return call_stored<Op>(in_t<Op, N, T, 0>(), in_t<Op, N, T, 1>());
  else return call_stored<Op>(T(), T(), T());
}

// Codes of Op's loop over T: first output, second output (-1 if none), then the inputs'.
template <class Op, int N, class T> __device__ void codes(int* c) {
  c[0] = c[1] = c[2] = c[3] = c[4] = -1;
  if constexpr (has<Op, N, T>()) {
    using P = parts<decltype(result<Op, N, T>())>;
    c[0] = code<stored_t<T, typename P::first>>;
    if (P::two) c[1] = code<stored_t<T, typename P::second>>;
    c[2] = code<in_t<Op, N, T, 0>>;
    c[3] = N > 1 ? code<in_t<Op, N, T, 1>> : -1;
    c[4] = N > 2 ? code<T> : -1;
  }
}

template <class Op, int N, class T>
__device__ void run(const void* a, const void* b, const void* c, void* out, void* out2, int k) {
  if constexpr (has<Op, N, T>()) {
    using P = parts<decltype(result<Op, N, T>())>;
    using O = stored_t<T, typename P::first>;
    using O2 = stored_t<T, typename P::second>;
    using A = in_t<Op, N, T, 0>;
    using B = in_t<Op, N, T, 1>;
    const A x = static_cast<const A*>(a)[k];
    if constexpr (P::two) {
      O2 second;
      if constexpr (N == 1) static_cast<O*>(out)[k] = invoke2<Op, O, O2>(second, x);
      else static_cast<O*>(out)[k] = invoke2<Op, O, O2>(second, x, static_cast<const B*>(b)[k]);
      static_cast<O2*>(out2)[k] = second;
    } else if constexpr (N == 1) {
      static_cast<O*>(out)[k] = invoke<Op, O>(x);
    } else if constexpr (N == 2) {
      static_cast<O*>(out)[k] = invoke<Op, O>(x, static_cast<const B*>(b)[k]);
    } else {
      static_cast<O*>(out)[k] = invoke<Op, O>(x, static_cast<const T*>(b)[k], static_cast<const T*>(c)[k]);
    }
  }
}

template <class T> __device__ void eval_t(int op, const void* a, const void* b, const void* c, void* out, void* out2, int k) {
  int idx = 0;
#define EVAL1(name) if (op == idx++) return run<copper::ops::name, 1, T>(a, b, c, out, out2, k);
#define EVAL2(name) if (op == idx++) return run<copper::ops::name, 2, T>(a, b, c, out, out2, k);
#define EVAL3(name) if (op == idx++) return run<copper::ops::name, 3, T>(a, b, c, out, out2, k);
  COPPER_UNARY_UFUNCS(EVAL1) COPPER_BINARY_UFUNCS(EVAL2) COPPER_TERNARY_UFUNCS(EVAL3)
  COPPER_UNARY2_UFUNCS(EVAL1) COPPER_BINARY2_UFUNCS(EVAL2)
}

template <class T> __device__ void types_t(int* out) {
  int idx = 0;
#define TYPES1(name) codes<copper::ops::name, 1, T>(out + 5 * (14 * idx++ + code<T>));
#define TYPES2(name) codes<copper::ops::name, 2, T>(out + 5 * (14 * idx++ + code<T>));
#define TYPES3(name) codes<copper::ops::name, 3, T>(out + 5 * (14 * idx++ + code<T>));
  COPPER_UNARY_UFUNCS(TYPES1) COPPER_BINARY_UFUNCS(TYPES2) COPPER_TERNARY_UFUNCS(TYPES3)
  COPPER_UNARY2_UFUNCS(TYPES1) COPPER_BINARY2_UFUNCS(TYPES2)
}
}  // namespace copper_eval

#define COPPER_ALL_TYPES(F)                                                              \
  F(bool) F(int8_t) F(uint8_t) F(int16_t) F(uint16_t) F(int32_t) F(uint32_t) F(int64_t) \
  F(uint64_t) F(copper::ops::half) F(float) F(double) F(copper::ops::complex64) F(copper::ops::complex128)

extern "C" __global__ void copper_eval_kernel(int op, int dtype, const void* a, const void* b, const void* c,
                                              void* out, void* out2, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
#define EVAL_T(T) if (dtype == code<T>) return copper_eval::eval_t<T>(op, a, b, c, out, out2, k);
  COPPER_ALL_TYPES(EVAL_T)
}

extern "C" __global__ void copper_types_kernel(int* out) {
#define TYPES_T(T) copper_eval::types_t<T>(out);
  COPPER_ALL_TYPES(TYPES_T)
}

extern "C" __global__ void copper_check_all(void* in, void* out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  using namespace copper::ops;
  copper_check::all_ops<bool>(in, out, k);
  copper_check::all_ops<int8_t>(in, out, k);
  copper_check::all_ops<uint8_t>(in, out, k);
  copper_check::all_ops<int16_t>(in, out, k);
  copper_check::all_ops<uint16_t>(in, out, k);
  copper_check::all_ops<int32_t>(in, out, k);
  copper_check::all_ops<uint32_t>(in, out, k);
  copper_check::all_ops<int64_t>(in, out, k);
  copper_check::all_ops<uint64_t>(in, out, k);
  copper_check::all_ops<float>(in, out, k);
  copper_check::all_ops<double>(in, out, k);
  copper_check::all_ops<complex64>(in, out, k);
  copper_check::all_ops<complex128>(in, out, k);
  // float16 storage round trip, as the loops do it
  half h = reinterpret_cast<half*>(in)[k];
  reinterpret_cast<half*>(out)[k] = float_to_half(copper::ops::exp::call(half_to_float(h)));
}
)";

// ---------------- optional run on a GPU ----------------
static const char* kDtypes[14] = {"bool",   "int8",  "uint8",   "int16",   "uint16",    "int32",     "uint32",
                                  "int64",  "uint64", "float16", "float32", "float64", "complex64", "complex128"};
static const size_t kSizes[14] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8, 8, 16};
static const char* kOps[] = {
#define OP_NAME(name) #name,
    COPPER_UNARY_UFUNCS(OP_NAME) COPPER_BINARY_UFUNCS(OP_NAME) COPPER_TERNARY_UFUNCS(OP_NAME)
        COPPER_UNARY2_UFUNCS(OP_NAME) COPPER_BINARY2_UFUNCS(OP_NAME)};
static const int kArity[] = {
#define ARITY1(name) 1,
#define ARITY2(name) 2,
#define ARITY3(name) 3,
    COPPER_UNARY_UFUNCS(ARITY1) COPPER_BINARY_UFUNCS(ARITY2) COPPER_TERNARY_UFUNCS(ARITY3)
        COPPER_UNARY2_UFUNCS(ARITY1) COPPER_BINARY2_UFUNCS(ARITY2)};
constexpr int kNumOps = sizeof(kOps) / sizeof(kOps[0]);

struct Cuda {  // the driver API through dlopen: building needs no libcuda
  CUresult (*init)(unsigned);
  CUresult (*device_get)(CUdevice*, int);
  CUresult (*primary_ctx_retain)(CUcontext*, CUdevice);
  CUresult (*ctx_set_current)(CUcontext);
  CUresult (*module_load_data)(CUmodule*, const void*);
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*);
  CUresult (*mem_alloc)(CUdeviceptr*, size_t);
  CUresult (*mem_free)(CUdeviceptr);
  CUresult (*memcpy_htod)(CUdeviceptr, const void*, size_t);
  CUresult (*memcpy_dtoh)(void*, CUdeviceptr, size_t);
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                     void**, void**);
  CUresult (*synchronize)();
};

template <class F> static void load_sym(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) {
    std::fprintf(stderr, "libcuda has no %s\n", name);
    std::exit(2);
  }
}

#define CU_CHECK(call)                                                  \
  do {                                                                  \
    CUresult r_ = (call);                                               \
    if (r_ != CUDA_SUCCESS) {                                           \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(r_)); \
      std::exit(2);                                                     \
    }                                                                   \
  } while (0)

static int run_on_gpu(const std::vector<char>& cubin, const char* in_path, const char* out_path) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    std::fprintf(stderr, "cannot load libcuda.so.1: %s\n", dlerror());
    return 2;
  }
  Cuda cu;
  load_sym(lib, cu.init, "cuInit");
  load_sym(lib, cu.device_get, "cuDeviceGet");
  load_sym(lib, cu.primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  load_sym(lib, cu.ctx_set_current, "cuCtxSetCurrent");
  load_sym(lib, cu.module_load_data, "cuModuleLoadData");
  load_sym(lib, cu.module_get_function, "cuModuleGetFunction");
  load_sym(lib, cu.mem_alloc, "cuMemAlloc_v2");
  load_sym(lib, cu.mem_free, "cuMemFree_v2");
  load_sym(lib, cu.memcpy_htod, "cuMemcpyHtoD_v2");
  load_sym(lib, cu.memcpy_dtoh, "cuMemcpyDtoH_v2");
  load_sym(lib, cu.launch, "cuLaunchKernel");
  load_sym(lib, cu.synchronize, "cuCtxSynchronize");
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction eval_fn, types_fn;
  CU_CHECK(cu.init(0));
  CU_CHECK(cu.device_get(&dev, 0));
  CU_CHECK(cu.primary_ctx_retain(&ctx, dev));
  CU_CHECK(cu.ctx_set_current(ctx));
  CU_CHECK(cu.module_load_data(&mod, cubin.data()));
  CU_CHECK(cu.module_get_function(&eval_fn, mod, "copper_eval_kernel"));
  CU_CHECK(cu.module_get_function(&types_fn, mod, "copper_types_kernel"));

  std::vector<int> out_code(5 * 14 * kNumOps, -1);  // per op and dtype: outputs' then inputs' codes
  CUdeviceptr d_types;
  CU_CHECK(cu.mem_alloc(&d_types, out_code.size() * sizeof(int)));
  void* targs[] = {&d_types};
  CU_CHECK(cu.launch(types_fn, 1, 1, 1, 1, 1, 1, 0, nullptr, targs, nullptr));
  CU_CHECK(cu.memcpy_dtoh(out_code.data(), d_types, out_code.size() * sizeof(int)));

  std::FILE* in = std::fopen(in_path, "rb");
  std::FILE* out = std::fopen(out_path, "wb");
  if (!in || !out) {
    std::perror("open");
    return 2;
  }
  char op_name[64], dtype_name[32];
  size_t n;
  while (std::fscanf(in, "%63s %31s %zu", op_name, dtype_name, &n) == 3) {
    std::fgetc(in);
    int op = -1, dt = -1;
    for (int i = 0; i < kNumOps; ++i)
      if (std::strcmp(kOps[i], op_name) == 0) op = i;
    for (int i = 0; i < 14; ++i)
      if (std::strcmp(kDtypes[i], dtype_name) == 0) dt = i;
    if (op < 0 || dt < 0) {
      std::fprintf(stderr, "unknown record %s %s\n", op_name, dtype_name);
      return 2;
    }
    const int* c = &out_code[5 * (14 * op + dt)];
    if (c[0] < 0) {
      // Skip the inputs (the loop's types are unknown): records of ops without a loop carry
      // inputs of the record's dtype.
      std::vector<char> skip(kArity[op] * n * kSizes[dt] + 1);
      if (std::fread(skip.data(), 1, kArity[op] * n * kSizes[dt], in) != kArity[op] * n * kSizes[dt]) return 2;
      std::fprintf(out, "%s %s unsupported 0\n", op_name, dtype_name);
      continue;
    }
    CUdeviceptr d_in[3] = {0, 0, 0}, d_out, d_out2 = 0;
    for (int k = 0; k < kArity[op]; ++k) {
      const size_t in_bytes = n * kSizes[c[2 + k]];
      std::vector<char> host(in_bytes + 1);
      if (std::fread(host.data(), 1, in_bytes, in) != in_bytes) {
        std::fprintf(stderr, "short read\n");
        return 2;
      }
      CU_CHECK(cu.mem_alloc(&d_in[k], in_bytes + 16));
      CU_CHECK(cu.memcpy_htod(d_in[k], host.data(), in_bytes));
    }
    const size_t out_bytes = n * kSizes[c[0]], out2_bytes = c[1] >= 0 ? n * kSizes[c[1]] : 0;
    CU_CHECK(cu.mem_alloc(&d_out, out_bytes + 16));
    CU_CHECK(cu.mem_alloc(&d_out2, out2_bytes + 16));
    int ni = static_cast<int>(n);
    void* args[] = {&op, &dt, &d_in[0], &d_in[1], &d_in[2], &d_out, &d_out2, &ni};
    unsigned blocks = static_cast<unsigned>((n + 255) / 256);
    if (n) CU_CHECK(cu.launch(eval_fn, blocks, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cu.synchronize());
    std::vector<char> res(out_bytes + out2_bytes + 1);
    CU_CHECK(cu.memcpy_dtoh(res.data(), d_out, out_bytes));
    if (out2_bytes) CU_CHECK(cu.memcpy_dtoh(res.data() + out_bytes, d_out2, out2_bytes));
    if (c[1] >= 0) std::fprintf(out, "%s %s %s,%s %zu\n", op_name, dtype_name, kDtypes[c[0]], kDtypes[c[1]], n);
    else std::fprintf(out, "%s %s %s %zu\n", op_name, dtype_name, kDtypes[c[0]], n);
    std::fwrite(res.data(), 1, out_bytes + out2_bytes, out);
    for (int k = 0; k < kArity[op]; ++k) CU_CHECK(cu.mem_free(d_in[k]));
    CU_CHECK(cu.mem_free(d_out));
    CU_CHECK(cu.mem_free(d_out2));
  }
  std::fclose(out);
  std::printf("evaluated on the GPU: %s\n", out_path);
  return 0;
}

int main(int argc, char** argv) {
  std::string root = argc > 1 ? argv[1] : ".";
  const char* eval_in = nullptr;
  const char* eval_out = nullptr;
  int first_opt = 2;
  if (argc > 4 && std::strcmp(argv[2], "--eval") == 0) {
    eval_in = argv[3];
    eval_out = argv[4];
    first_opt = 5;
  }
  std::string src;
  for (const char* h : {"src/ops/scalar_types.h", "src/ops/scalar_math.h", "src/ops/scalar_invoke.h",
                        "src/ops/scalar_ops.h", "src/ops/scalar_ops_float.h", "src/ops/scalar_ops_integer.h",
                        "include/copper/ufunc_list.hpp"})
    src += read_stripped(root + "/" + h);
  src += kKernel;

  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src.c_str(), "copper_scalar_ops.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) {
    std::fprintf(stderr, "nvrtcCreateProgram failed\n");
    return 1;
  }
  std::vector<const char*> opts = {"-std=c++20", "--gpu-architecture=sm_90"};
  for (int i = first_opt; i < argc; ++i) opts.push_back(argv[i]);
  nvrtcResult res = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 1) nvrtcGetProgramLog(prog, log.data());
  if (res != NVRTC_SUCCESS) {
    std::fprintf(stderr, "NVRTC compilation failed: %s\n%s\n", nvrtcGetErrorString(res), log.c_str());
    return 1;
  }
  if (log_size > 1) std::printf("NVRTC log:\n%s\n", log.c_str());
  size_t cubin_size = 0;
  nvrtcGetCUBINSize(prog, &cubin_size);
  std::vector<char> cubin(cubin_size);
  nvrtcGetCUBIN(prog, cubin.data());
  nvrtcDestroyProgram(&prog);
  std::printf("NVRTC compiled %zu bytes of source to %zu bytes of cubin\n", src.size(), cubin_size);
  if (eval_in) return run_on_gpu(cubin, eval_in, eval_out);
  return 0;
}
