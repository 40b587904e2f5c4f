; JavaScript (with JSX): the patterns of its own grammar. Query puts them after
; ecma/common.scm, which holds what JavaScript shares with TypeScript, and
; before ecma/jsx.scm. Capture names are documented in package lang.

; ---- definitions
(class_declaration name: (identifier) @name) @definition.class
(field_definition
  property: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.property

; ---- local bindings
(formal_parameters (identifier) @local.definition)
(class name: (identifier) @local.definition)
; a binding initialised with new C(...) holds a C, unless it is assigned
; again (refine clears the type then: JavaScript checks no types)
(variable_declarator
  name: (identifier) @local.definition
  value: (new_expression constructor: [(identifier) (member_expression)] @local.type))

; ---- type relations
(class_heritage [(identifier) (member_expression)] @relation.extends)
