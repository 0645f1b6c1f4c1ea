// One exception hierarchy, mirroring the Python exceptions NumPy raises, so the
// Python layer can map each class to its Python counterpart one to one.
#pragma once
#include <stdexcept>
#include <string>

namespace copper {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct ValueError : error { using error::error; };
struct TypeError : error { using error::error; };
struct IndexError : error { using error::error; };
struct OverflowError : error { using error::error; };
struct NotImplementedError : error { using error::error; };
struct RuntimeError : error { using error::error; };
// CuPy's cupyx.DeviceSynchronized: the host would wait for a device while the calling
// thread disallows it (allow_synchronize, runtime.hpp).
struct DeviceSynchronized : RuntimeError { using RuntimeError::RuntimeError; };
struct KeyError : error { using error::error; };  // an unknown name in a set of flags (require)
struct ZeroDivisionError : error { using error::error; };  // average's zero weight sums
// NumPy's AxisError is both a ValueError and an IndexError; C++ code catches it as ValueError.
struct AxisError : ValueError { using ValueError::ValueError; };
struct LinAlgError : ValueError { using ValueError::ValueError; };
struct OutOfMemoryError : error { using error::error; };
// Python's BufferError: memory that cannot be shared as asked (DLPack exports and imports).
struct BufferError : error { using error::error; };
struct CompileError : error {
  CompileError(const std::string& what, std::string log) : error(what), log(std::move(log)) {}
  std::string log;
};

}  // namespace copper
