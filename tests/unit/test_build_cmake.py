"""CMake files ported CUDA -> HIP (cass_lsp.buildfiles.cmake) and back (cmake_reverse)."""

from __future__ import annotations

from pathlib import Path

from cass_lsp.buildfiles import cmake, cmake_reverse, files, libraries
from cass_lsp.buildfiles.cmake_syntax import commands
from cass_lsp.buildfiles.porting import Finding, Settings

HIP = Settings(arches=("gfx1030",))


def _port(text: str, settings: Settings = HIP) -> tuple[str, list[Finding]]:
    result = cmake.translate(text, settings)
    return result.text, result.findings


def test_syntax_reads_quoted_bracket_and_nested_arguments_and_skips_comments() -> None:
    text = 'if((A OR B) AND "x\\"y") # CUDA::cublas\n#[[ set(CMAKE_CUDA_FLAGS) ]]\nmessage([=[a ]] b]=])\n'
    found = commands(text)
    assert [c.name for c in found] == ["if", "message"]
    assert [a.text for a in found[0].args] == ["(", "A", "OR", "B", ")", "AND", 'x\\"y']
    assert found[1].args[0].text == "[=[a ]] b]=]"


def test_language_version_and_a_default_target_list() -> None:
    text = "cmake_minimum_required(VERSION 3.18...3.27)\nproject(p LANGUAGES CXX CUDA)\n"
    out, findings = _port(text, Settings(arches=("gfx1030", "gfx1100")))
    assert out == ("cmake_minimum_required(VERSION 3.21...3.27)\n"
                   'set(CMAKE_HIP_ARCHITECTURES "gfx1030;gfx1100" CACHE STRING "AMD targets (cass.target.arch)")\n'
                   "project(p LANGUAGES CXX HIP)\n"
                   'string(APPEND CMAKE_HIP_FLAGS " -Xarch_device -O3")\n')
    assert [(f.line, f.severity) for f in findings] == [(1, "info"), (2, "info"), (2, "info")]
    assert "hip-debian.cmake" in findings[1].message
    assert "no CMAKE_BUILD_TYPE" in findings[2].message


def test_architectures_become_the_configured_amd_targets() -> None:
    text = ('set(CMAKE_CUDA_ARCHITECTURES 70 80)\n'
            'set_target_properties(t PROPERTIES CUDA_ARCHITECTURES "75;86" CUDA_STANDARD 17)\n'
            "set_property(TARGET u PROPERTY CUDA_ARCHITECTURES native)\n")
    out, findings = _port(text, Settings(arches=("gfx90a", "gfx942")))
    assert out == ('set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx942")\n'
                   'set_target_properties(t PROPERTIES HIP_ARCHITECTURES "gfx90a;gfx942" HIP_STANDARD 17)\n'
                   'set_property(TARGET u PROPERTY HIP_ARCHITECTURES "gfx90a;gfx942")\n')
    assert [f.line for f in findings] == [1, 2, 3]


def test_sources_are_renamed_or_compiled_as_hip_where_they_keep_their_names() -> None:
    text = "add_executable(app main.cu util.cpp)\nfile(GLOB KERNELS src/*.cu)\n"
    renamed, _ = _port(text)
    assert renamed == "add_executable(app main.hip util.cpp)\nfile(GLOB KERNELS src/*.hip)\n"
    kept, _ = _port(text, Settings(arches=("gfx1030",), renamed_sources=False))
    assert kept == ("add_executable(app main.cu util.cpp)\n"
                    "set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n"
                    "file(GLOB KERNELS src/*.cu)\n"
                    "set_source_files_properties(${KERNELS} PROPERTIES LANGUAGE HIP)\n")


