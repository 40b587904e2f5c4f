; Python: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang. When two patterns define the
; same name node the earlier pattern wins, so methods come before functions.

; ---- definitions
(class_definition
  body: (block
    (function_definition name: (identifier) @name) @definition.method))
(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition name: (identifier) @name) @definition.method)))

; methods and class attributes inside if/try blocks of a class body (and their
; else/elif/except clauses); !name keeps nested function and class bodies out
(class_definition
  body: (block
    [(_ !name (block (function_definition name: (identifier) @name) @definition.method))
     (_ !name (_ !name (block (function_definition name: (identifier) @name) @definition.method)))]))
(class_definition
  body: (block
    [(_ !name (block (decorated_definition definition: (function_definition name: (identifier) @name) @definition.method)))
     (_ !name (_ !name (block (decorated_definition definition: (function_definition name: (identifier) @name) @definition.method))))]))

(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

; class attributes assigned in the class body
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))
(class_definition
  body: (block
    (expression_statement
      (assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)]) @definition.field)))
(class_definition
  body: (block
    (expression_statement
      (assignment right: (assignment left: (identifier) @name)) @definition.field)))
(class_definition
  body: (block
    [(_ !name (block (expression_statement (assignment left: (identifier) @name) @definition.field)))
     (_ !name (_ !name (block (expression_statement (assignment left: (identifier) @name) @definition.field))))]))

; module-level assignments, also inside module-level if/for/while/try/with
; statements and their else/elif/except/finally clauses (!name keeps function
; and class bodies out)
(module
  (expression_statement
    (assignment
      left: [(identifier) @name (pattern_list (identifier) @name) (tuple_pattern (identifier) @name)]) @definition.variable))
(module
  (expression_statement
    (assignment right: (assignment left: (identifier) @name)) @definition.variable))
(module
  (expression_statement
    (assignment right: (assignment right: (assignment left: (identifier) @name))) @definition.variable))
(module (_ !name (block (expression_statement (assignment left: (identifier) @name) @definition.variable))))
(module (_ !name (_ !name (block (expression_statement (assignment left: (identifier) @name) @definition.variable)))))
(module (type_alias_statement left: (type (identifier) @name)) @definition.type)

; ---- references
(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call

(attribute object: (_) @receiver attribute: (identifier) @name) @reference.member

(assignment left: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.write
(assignment
  left: [(pattern_list (attribute object: (_) @receiver attribute: (identifier) @name))
         (tuple_pattern (attribute object: (_) @receiver attribute: (identifier) @name))]) @reference.write
(augmented_assignment left: (identifier) @name) @reference.write
(augmented_assignment left: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.write
(for_statement left: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.write

; a.B in match patterns: dotted names rather than attributes
(class_pattern (dotted_name (identifier) @receiver . (identifier) @name) @reference.member)
(case_pattern (dotted_name (identifier) @receiver . (identifier) @name) @reference.member)

; keyword argument names are parameter names of the callee, not variables
(keyword_argument name: (identifier) @ignore)
(keyword_pattern . (identifier) @ignore)

; names inside import statements are reported as imports (Language.Imports);
; the name a from-import takes from its module is also a reference to it (role
; import, bound to that import), the alias it binds is not
(import_statement name: (dotted_name (identifier) @ignore))
(import_statement name: (aliased_import name: (dotted_name (identifier) @ignore) alias: (identifier) @ignore))
(import_from_statement module_name: (dotted_name (identifier) @ignore))
(import_from_statement module_name: (relative_import (dotted_name (identifier) @ignore)))
(import_from_statement name: (dotted_name . (identifier) @name .) @reference.import)
(import_from_statement
  name: (aliased_import name: (dotted_name . (identifier) @name .) alias: (identifier) @ignore) @reference.import)
(import_from_statement name: (dotted_name (identifier) @ignore (identifier)))
(import_from_statement name: (dotted_name (identifier) (identifier) @ignore))
(import_from_statement name: (aliased_import name: (dotted_name (identifier) @ignore (identifier))))
(import_from_statement name: (aliased_import name: (dotted_name (identifier) (identifier) @ignore)))
(future_import_statement name: (dotted_name (identifier) @ignore))
(future_import_statement name: (aliased_import name: (dotted_name (identifier) @ignore) alias: (identifier) @ignore))

; ---- imports
(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import

; ---- scopes and local bindings
[
  (function_definition)
  (lambda)
  (class_definition)
  (list_comprehension)
  (set_comprehension)
  (dictionary_comprehension)
  (generator_expression)
] @local.scope

; parameters; a parameter annotated with a class name (s: Session, s: models.Session)
; and a variable assigned a call of one (x = X(...)) have that type (Local.Type),
; which the linker uses only when the name resolves to a class
(typed_parameter (identifier) @local.definition type: (type [(identifier) (attribute)] @local.type))
(typed_default_parameter name: (identifier) @local.definition type: (type [(identifier) (attribute)] @local.type))
(assignment left: (identifier) @local.definition type: (type [(identifier) (attribute)] @local.type))
(assignment left: (identifier) @local.definition !type right: (call function: [(identifier) (attribute)] @local.type))
(parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(typed_parameter (identifier) @local.definition)
(default_parameter name: (identifier) @local.definition)
(typed_default_parameter name: (identifier) @local.definition)
(list_splat_pattern (identifier) @local.definition)
(dictionary_splat_pattern (identifier) @local.definition)
(function_definition type_parameters: (type_parameter (type (identifier) @local.definition)))
(class_definition type_parameters: (type_parameter (type (identifier) @local.definition)))

; assignment targets (module and class level ones are definitions, which win)
(assignment left: (identifier) @local.definition)
(pattern_list (identifier) @local.definition)
(tuple_pattern (identifier) @local.definition)
(list_pattern (identifier) @local.definition)
(named_expression name: (identifier) @local.definition)

; loop, comprehension, with and except targets
(for_statement left: (identifier) @local.definition)
(for_in_clause left: (identifier) @local.definition)
(as_pattern alias: (as_pattern_target (identifier) @local.definition))
(as_pattern alias: (as_pattern_target [(tuple (identifier) @local.definition) (list (identifier) @local.definition)]))

; match statement captures
(case_pattern . (dotted_name . (identifier) @local.definition .) .)
(keyword_pattern (dotted_name . (identifier) @local.definition .))
(splat_pattern (identifier) @local.definition)
(case_pattern (as_pattern (identifier) @local.definition .))

; ---- type relations
(class_definition
  superclasses: (argument_list
    [(identifier) (attribute) (subscript) (call)] @relation.extends))

; ---- dynamic sites
(call function: (subscript)) @dynamic.subscript_call
