// Host-side reference scan and comparison (compiled by the host compiler, linked with the .cu units).
void reference_scan(const int* in, long long* out, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) {
    s += in[i];
    out[i] = s;
  }
}

int first_mismatch(const int* got, const long long* want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) return i;
  return -1;
}
