; PHP: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang. Variables are references by
; their variable_name node ("$x"), so they never mix with functions, classes
; and members of the same name ("x"); the name inside is ignored.

; ---- definitions
(namespace_definition name: (namespace_name) @name) @definition.namespace
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.class
(enum_declaration name: (name) @name) @definition.enum
(enum_case name: (name) @name) @definition.enum_member
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(property_declaration (property_element name: (variable_name (name) @name))) @definition.property
(property_promotion_parameter name: (variable_name (name) @name)) @definition.property
(const_declaration (const_element . (name) @name)) @definition.constant

; ---- references
(function_call_expression function: (name) @name) @reference.call
(function_call_expression function: (qualified_name (name) @name)) @reference.call
(object_creation_expression (name) @name) @reference.call
(object_creation_expression (qualified_name (name) @name)) @reference.call

(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call

(member_access_expression object: (_) @receiver name: (name) @name) @reference.member
(nullsafe_member_access_expression object: (_) @receiver name: (name) @name) @reference.member
(scoped_property_access_expression scope: (_) @receiver name: (variable_name) @name) @reference.member
(class_constant_access_expression . (_) @receiver . (name) @name .) @reference.member

(assignment_expression left: (member_access_expression object: (_) @receiver name: (name) @name)) @reference.write
(assignment_expression left: (scoped_property_access_expression scope: (_) @receiver name: (variable_name) @name)) @reference.write
(augmented_assignment_expression left: (member_access_expression object: (_) @receiver name: (name) @name)) @reference.write
(augmented_assignment_expression left: (variable_name) @name) @reference.write
(update_expression argument: (variable_name) @name) @reference.write
(update_expression argument: (member_access_expression object: (_) @receiver name: (name) @name)) @reference.write
(update_expression argument: (scoped_property_access_expression scope: (_) @receiver name: (variable_name) @name)) @reference.write
(augmented_assignment_expression left: (scoped_property_access_expression scope: (_) @receiver name: (variable_name) @name)) @reference.write

(variable_name (name) @ignore)
(property_element name: (variable_name) @ignore)
(namespace_name (name) @ignore)
(namespace_use_clause . (name) @name) @reference.import
(namespace_use_clause . (qualified_name (name) @name)) @reference.import
(namespace_use_clause alias: (name) @ignore)
(argument name: (name) @ignore)

; ---- imports: use (also grouped), require/include
(namespace_use_declaration) @import
(require_expression) @import
(require_once_expression) @import
(include_expression) @import
(include_once_expression) @import

; ---- scopes and local bindings
[
  (function_definition)
  (method_declaration)
  (anonymous_function)
  (arrow_function)
] @local.scope

; a binding's declared type: a parameter's (Foo $x, ?Foo $x) or the class
; its assignment constructs ($x = new Foo()), which the members read through
; it are looked up in; earlier patterns win, so these come first
(simple_parameter type: [(named_type) @local.type (optional_type (named_type) @local.type)] name: (variable_name) @local.definition)
(property_promotion_parameter type: [(named_type) @local.type (optional_type (named_type) @local.type)] name: (variable_name) @local.definition)
(assignment_expression left: (variable_name) @local.definition right: (object_creation_expression [(name) (qualified_name)] @local.type))
(simple_parameter name: (variable_name) @local.definition)
(variadic_parameter name: (variable_name) @local.definition)
(property_promotion_parameter name: (variable_name) @local.definition)
(anonymous_function_use_clause (variable_name) @local.definition)
(anonymous_function_use_clause (by_ref (variable_name) @local.definition))

(assignment_expression left: (variable_name) @local.definition)
(reference_assignment_expression left: (variable_name) @local.definition)
(list_literal (variable_name) @local.definition)
(list_literal (by_ref (variable_name) @local.definition))
(foreach_statement . (_) . (variable_name) @local.definition)
(foreach_statement . (_) . (by_ref (variable_name) @local.definition))
(foreach_statement . (_) . (pair (variable_name) @local.definition))
(foreach_statement . (_) . (pair (by_ref (variable_name) @local.definition)))
(foreach_statement . (_) . (list_literal (variable_name) @local.definition))
(catch_clause name: (variable_name) @local.definition)
(global_declaration (variable_name) @local.definition)
(static_variable_declaration name: (variable_name) @local.definition)

; ---- type relations (a trait used in a class body is embedded)
(base_clause [(name) (qualified_name)] @relation.extends)
(class_interface_clause [(name) (qualified_name)] @relation.implements)
(use_declaration [(name) (qualified_name)] @relation.embeds)