def test_targets_packages_and_the_library_setting() -> None:
    text = ("find_package(CUDAToolkit 11.4 REQUIRED)\n"
            "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas CUDA::cudadevrt CUDA::cupti)\n")
    out, findings = _port(text, Settings(arches=("gfx1030",), families=frozenset({"fft"})))
    assert out == ("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nfind_package(hipfft REQUIRED)\n"
                   "target_link_libraries(app PRIVATE hip::host roc::hipblas CUDA::cupti)\n")
    assert any(f.severity == "error" and f.line == 2 and "CUPTI" in f.message for f in findings)
    assert any("version" in f.message and f.line == 1 for f in findings)
    roc, _ = _port(text, Settings(arches=("gfx1030",), libraries="roc"))
    assert "find_package(rocblas REQUIRED)" in roc and "roc::rocblas" in roc


def test_nvcc_flags_in_variables_and_generator_expressions() -> None:
    text = ('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -Xcompiler=-fopenmp --expt-extended-lambda")\n'
            'target_compile_options(k PRIVATE -Wall "$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo;-maxrregcount=64>")\n'
            "string(APPEND CMAKE_CUDA_FLAGS_RELEASE \" --expt-relaxed-constexpr\")\n")
    out, findings = _port(text)
    assert out == ('string(APPEND CMAKE_HIP_FLAGS " -fopenmp")\n'
                   "target_compile_options(k PRIVATE -Wall $<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only>)\n"
                   '# string(APPEND CMAKE_CUDA_FLAGS_RELEASE " --expt-relaxed-constexpr") (cass: no HIP flags left)\n')
    register = [f for f in findings if "maxrregcount" in f.message]
    assert register and register[0].severity == "warning" and register[0].line == 2


def test_separable_compilation_becomes_gpu_rdc_at_compile_and_link() -> None:
    text = ("add_library(lib STATIC a.cu)\nadd_executable(app m.cu)\n"
            "set_target_properties(lib app PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_RESOLVE_DEVICE_SYMBOLS ON)\n")
    out, findings = _port(text)
    link = ('"$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link;'
            '--offload-arch=$<JOIN:$<TARGET_PROPERTY:HIP_ARCHITECTURES>,;--offload-arch=>>"')
    assert out.splitlines()[2:] == [
        "target_compile_options(lib PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)",
        f"target_link_options(lib PUBLIC {link})",
        # the static library's device code reaches the program's device link only as -l<name>
        'target_link_options(lib INTERFACE "$<$<LINK_LANGUAGE:HIP>:-L$<TARGET_FILE_DIR:lib>;'
        '-l$<TARGET_FILE_BASE_NAME:lib>>")',
        "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)",
        f"target_link_options(app PUBLIC {link})"]
    assert {f.severity for f in findings} == {"warning", "info"}


def test_findcuda_macros_become_the_hip_language() -> None:
    text = ("find_package(CUDA REQUIRED)\n"
            "cuda_add_executable(app main.cu OPTIONS -arch sm_70 --use_fast_math)\n"
            "cuda_add_cublas_to_target(app)\n"
            "cuda_compile_ptx(PTX k.cu)\n")
    out, findings = _port(text)
    assert out == ('enable_language(HIP)\nstring(APPEND CMAKE_HIP_FLAGS " -Xarch_device -O3")\n'
                   "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
                   "add_executable(app main.hip)\n"
                   "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math>)\n"
                   'set_property(TARGET app PROPERTY HIP_ARCHITECTURES "gfx1030")\n'
                   "target_link_libraries(app hip::host)\n"
                   "target_link_libraries(app roc::hipblas)\n"
                   "cuda_compile_ptx(PTX k.cu)\n")  # what cannot be ported stays as written
    assert any(f.line == 4 and f.code == "build-unmapped" and f.severity == "error" for f in findings)


def test_comments_strings_and_unknown_cuda_variables() -> None:
    text = '# links CUDA::cublas\nmessage(STATUS "CUDA found")\nset(X ${CMAKE_CUDA_HOST_COMPILER})\n'
    out, findings = _port(text)
    assert out == text
    assert [(f.line, f.code) for f in findings] == [(3, "build-unmapped")]


