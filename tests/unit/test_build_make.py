"""Makefiles ported CUDA -> HIP (cass_lsp.buildfiles.make) and back."""

from __future__ import annotations

import pytest

from cass_lsp.buildfiles import make
from cass_lsp.buildfiles.porting import Settings

HIP = Settings(arches=("gfx1030",))
MAKEFILE = """\
CUDA_PATH ?= /usr/local/cuda
NVCC := $(CUDA_PATH)/bin/nvcc
NVCCFLAGS := -O3 -arch=sm_80 --expt-relaxed-constexpr -Xcompiler -fPIC
TARFLAGS := -t -v
LIBS := -L$(CUDA_PATH)/lib64 -lcudart -lcublas -lcudadevrt

app: main.o kern.o
\tg++ -o $@ $^ $(LIBS)

%.o: %.cu
\t$(NVCC) $(NVCCFLAGS) -c $< -o $@
"""


def test_compiler_flags_libraries_and_paths() -> None:
    result = make.translate(MAKEFILE, HIP)
    assert result.text == """\
ROCM_PATH ?= /opt/rocm
NVCC := hipcc
export HIP_PLATFORM ?= amd
export HCC_AMDGPU_TARGET ?= gfx1030
NVCCFLAGS := -O3 --offload-arch=gfx1030 -fPIC
TARFLAGS := -t -v
LIBS := -L$(ROCM_PATH)/lib -lamdhip64 -lhipblas

app: main.o kern.o
\tg++ -o $@ $^ $(LIBS)

%.o: %.hip
\t$(NVCC) $(NVCCFLAGS) -c $< -o $@
"""
    lines = {f.line for f in result.findings}
    assert {1, 2, 3, 5} <= lines  # root, compiler (and HIP_PLATFORM), targets and dropped flags, -lcudadevrt


def test_roc_libraries_and_sources_that_keep_their_names() -> None:
    settings = Settings(arches=("gfx1030",), libraries="roc", renamed_sources=False)
    out = make.translate(MAKEFILE, settings).text
    assert "-lamdhip64 -lrocblas\n" in out and "%.o: %.cu\n" in out


def test_clang_compiles_with_x_hip_and_links_with_hip_link() -> None:
    text = "NVCC = nvcc\nk.o: k.cu\n\t$(NVCC) -rdc=true -c k.cu -o k.o\napp: k.o\n\t$(NVCC) -rdc=true k.o -o app\n"
    out = make.translate(text, Settings(arches=("gfx1030",), compiler="clang")).text
    assert out == ("NVCC = clang++\nk.o: k.hip\n\t$(NVCC) -x hip -fgpu-rdc -c k.hip -o k.o\n"
                   "app: k.o\n\t$(NVCC) --hip-link -fgpu-rdc k.o -o app\n")
    assert "HIP_PLATFORM" not in out  # only hipcc guesses the platform


def test_direct_nvcc_calls_and_a_device_link_step_are_reported() -> None:
    text = "all:\n\tnvcc -dc a.cu b.cu\n\tnvcc -dlink a.o b.o -o link.o\n"
    result = make.translate(text, HIP)
    assert result.text.splitlines()[1] == "\thipcc -fgpu-rdc -c a.hip b.hip"
    errors = [f for f in result.findings if f.severity == "error"]
    assert [f.line for f in errors] == [3] and "device-link" in errors[0].message
    warnings = [f for f in result.findings if f.severity == "warning"]
    assert warnings and "HIP_PLATFORM=amd" in warnings[0].message  # no variable to export it after


def test_continuation_lines_and_comments() -> None:
    text = "# nvcc -arch=sm_80 builds this\nFLAGS = -O2 \\\n  -lineinfo\n\t\nx:\n\tnvcc $(FLAGS) \\\n\t  -c x.cu\n"
    out = make.translate(text, HIP).text
    assert out.startswith("# nvcc -arch=sm_80 builds this\nFLAGS = -O2 -gline-tables-only\n")
    assert out.endswith("\thipcc $(FLAGS) \\\n\t  -c x.hip\n")


def test_reverse_restores_a_ported_makefile() -> None:
    forward = make.translate(MAKEFILE, HIP).text
    back = make.translate(forward, Settings(reverse=True, nvidia_arch="sm_80")).text
    assert back == """\
CUDA_HOME ?= /usr/local/cuda
NVCC := nvcc
NVCCFLAGS := -O3 -arch=sm_80 -Xcompiler -fPIC
TARFLAGS := -t -v
LIBS := -L$(CUDA_HOME)/lib64 -lcudart -lcublas

app: main.o kern.o
\tg++ -o $@ $^ $(LIBS)

%.o: %.cu
\t$(NVCC) $(NVCCFLAGS) -c $< -o $@
"""


