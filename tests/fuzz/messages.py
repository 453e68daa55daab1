"""Random LSP traffic for the fuzzer: valid and malformed JSON-RPC, drawn from a `random.Random`.

One generator serves both the hypothesis tests (which hand it `st.randoms()`, so hypothesis drives
and shrinks the choices) and the long benchmark run (a seeded `random.Random`). It keeps the
client's model of every open document's text, so after a sequence the server's view of each
document can be compared with a fresh parse of the text the editor would hold.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fuzz.wire import encode, frame

Json = Any

FRAGMENTS = [
    "#include <cuda_runtime.h>\n",
    "__global__ void k(float* x, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= 2.0f;\n}\n",
    "__device__ float sq(float v) { return v * v; }\n",
    "void launch(float* x, int n) {\n  k<<<(n + 255) / 256, 256>>>(x, n);\n  cudaDeviceSynchronize();\n}\n",
    "  __syncthreads();\n",
    "  v += __shfl_down_sync(0xffffffff, v, 16);\n",
    "cudaMalloc(&p, 4);\ncudaMemcpy(p, q, 4, cudaMemcpyHostToDevice);\n",
    "__shared__ float tile[256];\n",
    'asm volatile("bar.sync 0;");\n',
    "texture<float, 1> tex;\n",
    "#define FULL 0xffffffff\n",
    "int main() { return 0; }\n",
    "{",
    "}",
    "(",
    ")",
    ";",
    "<<<",
    ">>>",
    "/*",
    "*/",
    "//",
    '"',
    "'",
    "\\",
    "é",
    "日本語",
    "😀",
    "𝔘",
    "\t",
    "\r\n",
    "\n",
    " ",
    "\0",
    "\ufeff",
]
LANGUAGES = ["cuda", "cuda-cpp", "hip", "cpp", "c", "plaintext", ""]
ODD_VALUES: list[Json] = [None, True, 0, -1, 2**31, 2**63, 1.5, "", "x", [], {}, [1, "a"], {"a": None}, "\ud800"]
TARGETS = ["sm_90", "gfx1100", "gfx942", "sm_80", "bogus", "", "sm_90; rm -rf /", "../gfx1100"]
SETTING_VALUES: list[tuple[str, Json]] = [
    ("diagnostics.debounceMs", 0),
    ("diagnostics.debounceMs", -5),
    ("diagnostics.enabled", False),
    ("asm.targets", ["gfx1100"]),
    ("asm.targets", []),
    ("asm.targets", "sm_90"),
    ("asm.compileOnOpen", False),
    ("asm.hoverWaitMs", 10),
    ("asm.timeoutSeconds", 0.5),
    ("asm.extraArgs", {"clang": ["-O0"]}),
    ("target.arch", "gfx1100"),
    ("target.arch", 5),
    ("target.rocm", "5.2"),
    ("model.name", "no-such-model"),
    ("model.name", "/nonexistent/model.gguf"),
    ("model.backend", "openai"),
    ("model.endpoint", "http://127.0.0.1:9/v1"),  # the discard port: refused at once, never the network
    ("verification.enabled", False),
    ("verification.run", True),
    ("verification.watch", False),
    ("verification.maxQueued", 1),
    ("logLevel", "debug"),
    ("unknownKey", 1),
    ("asm", "not an object"),
]


@dataclass
class Doc:
    uri: str
    text: str
    version: int
    tracked: bool = True
    """False once a change the client model does not follow (out of range, malformed) was sent."""


@dataclass
class Generator:
    rng: random.Random
    root: Path
    docs: dict[str, Doc] = field(default_factory=dict)
    allow_huge: bool = True
    allow_shutdown: bool = False
    next_id: int = 100_000
    sent_ids: list[Json] = field(default_factory=list)
    """Ids of requests that must be answered (well-formed ids of requests that were sent)."""
    counts: dict[str, int] = field(default_factory=dict)
    methods: dict[Json, str] = field(default_factory=dict)
    """The method of each request id, for the report."""

    # ------------------------------------------------------------------ helpers
    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def _text(self, pieces: int | None = None) -> str:
        n = self.rng.randint(0, 12) if pieces is None else pieces
        return "".join(self.rng.choice(FRAGMENTS) for _ in range(n))

    def _uri(self) -> str:
        roll = self.rng.random()
        if self.docs and roll < 0.7:
            return self.rng.choice(list(self.docs))
        if roll < 0.85:
            return (self.root / f"doc{self.rng.randint(0, 5)}.cu").as_uri()
        return self.rng.choice(
            [
                "untitled:Untitled-1",
                (self.root / "sub" / ".." / ".." / "outside.cu").as_uri(),
                "file:///etc/passwd",
                "file:///nonexistent/dir/x.hip",
                "http://example.invalid/x.cu",
                "file://" + "a" * 3000 + ".cu",
                "",
                "not a uri",
            ]
        )

    def _position(self, doc: Doc | None, valid: bool) -> dict[str, int]:
        if doc is None or not valid:
            return {
                "line": self.rng.choice([0, 1, 5, 10**6, 2**31 - 1]),
                "character": self.rng.choice([0, 3, 80, 10**6, 2**31 - 1]),
            }
        return _utf16_position(doc.text, self.rng.randint(0, len(doc.text)))

    def _doc(self) -> Doc | None:
        return self.docs[self.rng.choice(list(self.docs))] if self.docs else None

    def _request(self, method: str, params: Json) -> Json:
        msg_id = self._id()
        self.sent_ids.append(msg_id)
        self.methods[msg_id] = method
        return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}

    @staticmethod
    def _notification(method: str, params: Json) -> Json:
        return {"jsonrpc": "2.0", "method": method, "params": params}

    # ------------------------------------------------------------------ messages
    def next(self) -> bytes:
        """One framed message (or a few malformed bytes) to send."""
        kinds = [
            ("open", 8),
            ("change", 30),
            ("bad_change", 4),
            ("full_change", 3),
            ("close", 3),
            ("save", 3),
            ("hover", 14),
            ("code_action", 8),
            ("symbols", 5),
            ("folding", 3),
            ("references", 3),
            ("resolve", 3),
            ("assembly", 2),
            ("opcode", 2),
            ("command", 3),
            ("model", 2),
            ("cancel", 5),
            ("config", 2),
            ("unknown", 2),
            ("mutated", 6),
            ("raw", 3),
            ("huge", 1 if self.allow_huge else 0),
            ("shutdown", 1 if self.allow_shutdown else 0),
        ]
        kinds = [(k, w) for k, w in kinds if w]  # hypothesis's Random may pick a zero weight
        return self.next_of(self.rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0])

    def next_of(self, kind: str) -> bytes:
        """One message of a kind ("open", "change", "hover", ...: the ``_m_`` methods)."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        result = getattr(self, f"_m_{kind}")()
        return result if isinstance(result, bytes) else frame(encode(result))

    def _m_open(self) -> Json:
        uri = self._uri()
        text = self._text()
        language = self.rng.choice(LANGUAGES) if self.rng.random() < 0.2 else "cuda"
        if language in ("cuda", "cuda-cpp", "hip") and uri.startswith("file:") and uri.endswith((".cu", ".hip")):
            self.docs[uri] = Doc(uri, text, 1)
        else:
            self.docs.pop(uri, None)  # the server may or may not keep it: not modelled
        item = {"uri": uri, "languageId": language, "version": 1, "text": text}
        return self._notification("textDocument/didOpen", {"textDocument": item})

    def _m_change(self) -> Json:
        doc = self._doc()
        if doc is None:
            return self._m_open()
        start = self.rng.randint(0, len(doc.text))
        end = min(len(doc.text), start + self.rng.choice([0, 0, 1, 2, 5, 20, 200]))
        new = self._text(self.rng.choice([0, 1, 1, 2]))
        # the range is of the text before the change
        change = {
            "range": {"start": _utf16_position(doc.text, start), "end": _utf16_position(doc.text, end)},
            "text": new,
        }
        doc.text = doc.text[:start] + new + doc.text[end:]
        doc.version += 1
        return self._notification(
            "textDocument/didChange",
            {"textDocument": {"uri": doc.uri, "version": doc.version}, "contentChanges": [change]},
        )

    def _m_bad_change(self) -> Json:
        doc = self._doc()
        uri = doc.uri if doc else self._uri()
        if doc is not None:
            doc.tracked = False
        start, end = self._position(None, False), self._position(None, False)
        version = self.rng.choice([0, -1, 1, 2**31 - 1, doc.version + 1 if doc else 1])
        change: Json = {"range": {"start": end, "end": start}, "text": self._text(1)}
        if self.rng.random() < 0.3:
            change = {"range": {"start": start}, "text": 5}
        return self._notification(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
        )

    def _m_full_change(self) -> Json:
        doc = self._doc()
        if doc is None:
            return self._m_open()
        doc.text = self._text()
        doc.version += 1
        doc.tracked = True  # the whole text again: the model knows it
        return self._notification(
            "textDocument/didChange",
            {"textDocument": {"uri": doc.uri, "version": doc.version}, "contentChanges": [{"text": doc.text}]},
        )

    def _m_close(self) -> Json:
        uri = self._uri()
        self.docs.pop(uri, None)
        return self._notification("textDocument/didClose", {"textDocument": {"uri": uri}})

    def _m_save(self) -> Json:
        return self._notification("textDocument/didSave", {"textDocument": {"uri": self._uri()}})

    def _text_position(self, method: str, **extra: Json) -> Json:
        doc = self._doc() if self.rng.random() < 0.9 else None
        uri = doc.uri if doc else self._uri()
        params = {"textDocument": {"uri": uri}, "position": self._position(doc, self.rng.random() < 0.85), **extra}
        return self._request(method, params)

    def _m_hover(self) -> Json:
        return self._text_position("textDocument/hover")

    def _m_references(self) -> Json:
        return self._text_position("textDocument/references", context={"includeDeclaration": self.rng.random() < 0.5})

    def _m_code_action(self) -> Json:
        doc = self._doc()
        uri = doc.uri if doc else self._uri()
        valid = doc is not None and self.rng.random() < 0.85
        a, b = self._position(doc, valid), self._position(doc, valid)
        only = self.rng.choice([None, ["source"], ["quickfix"], ["refactor"], ["bogus.kind"]])
        context: Json = {"diagnostics": []}
        if only is not None:
            context["only"] = only
        return self._request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": {"start": a, "end": b}, "context": context},
        )

    def _m_symbols(self) -> Json:
        return self._request("textDocument/documentSymbol", {"textDocument": {"uri": self._uri()}})

    def _m_folding(self) -> Json:
        return self._request("textDocument/foldingRange", {"textDocument": {"uri": self._uri()}})

    def _m_resolve(self) -> Json:
        doc = self._doc()
        data = {
            "uri": doc.uri if doc else self._uri(),
            "version": doc.version if doc and self.rng.random() < 0.5 else self.rng.randint(-1, 5),
            "action": self.rng.choice(["file", "kernel", "selection", "create", "overwrite", "bogus"]),
            "reverse": self.rng.random() < 0.2,
            "start": self.rng.choice([0, 5, 10**9, -3]),
            "end": self.rng.choice([0, 50, 10**9]),
        }
        if self.rng.random() < 0.2:
            data = self.rng.choice(ODD_VALUES)
        return self._request("codeAction/resolve", {"title": "Translate file to HIP", "data": data})

    def _m_assembly(self) -> Json:
        doc = self._doc()
        params: Json = {"uri": doc.uri if doc else self._uri()}
        if self.rng.random() < 0.7:
            params["targets"] = self.rng.sample(TARGETS, self.rng.randint(0, 2))
        if self.rng.random() < 0.3:
            params["line"] = self.rng.choice([0, 3, -1, 10**6])
        if self.rng.random() < 0.1:
            params = self.rng.choice(ODD_VALUES)
        return self._request("cass/assembly", params)

    def _m_opcode(self) -> Json:
        params = {
            "opcode": self.rng.choice(["BAR", "v_add_f32", "", "FFMA", "s_waitcnt"]),
            "target": self.rng.choice(TARGETS),
        }
        return self._request("cass/describeOpcode", params if self.rng.random() < 0.8 else self.rng.choice(ODD_VALUES))

    def _m_command(self) -> Json:
        command = self.rng.choice(["cass.verify", "cass.showAssembly", "cass.translateWithModel", "cass.nothing"])
        arguments = [self.rng.choice([self._uri(), *ODD_VALUES]) for _ in range(self.rng.randint(0, 3))]
        return self._request("workspace/executeCommand", {"command": command, "arguments": arguments})

    def _m_model(self) -> Json:
        doc = self._doc()
        params = {
            "uri": doc.uri if doc else self._uri(),
            "version": doc.version if doc else 1,
            "start": 0,
            "end": len(doc.text.encode("utf-8", "surrogatepass")) if doc else 10,
            "scope": self.rng.choice(["kernel", "selection", "file", "finding", "bogus"]),
        }
        return self._request("cass/translateWithModel", params)

    def _m_cancel(self) -> Json:
        target = (
            self.rng.choice(self.sent_ids[-5:])
            if self.sent_ids and self.rng.random() < 0.8
            else self.rng.choice(ODD_VALUES)
        )
        return self._notification("$/cancelRequest", {"id": target} if self.rng.random() < 0.9 else target)

    def _m_config(self) -> Json:
        cass: dict[str, Json] = {}
        for _ in range(self.rng.randint(1, 3)):
            key, value = self.rng.choice(SETTING_VALUES)
            node = cass
            *parents, last = key.split(".")
            for part in parents:
                child = node.get(part)
                node = node.setdefault(part, {}) if isinstance(child, dict) or child is None else {}
            node[last] = value
        settings = {"cass": cass} if self.rng.random() < 0.9 else self.rng.choice(ODD_VALUES)
        return self._notification("workspace/didChangeConfiguration", {"settings": settings})

    def _m_unknown(self) -> Json:
        if self.rng.random() < 0.5:
            return self._request(self.rng.choice(["cass/nothing", "textDocument/completion", "$/weird"]), {"x": 1})
        return self._notification(
            self.rng.choice(["$/setTrace", "cass/nothing", "$/progress", "window/logMessage"]), {"value": "verbose"}
        )

    def _m_mutated(self) -> Json:
        """A valid message with one value somewhere replaced by a value of another type."""
        message = json.loads(self.next_valid_json())
        _mutate(self.rng, message)
        for doc in self.docs.values():  # a mutated didChange/didOpen leaves the model unsure
            if message.get("method", "").startswith("textDocument/did"):
                doc.tracked = False
        return message

    def next_valid_json(self) -> bytes:
        kind = self.rng.choice(
            ["_m_hover", "_m_code_action", "_m_assembly", "_m_symbols", "_m_references", "_m_resolve"]
        )
        message = getattr(self, kind)()
        return encode(message)

    def _m_raw(self) -> bytes:
        choice = self.rng.randrange(7)
        if choice == 0:
            return frame(b"{not json")
        if choice == 1:
            return frame(self.rng.choice([b"[1,2,3]", b"42", b"null", b'"text"', b"{}"]))
        if choice == 2:
            msg_id = self._id()
            self.sent_ids.append(msg_id)  # a request without "jsonrpc": answered InvalidRequest
            return frame(json.dumps({"id": msg_id, "method": "textDocument/hover", "params": {}}).encode())
        if choice == 3:
            msg_id = self._id()
            self.sent_ids.append(msg_id)
            return frame(json.dumps({"jsonrpc": "1.0", "id": msg_id, "method": "shutdown"}).encode())
        if choice == 4:
            return frame(
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": self.rng.choice([None, 1.5, [1], {"a": 1}, True]),
                        "method": "textDocument/hover",
                    }
                ).encode()
            )
        if choice == 5:
            return frame(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": "\\ud800"}}')
        return frame(json.dumps({"jsonrpc": "2.0", "id": self._id(), "result": {"unexpected": True}}).encode())

    def _m_huge(self) -> Json:
        size = self.rng.choice([300_000, 1_500_000])
        uri = (self.root / f"huge{self.rng.randint(0, 2)}.cu").as_uri()
        text = self._text(20) * (size // 2000 + 1)
        self.docs[uri] = Doc(uri, text, 1)
        return self._notification(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}
        )

    def _m_shutdown(self) -> Json:
        return self._request("shutdown", None)


def _mutate(rng: random.Random, message: Json) -> None:
    node = message
    path: list[Json] = []
    while isinstance(node, dict | list) and node and rng.random() < 0.75:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        if isinstance(node, dict) and key in ("jsonrpc", "id", "method"):
            break
        path.append((node, key))
        node = node[key]
    if not path:
        message["params"] = rng.choice(ODD_VALUES)
        return
    parent, key = path[-1]
    parent[key] = rng.choice(ODD_VALUES)


def _utf16_position(text: str, index: int) -> dict[str, int]:
    """The LSP position of ``text[index]``: lines split at "\n" (as the server's), UTF-16 columns."""
    before = text[:index]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return {"line": line, "character": sum(2 if ord(c) > 0xFFFF else 1 for c in column)}
