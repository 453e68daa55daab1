"""The tree-sitter-cuda node type names the translator relies on, and nothing else.

The translator finds candidate tokens with a byte regex and looks each one up by position
(``descendant_for_byte_range``), which costs far less than a whole-tree query per construct; these
names are its only knowledge of the grammar.
"""

from __future__ import annotations

NAMES = frozenset({"identifier", "type_identifier", "namespace_identifier"})
FIELD_NAME = "field_identifier"
COMMENT = "comment"
STRINGS = frozenset({"string_literal", "string_content", "raw_string_literal", "raw_string_content",
                     "raw_string_delimiter", "char_literal", "character", "escape_sequence",
                     "concatenated_string", "system_lib_string"})
MACRO_BODY = "preproc_arg"
ERROR = "ERROR"

CALL = "call_expression"
ARGUMENTS = "argument_list"
KERNEL_CALL = "kernel_call_syntax"
TEMPLATE_FUNCTION = "template_function"
QUALIFIED = "qualified_identifier"
TEMPLATE_TYPE = "template_type"
USING = "using_declaration"
INCLUDE = "preproc_include"
IFDEF = "preproc_ifdef"
DEFINED = "preproc_defined"
DEFINE = "preproc_def"
MACRO_PARAMS = "preproc_params"
STORAGE_CLASS = "storage_class_specifier"
REGISTER = "register"
ASM = "gnu_asm_expression"
LAUNCH_BOUNDS = "launch_bounds"
FUNCTION_DEFINITION = "function_definition"
TRANSLATION_UNIT = "translation_unit"
BINARY = "binary_expression"
NUMBER = "number_literal"
PARENTHESIZED = "parenthesized_expression"
FOR = "for_statement"
UNARY = "unary_expression"
CAST = "cast_expression"
INIT_DECLARATOR = "init_declarator"
DECLARATION = "declaration"
DEVICE_FUNCTION_QUALIFIERS = frozenset({"__global__", "__device__"})
HOST_QUALIFIER = "__host__"

# Where a name is being declared (so the file defines it, and it is not the CUDA API):
# parent node type -> the fields that hold the declared name.
DECLARING_FIELDS: dict[str, tuple[str, ...]] = {
    "function_declarator": ("declarator",),
    "init_declarator": ("declarator",),
    "pointer_declarator": ("declarator",),
    "reference_declarator": ("declarator",),
    "array_declarator": ("declarator",),
    "parameter_declaration": ("declarator",),
    "optional_parameter_declaration": ("declarator",),
    "declaration": ("declarator",),
    "field_declaration": ("declarator",),
    "type_definition": ("declarator",),
    "enumerator": ("name",),
    "preproc_def": ("name",),
    "preproc_function_def": ("name",),
    "alias_declaration": ("name",),
    "namespace_definition": ("name",),
}
# Tag definitions declare their name only when they have a body (``struct X;`` uses it).
TAG_SPECIFIERS = frozenset({"struct_specifier", "class_specifier", "union_specifier", "enum_specifier"})
