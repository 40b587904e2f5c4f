; C and C++ (the C++ grammar extends C's): definitions, references, imports,
; scopes. Capture names are documented in package lang. This file is a
; template expanded by package cfamily:
;   <VAR @cap>   a declarator naming a variable (x, *x, x[], (*x)(), x = ...)
;   <FUNC @cap>  a declarator naming a function (f(), *f())
;   <TYPE>       a typedef declarator naming a type (@name)
;   <FIELD>      a field declarator (@name)
;
; Every declaration is taken for a definition here (a pattern per place where
; a declaration is global costs much compile time with C++'s grammar); Refine
; turns the variables declared in function bodies into locals.

; ---- definitions
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(preproc_params (identifier) @ignore)

(function_definition declarator: <FUNC @name>) @definition.function
(declaration declarator: <FUNC @name>) @definition.function
(declaration declarator: <VAR @name>) @definition.variable

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member
(type_definition declarator: <TYPE>) @definition.type
(field_declaration declarator: <FIELD>) @definition.field

; ---- references
(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (parenthesized_expression (identifier) @name)) @reference.call

(field_expression argument: (_) @receiver field: (field_identifier) @name) @reference.member
(field_designator (field_identifier) @name) @reference.member

(assignment_expression left: (identifier) @name) @reference.write
(assignment_expression
  left: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.write
(update_expression argument: (identifier) @name) @reference.write
(update_expression
  argument: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.write

(labeled_statement label: (statement_identifier) @ignore)

; ---- imports
(preproc_include) @import

; ---- scopes and local bindings
[
  (function_definition)
  (compound_statement)
  (for_statement)
] @local.scope

(parameter_declaration declarator: <VAR @local.definition>)
