// copper: NumPy's API on GPUs (and on CPUs where none is present), in C++.
#pragma once
#include "copper/creation.hpp"
#include "copper/cuda.hpp"
#include "copper/device.hpp"
#include "copper/dtype.hpp"
#include "copper/errors.hpp"
#include "copper/format.hpp"
#include "copper/manipulation.hpp"
#include "copper/ndarray.hpp"
#include "copper/reductions.hpp"
#include "copper/runtime.hpp"
#include "copper/scalar.hpp"
#include "copper/ufuncs.hpp"
