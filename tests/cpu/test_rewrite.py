"""prepare_source: launches and dynamic shared memory rewritten, line numbers kept."""

from __future__ import annotations

from cass_lsp.cpu import prepare_source

SOURCE = """\
#define LAUNCH(k, n) k<<<1, n>>>(out, \\
    n)
extern __shared__ float file_scope[];
template <class T> __global__ void kern(T* out, int n) {
  extern __shared__ __align__(16) T dynamic[];
  extern __shared__ volatile float grid2d[][32];
  static __shared__ int once;
  __shared__ float tile[16][16];
}
void host(float* out, int n, cudaStream_t s) {
  kern<float><<<dim3(2, 2), 256, 64 * sizeof(float), s>>>(out, n);
  kern<<<n,
         128>>>(out,
                n);
  // a comment with k<<<1, 1>>>(x) stays as it is
}
"""


def test_line_count_is_kept() -> None:
    out = prepare_source(SOURCE)
    assert out.count("\n") == SOURCE.count("\n")
    assert out.splitlines()[15] == SOURCE.splitlines()[15]  # the comment


def test_launches_become_runtime_calls() -> None:
    lines = prepare_source(SOURCE).splitlines()
    assert lines[10].strip() == (
        '::cass::launch("kern<float>", dim3(2, 2), 256, 64 * sizeof(float), s)([&] { kern<float>(out, n); });'
    )
    assert lines[11].strip() == '::cass::launch("kern", n,'
    assert lines[12].strip() == "128)([&] { kern(out,"
    assert lines[13].strip() == "n); });"


def test_launch_in_macro_body() -> None:
    lines = prepare_source(SOURCE).splitlines()
    assert lines[0] == '#define LAUNCH(k, n) ::cass::launch("k", 1, n)([&] { k(out, \\'
    assert lines[1] == "    n); })"


def test_dynamic_shared_declarations() -> None:
    lines = prepare_source(SOURCE).splitlines()
    assert lines[2] == "#define file_scope (reinterpret_cast<float*>(::cass::dynamic_shared()))"
    assert lines[4].strip() == "T (*const dynamic) = reinterpret_cast<T*>(::cass::dynamic_shared());"
    assert lines[5].strip() == (
        "volatile float (*const grid2d)[32] = reinterpret_cast<volatile float (*)[32]>(::cass::dynamic_shared());"
    )


def test_static_and_plain_shared() -> None:
    lines = prepare_source(SOURCE).splitlines()
    assert lines[6].strip() == "static thread_local int once;"
    assert lines[7] == SOURCE.splitlines()[7]  # plain __shared__ is the header's macro


def test_source_without_launches_is_unchanged() -> None:
    text = "int main() { return 0; }\n"
    assert prepare_source(text) == text
