# CMake toolchain file for the HIP language on Debian's ROCm packages (no /opt/rocm): Debian 12, and
# Debian 13 (clang-17, hipBLAS), written by cass-lsp for ported projects:
# cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=<this file>.
# A ROCm install (/opt/rocm) needs none of this: CMake finds its clang and hip-lang package itself.
#
# Why each line: CMake 3.25's HIP language wants a clang that can build host and device code
# (Debian 12's LLVM 19 lacks clang-offload-bundler, LLVM 15 has it: clang++-15, hipcc's own), and
# looks for <ROCm root>/lib/cmake/hip-lang, while Debian installs the hip-lang, hip and amd_comgr
# packages under /usr/lib/<multiarch>/cmake; clang-15 finds neither the HIP headers nor the device
# libraries there without --rocm-path and --hip-device-lib-path. Debian 13's HIP is built with
# clang-17, which finds both by itself (its device libraries lie in clang's resource folder); Debian
# 13 packages no clang-15.
find_program(CMAKE_HIP_COMPILER NAMES clang++-15 clang++-17 REQUIRED)
if(NOT CMAKE_LIBRARY_ARCHITECTURE)
  execute_process(COMMAND dpkg-architecture -qDEB_HOST_MULTIARCH OUTPUT_VARIABLE _cass_multiarch
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
else()
  set(_cass_multiarch "${CMAKE_LIBRARY_ARCHITECTURE}")
endif()
if(NOT _cass_multiarch)
  set(_cass_multiarch x86_64-linux-gnu)
endif()
# A root whose lib/ is Debian's multiarch folder: hip-lang's config resolves its real path and
# finds its prefix, /usr, from there.
set(_cass_root "${CMAKE_BINARY_DIR}/cass-rocm-root")
if(NOT EXISTS "${_cass_root}/lib")
  file(MAKE_DIRECTORY "${_cass_root}")
  file(CREATE_LINK "/usr/lib/${_cass_multiarch}" "${_cass_root}/lib" SYMBOLIC)
endif()
set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_cass_root}")
# /usr first: Debian 13's amd_comgr config finds its targets five folders above its own path, which
# only holds where it really lies; the root serves CMake 3.25's compiler checks, which search no
# multiarch folder.
list(APPEND CMAKE_PREFIX_PATH /usr "${_cass_root}")
# Debian 12's device libraries (ROCm 5.2) stop at gfx1036: for gfx11xx, gfx12xx and gfx942 point
# CASS_HIP_DEVICE_LIB_PATH at the folder `python -m cass_lsp.toolchains.devlibs15` prints.
if(EXISTS "/usr/lib/${_cass_multiarch}/amdgcn/bitcode")
  set(CASS_HIP_DEVICE_LIB_PATH "/usr/lib/${_cass_multiarch}/amdgcn/bitcode" CACHE PATH
      "ROCm device libraries clang-15 reads")
  set(CMAKE_HIP_FLAGS_INIT "--rocm-path=/usr --hip-device-lib-path=${CASS_HIP_DEVICE_LIB_PATH}")
endif()