def test_reverse_restores_what_the_forward_port_wrote() -> None:
    original = ("project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n"
                "add_library(v STATIC a.cu)\ntarget_link_libraries(v PUBLIC CUDA::cudart CUDA::cublas)\n"
                'target_compile_options(v PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo;-rdc=true>")\n')
    forward = cmake.translate(original, Settings(arches=("gfx1030",), families=frozenset({"blas"}))).text
    back = cmake_reverse.translate(forward, Settings(reverse=True, nvidia_arch="sm_80")).text
    assert back == ('set(CMAKE_CUDA_ARCHITECTURES "80" CACHE STRING "AMD targets (cass.target.arch)")\n'
                    "project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n\n"
                    "add_library(v STATIC a.cu)\ntarget_link_libraries(v PUBLIC CUDA::cudart CUDA::cublas)\n"
                    'target_compile_options(v PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:-lineinfo;-rdc=true>")\n')


def test_findcuda_options_become_their_hip_meaning_or_a_comment() -> None:
    text = "set(CUDA_SEPARABLE_COMPILATION ON)\nset(CUDA_PROPAGATE_HOST_FLAGS OFF)\n"
    out, findings = _port(text)
    assert out.splitlines() == [
        'string(APPEND CMAKE_HIP_FLAGS " -fgpu-rdc")',
        'add_link_options("$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link;'
        '--offload-arch=$<JOIN:$<TARGET_PROPERTY:HIP_ARCHITECTURES>,;--offload-arch=>>")',
        "# set(CUDA_PROPAGATE_HOST_FLAGS OFF) (cass: no HIP counterpart)"]
    assert [(f.line, f.severity) for f in findings] == [(1, "warning"), (2, "info")]


def test_a_file_linking_cuda_libraries_by_name_finds_their_hip_packages() -> None:
    text = "project(p LANGUAGES CUDA)\nadd_executable(app a.cu)\ntarget_link_libraries(app PRIVATE cublas cudart)\n"
    out, findings = _port(text)
    assert out.splitlines()[3:] == ["add_executable(app a.hip)", "find_package(hipblas REQUIRED)",
                                    "find_package(hip REQUIRED)",
                                    "target_link_libraries(app PRIVATE roc::hipblas hip::host)"]
    assert sum("find_package(" in f.message and "added" in f.message for f in findings) == 2
    # where the tree finds the toolkit elsewhere (the top-level CMakeLists.txt), nothing is added
    elsewhere, _ = _port(text, Settings(arches=("gfx1030",), toolkit_found=True))
    assert "find_package" not in elsewhere


def test_nvcc_options_set_before_enable_language_and_in_a_clang_as_cuda_branch() -> None:
    """A real benchmark's CUDA model: nvcc-only options in CMAKE_CUDA_FLAGS before enable_language,
    --cuda-gpu-arch in the branch for clang as the CUDA compiler (the HIP compiler's id is Clang, so
    the port takes it): clang rejected them all in CMake's HIP compiler check."""
    text = ('if(CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")\n'
            '  set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --cuda-gpu-arch=${CUDA_ARCH} -x cuda")\n'
            "else()\n"
            '  set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -forward-unknown-to-host-compiler -restrict '
            '-arch=${CUDA_ARCH} -O3")\n'
            "endif()\n"
            "enable_language(CUDA)\n")
    out, findings = _port(text)
    assert out == ('if(CMAKE_HIP_COMPILER_ID STREQUAL "Clang")\n'
                   '  string(APPEND CMAKE_HIP_FLAGS " -x hip")\n'
                   '  set(CMAKE_HIP_ARCHITECTURES "gfx1030")\n'
                   "else()\n"
                   '  string(APPEND CMAKE_HIP_FLAGS " -O3")\n'
                   '  set(CMAKE_HIP_ARCHITECTURES "gfx1030")\n'
                   "endif()\n"
                   "enable_language(HIP)\n"
                   'string(APPEND CMAKE_HIP_FLAGS " -Xarch_device -O3")\n')
    messages = " | ".join(f.message for f in findings)
    assert "-forward-unknown-to-host-compiler dropped" in messages and "-restrict dropped" in messages
    assert [f.message for f in findings].count(next(m for m in (f.message for f in findings)
                                                    if m.startswith("CUDA_ARCH chose NVIDIA targets"))) == 1


