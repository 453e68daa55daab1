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
        '::cass::launch("kern<float>", dim3(2, 2), 256, 64 * sizeof(float), s)'
        "([&](auto&... cass_a) { kern<float>(cass_a...); }, out, n);"
    )
    assert lines[11].strip() == '::cass::launch("kern", n,'
    assert lines[12].strip() == "128)([&](auto&... cass_a) { kern(cass_a...); }, out,"
    assert lines[13].strip() == "n);"


def test_launch_in_macro_body() -> None:
    lines = prepare_source(SOURCE).splitlines()
    assert lines[0] == '#define LAUNCH(k, n) ::cass::launch("k", 1, n)([&](auto&... cass_a) { k(cass_a...); }, out, \\'
    assert lines[1] == "    n)"


def test_dynamic_shared_declarations() -> None:
    lines = prepare_source(SOURCE).splitlines()
    assert lines[2] == "static thread_local float *&file_scope = ::cass::dynamic_shared_as<float>();"
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


HEADER = """\
template <typename T, int N> __global__ void scale(T* d);
#define FILL(T, d, n) fill<T><<<1, (n)>>>((d))
#define SYNC_ALL() sync_kernel<<<1, 1>>>()
template <typename T>
void run(T* d, int n) {
  scale<T, 2><<<1, n>>>(d);
  auto again = [&] { scale<T, 1><<<dim3(1), dim3(n >> 1)>>>(d); };
  tick<<<1, 1>>>();
  tick<<<1, 1>>>(/* nothing */);
  pair<<<1, 1>>>(d, {1, 2});
}
"""


def test_header_templates_lambdas_and_macros() -> None:
    lines = prepare_source(HEADER).splitlines()
    assert len(lines) == len(HEADER.splitlines())
    body = "[&](auto&... cass_a) { {k}(cass_a...); }"
    assert lines[1] == '#define FILL(T, d, n) ::cass::launch("fill<T>", 1, (n))(' + body.replace("{k}", "fill<T>") + ", (d))"
    assert lines[2] == '#define SYNC_ALL() ::cass::launch("sync_kernel", 1, 1)(' + body.replace("{k}", "sync_kernel") + ")"
    assert lines[5].strip() == '::cass::launch("scale<T, 2>", 1, n)(' + body.replace("{k}", "scale<T, 2>") + ", d);"
    assert lines[6].strip() == (
        'auto again = [&] { ::cass::launch("scale<T, 1>", dim3(1), dim3(n >> 1))('
        + body.replace("{k}", "scale<T, 1>") + ", d); };"
    )
    assert lines[7].strip() == '::cass::launch("tick", 1, 1)(' + body.replace("{k}", "tick") + ");"
    assert lines[8].strip() == '::cass::launch("tick", 1, 1)(' + body.replace("{k}", "tick") + "/* nothing */);"
    assert lines[9].strip() == '::cass::launch("pair", 1, 1)([&] { pair(d, {1, 2}); });'  # no type to store {1, 2} by


def test_the_void_cast_of_a_cooperative_launch_is_dropped() -> None:
    text = "e = cudaLaunchCooperativeKernel((void*)k, g, b, args, 0, s);\nhipLaunchCooperativeKernel(\n  (const void *)k, g, b, a);\n"
    assert prepare_source(text) == "e = cudaLaunchCooperativeKernel(k, g, b, args, 0, s);\nhipLaunchCooperativeKernel(\n  k, g, b, a);\n"
