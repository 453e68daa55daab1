"""Makefiles ported CUDA -> HIP (cass_lsp.buildfiles.make) and back."""

from __future__ import annotations

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


def test_targets_computed_by_make_functions_are_reported_not_guessed() -> None:
    text = "SMS ?= 70 80\nGENCODE := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))\n"
    result = make.translate(text, HIP)
    assert result.text == text
    assert [(f.line, f.severity, f.code) for f in result.findings] == [(2, "warning", "build-unmapped")]
