; Go: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

(source_file (const_declaration (const_spec (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec (identifier) @name) @definition.variable)))

(field_declaration name: (field_identifier) @name) @definition.field
(method_elem name: (field_identifier) @name) @definition.method

; ---- references
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (parenthesized_expression (identifier) @name)) @reference.call
(call_expression
  function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (index_expression operand: (identifier) @name)) @reference.call

(selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.member
(qualified_type package: (package_identifier) @receiver name: (type_identifier) @name) @reference.member
(keyed_element key: (literal_element (identifier) @name)) @reference.member

(assignment_statement
  left: (expression_list [(identifier) @name (selector_expression field: (field_identifier) @name)])) @reference.write
(inc_statement (identifier) @name) @reference.write
(dec_statement (identifier) @name) @reference.write

(package_clause (package_identifier) @ignore)

; ---- imports
(import_spec name: (_)? @alias path: (_) @source) @import

; ---- scopes and local bindings
[
  (function_declaration)
  (method_declaration)
  (func_literal)
  (type_spec)
  (type_alias)
  (block)
  (if_statement)
  (for_statement)
  (expression_switch_statement)
  (type_switch_statement)
  (select_statement)
  (expression_case)
  (type_case)
  (default_case)
  (communication_case)
] @local.scope

(parameter_declaration name: (identifier) @local.definition)
(variadic_parameter_declaration name: (identifier) @local.definition)
(type_parameter_declaration name: (identifier) @local.definition)
; func (l *List[T]) M(): the receiver's type arguments declare the method's type parameters
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (generic_type type_arguments: (type_arguments (type_elem (type_identifier) @local.definition)))
        (pointer_type (generic_type type_arguments: (type_arguments (type_elem (type_identifier) @local.definition))))
      ])))
; the names x := v, var x = v, range and type-switch declare are in scope
; after the statement's initialiser, which does not see them
(short_var_declaration left: (expression_list (identifier) @local.definition) right: (_) @local.init)
(range_clause left: (expression_list (identifier) @local.definition) right: (_) @local.init)
(type_switch_statement alias: (expression_list (identifier) @local.definition) value: (_) @local.init)
(var_spec name: (identifier) @local.definition value: (_) @local.init)
(receive_statement left: (expression_list (identifier) @local.definition))
(var_spec (identifier) @local.definition)
(const_spec (identifier) @local.definition)
(labeled_statement label: (label_name) @ignore)

; the type a local is declared with, where the source writes a named type: a
; parameter's or result's type, var x T, and one name initialised with one
; T{...}, &T{...}, new(T) or make(T)
(parameter_declaration
  name: (identifier) @local.definition
  type: [
    (type_identifier) (qualified_type) (generic_type)
    (pointer_type [(type_identifier) (qualified_type) (generic_type)])
  ] @local.type)
(var_spec
  name: (identifier) @local.definition
  type: [
    (type_identifier) (qualified_type) (generic_type)
    (pointer_type [(type_identifier) (qualified_type) (generic_type)])
  ] @local.type)
(var_spec
  . name: (identifier) @local.definition
  . value: (expression_list
    . [
      (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @local.type)
      (unary_expression
        operator: "&"
        operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @local.type))
      (call_expression
        function: (identifier)
        arguments: (argument_list . [(type_identifier) (qualified_type) (generic_type)] @local.type))
    ] .))
(short_var_declaration
  left: (expression_list . (identifier) @local.definition .)
  right: (expression_list
    . [
      (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @local.type)
      (unary_expression
        operator: "&"
        operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @local.type))
      (call_expression
        function: (identifier)
        arguments: (argument_list . [(type_identifier) (qualified_type) (generic_type)] @local.type))
    ] .))

; ---- type relations
(field_declaration_list
  (field_declaration
    !name
    type: [
      (type_identifier)
      (qualified_type)
      (pointer_type)
      (generic_type)
    ] @relation.embeds))
(interface_type (type_elem [(type_identifier) (qualified_type) (generic_type)] @relation.embeds))
