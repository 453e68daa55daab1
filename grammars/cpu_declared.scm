; The names a namespace of the CPU runtime's own headers declares directly (cass_lsp/cpu/declared.py
; reads what the runtime's CUB and Thrust policies offer from them); a nested namespace is a scope of
; its own.
(namespace_definition
  body: (declaration_list
    [(struct_specifier name: (_) @declared body: (_))
     (class_specifier name: (_) @declared body: (_))
     (enum_specifier name: (_) @declared)
     (enum_specifier body: (enumerator_list (enumerator name: (_) @declared)))
     (function_definition declarator: (function_declarator declarator: (_) @declared))
     (declaration declarator: (init_declarator declarator: (_) @declared))
     (template_declaration
       [(struct_specifier name: (_) @declared body: (_))
        (class_specifier name: (_) @declared body: (_))
        (function_definition declarator: (function_declarator declarator: (_) @declared))])])) @scope
