; Java: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang. Earlier patterns win when two
; give the same name node different kinds.

; ---- definitions
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

; a method whose declared result is a class type: Def.Type
(method_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type
  name: (identifier) @name) @definition.method
(method_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor

; a field whose declared type is a class type: Def.Type
(field_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type
  declarator: (variable_declarator name: (identifier) @name)) @definition.field
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
(enum_constant name: (identifier) @name) @definition.enum_member
; record components are the record's fields (and accessors)
(record_declaration
  parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.field))

; ---- references
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(method_invocation !object name: (identifier) @name) @reference.call

; new T(), new a.b.T(), new T<X>(): a call of T
(object_creation_expression type: (type_identifier) @name) @reference.call
(object_creation_expression type: (generic_type . (type_identifier) @name)) @reference.call
(object_creation_expression
  type: (scoped_type_identifier . (_) @receiver (type_identifier) @name .)) @reference.call
(object_creation_expression
  type: (generic_type (scoped_type_identifier . (_) @receiver (type_identifier) @name .))) @reference.call

(field_access object: (_) @receiver field: (identifier) @name) @reference.member
(scoped_identifier scope: (_) @receiver name: (identifier) @name) @reference.member
(scoped_type_identifier . (_) @receiver (type_identifier) @name .) @reference.member
(method_reference . (_) @receiver (identifier) @name .) @reference.member
; annotation arguments name elements of the annotation type
(annotation
  name: (_) @receiver
  arguments: (annotation_argument_list (element_value_pair key: (identifier) @name))) @reference.member

(assignment_expression left: (identifier) @name) @reference.write
(assignment_expression left: (field_access field: (identifier) @name)) @reference.write
(update_expression (identifier) @name) @reference.write
(update_expression (field_access field: (identifier) @name)) @reference.write

(labeled_statement (identifier) @ignore)
(break_statement (identifier) @ignore)
(continue_statement (identifier) @ignore)

; ---- imports (expanded by the Imports hook; their names are cleaned by Refine)
(import_declaration) @import

; ---- scopes and local bindings
[
  (class_declaration)
  (record_declaration)
  (interface_declaration)
  (enum_declaration)
  (method_declaration)
  (constructor_declaration)
  (compact_constructor_declaration)
  (lambda_expression)
  (block)
  (constructor_body)
  (for_statement)
  (enhanced_for_statement)
  (catch_clause)
  (try_with_resources_statement)
  (switch_block_statement_group)
  (switch_rule)
] @local.scope

; locals and parameters whose type the source writes (T x; var x = new T()): Local.Type
(formal_parameter
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type
  name: (identifier) @local.definition)
(local_variable_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type
  declarator: (variable_declarator name: (identifier) @local.definition))
(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @local.definition
    value: (object_creation_expression
      type: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type)))
(enhanced_for_statement
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type
  name: (identifier) @local.definition)
(resource
  type: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type
  name: (identifier) @local.definition)
(instanceof_expression
  right: [(type_identifier) (scoped_type_identifier) (generic_type)] @local.type
  name: (identifier) @local.definition)
(formal_parameter name: (identifier) @local.definition)
(spread_parameter (variable_declarator name: (identifier) @local.definition))
(lambda_expression parameters: (identifier) @local.definition)
(inferred_parameters (identifier) @local.definition)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.definition))
(enhanced_for_statement name: (identifier) @local.definition)
(catch_formal_parameter name: (identifier) @local.definition)
(resource name: (identifier) @local.definition)
(instanceof_expression name: (identifier) @local.definition)
(type_pattern (identifier) @local.definition)
(record_pattern_component (identifier) @local.definition)
(type_parameter . (type_identifier) @local.definition)

; ---- type relations
(superclass [(type_identifier) (scoped_type_identifier)] @relation.extends)
(superclass (generic_type . [(type_identifier) (scoped_type_identifier)] @relation.extends))
(super_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @relation.implements))
(super_interfaces (type_list (generic_type . [(type_identifier) (scoped_type_identifier)] @relation.implements)))
(extends_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @relation.extends))
(extends_interfaces (type_list (generic_type . [(type_identifier) (scoped_type_identifier)] @relation.extends)))
