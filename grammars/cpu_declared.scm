; What the CPU runtime's own headers declare (cass_lsp/cpu/declared.py keeps the items that stand
; directly in a namespace's body or at file scope, not those of a class or a function).
[
  (struct_specifier name: (_) @declared body: (_))
  (class_specifier name: (_) @declared body: (_))
  (enum_specifier name: (_) @declared)
  (enumerator name: (_) @declared)
  (function_definition declarator: (function_declarator declarator: (_) @declared))
  (declaration declarator: (init_declarator declarator: (_) @declared))
  (type_definition declarator: (_) @declared)
] @item
