; C++ additions, expanded like common.scm and placed before it: members of
; classes and templates must win over the plain patterns for the same name.

; ---- definitions
; <METHOD> is a function declarator naming a member (name, ~name, operator,
; also behind * or &); <MEMBER> the same for names only members have (so
; their patterns need no class body around them: members under #if too);
; <QUALIFIED> a function declarator naming A::B::m with @receiver on A::B::m
; (its @name also matches the inner B::m: Refine keeps the innermost).
; methods declared or defined in a class body (constructors and destructors
; too: Refine tells them apart)
(field_declaration_list
  (function_definition declarator: <METHOD>) @definition.method)
(field_declaration_list
  (declaration declarator: <METHOD>) @definition.method)
(field_declaration_list
  (template_declaration [(function_definition declarator: <METHOD>) (declaration declarator: <METHOD>) (field_declaration declarator: <METHOD>)]) @definition.method)
(field_declaration declarator: <METHOD>) @definition.method
(function_definition declarator: <MEMBER>) @definition.method

; methods defined out of their class: void A::m() {}; Refine turns the
; qualified receiver into a path (and a namespace-qualified name into a function)
(template_declaration (function_definition declarator: <QUALIFIED>)) @definition.method
(function_definition declarator: <QUALIFIED>) @definition.method

(template_declaration (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)] body: (_))) @definition.class
(template_declaration (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)] body: (_))) @definition.struct
(template_declaration (union_specifier name: (type_identifier) @name body: (_))) @definition.struct
(template_declaration (function_definition declarator: <FUNC @name>)) @definition.function
(template_declaration (declaration declarator: <FUNC @name>)) @definition.function
(template_declaration (alias_declaration name: (type_identifier) @name)) @definition.type
(template_declaration (concept_definition name: (identifier) @name)) @definition.type

(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)] body: (_)) @definition.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace
(alias_declaration name: (type_identifier) @name) @definition.type
(nested_namespace_specifier (namespace_identifier) @ignore)

; ---- references
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(call_expression
  function: (field_expression argument: (_) @receiver field: (template_method name: (field_identifier) @name))) @reference.call
(new_expression type: [(type_identifier) @name (template_type name: (type_identifier) @name)]) @reference.call
(field_initializer (field_identifier) @name) @reference.member

; ---- imports
(using_declaration) @import

; ---- scopes and local bindings
[
  (lambda_expression)
  (if_statement)
  (while_statement)
  (for_range_loop)
  (catch_clause)
  (template_declaration)
] @local.scope

(optional_parameter_declaration declarator: <VAR @local.definition>)
(variadic_parameter_declaration declarator: (reference_declarator (variadic_declarator (identifier) @local.definition)))
(for_range_loop declarator: <VAR @local.definition>)
(type_parameter_declaration (type_identifier) @local.definition)
(optional_type_parameter_declaration name: (type_identifier) @local.definition)
(variadic_type_parameter_declaration (type_identifier) @local.definition)

; ---- type relations
(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @relation.extends)
