"""The verification job kinds. Verification compiles (one nvcc, one clang per target) beside the
listings; one run at a time, so two programs never compete for the cores (or the GPU) they are
compared on. Their keys are made in cass_lsp.verify (stages and run), over every input and setting a
stage reads."""

from __future__ import annotations

from cass_lsp.asm.jobs import LISTING_FIELDS
from cass_lsp.core.jobs import JobKind

# What a verification reads: the pair's rule translation and compiles, and its own settings.
VERIFICATION_FIELDS = (*LISTING_FIELDS, "wave_size", "verification")
VERIFY_COMPILE = JobKind("verify-compile", concurrency=2, reads=())
VERIFY_RUN = JobKind("verify-run", concurrency=1, reads=())
# A report's diagnostics: each translation file's lines aligned with the original's rule translation
# (a translation and a diff), off the server's event loop; one slot per pair.
ALIGN = JobKind("verify-align", concurrency=1, reads=())
