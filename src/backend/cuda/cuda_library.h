// Finding a CUDA toolkit library at run time (cuSOLVER, cuFFT): the path in an
// environment variable first ("none" turns the library off), then the sonames on the
// library path, then the toolkit copper was built against.
#pragma once
#include <initializer_list>
#include <string>

namespace copper::backend::cuda {

struct OpenedLibrary {
  void* handle = nullptr;   // dlopen's handle; nullptr when nothing loaded
  std::string path;         // the candidate that loaded
  bool turned_off = false;  // the variable said "none"
};
OpenedLibrary open_cuda_library(const char* env_var, std::initializer_list<const char*> sonames);

}  // namespace copper::backend::cuda
