; The CUDA constructs the document model answers questions about.
; This file (with the other .scm files here) is the only place that knows tree-sitter-cuda node names.

; Functions with their execution-space qualifiers (__global__, __device__, __host__; none = host).
(function_definition
  ["__global__" "__device__" "__host__"]* @function.space
  declarator: [(function_declarator declarator: (_) @function.name)
               (_ declarator: (function_declarator declarator: (_) @function.name))
               (_ declarator: (_ declarator: (function_declarator declarator: (_) @function.name)))]) @function

; Kernel launches: name<<<grid, block[, shmem[, stream]]>>>(args)
(call_expression
  function: [(identifier) @launch.name
             (qualified_identifier name: (identifier) @launch.name)
             (template_function name: (identifier) @launch.name)
             (qualified_identifier name: (template_function name: (identifier) @launch.name))
             (_)]
  (kernel_call_syntax) @launch.config
  arguments: (argument_list) @launch.args) @launch

(preproc_include path: (_) @include.path) @include

(gnu_asm_expression) @asm

(declaration (type_qualifier "__shared__")
  declarator: [(identifier) @shared.name
               (array_declarator declarator: (identifier) @shared.name)
               (init_declarator declarator: [(identifier) (array_declarator declarator: (identifier))] @shared.name)
               (_)]) @shared

(preproc_def name: (identifier) @macro.name) @macro
(preproc_function_def name: (identifier) @macro.name) @macro
