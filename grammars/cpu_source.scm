; The CPU runtime's source preparation (cass_lsp/cpu/rewrite.py) and refusal scan (cass_lsp/cpu/refuse.py).

; kernel<<<grid, block, shmem, stream>>>(args)
(call_expression
  function: (_) @cpu.launch.kernel
  (kernel_call_syntax) @cpu.launch.config
  arguments: (argument_list) @cpu.launch.arguments) @cpu.launch

; Declarations whose storage class or qualifiers decide how __shared__ is lowered.
(declaration (storage_class_specifier) @cpu.storage) @cpu.declaration
(declaration (type_qualifier) @cpu.qualifier) @cpu.declaration

; Macro bodies are raw text to the grammar: launches and asm inside them are found by pattern.
(preproc_arg) @cpu.macro_body

; What refuse.py looks at.
(preproc_include path: (_) @cpu.include)
(gnu_asm_expression) @cpu.asm
(identifier) @cpu.name
(type_identifier) @cpu.name
(field_identifier) @cpu.name
(namespace_identifier) @cpu.name
