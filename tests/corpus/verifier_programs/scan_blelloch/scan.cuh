#ifndef SCAN_CUH
#define SCAN_CUH

#define SCAN_BLOCK 256             // threads per block
#define SCAN_ELEMS (2 * SCAN_BLOCK) // elements per block

// Exclusive prefix sum of n ints (n <= SCAN_ELEMS * SCAN_ELEMS), in place on the device.
void exclusive_scan(int* d_data, int n);

#endif
