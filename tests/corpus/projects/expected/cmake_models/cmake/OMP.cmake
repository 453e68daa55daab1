# The OpenMP model: no CUDA at all.
set(MODEL_SOURCES src/omp/OMPTriad.cpp)

macro(setup)
  find_package(OpenMP REQUIRED)
  register_definitions(TRIAD_OMP)
  register_link_library(OpenMP::OpenMP_CXX)
endmacro()
