; TypeScript (and TSX, which adds jsx.scm): definitions, references, imports,
; scopes and type relations. Capture names are documented in package lang.
; Earlier patterns win when two give the same name node different kinds.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function

(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method)
; methods of an object literal assigned to a variable: const api = { get() {} }
(variable_declarator
  value: (object
    (method_definition
      name: [(property_identifier) (computed_property_name)] @name) @definition.method))
; other object-literal methods are keys like those of pairs below
(object (method_definition name: (property_identifier) @name) @reference.member)
(class_body
  (method_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method)
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method
; a property whose declared type is a named type, or that is initialised
; with new T(): Def.Type
(public_field_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type)) @definition.property
; T | null and T | undefined stand for T
(public_field_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  type: (type_annotation (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @local.type (literal_type [(null) (undefined)])))) @definition.property
(public_field_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  value: (new_expression constructor: [(identifier) (member_expression)] @local.type)) @definition.property
(public_field_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.property
; constructor parameter properties (constructor(private readonly users: Users))
; are properties of the class (Refine moves them out of the constructor)
(formal_parameters
  (required_parameter (accessibility_modifier) pattern: (identifier) @name type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type)) @definition.property)
(formal_parameters
  (required_parameter "readonly" pattern: (identifier) @name type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type)) @definition.property)
(formal_parameters
  (optional_parameter (accessibility_modifier) pattern: (identifier) @name type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type)) @definition.property)
(formal_parameters
  (optional_parameter "readonly" pattern: (identifier) @name type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type)) @definition.property)
