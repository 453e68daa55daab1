"""The seccomp filter's construction for each architecture it knows, and its refusal of the others.

This host runs x86-64 programs only, so the aarch64 filter is checked by executing its classic-BPF
instructions here, the way the kernel would for a system call described by (arch, number); the
x86-64 filter is also applied for real by every sandboxed run (test_sandbox*.py).
"""

from __future__ import annotations

import errno

import pytest

from cass_lsp.verify import seccomp
from cass_lsp.verify.seccomp import ABIS

AUDIT_ARCH_I386 = 0x40000003
AUDIT_ARCH_ARM = 0x40000028
# Everyday calls with their numbers on each architecture (read, write, openat, clone, exit_group).
EVERYDAY = {"x86_64": (0, 1, 257, 56, 231), "aarch64": (63, 64, 56, 220, 94)}


def _verdict(insns: list[tuple[int, int, int, int]], arch: int, nr: int) -> int:
    """What the filter returns for one call: the kernel's cBPF semantics for the opcodes it uses."""
    data = {seccomp.NR: nr, seccomp.ARCH: arch}
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        pc += 1
        if code == seccomp.LD_ABS:
            acc = data[k]
        elif code == seccomp.JEQ:
            pc += jt if acc == k else jf
        elif code == seccomp.JGE:
            pc += jt if acc >= k else jf
        elif code == seccomp.RET:
            return k
        else:
            raise AssertionError(f"opcode {code:#x} is not one the kernel would run here")


REFUSED = seccomp.RET_ERRNO | errno.EACCES


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
@pytest.mark.parametrize("sockets", [False, True])
def test_the_filter_refuses_keyrings_always_and_sockets_unless_allowed(machine: str, sockets: bool) -> None:
    abi = seccomp.abi(machine)
    insns = seccomp.program(abi, sockets=sockets)
    for name in seccomp.KEYRING_CALLS:
        assert _verdict(insns, abi.audit_arch, abi.numbers[name]) == REFUSED, name
    for name in seccomp.SOCKET_CALLS:
        assert _verdict(insns, abi.audit_arch, abi.numbers[name]) == (seccomp.RET_ALLOW if sockets else REFUSED), name
    for nr in EVERYDAY[machine]:
        assert _verdict(insns, abi.audit_arch, nr) == seccomp.RET_ALLOW, nr


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
@pytest.mark.parametrize("sockets", [False, True])
def test_fallocate_is_refused_as_unsupported_where_the_disk_limit_is_counted(machine: str, sockets: bool) -> None:
    """Without the full level's tmpfs a fallocate would take any size before the disk count sees
    it; EOPNOTSUPP is what a file system without it says, on which posix_fallocate writes instead."""
    abi = seccomp.abi(machine)
    counted = seccomp.program(abi, sockets=sockets, fallocate=False)
    assert _verdict(counted, abi.audit_arch, abi.numbers["fallocate"]) == seccomp.RET_ERRNO | errno.EOPNOTSUPP
    assert _verdict(seccomp.program(abi, sockets=sockets), abi.audit_arch, abi.numbers["fallocate"]) == seccomp.RET_ALLOW
    for name in (*seccomp.KEYRING_CALLS, *([] if sockets else seccomp.SOCKET_CALLS)):
        assert _verdict(counted, abi.audit_arch, abi.numbers[name]) == REFUSED, name
    for nr in EVERYDAY[machine]:
        assert _verdict(counted, abi.audit_arch, nr) == seccomp.RET_ALLOW, nr


def test_the_aarch64_filter_uses_the_generic_syscall_numbers() -> None:
    """<asm-generic/unistd.h>: not x86-64's numbers, and AUDIT_ARCH_AARCH64 (EM_AARCH64 | 64-bit | LE)."""
    abi = seccomp.abi("aarch64")
    assert abi.audit_arch == 183 | 0x80000000 | 0x40000000
    assert abi.numbers == {
        "socket": 198, "io_uring_setup": 425, "add_key": 217, "request_key": 218, "keyctl": 219, "fallocate": 47,
    }  # fmt: skip
    insns = seccomp.program(abi, sockets=False)
    # x86-64's socket() number is an ordinary call on aarch64 (fsync there), and must stay allowed
    assert _verdict(insns, abi.audit_arch, 82) == seccomp.RET_ALLOW
    assert _verdict(insns, abi.audit_arch, 41) == seccomp.RET_ALLOW  # pivot_root: fails by itself, unprivileged


@pytest.mark.parametrize(
    ("machine", "other_abi"), [("x86_64", AUDIT_ARCH_I386), ("aarch64", AUDIT_ARCH_ARM), ("aarch64", ABIS["x86_64"].audit_arch)]
)
def test_calls_of_another_abi_are_refused_outright(machine: str, other_abi: int) -> None:
    insns = seccomp.program(seccomp.abi(machine), sockets=True)
    for nr in (0, 1, 41, 102, 359):  # 102 and 359: socketcall and socket on i386
        assert _verdict(insns, other_abi, nr) == seccomp.RET_ERRNO | errno.ENOSYS


def test_x32_calls_are_refused_on_x86_64() -> None:
    abi = seccomp.abi("x86_64")
    insns = seccomp.program(abi, sockets=True)
    assert _verdict(insns, abi.audit_arch, seccomp.X32_SYSCALL_BIT | 41) == REFUSED
    assert _verdict(insns, abi.audit_arch, seccomp.X32_SYSCALL_BIT | 0) == REFUSED


@pytest.mark.parametrize("machine", ["riscv64", "ppc64le", "armv7l", "s390x"])
def test_another_architecture_gets_a_refusal_that_says_why(machine: str) -> None:
    with pytest.raises(seccomp.Unsupported, match=f"x86_64 and aarch64, not of {machine}: programs cannot be confined"):
        seccomp.abi(machine)

