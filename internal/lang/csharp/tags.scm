; C#: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang. Earlier patterns win when two
; give the same name node different kinds.

; ---- definitions
(class_declaration name: (identifier) @name) @definition.class
(record_declaration "struct" name: (identifier) @name) @definition.struct
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type

; a method whose declared result is a named or predefined type: Def.Type
(method_declaration
  returns: [(identifier) (qualified_name) (generic_name) (predefined_type) (nullable_type type: [(identifier) (qualified_name) (generic_name) (predefined_type)])] @local.type
  name: (identifier) @name) @definition.method
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
; fields and properties whose declared type is a named or predefined type (string): Def.Type
(property_declaration type: [(identifier) (qualified_name) (generic_name) (predefined_type) (nullable_type type: [(identifier) (qualified_name) (generic_name) (predefined_type)])] @local.type name: (identifier) @name) @definition.property
(property_declaration name: (identifier) @name) @definition.property
(event_declaration name: (identifier) @name) @definition.property
(field_declaration
  (variable_declaration
    type: [(identifier) (qualified_name) (generic_name) (predefined_type) (nullable_type type: [(identifier) (qualified_name) (generic_name) (predefined_type)])] @local.type
    (variable_declarator name: (identifier) @name))) @definition.field
(field_declaration
  (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(event_field_declaration
  (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(enum_member_declaration name: (identifier) @name) @definition.enum_member
; positional record parameters are the record's properties
(record_declaration
  (parameter_list (parameter name: (identifier) @name) @definition.property))

; a destructor's name is its type's
(destructor_declaration name: (identifier) @ignore)

; ---- references
(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name . (identifier) @name)) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: (_) @receiver
    name: [(identifier) @name (generic_name . (identifier) @name)])) @reference.call
; this.M() and base.M() (this and base are anonymous nodes): Refine names the receiver
(invocation_expression
  function: (member_access_expression
    name: [(identifier) @name (generic_name . (identifier) @name)])) @reference.call
(invocation_expression
  function: (conditional_access_expression
    condition: (_) @receiver
    (member_binding_expression name: [(identifier) @name (generic_name . (identifier) @name)]))) @reference.call
(invocation_expression
  function: (conditional_access_expression
    (member_binding_expression name: [(identifier) @name (generic_name . (identifier) @name)]))) @reference.call

; new T(), new N.T(), new T<X>(): a call of T
(object_creation_expression type: (identifier) @name) @reference.call
(object_creation_expression type: (generic_name . (identifier) @name)) @reference.call
(object_creation_expression
  type: (qualified_name
    qualifier: (_) @receiver
    name: [(identifier) @name (generic_name . (identifier) @name)])) @reference.call

(member_access_expression
  expression: (_) @receiver
  name: [(identifier) @name (generic_name . (identifier) @name)]) @reference.member
(member_access_expression
  name: [(identifier) @name (generic_name . (identifier) @name)]) @reference.member
(member_binding_expression name: [(identifier) @name (generic_name . (identifier) @name)]) @reference.member
(conditional_access_expression
  condition: (_) @receiver
  (member_binding_expression name: [(identifier) @name (generic_name . (identifier) @name)])) @reference.member
(qualified_name
  qualifier: (_) @receiver
  name: [(identifier) @name (generic_name . (identifier) @name)]) @reference.member
(alias_qualified_name alias: (_) @receiver name: [(identifier) @name (generic_name . (identifier) @name)]) @reference.member
; object initializers, anonymous types and named arguments name members and parameters
(initializer_expression
  (assignment_expression left: (identifier) @name)) @reference.member
(anonymous_object_creation_expression (identifier) @name . "=") @reference.member
(argument name: (identifier) @ignore)
; property patterns: { Length: > 3 } names a member of the matched type
(subpattern . (identifier) @name . (_)) @reference.member
(attribute_argument name: (identifier) @ignore)

(assignment_expression left: (identifier) @name) @reference.write
(assignment_expression left: (member_access_expression name: (identifier) @name)) @reference.write
(postfix_unary_expression (identifier) @name) @reference.write
(prefix_unary_expression (identifier) @name) @reference.write
(postfix_unary_expression (member_access_expression name: (identifier) @name)) @reference.write

(labeled_statement (identifier) @ignore)
(goto_statement (identifier) @ignore)
(accessor_declaration name: (identifier) @ignore)

; ---- imports (expanded by the Imports hook; their names are cleaned by Refine)
(using_directive) @import

; ---- scopes and local bindings
[
  (class_declaration)
  (record_declaration)
  (struct_declaration)
  (interface_declaration)
  (delegate_declaration)
  (method_declaration)
  (constructor_declaration)
  (local_function_statement)
  (lambda_expression)
  (anonymous_method_expression)
  (accessor_declaration)
  (block)
  (for_statement)
  (foreach_statement)
  (catch_clause)
  (using_statement)
  (switch_section)
  (switch_expression_arm)
  (query_expression)
] @local.scope

; locals and parameters whose type the source writes (T x; var x = new T()): Local.Type
; (string s and int n too: the extension methods of string and int reach them)
(parameter type: [(identifier) (qualified_name) (generic_name) (predefined_type) (nullable_type type: [(identifier) (qualified_name) (generic_name) (predefined_type)])] @local.type name: (identifier) @local.definition)
(local_declaration_statement
  (variable_declaration
    type: [(identifier) (qualified_name) (generic_name) (predefined_type) (nullable_type type: [(identifier) (qualified_name) (generic_name) (predefined_type)])] @local.type
    (variable_declarator name: (identifier) @local.definition)))
(local_declaration_statement
  (variable_declaration
    (variable_declarator
      name: (identifier) @local.definition
      (object_creation_expression type: [(identifier) (qualified_name) (generic_name) (nullable_type type: [(identifier) (qualified_name) (generic_name)])] @local.type))))
(foreach_statement
  type: [(identifier) (qualified_name) (generic_name) (nullable_type type: [(identifier) (qualified_name) (generic_name)])] @local.type
  left: (identifier) @local.definition)
(declaration_pattern
  type: [(identifier) (qualified_name) (generic_name) (nullable_type type: [(identifier) (qualified_name) (generic_name)])] @local.type
  name: (identifier) @local.definition)
(parameter name: (identifier) @local.definition)
(parameter_list name: (identifier) @local.definition) ; params T[] name
(lambda_expression parameters: (implicit_parameter) @local.definition)
(variable_declarator name: (identifier) @local.definition)
(variable_declarator (tuple_pattern name: (identifier) @local.definition))
(tuple_pattern (tuple_pattern name: (identifier) @local.definition))
(foreach_statement left: (identifier) @local.definition)
(foreach_statement left: (tuple_pattern name: (identifier) @local.definition))
(catch_declaration name: (identifier) @local.definition)
(declaration_expression name: (identifier) @local.definition)
(declaration_pattern name: (identifier) @local.definition)
(recursive_pattern name: (identifier) @local.definition)
(var_pattern name: (identifier) @local.definition)
(list_pattern name: (identifier) @local.definition)
(parenthesized_variable_designation name: (identifier) @local.definition)
(local_function_statement name: (identifier) @local.definition)
(type_parameter name: (identifier) @local.definition)
(from_clause name: (identifier) @local.definition)
(let_clause . (identifier) @local.definition)
(join_clause . (identifier) @local.definition)
(join_into_clause (identifier) @local.definition)
(query_expression (identifier) @local.definition)

; ---- type relations: syntax cannot tell a base class from an interface, so
; Refine makes the first base of a class or record extends and leaves the
; others implements; a struct implements its bases and an interface extends them.
(class_declaration
  (base_list [(identifier) (qualified_name) (alias_qualified_name) (generic_name)] @relation.implements))
(record_declaration
  (base_list [(identifier) (qualified_name) (alias_qualified_name) (generic_name)] @relation.implements))
(record_declaration
  (base_list (primary_constructor_base_type type: (_) @relation.implements)))
(struct_declaration
  (base_list [(identifier) (qualified_name) (alias_qualified_name) (generic_name)] @relation.implements))
(interface_declaration
  (base_list [(identifier) (qualified_name) (alias_qualified_name) (generic_name)] @relation.extends))
