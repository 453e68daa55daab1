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
if(NOT _cass_multiarch)
  if(CMAKE_LIBRARY_ARCHITECTURE)
    set(_cass_multiarch "${CMAKE_LIBRARY_ARCHITECTURE}")
  else()
    execute_process(COMMAND dpkg-architecture -qDEB_HOST_MULTIARCH OUTPUT_VARIABLE _cass_multiarch
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(NOT _cass_multiarch)
    set(_cass_multiarch x86_64-linux-gnu)
  endif()
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

# Library headers Debian 12 does not package (rocThrust, hipCUB, and the rocPRIM they need, newer
# than Debian 12's): `cass-lsp setup --only hip-libs` fetches them from Debian 13 into the user's
# cache. Where the system has no rocThrust, HIP sources see that folder before /usr/include, and
# find_package(rocthrust / hipcub / rocprim) finds the header-only packages beside this file.
if(NOT EXISTS "/usr/include/thrust/version.h")
  if(DEFINED ENV{CASS_LSP_CACHE_DIR})
    set(_cass_cache "$ENV{CASS_LSP_CACHE_DIR}")
  elseif(DEFINED ENV{XDG_CACHE_HOME})
    set(_cass_cache "$ENV{XDG_CACHE_HOME}/cass-lsp")
  else()
    set(_cass_cache "$ENV{HOME}/.cache/cass-lsp")
  endif()
  set(_cass_headers "")
  if(EXISTS "${_cass_cache}/hip-libs/trixie/rocm5.2/include/thrust")
    set(_cass_headers "${_cass_cache}/hip-libs/trixie/rocm5.2/include")
  endif()
  set(CASS_HIP_LIBRARY_HEADERS "${_cass_headers}" CACHE PATH
      "HIP library headers Debian 12 lacks (rocThrust, hipCUB, rocPRIM): cass-lsp setup --only hip-libs")
  if(CASS_HIP_LIBRARY_HEADERS)
    list(APPEND CMAKE_HIP_STANDARD_INCLUDE_DIRECTORIES "${CASS_HIP_LIBRARY_HEADERS}")
    foreach(_cass_package rocthrust hipcub rocprim)
      if(NOT ${_cass_package}_DIR AND NOT EXISTS "/usr/lib/${_cass_multiarch}/cmake/${_cass_package}")
        set(${_cass_package}_DIR "${CMAKE_CURRENT_LIST_DIR}/packages/${_cass_package}" CACHE PATH
            "header-only ${_cass_package} over CASS_HIP_LIBRARY_HEADERS")
      endif()
    endforeach()
  endif()
endif()

# Debian 12's device libraries (ROCm 5.2) stop at gfx1036: for gfx11xx, gfx12xx and gfx942 point
# CASS_HIP_DEVICE_LIB_PATH at the folder `python -m cass_lsp.toolchains.devlibs15` prints.
set(_cass_flags "")
if(EXISTS "/usr/lib/${_cass_multiarch}/amdgcn/bitcode")
  set(CASS_HIP_DEVICE_LIB_PATH "/usr/lib/${_cass_multiarch}/amdgcn/bitcode" CACHE PATH
      "ROCm device libraries clang-15 reads")
  set(_cass_flags "--rocm-path=/usr --hip-device-lib-path=${CASS_HIP_DEVICE_LIB_PATH}")
endif()
find_program(_cass_clang NAMES clang++-15)
if((DEFINED CACHE{CMAKE_HIP_COMPILER} AND NOT CMAKE_HIP_COMPILER MATCHES "/cass-hip/bin/clang\\+\\+$")
   OR NOT _cass_flags OR NOT _cass_clang)
  # a compiler of the user's choosing (or Debian 13's clang, which needs no flags): the flags as the
  # initial CMAKE_HIP_FLAGS, which a project that sets CMAKE_HIP_FLAGS itself overrides
  find_program(CMAKE_HIP_COMPILER NAMES clang++-15 clang++-17 REQUIRED)
  set(CMAKE_HIP_FLAGS_INIT "${_cass_flags}")
else()
  # clang-15 through a wrapper that always passes the ROCm flags: a project's own
  # set(CMAKE_HIP_FLAGS ...) before enable_language(HIP) shadows the cache, and with it
  # CMAKE_HIP_FLAGS_INIT, so flags there are lost in the compiler check
  # hip-lang's config finds clang's runtime library in <compiler folder>/../lib/clang: the wrapper's
  # folder gets a lib/ that is clang's own
  get_filename_component(_cass_clang_lib "${_cass_clang}" REALPATH)
  get_filename_component(_cass_clang_lib "${_cass_clang_lib}/../../lib" ABSOLUTE)
  set(_cass_wrapper "${CMAKE_BINARY_DIR}/cass-hip/bin/clang++")
  if(NOT EXISTS "${CMAKE_BINARY_DIR}/cass-hip/lib")
    file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/cass-hip")
    file(CREATE_LINK "${_cass_clang_lib}" "${CMAKE_BINARY_DIR}/cass-hip/lib" SYMBOLIC)
  endif()
  file(CONFIGURE OUTPUT "${_cass_wrapper}" CONTENT [=[#!/bin/sh
# written by cass-lsp's hip-debian.cmake: hip-clang++ with this build's clang and device libraries
export CASS_HIP_CLANG="@_cass_clang@" CASS_HIP_DEVICE_LIB_PATH="@CASS_HIP_DEVICE_LIB_PATH@"
exec /bin/sh "@CMAKE_CURRENT_LIST_DIR@/hip-clang++" "$@"
]=] @ONLY)
  file(CHMOD "${_cass_wrapper}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
       WORLD_READ WORLD_EXECUTE)
  set(CMAKE_HIP_COMPILER "${_cass_wrapper}" CACHE FILEPATH "clang-15 with Debian's ROCm flags (cass-lsp)")
endif()