def test_nvcc_options_in_a_projects_own_variables() -> None:
    """Options gathered in the project's variables (later given to target_compile_options or appended
    to CMAKE_CUDA_FLAGS): ported where they stand, host options and other values kept."""
    text = ('set(CUDA_EXTRA "-restrict --expt-relaxed-constexpr -O2")\n'
            "list(APPEND NVCC_OPTS -lineinfo -Xcompiler -fopenmp -Wall)\n"
            'set(SOURCES main.cpp "-x")\n'
            'string(APPEND NVCC_LINE " -use_fast_math")\n')
    out, findings = _port(text)
    assert out == ('set(CUDA_EXTRA "-O2")\n'
                   "list(APPEND NVCC_OPTS -gline-tables-only -fopenmp -Wall)\n"
                   'set(SOURCES main.cpp "-x")\n'
                   'string(APPEND NVCC_LINE " -ffast-math")\n')
    assert {f.line for f in findings} == {1, 2, 4}


def test_a_flags_variable_named_through_another_variable_maps_by_its_prefix() -> None:
    """``CMAKE_CUDA_FLAGS_${BUILD_TYPE}``: the project's macro that rewrites it by name keeps
    working on the HIP variable (it failed with too few arguments on an empty CUDA one)."""
    text = ('string(TOUPPER ${CMAKE_BUILD_TYPE} BUILD_TYPE)\n'
            'set(CMAKE_CUDA_FLAGS_${BUILD_TYPE} "${CMAKE_CUDA_FLAGS_${BUILD_TYPE}} --use_fast_math")\n'
            "wipe_gcc_style_optimisation_flags(CMAKE_CUDA_FLAGS_${BUILD_TYPE})\n"
            'string(REGEX REPLACE "-O." "" CMAKE_CUDA_FLAGS_${BUILD_TYPE} ${CMAKE_CUDA_FLAGS_${BUILD_TYPE}})\n'
            'message(STATUS "${CMAKE_CUDA_FLAGS_${CMAKE_BUILD_TYPE}} ${CUDA_NVCC_FLAGS_${BUILD_TYPE}}")\n')
    out, findings = _port(text)
    assert out == ('string(TOUPPER ${CMAKE_BUILD_TYPE} BUILD_TYPE)\n'
                   'string(APPEND CMAKE_HIP_FLAGS_${BUILD_TYPE} " -ffast-math")\n'
                   "wipe_gcc_style_optimisation_flags(CMAKE_HIP_FLAGS_${BUILD_TYPE})\n"
                   'string(REGEX REPLACE "-O." "" CMAKE_HIP_FLAGS_${BUILD_TYPE} ${CMAKE_HIP_FLAGS_${BUILD_TYPE}})\n'
                   'message(STATUS "${CMAKE_HIP_FLAGS_${CMAKE_BUILD_TYPE}} ${CMAKE_HIP_FLAGS_${BUILD_TYPE}}")\n')
    assert not [f for f in findings if "no HIP counterpart" in f.message]


def test_a_chosen_cuda_compiler_does_not_become_the_hip_compiler() -> None:
    text = ("set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\n"
            'register_flag_optional(CMAKE_CUDA_COMPILER "the CUDA compiler" "nvcc")\n'
            'set(CMAKE_CUDA_HOST_COMPILER g++-12 CACHE FILEPATH "")\n'
            'message(STATUS "${CMAKE_CUDA_COMPILER}")\n')
    out, findings = _port(text)
    assert out == ("# set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc) (cass: the HIP compiler is clang)\n"
                   "if(NOT DEFINED CMAKE_CUDA_COMPILER)  # cass: the port does not read CMAKE_CUDA_COMPILER\n"
                   '  set(CMAKE_CUDA_COMPILER "")\nendif()\n'
                   'register_flag_optional(CMAKE_CUDA_COMPILER "the CUDA compiler" "nvcc")\n'
                   '# set(CMAKE_CUDA_HOST_COMPILER g++-12 CACHE FILEPATH "") (cass: the HIP compiler is clang)\n'
                   'message(STATUS "${CMAKE_HIP_COMPILER}")\n')
    assert [(f.line, f.severity) for f in findings] == [(1, "info"), (2, "info"), (2, "info"), (3, "info")]


