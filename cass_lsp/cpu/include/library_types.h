// CPU runtime replacement for <library_types.h>.
#pragma once
#include <cass_cpu/library_types.hpp>
