; TypeScript (and TSX): the patterns of its own grammar. Query puts them after
; ecma/common.scm, which holds what TypeScript shares with JavaScript, and TSX
; adds ecma/jsx.scm. Capture names are documented in package lang.

; ---- definitions
(function_signature name: (identifier) @name) @definition.function

(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class

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

; ambient module-level variables (declare const x: T)
(ambient_declaration
  (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(ambient_declaration
  (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))

; ---- references
; the keys of an object literal that a declaration types are that type's
; members, read as the binding's: const c: Config = { a: 1, run() {} }
; reads c.a and c.run
(variable_declarator
  name: (identifier) @receiver
  type: (type_annotation)
  value: (object
    [(pair key: (property_identifier) @name)
     (method_definition name: (property_identifier) @name)])) @reference.binding
(nested_type_identifier module: (_) @receiver name: (type_identifier) @name) @reference.member
; members of type literals that are not definitions (parameter types)
(property_signature name: (property_identifier) @name) @reference.member
(method_signature name: (property_identifier) @name) @reference.member

; ---- imports
(import_require_clause (identifier) @ignore)

; ---- scopes and local bindings
[
  (function_signature)
  (method_signature)
  (abstract_method_signature)
  (call_signature)
  (construct_signature)
  (index_signature)
  (function_type)
  (constructor_type)
  (abstract_class_declaration)
  (interface_declaration)
  (type_alias_declaration)
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
(class name: (type_identifier) @local.definition)
(type_parameter name: (type_identifier) @local.definition)
(index_signature name: (identifier) @local.definition)

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
