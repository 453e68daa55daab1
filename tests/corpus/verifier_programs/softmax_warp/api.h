#pragma once

#ifndef ROWS_PER_BLOCK
#define ROWS_PER_BLOCK 4
#endif

// Scales d_in by 1/temperature in place, then writes the row-wise softmax to d_out.
void softmax_forward(float* d_in, float* d_out, int rows, int cols, float temperature);