(formal_parameters (required_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property)
(formal_parameters (required_parameter "readonly" pattern: (identifier) @name) @definition.property)
(formal_parameters (optional_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property)
(formal_parameters (optional_parameter "readonly" pattern: (identifier) @name) @definition.property)

(interface_declaration name: (type_identifier) @name) @definition.interface
(interface_body (property_signature name: (_) @name) @definition.property)
(interface_body (method_signature name: (_) @name) @definition.method)
(type_alias_declaration name: (type_identifier) @name) @definition.type
(type_alias_declaration
  value: (object_type (property_signature name: (_) @name) @definition.property))
(type_alias_declaration
  value: (object_type (method_signature name: (_) @name) @definition.method))

(enum_declaration name: (identifier) @name) @definition.enum
(enum_body name: (property_identifier) @name @definition.enum_member)
(enum_body name: (string (string_fragment) @name) @definition.enum_member)
(enum_assignment name: (property_identifier) @name) @definition.enum_member
(enum_assignment name: (string (string_fragment) @name)) @definition.enum_member

(internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace
(module name: (identifier) @name) @definition.namespace
(module name: (string (string_fragment) @name)) @definition.namespace
(nested_identifier object: (identifier) @ignore)
(nested_identifier property: (property_identifier) @ignore)

; Module-level variables: in the program, exported (also from namespaces) or
; ambient. A function or class value makes the variable a function or class.
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
(program
  (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
(export_statement
  declaration: (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
(program
  (lexical_declaration
    (variable_declarator name: (identifier) @name value: (class)) @definition.class))
(program
  (variable_declaration
    (variable_declarator name: (identifier) @name value: (class)) @definition.class))
(export_statement
  declaration: (lexical_declaration
    (variable_declarator name: (identifier) @name value: (class)) @definition.class))

(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement
  declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement
  declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(ambient_declaration
  (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(ambient_declaration
  (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))

; Destructuring at module level: const {a, b: c} = x; const [d, e] = y
(program
  (lexical_declaration
    (variable_declarator
      name: (object_pattern
        [(shorthand_property_identifier_pattern) @name
         (pair_pattern value: (identifier) @name)
         (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name)])) @definition.variable))
(program
  (lexical_declaration
    (variable_declarator name: (array_pattern (identifier) @name)) @definition.variable))
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (object_pattern
        [(shorthand_property_identifier_pattern) @name
         (pair_pattern value: (identifier) @name)])) @definition.variable))
(export_statement
  declaration: (lexical_declaration
    (variable_declarator name: (array_pattern (identifier) @name)) @definition.variable))

; ---- references
(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression
  constructor: (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)) @reference.call

(member_expression
  object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @name) @reference.member
(nested_type_identifier module: (_) @receiver name: (type_identifier) @name) @reference.member

; Keys of object literals and destructuring patterns name members of some
; value the query does not know.
(pair key: (property_identifier) @name) @reference.member
(pair_pattern key: (property_identifier) @name) @reference.member
; members of type literals that are not definitions (parameter types)
(property_signature name: (property_identifier) @name) @reference.member
(method_signature name: (property_identifier) @name) @reference.member

(assignment_expression
  left: [(identifier) @name (member_expression property: (_) @name)]) @reference.write
(augmented_assignment_expression
  left: [(identifier) @name (member_expression property: (_) @name)]) @reference.write
(update_expression
  argument: [(identifier) @name (member_expression property: (_) @name)]) @reference.write

; The names an export clause gives to the outside are not references. The
; name a re-export takes from its source module is one: a reference with role
; import, bound to the import the Imports hook reports for the specifier.
(export_specifier alias: (_) @ignore)
(export_statement
  (export_clause (export_specifier name: (identifier) @name) @reference.import)
  source: (_))
(export_statement
  (export_clause (export_specifier name: (string) @ignore))
  source: (_))
(namespace_export (_) @ignore)

; ---- imports (expanded by the Imports hook)
(import_statement) @import
(export_statement source: (_)) @import
(variable_declarator
  value: [
    (call_expression function: (identifier) arguments: (arguments . (string) .))
    (member_expression
      object: (call_expression function: (identifier) arguments: (arguments . (string) .)))
  ]) @import
(expression_statement
  (call_expression function: (identifier) arguments: (arguments . (string) .)) @import)
(call_expression function: (import) arguments: (arguments . (string))) @import

(import_clause (identifier) @ignore)
; the imported name of a named import is a reference to what it imports (role
; import); the local alias it may bind is not
(import_specifier name: (identifier) @name) @reference.import
(import_specifier alias: (_) @ignore)
(namespace_import (identifier) @ignore)
(import_require_clause (identifier) @ignore)
(import_attribute (object (pair key: (_) @ignore)))

; ---- scopes and local bindings
[
  (function_declaration)
  (generator_function_declaration)
  (function_expression)
  (generator_function)
  (arrow_function)
  (method_definition)
  (function_signature)
  (method_signature)
  (abstract_method_signature)
  (call_signature)
  (construct_signature)
  (index_signature)
  (function_type)
  (constructor_type)
  (class_declaration)
  (abstract_class_declaration)
  (class)
  (class_body)
  (interface_declaration)
  (type_alias_declaration)
  (statement_block)
  (for_statement)
  (for_in_statement)
  (catch_clause)
  (switch_body)
] @local.scope

; locals and parameters whose type the source writes (x: T; x = new T()): Local.Type
(required_parameter pattern: (identifier) @local.definition type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type))
; function (this: T): this is a T
(required_parameter pattern: (this) @local.definition type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type))
(required_parameter pattern: (identifier) @local.definition type: (type_annotation (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @local.type (literal_type [(null) (undefined)]))))
(optional_parameter pattern: (identifier) @local.definition type: (type_annotation (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @local.type (literal_type [(null) (undefined)]))))
(variable_declarator name: (identifier) @local.definition type: (type_annotation (union_type [(type_identifier) (nested_type_identifier) (generic_type)] @local.type (literal_type [(null) (undefined)]))))
(optional_parameter pattern: (identifier) @local.definition type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type))
(variable_declarator name: (identifier) @local.definition type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @local.type))
(variable_declarator
  name: (identifier) @local.definition
  value: (new_expression constructor: [(identifier) (member_expression)] @local.type))
(required_parameter pattern: (identifier) @local.definition)
(optional_parameter pattern: (identifier) @local.definition)
(arrow_function parameter: (identifier) @local.definition)
(variable_declarator name: (identifier) @local.definition)
(catch_clause parameter: (identifier) @local.definition)
(for_in_statement kind: _ left: (identifier) @local.definition)
(function_expression name: (identifier) @local.definition)
(class name: (type_identifier) @local.definition)
(type_parameter name: (type_identifier) @local.definition)
(index_signature name: (identifier) @local.definition)

; destructuring patterns bind their identifiers wherever they appear
(object_pattern (shorthand_property_identifier_pattern) @local.definition)
(object_assignment_pattern left: (shorthand_property_identifier_pattern) @local.definition)
(pair_pattern value: (identifier) @local.definition)
(array_pattern (identifier) @local.definition)
(rest_pattern (identifier) @local.definition)
(assignment_pattern left: (identifier) @local.definition)

; ---- type relations
(class_heritage
  (extends_clause value: [(identifier) (member_expression)] @relation.extends))
(class_heritage
  (implements_clause
    [(type_identifier) (nested_type_identifier)] @relation.implements))
(class_heritage
  (implements_clause
    (generic_type name: [(type_identifier) (nested_type_identifier)] @relation.implements)))
(extends_type_clause
  type: [(type_identifier) (nested_type_identifier)] @relation.extends)
(extends_type_clause
  type: (generic_type name: [(type_identifier) (nested_type_identifier)] @relation.extends))

; ---- dynamic sites
(call_expression function: (subscript_expression)) @dynamic.subscript_call
