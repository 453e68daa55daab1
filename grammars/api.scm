; Identifiers that may name CUDA API: calls, types, and other uses (enums, macros, constants).
; Kept apart from document.scm because it captures every identifier: it runs only when asked.
(call_expression function: (identifier) @api.call)
(type_identifier) @api.type
(identifier) @api.identifier
