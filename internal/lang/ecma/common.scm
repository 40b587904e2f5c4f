; JavaScript and TypeScript (and so JSX and TSX): the patterns both grammars
; share. Query puts them before a language's own patterns (javascript/tags.scm,
; typescript/tags.scm) and, for the JSX dialects, jsx.scm. Capture names are
; documented in package lang. Earlier patterns win when two give the same name
; node different kinds; a language's own definitions (class names, fields,
; TypeScript declarations) never name the nodes these patterns name.

; ---- definitions
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function

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

; Module-level variables: in the program or exported. A function or class value
; makes the variable a function or class.
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

; a module-level binding initialised with new C(...) holds a C (its Type);
; these come first so that they win over the untyped patterns below
(program (lexical_declaration (variable_declarator name: (identifier) @name
  value: (new_expression constructor: [(identifier) (member_expression)] @local.type)) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name
  value: (new_expression constructor: [(identifier) (member_expression)] @local.type)) @definition.variable))
(export_statement
  declaration: (lexical_declaration (variable_declarator name: (identifier) @name
    value: (new_expression constructor: [(identifier) (member_expression)] @local.type)) @definition.variable))

(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement
  declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement
  declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))

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

; Destructuring a value reads its members: const { a, b: c, d = 1 } = x
; reads x.a, x.b and x.d (the shorthand names are also the locals they bind).
(variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @name
     (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name)
     (pair_pattern key: (property_identifier) @name)])
  value: (_) @receiver) @reference.binding

; Keys of object literals and other destructuring patterns name members of
; some value the query does not know.
(pair key: (property_identifier) @name) @reference.member
(pair_pattern key: (property_identifier) @name) @reference.member

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
(import_attribute (object (pair key: (_) @ignore)))

; ---- scopes and local bindings (the languages add their own)
[
  (function_declaration)
  (generator_function_declaration)
  (function_expression)
  (generator_function)
  (arrow_function)
  (method_definition)
  (class_declaration)
  (class)
  (class_body)
  (statement_block)
  (for_statement)
  (for_in_statement)
  (catch_clause)
  (switch_body)
] @local.scope

; the operands a type test may narrow a name in (Narrowing): the right of
; x instanceof C && x.m(), isC(x) && ..., !isC(x) || ..., and both
; branches of a ternary on such a test, each a scope for its narrowed local
(binary_expression
  left: [(binary_expression operator: ["instanceof" "&&"]) (call_expression) (parenthesized_expression) (unary_expression operator: "!")]
  operator: ["&&" "||"]
  right: (_) @local.scope)
(ternary_expression
  condition: [(binary_expression operator: ["instanceof" "&&"]) (call_expression) (parenthesized_expression) (unary_expression operator: "!")]
  consequence: (_) @local.scope
  alternative: (_) @local.scope)

(arrow_function parameter: (identifier) @local.definition)
(variable_declarator name: (identifier) @local.definition)
(catch_clause parameter: (identifier) @local.definition)
(for_in_statement kind: _ left: (identifier) @local.definition)
(function_expression name: (identifier) @local.definition)

; destructuring patterns bind their identifiers wherever they appear
(object_pattern (shorthand_property_identifier_pattern) @local.definition)
(object_assignment_pattern left: (shorthand_property_identifier_pattern) @local.definition)
(pair_pattern value: (identifier) @local.definition)
(array_pattern (identifier) @local.definition)
(rest_pattern (identifier) @local.definition)
(assignment_pattern left: (identifier) @local.definition)

; ---- dynamic sites
(call_expression function: (subscript_expression)) @dynamic.subscript_call
