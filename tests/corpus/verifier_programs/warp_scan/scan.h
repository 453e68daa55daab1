#ifndef WARP_SCAN_H
#define WARP_SCAN_H

#define WARP 32
#define SCAN_THREADS 256

// scan_kernels.cu
void inclusive_scan_blocks(const int* d_in, int* d_out, int* d_block_totals, int n);
void add_block_offsets(int* d_out, const int* d_offsets, int n);

// reference.cpp (host only)
extern void reference_scan(const int* in, long long* out, int n);
extern int first_mismatch(const int* got, const long long* want, int n);

#endif
