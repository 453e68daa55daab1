"""Device code's clock() counts cycles, as a GPU's does; host code's stays libc's CPU time."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.core import proc
from cass_lsp.cpu import build
from tests.cpu.conftest import need_gxx

# a 20 ms sleep takes no CPU time: libc's clock() barely moves over it, a cycle counter moves by
# millions (20 ms at any clock above 50 MHz)
_SLEEPS = """#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>
__global__ void k(long long *d) {
    clock_t start = clock();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    d[0] = (long long)(clock() - start);
}
int main() {
    long long *d;
    cudaMallocManaged(&d, sizeof(long long));
    clock_t host = std::clock();
    k<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    std::printf("device %d host %d\\n", d[0] > 1000000, (long long)(clock() - host) < 1000000);
    return 0;
}
"""


def test_a_kernels_clock_counts_cycles_and_the_hosts_cpu_time(tmp_path: Path) -> None:
    # cuda-samples' simpleHyperQ spins each kernel for 10 ms of clock() at clockRate: with libc's
    # clock() (CPU microseconds) that was 14 s a kernel, past verify's run limit
    need_gxx()
    source = tmp_path / "sleeps.cu"
    result = build(source, _SLEEPS, tmp_path / "out")
    assert result.ok, result.log
    assert proc.run([result.exe], timeout=60).stdout.decode() == "device 1 host 1\n"
