// One factory per programming model; the build compiles exactly one of their sources.
#pragma once

#include <cstddef>
#include <memory>

#include "Advector.h"

template <typename T>
std::unique_ptr<Advector<T>> make_advector(std::size_t n, int device);
