"""The tree-sitter-cuda node type and field names Python code relies on, and nothing else.

The translator finds candidate tokens with a byte regex and looks each one up by position
(``descendant_for_byte_range``), which costs far less than a whole-tree query per construct; the
document model widens an edit's region to whole top-level items. These names are their only
knowledge of the grammar. No other Python module spells a node type: the rest of the grammar's
vocabulary is in the queries, ``grammars/*.scm``.
"""

from __future__ import annotations

from typing import Final

IDENTIFIER = "identifier"
TYPE_NAME = "type_identifier"
NAMESPACE_NAME = "namespace_identifier"
NAMES = frozenset({IDENTIFIER, TYPE_NAME, NAMESPACE_NAME})
MEMBER_NAME = "field_identifier"  # ``b`` in ``a.b``
COMMENT = "comment"
STRINGS = frozenset({"string_literal", "string_content", "raw_string_literal", "raw_string_content",
                     "raw_string_delimiter", "char_literal", "character", "escape_sequence",
                     "concatenated_string", "system_lib_string"})
MACRO_BODY = "preproc_arg"
ERROR = "ERROR"

CALL = "call_expression"
KERNEL_CALL = "kernel_call_syntax"
TEMPLATE_FUNCTION = "template_function"
QUALIFIED = "qualified_identifier"
TEMPLATE_TYPE = "template_type"
USING = "using_declaration"
INCLUDE = "preproc_include"
IFDEF = "preproc_ifdef"
IF = "preproc_if"
ELIF = "preproc_elif"
ELIFDEF = "preproc_elifdef"
ELSE = "preproc_else"
NAMESPACE = "namespace_definition"
TEMPLATE_DECLARATION = "template_declaration"
LINKAGE = "linkage_specification"  # extern "C" { ... }
DECLARATION_LIST = "declaration_list"
DEFINED = "preproc_defined"
MACRO_PARAMS = "preproc_params"
STORAGE_CLASS = "storage_class_specifier"
REGISTER = "register"
ASM = "gnu_asm_expression"
LAUNCH_BOUNDS = "launch_bounds"
FUNCTION_DEFINITION = "function_definition"
LAMBDA = "lambda_expression"
MACRO_DEFINITION = "preproc_def"
FUNCTION_MACRO_DEFINITION = "preproc_function_def"
TYPE_DEFINITION = "type_definition"
ALIAS = "alias_declaration"
DECLARATION = "declaration"
TRANSLATION_UNIT = "translation_unit"
ENUMERATOR_LIST = "enumerator_list"
BINARY = "binary_expression"
UNARY = "unary_expression"
NUMBER = "number_literal"
PARENTHESIZED = "parenthesized_expression"
FOR = "for_statement"
CAST = "cast_expression"
INIT_DECLARATOR = "init_declarator"
ASSIGNMENT = "assignment_expression"
FIELD_EXPRESSION = "field_expression"  # ``a.b``
FUNCTION_DECLARATOR = "function_declarator"
OPERATOR_NAME = "operator_name"  # ``operator-=``
POINTER_DECLARATOR = "pointer_declarator"
REFERENCE_DECLARATOR = "reference_declarator"
ARRAY_DECLARATOR = "array_declarator"
PARENTHESIZED_DECLARATOR = "parenthesized_declarator"  # ``(name)`` in ``T (name)(args)``
COMPOUND_STATEMENT = "compound_statement"  # a block: ``{ ... }``
HOST_QUALIFIER = "__host__"


class Field:
    """Field names, for ``Node.child_by_field_name``."""

    ARGUMENT: Final = "argument"
    ARGUMENTS: Final = "arguments"
    BODY: Final = "body"
    CONDITION: Final = "condition"
    DECLARATOR: Final = "declarator"
    FUNCTION: Final = "function"
    INITIALIZER: Final = "initializer"
    LEFT: Final = "left"
    NAME: Final = "name"
    OPERATOR: Final = "operator"
    PARAMETERS: Final = "parameters"
    RIGHT: Final = "right"
    SCOPE: Final = "scope"
    TYPE: Final = "type"
    VALUE: Final = "value"


# Where a name is being declared (so the file defines it, and it is not the CUDA API):
# parent node type -> the fields that hold the declared name.
DECLARING_FIELDS: dict[str, tuple[str, ...]] = {
    "function_declarator": (Field.DECLARATOR,),
    INIT_DECLARATOR: (Field.DECLARATOR,),
    "pointer_declarator": (Field.DECLARATOR,),
    "reference_declarator": (Field.DECLARATOR,),
    ARRAY_DECLARATOR: (Field.DECLARATOR,),
    "parameter_declaration": (Field.DECLARATOR,),
    "optional_parameter_declaration": (Field.DECLARATOR,),
    DECLARATION: (Field.DECLARATOR,),
    "field_declaration": (Field.DECLARATOR,),
    TYPE_DEFINITION: (Field.DECLARATOR,),
    "enumerator": (Field.NAME,),
    MACRO_DEFINITION: (Field.NAME,),
    FUNCTION_MACRO_DEFINITION: (Field.NAME,),
    ALIAS: (Field.NAME,),
    NAMESPACE: (Field.NAME,),
}
# Tag definitions declare their name only when they have a body (``struct X;`` uses it).
TAG_SPECIFIERS = frozenset({"struct_specifier", "class_specifier", "union_specifier", "enum_specifier"})