def test_sources_handed_to_a_projects_function_compile_as_hip() -> None:
    text = ("function(add_cuda_bench name)\n"
            "  add_executable(${name} ${ARGN})\n"
            "  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)\n"
            "endfunction()\n"
            "add_cuda_bench(stream src/main.cu src/host.cpp)\n")
    renamed, _ = _port(text)
    assert renamed == text.replace("LANGUAGE CUDA", "LANGUAGE HIP").replace("main.cu", "main.hip")
    in_place, _ = _port(text, Settings(arches=("gfx1030",), renamed_sources=False))
    assert in_place == (text.replace("LANGUAGE CUDA", "LANGUAGE HIP")
                        + "set_source_files_properties(src/main.cu PROPERTIES LANGUAGE HIP)\n")


def test_a_projects_own_cuda_prefixed_function_is_not_taken_for_findcuda() -> None:
    """``cuda_add_benchmark(...)``, the project's own (defined here or in another file): it was reported
    as a FindCUDA command not ported and its ``.cu`` argument kept its name, while --out-dir renamed
    the file, so the port's configure could not find the source."""
    text = ("function(cuda_add_benchmark name src)\n  add_executable(${name} ${src})\nendfunction()\n"
            "cuda_add_benchmark(triad src/triad.cu)\ncuda_bench_from_other_file(copy src/copy.cu)\n"
            "cuda_link_separable_compilation_objects(link k src/k.o)\n")
    renamed, findings = _port(text)
    assert "cuda_add_benchmark(triad src/triad.hip)\ncuda_bench_from_other_file(copy src/copy.hip)\n" in renamed
    assert [(f.line, f.severity) for f in findings if f.code == "build-unmapped"] == [(6, "error")]
    in_place, _ = _port(text, Settings(arches=("gfx1030",), renamed_sources=False))
    assert ("cuda_add_benchmark(triad src/triad.cu)\nset_source_files_properties(src/triad.cu PROPERTIES LANGUAGE HIP)"
            in in_place)


def test_cmakes_check_for_the_compiler_asks_for_the_hip_one() -> None:
    """CMake's CheckLanguage idiom: ``check_language(CUDA)`` then ``if(CMAKE_CUDA_COMPILER)``. The test
    kept the CUDA name (taken for a project macro declaring the option), which check_language(HIP)
    never sets, so the port stopped in the project's FATAL_ERROR branch."""
    text = ("include(CheckLanguage)\ncheck_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\n  enable_language(CUDA)\n"
            'else()\n  message(FATAL_ERROR "no CUDA compiler")\nendif()\nif(NOT CMAKE_CUDA_COMPILER)\nendif()\n')
    out, findings = _port(text)
    assert "check_language(HIP)\nif(CMAKE_HIP_COMPILER)\n" in out and "  enable_language(HIP)\n" in out
    assert "if(NOT CMAKE_HIP_COMPILER)\n" in out
    assert not [f for f in findings if "kept as written" in f.message]


def test_sources_listed_in_a_projects_variable_compile_as_hip_where_they_keep_their_names() -> None:
    text = 'set(SOURCES main.cu "k2.cu;k3.cu" util.cpp)\nlist(APPEND SOURCES k4.cu)\nadd_executable(app ${SOURCES})\n'
    assert _port(text)[0] == text.replace(".cu", ".hip")
    kept, _ = _port(text, Settings(arches=("gfx1030",), renamed_sources=False))
    assert kept == ('set(SOURCES main.cu "k2.cu;k3.cu" util.cpp)\n'
                    "set_source_files_properties(main.cu k2.cu k3.cu PROPERTIES LANGUAGE HIP)\n"
                    "list(APPEND SOURCES k4.cu)\nset_source_files_properties(k4.cu PROPERTIES LANGUAGE HIP)\n"
                    "add_executable(app ${SOURCES})\n")