def test_a_compiler_found_on_path_and_the_root_derived_from_it() -> None:
    text = ("NVCC := $(shell which nvcc 2>/dev/null)\nifeq ($(NVCC),)\n$(error no nvcc)\nendif\n"
            "CUDA_PATH ?= $(patsubst %/bin/nvcc,%,$(NVCC))\nx: x.cu\n\t$(NVCC) -arch=sm_80 x.cu -o x\n")
    result = make.translate(text, HIP)
    assert result.text == ("NVCC := $(shell which hipcc 2>/dev/null)\nexport HIP_PLATFORM ?= amd\n"
                           "export HCC_AMDGPU_TARGET ?= gfx1030\nifeq ($(NVCC),)\n"
                           "$(error no nvcc)\nendif\nROCM_PATH ?= $(patsubst %/bin/hipcc,%,$(NVCC))\nx: x.hip\n"
                           "\t$(NVCC) --offload-arch=gfx1030 x.hip -o x\n")
    clang = make.translate(text, Settings(arches=("gfx1030",), compiler="clang")).text
    assert clang.startswith("NVCC := clang++\n")
    assert make.translate("CUDA_PATH := $(shell dirname $(shell dirname $(shell command -v nvcc)))\n", HIP).text == (
        "ROCM_PATH := $(shell dirname $(shell dirname $(shell command -v hipcc)))\n")


def test_compiler_variables_through_other_variables() -> None:
    text = ("CUDA_BIN := $(CUDA_HOME)/bin\nNVCC = $(CUDA_BIN)/nvcc\nCUCC = $(NVCC) -ccbin $(CXX)\nCC = $(CUCC)\n"
            "%.o: %.cu\n\t$(CC) -arch=sm_70 -c $< -o $@\n")
    result = make.translate(text, HIP)
    assert result.text == ("CUDA_BIN := $(ROCM_PATH)/bin\nNVCC = hipcc\nexport HIP_PLATFORM ?= amd\n"
                           "export HCC_AMDGPU_TARGET ?= gfx1030\nCUCC = $(NVCC)\n"
                           "CC = $(CUCC)\n%.o: %.hip\n\t$(CC) --offload-arch=gfx1030 -c $< -o $@\n")
    assert any("-ccbin $(CXX) dropped" in f.message for f in result.findings)


def test_pattern_rules_that_compile_and_link_get_x_hip_under_clang() -> None:
    text = ("NVCC = nvcc\n%: %.cu common.cuh\n\t$(NVCC) -O2 $< -o $@\n%.o: %.cu\n\t$(NVCC) -c $< -o $@\n"
            "app: a.o b.o\n\t$(NVCC) $^ -o $@\n")
    out = make.translate(text, Settings(arches=("gfx1030",), compiler="clang", renamed_sources=False)).text
    assert out == ("NVCC = clang++\n%: %.cu common.cuh\n\t$(NVCC) -x hip --hip-link -O2 $< -o $@\n"
                   "%.o: %.cu\n\t$(NVCC) -x hip -c $< -o $@\napp: a.o b.o\n\t$(NVCC) --hip-link $^ -o $@\n")


def test_sub_tool_groups_quoted_or_comma_separated() -> None:
    text = ('NVCCFLAGS = -Xcompiler "-Wall -O3" -Xptxas -v -Xlinker -rpath,/opt/x --linker-options=-z,now\n'
            "omp: NVCCFLAGS += -Xcompiler -fopenmp\n")
    result = make.translate(text, HIP)
    assert result.text == ("NVCCFLAGS = -Wall -O3 -Rpass-analysis=kernel-resource-usage -Wl,-rpath,/opt/x -Wl,-z,now\n"
                           "omp: NVCCFLAGS += -fopenmp\n")
    openmp = [f for f in result.findings if "libomp" in f.message]
    assert [f.line for f in openmp] == [2] and "LLVM's OpenMP" in openmp[0].message


def test_a_line_the_rules_cannot_port_is_kept_with_an_error_on_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = make.nvcc_flags.port

    def port(words: list[str], arches: tuple[str, ...]) -> make.nvcc_flags.Ported:
        if "-G" in words:
            raise ValueError("a rule defect")
        return real(words, arches)

    monkeypatch.setattr(make.nvcc_flags, "port", port)
    text = "NVCC = nvcc\nNVCC_DEBUG = -G -arch=sm_80\nNVCCFLAGS = -arch=sm_80\n"
    result = make.translate(text, HIP)
    assert result.text.splitlines()[3:] == ["NVCC_DEBUG = -G -arch=sm_80", "NVCCFLAGS = --offload-arch=gfx1030"]
    errors = [f for f in result.findings if f.severity == "error"]
    assert [f.line for f in errors] == [2] and "kept as written" in errors[0].message


