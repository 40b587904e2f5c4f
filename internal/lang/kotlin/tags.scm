; Kotlin: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang. Earlier patterns win when two
; give the same name node different kinds.

; ---- definitions
(class_declaration "interface" name: (identifier) @name) @definition.interface
(class_declaration (modifiers (class_modifier "enum")) name: (identifier) @name) @definition.enum
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class

; a function records the type it declares it returns (Def.Type), which types
; what reads its result (f().m, val x = f(); x.m)
(class_body (function_declaration name: (identifier) @name (function_value_parameters) . [(user_type) @local.type (nullable_type (user_type) @local.type)]) @definition.method)
(class_body (function_declaration name: (identifier) @name) @definition.method)
(enum_class_body (function_declaration name: (identifier) @name) @definition.method)
(function_declaration name: (identifier) @name (function_value_parameters) . [(user_type) @local.type (nullable_type (user_type) @local.type)]) @definition.function
(function_declaration name: (identifier) @name) @definition.function

; a property records its type (Def.Type): the one it declares, else the class
; its initialiser constructs (val repo = Repo()); Refine drops a callee that is
; not a class name (val m = make())
(class_body (property_declaration (variable_declaration (identifier) @name [(user_type) @local.type (nullable_type (user_type) @local.type)])) @definition.property)
(class_body (property_declaration (variable_declaration (identifier) @name) (call_expression . (identifier) @local.type)) @definition.property)
(class_body (property_declaration (variable_declaration (identifier) @name) (as_expression (user_type) @local.type .)) @definition.property)
(class_body (property_declaration (variable_declaration (identifier) @name)) @definition.property)
(enum_class_body (property_declaration (variable_declaration (identifier) @name)) @definition.property)
(class_body (property_declaration (multi_variable_declaration (variable_declaration (identifier) @name))) @definition.property)
(source_file (property_declaration (variable_declaration (identifier) @name)) @definition.variable)
(source_file (property_declaration (multi_variable_declaration (variable_declaration (identifier) @name))) @definition.variable)
; constructor parameters declared val or var are properties
(class_parameter ["val" "var"] (identifier) @name [(user_type) @local.type (nullable_type (user_type) @local.type)]) @definition.property
(class_parameter ["val" "var"] (identifier) @name) @definition.property

(type_alias type: (identifier) @name) @definition.type
(enum_entry . (identifier) @name) @definition.enum_member

; ---- references
(call_expression . (identifier) @name) @reference.call
(call_expression
  . (navigation_expression . (_) @receiver (identifier) @name .)) @reference.call

(navigation_expression . (_) @receiver (identifier) @name .) @reference.member
(callable_reference (_) @receiver . (identifier) @name .) @reference.member
; named arguments name parameters of the callee
(value_argument . (identifier) @ignore . (_))

(assignment left: (identifier) @name) @reference.write
(assignment left: (navigation_expression (identifier) @name .)) @reference.write
; x++ and --x (the postfix form has no operator field in this grammar)
(unary_expression ["++" "--"] [(identifier) @name (navigation_expression (identifier) @name .)]) @reference.write
(unary_expression [(identifier) @name (navigation_expression (identifier) @name .)] ["++" "--"]) @reference.write

(label) @ignore
(this_expression (identifier) @ignore)
(super_expression (identifier) @ignore)

; ---- imports (expanded by the Imports hook; their names are cleaned by Refine)
(import) @import

; ---- scopes and local bindings
[
  (class_declaration)
  (object_declaration)
  (function_declaration)
  (secondary_constructor)
  (anonymous_initializer)
  (lambda_literal)
  (anonymous_function)
  (getter)
  (setter)
  (block)
  (for_statement)
  (catch_block)
  (when_entry)
] @local.scope

; a binding's declared type (Foo, Foo?, a.b.Foo<T>), else the class its
; initialiser constructs (val c = Counter(1)) or casts to (val c = x as
; Counter, x as? Counter), types the members read through
; it (p.greet() for p: Person); earlier patterns win, so these come first
; (Refine drops the type of a vararg parameter, an array, and a callee that
; is not a class name)
(parameter (identifier) @local.definition [(user_type) @local.type (nullable_type (user_type) @local.type)])
(class_parameter (identifier) @local.definition [(user_type) @local.type (nullable_type (user_type) @local.type)])
(property_declaration (variable_declaration (identifier) @local.definition [(user_type) @local.type (nullable_type (user_type) @local.type)]))
(property_declaration (variable_declaration (identifier) @local.definition) (call_expression . (identifier) @local.type))
(property_declaration (variable_declaration (identifier) @local.definition) (as_expression (user_type) @local.type .))
(property_declaration (variable_declaration (identifier) @local.definition) (parenthesized_expression (as_expression (user_type) @local.type .)))
(parameter (identifier) @local.definition)
(class_parameter (identifier) @local.definition)
(lambda_parameters (variable_declaration (identifier) @local.definition))
(lambda_parameters (multi_variable_declaration (variable_declaration (identifier) @local.definition)))
(property_declaration (variable_declaration (identifier) @local.definition))
(property_declaration (multi_variable_declaration (variable_declaration (identifier) @local.definition)))
(for_statement (variable_declaration (identifier) @local.definition))
(for_statement (multi_variable_declaration (variable_declaration (identifier) @local.definition)))
(when_subject (variable_declaration (identifier) @local.definition))
(catch_block . (identifier) @local.definition)
(setter . (identifier) @local.definition)
(type_parameter (identifier) @local.definition)

; ---- type relations: a supertype called with arguments is the superclass;
; the others are interfaces (an interface's supertypes are extended: Refine)
(class_declaration
  (delegation_specifiers
    (delegation_specifier (constructor_invocation (user_type) @relation.extends))))
(class_declaration
  (delegation_specifiers
    (delegation_specifier (user_type) @relation.implements)))
(class_declaration
  (delegation_specifiers
    (delegation_specifier (explicit_delegation (user_type) @relation.implements))))
(object_declaration
  (delegation_specifiers
    (delegation_specifier (constructor_invocation (user_type) @relation.extends))))
(object_declaration
  (delegation_specifiers
    (delegation_specifier (user_type) @relation.implements)))
(object_declaration
  (delegation_specifiers
    (delegation_specifier (explicit_delegation (user_type) @relation.implements))))
