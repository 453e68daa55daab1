"""A seccomp filter that refuses new sockets: the sandbox's network cut for every level.

A network namespace stops IP traffic but not a UNIX socket whose path the program can see (a
session bus, a container runtime's socket), and Landlock covers TCP only. Refusing socket(2) itself
(and io_uring, which can open sockets without it) closes all of these at once; socketpair(2) stays,
as it reaches nobody outside the program. System calls of other ABIs (i386's ``int 0x80``, x32)
are refused outright, or they would bypass the numbers checked here.

Standard library only, x86-64 numbers: :mod:`cass_lsp.verify.confine` applies it in the forked
program just before exec, after PR_SET_NO_NEW_PRIVS.
"""

from __future__ import annotations

import ctypes
import errno
import os

PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
SYS_SOCKET = 41
SYS_IO_URING_SETUP = 425
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
# Classic BPF opcodes: load a 32-bit word of seccomp_data, jump if (k ==|>= word), return k.
_LD_ABS, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
# Offsets in struct seccomp_data.
_NR, _ARCH = 0, 4

_libc = ctypes.CDLL(None, use_errno=True)


class _Insn(ctypes.Structure):
    _fields_ = (("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32))


class _Prog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Insn)))


def _program() -> list[tuple[int, int, int, int]]:
    deny = RET_ERRNO | errno.EACCES
    return [
        (_LD_ABS, 0, 0, _ARCH),
        (_JEQ, 1, 0, AUDIT_ARCH_X86_64),
        (_RET, 0, 0, RET_ERRNO | errno.ENOSYS),
        (_LD_ABS, 0, 0, _NR),
        (_JGE, 3, 0, X32_SYSCALL_BIT),
        (_JEQ, 2, 0, SYS_SOCKET),
        (_JEQ, 1, 0, SYS_IO_URING_SETUP),
        (_RET, 0, 0, RET_ALLOW),
        (_RET, 0, 0, deny),
    ]


def refuse_sockets() -> None:
    """Install the filter on the calling thread (inherited by children and kept across exec);
    socket() then fails with EACCES. Raises OSError."""
    insns = _program()
    table = (_Insn * len(insns))(*(_Insn(*insn) for insn in insns))
    prog = _Prog(len(insns), table)
    if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"seccomp: {os.strerror(err)}")
