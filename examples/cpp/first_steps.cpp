// First steps with copper in C++: NumPy's API as copper:: functions.
// Build: part of the main build (build/examples/cpp/first_steps), or in your own project:
//   find_package(copper REQUIRED)  +  target_link_libraries(app PRIVATE copper::copper)
#include <copper/copper.hpp>

#include <iostream>

namespace cu = copper;

int main() {
  // Arrays live on a device: the GPU when one is present, else the CPU.
  std::cout << "default device: " << cu::default_device().str() << ", CPU threads: " << cu::get_num_threads()
            << "\n";

  // Creation, reshaping and dtypes, as in NumPy.
  cu::ndarray a = cu::arange(12).reshape({3, 4});
  std::cout << "a =\n" << a << "\ndtype " << cu::name(a.dtype()) << ", shape " << cu::shape_str(a.shape()) << "\n";

  // Arithmetic broadcasts; C++ scalars are "weak" like Python's (NumPy 2 promotion).
  cu::ndarray b = a * 0.5 + 1;                        // float64
  cu::ndarray small = cu::ones({4}, cu::float32) * 3;  // stays float32
  std::cout << "b: " << cu::name(b.dtype()) << ", small: " << cu::name(small.dtype()) << "\n";

  // Universal functions and reductions over axes.
  cu::ndarray row_norms = cu::sqrt(cu::sum(cu::square(b), -1));
  std::cout << "row norms: " << row_norms << "\n";

  // In-place operators write into the array's own memory.
  cu::ndarray x = cu::ones({2, 3});
  x *= 5;
  x += x;
  std::cout << "x after x *= 5; x += x:\n" << x << "\n";

  // Basic indexing gives views that share memory.
  cu::ndarray first_row = a[0];
  cu::ndarray column = a[{cu::Slice(), 1}];
  std::cout << "a[0] = " << first_row << ", a[:, 1] = " << column << "\n";

  // Host data in and out.
  std::vector<double> host = cu::array({1.0, 2.0, 3.0}).to_vector<double>();
  std::cout << "back on the host: " << host[0] << " " << host[1] << " " << host[2] << "\n";

  // Errors are exceptions named after NumPy's, with NumPy's messages.
  try {
    cu::ndarray bad = cu::ones({2, 3}) + cu::ones({4});
  } catch (const cu::ValueError& e) {
    std::cout << "ValueError: " << e.what() << "\n";
  }
  return 0;
}
