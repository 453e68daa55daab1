#pragma once

#ifndef ROWS_PER_BLOCK
#define ROWS_PER_BLOCK 4
#endif

void softmax_forward(const float* d_in, float* d_out, int rows, int cols);
