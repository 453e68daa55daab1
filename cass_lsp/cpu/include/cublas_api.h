// CPU runtime replacement for <cublas_api.h>.
#pragma once
#include <cublas_v2.h>