def test_nvml_in_a_build_file_is_named_with_rocm_smi() -> None:
    text = ('register_link_library("nvidia-ml")\n'
            "target_link_libraries(bench PRIVATE CUDA::nvml -lnvidia-ml)\n")
    out, findings = _port(text)
    assert out == text
    assert [(f.line, f.severity, f.code) for f in findings] == [(1, "error", "build-unmapped")] + [
        (2, "error", "build-unmapped")] * 2
    assert all("rocm_smi64" in f.message and "rsmi_dev_gpu_clk_freq_get" in f.message for f in findings)


def test_targets_cached_after_the_language_is_enabled_go_before_it() -> None:
    """Enabling the language writes CMAKE_HIP_ARCHITECTURES's cache entry (CMake's default, gfx803 for
    clang-15), so a later ``set(... CACHE STRING)`` did nothing and the port built for the wrong target."""
    text = 'project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 70 80 CACHE STRING "targets")\n'
    out, findings = _port(text)
    assert out == ('set(CMAKE_HIP_ARCHITECTURES "gfx1030" CACHE STRING "AMD targets (cass.target.arch)")\n'
                   'project(p LANGUAGES CXX HIP)\nstring(APPEND CMAKE_HIP_FLAGS " -Xarch_device -O3")\n'
                   'set(CMAKE_HIP_ARCHITECTURES "gfx1030" CACHE STRING "targets")\n')
    assert [(f.line, f.severity) for f in findings][-1] == (2, "warning")


def test_the_host_compilers_flags_are_not_taken_for_nvcc_options() -> None:
    text = 'set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -G -t")\nlist(APPEND CMAKE_EXE_LINKER_FLAGS -t)\n'
    assert _port(text) == (text, [])


def test_nvcc_options_inside_generator_expressions_are_ported_as_outside_one() -> None:
    text = ("target_compile_options(solver PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>\n"
            "                       $<$<CONFIG:Debug>:-G>)\n"
            'target_compile_options(solver PRIVATE "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G;-lineinfo>")\n'
            "list(APPEND SOLVER_CUDA_OPTIONS $<$<CONFIG:Release>:--use_fast_math> $<$<CONFIG:Debug>:-G>)\n"
            'string(APPEND CMAKE_CUDA_FLAGS " $<$<CONFIG:Debug>:--expt-relaxed-constexpr>")\n')
    out, findings = _port(text)
    assert out == ('target_compile_options(solver PRIVATE "$<$<CONFIG:Debug>:-g;-O0>")\n'
                   'target_compile_options(solver PRIVATE '
                   '"$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Debug>>:-g;-O0;-gline-tables-only>")\n'
                   "list(APPEND SOLVER_CUDA_OPTIONS $<$<CONFIG:Release>:-ffast-math> \"$<$<CONFIG:Debug>:-g;-O0>\")\n"
                   "# string(APPEND CMAKE_CUDA_FLAGS \" $<$<CONFIG:Debug>:--expt-relaxed-constexpr>\") "
                   "(cass: no HIP flags left)\n")
    messages = [f.message for f in findings]
    assert sum("--expt-relaxed-constexpr dropped" in m for m in messages) == 2
    assert sum(m.startswith("-G -> -g -O0") for m in messages) == 3


def test_a_projects_check_of_cuda_only_options_passes_without_them() -> None:
    """A multi-model benchmark's model file: its own macro requires the CUDA compiler and NVIDIA
    target to be passed; the port reads neither, so it must configure without them."""
    text = ('register_flag_required(CMAKE_CUDA_COMPILER "Path to the CUDA nvcc compiler")\n'
            'register_flag_required(GPU_ARCH "NVIDIA target passed to -arch (e.g. sm_80)")\n'
            'register_flag_optional(MEM "memory mode" "DEFAULT")\n'
            "macro(setup)\n"
            "  enable_language(CUDA)\n"
            '  set(CMAKE_CUDA_FLAGS ${CMAKE_CUDA_FLAGS} "-arch=${GPU_ARCH}")\n'
            "  if(NOT DEFINED GPU_ARCH)\n"
            "    message(STATUS ${GPU_ARCH})\n"
            "  endif()\n"
            "endmacro()\n")
    out, findings = _port(text)
    for name in ("CMAKE_CUDA_COMPILER", "GPU_ARCH"):
        guard = f'if(NOT DEFINED {name})  # cass: the port does not read {name}\n  set({name} "")\nendif()\n'
        assert f"{guard}register_flag_required({name} " in out
        assert any(f.message.startswith(f"{name} defined (empty) before register_flag_required") for f in findings)
    assert out.count("if(NOT DEFINED") == 3  # CMake's own if() and the MEM option are left alone
    assert "register_flag_optional(MEM" in out and "  if(NOT DEFINED GPU_ARCH)\n    message" in out


