"""The seccomp filter of every sandboxed program: no new sockets, no kernel keyrings.

A network namespace stops IP traffic but not a UNIX socket whose path the program can see (a
session bus, a container runtime's socket), and Landlock covers TCP only. Refusing socket(2) itself
(and io_uring, which can open sockets without it) closes all of these at once; socketpair(2) stays,
as it reaches nobody outside the program. A run allowed the network (the user's own remote
command) keeps sockets.

The kernel keyrings are no file and no namespace confines them: a key reached through the session
keyring the launcher inherited, or through the keyrings of the program's uid, would be read or
planted to outlive the run. The launcher joins a fresh session keyring, and the filter refuses
``add_key``, ``request_key`` and ``keyctl`` at every level, network or not.

System calls of other ABIs (i386's ``int 0x80`` and x32 on x86-64, 32-bit ARM on aarch64) are
refused outright, or they would bypass the numbers checked here. Syscall numbers differ per
architecture: only those in :data:`ABIS` get a filter, and on any other :func:`abi` raises
:class:`Unsupported`, saying so, rather than install a filter that matches nothing.

Standard library only: :mod:`cass_lsp.verify.confine` applies it in the forked program just before
exec, after PR_SET_NO_NEW_PRIVS.
"""

from __future__ import annotations

import ctypes
import dataclasses
import errno
import os

PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
X32_SYSCALL_BIT = 0x40000000
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
# Classic BPF opcodes: load a 32-bit word of seccomp_data, jump if (k ==|>= word), return k.
LD_ABS, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
# Offsets in struct seccomp_data.
NR, ARCH = 0, 4
KEYRING_CALLS = ("add_key", "request_key", "keyctl")
SOCKET_CALLS = ("socket", "io_uring_setup")
FALLOCATE = "fallocate"


@dataclasses.dataclass(frozen=True)
class Abi:
    machine: str
    audit_arch: int  # AUDIT_ARCH_* of <linux/audit.h>, what seccomp_data.arch holds
    numbers: dict[str, int]
    x32: bool = False  # numbers with X32_SYSCALL_BIT set are another ABI under the same audit arch


ABIS = {
    abi.machine: abi
    for abi in (
        # <asm/unistd_64.h>
        Abi(
            "x86_64",
            0xC000003E,
            {"socket": 41, "io_uring_setup": 425, "add_key": 248, "request_key": 249, "keyctl": 250, "fallocate": 285},
            x32=True,
        ),
        # <asm-generic/unistd.h>, which aarch64 uses
        Abi(
            "aarch64",
            0xC00000B7,
            {"socket": 198, "io_uring_setup": 425, "add_key": 217, "request_key": 218, "keyctl": 219, "fallocate": 47},
        ),
    )
}


class Unsupported(RuntimeError):
    """No filter for this architecture: confined runs are refused here."""


def abi(machine: str | None = None) -> Abi:
    """The ABI of ``machine`` (``uname -m``; this one by default); raises Unsupported for one
    whose syscall numbers this module does not know."""
    machine = machine or os.uname().machine
    if machine not in ABIS:
        raise Unsupported(
            f"the seccomp filter knows the system calls of {' and '.join(ABIS)}, not of {machine}:"
            " programs cannot be confined on this architecture"
        )
    return ABIS[machine]


def program(target: Abi, *, sockets: bool, fallocate: bool = True) -> list[tuple[int, int, int, int]]:
    """The filter's instructions: the keyring calls refused (EACCES), the socket calls too unless
    ``sockets``, and ``fallocate`` unless allowed (EOPNOTSUPP, what a file system without it says:
    posix_fallocate then writes the blocks); everything else allowed."""
    refused = [target.numbers[name] for name in (*KEYRING_CALLS, *([] if sockets else SOCKET_CALLS))]
    checks = [(JGE, X32_SYSCALL_BIT)] if target.x32 else []
    checks += [(JEQ, number) for number in refused]
    insns = [(LD_ABS, 0, 0, ARCH), (JEQ, 1, 0, target.audit_arch), (RET, 0, 0, RET_ERRNO | errno.ENOSYS), (LD_ABS, 0, 0, NR)]
    # Each match jumps over the checks after it and the allow, to its refusal at the end.
    insns += [(code, len(checks) - i + (not fallocate), 0, k) for i, (code, k) in enumerate(checks)]
    if not fallocate:
        insns.append((JEQ, 2, 0, target.numbers[FALLOCATE]))
    refusals = [(RET, 0, 0, RET_ERRNO | errno.EACCES)]
    if not fallocate:
        refusals.append((RET, 0, 0, RET_ERRNO | errno.EOPNOTSUPP))
    return [*insns, (RET, 0, 0, RET_ALLOW), *refusals]


_libc = ctypes.CDLL(None, use_errno=True)


class _Insn(ctypes.Structure):
    _fields_ = (("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32))


class _Prog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Insn)))


def install(*, sockets: bool, fallocate: bool = True) -> None:
    """Install the filter of :func:`program` on the calling thread (inherited by children and kept
    across exec). Raises Unsupported or OSError."""
    insns = program(abi(), sockets=sockets, fallocate=fallocate)
    table = (_Insn * len(insns))(*(_Insn(*insn) for insn in insns))
    prog = _Prog(len(insns), table)
    if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"seccomp: {os.strerror(err)}")
