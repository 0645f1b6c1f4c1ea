// The DLPack data structures (https://dmlc.github.io/dlpack/latest/, Apache-2.0), written
// for copper from the specification: the C ABI every DLPack producer and consumer shares.
// Only the definitions copper needs; the layout and values are the specification's.
// Include guard and names match the reference header, so a program that includes both
// sees one set of definitions.
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

// C enums are int-sized; the fixed underlying type keeps the size in C++ too.
typedef enum
#ifdef __cplusplus
    : int32_t
#endif
{
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,  // pinned host memory, reachable from the CPU
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,  // CUDA managed (unified) memory
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;    // a DLDataTypeCode
  uint8_t bits;    // bits of one lane: 8 for bool, 64 for complex64
  uint16_t lanes;  // 1 for scalar element types
} DLDataType;

typedef struct {
  void* data;  // the allocation (data + byte_offset is the first element)
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; NULL means C-contiguous
  uint64_t byte_offset;
} DLTensor;

// The pre-1.0 ("legacy") managed tensor, in capsules named "dltensor".
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

// The versioned (1.x) managed tensor, in capsules named "dltensor_versioned".
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // DLPACK_DLPACK_H_
