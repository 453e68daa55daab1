// CPU runtime replacement for <cusparse.h>: cass_cpu/sparse.hpp says what it executes.
#pragma once
#define CUSPARSE_H_
#include <cass_cpu/sparse.hpp>