def test_target_loops_become_the_amd_targets_and_other_computed_targets_are_reported() -> None:
    text = ("CU_FLAGS += $(foreach cc,$(GPU_ARCH), \\\n\t--generate-code arch=compute_$(cc),code=sm_$(cc) )\n"
            "GENCODE = $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))\n"
            "NVCC_FLAGS += --generate-code arch=compute_$(CC),code=[compute_$(CC),sm_$(CC)]\n"
            "$(foreach sm,$(SMS),$(eval NVCC_GENCODE += -gencode arch=compute_$(sm),code=sm_$(sm)))\n"
            "NVCC_LDFLAGS += -lnvidia-ml\n")
    result = make.translate(text, Settings(arches=("gfx1030", "gfx1100")))
    amd = "--offload-arch=gfx1030 --offload-arch=gfx1100"
    assert result.text.splitlines() == [f"CU_FLAGS += {amd}", f"GENCODE = {amd}", f"NVCC_FLAGS += {amd}",
                                        text.splitlines()[4], "NVCC_LDFLAGS += -lnvidia-ml"]
    assert [(f.line, f.severity) for f in result.findings if f.severity != "info"] == [(5, "warning"), (6, "error")]


def test_links_of_relocatable_objects_get_fgpu_rdc() -> None:
    """nvcc device-links -dc objects wherever it links them; clang only with -fgpu-rdc."""
    text = ("objects = main.o v3.o\nall: $(objects)\n\tnvcc -arch=sm_70 $(objects) -o app\n"
            "%.o: %.cpp\n\tnvcc -x cu -arch=sm_70 -I. -dc $< -o $@\n")
    result = make.translate(text, HIP)
    assert result.text == ("objects = main.o v3.o\nall: $(objects)\n\thipcc -fgpu-rdc --offload-arch=gfx1030 $(objects) "
                           "-o app\n%.o: %.cpp\n\thipcc -x hip --offload-arch=gfx1030 -I. -fgpu-rdc -c $< -o $@\n")
    assert any(f.line == 3 and "-fgpu-rdc added to the link" in f.message for f in result.findings)
    clang = make.translate(text, Settings(arches=("gfx1030",), compiler="clang")).text
    assert "\tclang++ --hip-link -fgpu-rdc --offload-arch" in clang and "\tclang++ -x hip --offload-arch" in clang
    plain = "app: a.o\n\tnvcc a.o -o app\n%.o: %.cu\n\tnvcc -c $< -o $@\n"
    assert "-fgpu-rdc" not in make.translate(plain, HIP).text


def test_a_query_of_the_nvidia_gpus_target_becomes_the_configured_amd_targets() -> None:
    """llm.c's dev/cuda Makefile asks ``__nvcc_device_query`` for the GPU's compute capability and
    builds without a target when it answers nothing: on a machine without an NVIDIA GPU the port built
    for hipcc's default target, not the configured one."""
    text = ("NVCC := $(shell which nvcc 2>/dev/null)\n"
            "ifndef GPU_COMPUTE_CAPABILITY\n"
            "  GPU_COMPUTE_CAPABILITY = $(shell __nvcc_device_query) # assume if NVCC is present\n"
            "  GPU_COMPUTE_CAPABILITY := $(strip $(GPU_COMPUTE_CAPABILITY))\n"
            "endif\n"
            "ifeq ($(GPU_COMPUTE_CAPABILITY),)\n"
            "  CFLAGS = -O3 --use_fast_math\n"
            "else\n"
            "  CFLAGS = -O3 --use_fast_math --generate-code arch=compute_$(GPU_COMPUTE_CAPABILITY),"
            "code=[compute_$(GPU_COMPUTE_CAPABILITY),sm_$(GPU_COMPUTE_CAPABILITY)]\n"
            "endif\n"
            "SMI_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader | sed 's/\\.//g' | head -n 1)\n"
            "%: %.cu\n\t$(NVCC) $(CFLAGS) $< -o $@\n")
    result = make.translate(text, Settings(arches=("gfx1030", "gfx1100")))
    lines = result.text.splitlines()
    assert lines[4] == "  GPU_COMPUTE_CAPABILITY = gfx1030 gfx1100 # assume if NVCC is present"
    assert lines[10] == "  CFLAGS = -O3 -ffast-math --offload-arch=gfx1030 --offload-arch=gfx1100"
    assert lines[12] == "SMI_CC := gfx1030 gfx1100"
    queries = [f for f in result.findings if "asks the machine's NVIDIA GPU" in f.message]
    assert [f.line for f in queries] == [3, 11]
