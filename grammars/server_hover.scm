; Where the API hover answers: names in code, and words in #define bodies (opaque text to the grammar).
; Comments and string literals are neither, so a CUDA name mentioned there gets no hover.
[(identifier) (type_identifier) (namespace_identifier)] @hover.name
(preproc_arg) @hover.macro_body
