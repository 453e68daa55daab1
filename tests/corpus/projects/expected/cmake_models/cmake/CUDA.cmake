# The CUDA model: nvcc, or clang as the CUDA compiler.
if(NOT DEFINED CMAKE_CUDA_COMPILER)  # cass: the port does not read CMAKE_CUDA_COMPILER
  set(CMAKE_CUDA_COMPILER "")
endif()
register_flag_optional(CMAKE_CUDA_COMPILER "path to the CUDA compiler" "nvcc")
if(NOT DEFINED CUDA_ARCH)  # cass: the port does not read CUDA_ARCH
  set(CUDA_ARCH "")
endif()
register_flag_required(CUDA_ARCH "NVIDIA target, e.g. sm_80")
register_flag_optional(CUDA_EXTRA_FLAGS "extra nvcc flags" "")

set(MODEL_SOURCES src/cuda/CUDATriad.hip)

macro(setup)
  if(CMAKE_HIP_COMPILER_ID STREQUAL "Clang" OR CMAKE_HIP_COMPILER MATCHES "clang")
    string(APPEND CMAKE_HIP_FLAGS " -ffp-contract=fast")
    set(CMAKE_HIP_ARCHITECTURES "gfx1030")
  else()
    # -forward-unknown-to-host-compiler lets host options through nvcc
    # set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -forward-unknown-to-host-compiler -restrict -arch=${CUDA_ARCH}") (cass: no HIP flags left)
    set(CMAKE_HIP_ARCHITECTURES "gfx1030")
  endif()
  list(APPEND CUDA_OPTIONS -Wall ${CUDA_EXTRA_FLAGS})
  enable_language(HIP)
  string(APPEND CMAKE_HIP_FLAGS " -Xarch_device -O3")
  string(APPEND CMAKE_HIP_FLAGS_${BUILD_TYPE} " -O3 -DNDEBUG")
  wipe_gcc_style_optimisation_flags(CMAKE_HIP_FLAGS_${BUILD_TYPE})
  string(APPEND CMAKE_HIP_FLAGS_${BUILD_TYPE} " -O3")
  message(STATUS "CUDA flags: ${CMAKE_HIP_FLAGS} ${CMAKE_HIP_FLAGS_${BUILD_TYPE}}")
  add_compile_options($<$<COMPILE_LANGUAGE:HIP>:${CUDA_OPTIONS}>)
  register_definitions(TRIAD_CUDA)
  find_package(hip REQUIRED)
  register_link_library(hip::host)
endmacro()