def test_packages_follow_the_libraries_the_units_and_their_headers_use(tmp_path: Path) -> None:
    """A sample of a suite with a shared Common/ folder: its helper header names cuBLAS' and cuFFT's
    errors under their headers' include guards, and another helper no unit includes plans FFTs;
    the sample itself uses Thrust and cuRAND."""
    common = tmp_path / "Common"
    sample = tmp_path / "Samples" / "sortStats"
    common.mkdir()
    sample.mkdir(parents=True)
    (common / "helper_errors.h").write_text(
        "#pragma once\n#include <cuda_runtime.h>\n"
        "#ifdef CUBLAS_API_H_\nstatic const char *name(cublasStatus_t e) { return e == CUBLAS_STATUS_SUCCESS ? "
        '"ok" : "cublas"; }\n#endif\n'
        '#ifdef _CUFFT_H_\nstatic const char *name(cufftResult e) { return e == CUFFT_SUCCESS ? "ok" : "fft"; }\n'
        "#else\nstatic const char *fft_state() { return \"no cufft\"; }\n#endif\n")
    (common / "helper_fft.h").write_text('#pragma once\n#include <cufft.h>\n#include "helper_errors.h"\n'
                                         "inline void plan(cufftHandle *p, int n) { cufftPlan1d(p, n, CUFFT_R2C, 1); }\n")
    (sample / "rng.cuh").write_text("#pragma once\n#include <curand.h>\n"
                                    "inline void make(curandGenerator_t *g) "
                                    "{ curandCreateGenerator(g, CURAND_RNG_PSEUDO_DEFAULT); }\n")
    (sample / "sortStats.cu").write_text('#include <helper_errors.h>\n#include <thrust/sort.h>\n#include "rng.cuh"\n'
                                         "int main() { return 0; }\n")
    sources = [str(p) for p in tmp_path.rglob("*") if p.is_file()]
    assert files.families(sources, []) == {"thrust", "rand"}
    # the header itself, ported alone (the editor), still names what it uses outside the guards
    assert libraries.families_in_source((common / "helper_fft.h").read_text()) == {"fft"}


def test_device_code_is_optimised_as_nvccs_where_the_build_type_sets_no_level() -> None:
    """cuda-samples' radixSortThrust (CMake, no build type, CUDA_SEPARABLE_COMPILATION ON): nvcc
    optimised its device code, clang compiled it at -O0, where every rocPRIM function is noinline and
    LLVM 15 gives each kernel the LDS of them all ("local memory (487168) exceeds limit (65536)"; also
    without -fgpu-rdc). With -O3 for the device alone it builds; a build type's -O still decides."""
    text = ("project(radixSortThrust LANGUAGES C CXX CUDA)\nadd_executable(app sort.cu)\n"
            "set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n")
    out, findings = _port(text)
    assert out.splitlines()[1:3] == ["project(radixSortThrust LANGUAGES C CXX HIP)",
                                     'string(APPEND CMAKE_HIP_FLAGS " -Xarch_device -O3")']
    assert "$<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>" in out
    assert sum(f.message == cmake.DEVICE_OPTIMISATION_NOTE for f in findings) == 1
    back = cmake_reverse.translate(out, Settings(reverse=True, nvidia_arch="sm_80")).text
    assert "Xarch_device" not in back and "project(radixSortThrust LANGUAGES C CXX CUDA)\nadd_executable" in back
