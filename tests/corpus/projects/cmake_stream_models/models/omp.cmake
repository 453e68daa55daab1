find_package(OpenMP REQUIRED)
set(MODEL_SOURCES src/omp_stream.cpp)
set(MODEL_DEFINITIONS USE_OMP)
