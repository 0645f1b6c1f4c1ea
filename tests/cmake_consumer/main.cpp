// Uses an installed copper through find_package(copper) and checks answers that are
// exact in binary floating point, so the expectations need no tolerance.
#include <copper/copper.hpp>

#include <cstdio>
#include <vector>

namespace cu = copper;

static int failures = 0;

static void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("consumer: FAILED: %s\n", what);
    ++failures;
  }
}

int main() try {
  // a[i, j] = 4 i + j;  b = 2 a + 1;  row sums of b = 32 i + 16.
  cu::ndarray a = cu::arange(12).reshape({3, 4}).astype(cu::float64);
  cu::ndarray b = a * 2 + 1;
  cu::ndarray row_sums = cu::sum(b, 1);
  expect(row_sums.shape() == cu::Shape{3}, "sum over axis 1 has shape (3,)");
  expect(row_sums.to_vector<double>() == std::vector<double>{16, 48, 80}, "row sums are 16, 48, 80");

  // In-place chain from the seed workloads: ones -> *5 -> squared -> doubled = 50.
  cu::ndarray x = cu::ones({2, 3});
  x *= 5;
  x *= x;
  x += x;
  expect(x.to_vector<double>() == std::vector<double>(6, 50.0), "x *= 5; x *= x; x += x gives 50");

  // Errors surface as NumPy's exceptions do.
  bool threw = false;
  try {
    (void)(cu::ones({2, 3}) + cu::ones({4}));
  } catch (const cu::ValueError&) {
    threw = true;
  }
  expect(threw, "broadcasting (2,3) with (4,) throws ValueError");

  if (failures) return 1;
  std::printf("consumer: ok (copper found by find_package, default device %s)\n",
              cu::default_device().str().c_str());
  return 0;
} catch (const std::exception& e) {
  std::printf("consumer: FAILED with exception: %s\n", e.what());
  return 1;
}
