; Rust: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang. When two patterns define the
; same name node the earlier pattern wins, so members of impl and trait blocks
; come before the plain items. Receivers (the impl's type, as written) are
; normalised by Refine.

; ---- definitions
; members of impl blocks belong to the implementing type: impl T { fn m() } is T.m
(impl_item
  type: (_) @receiver
  body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(impl_item
  type: (_) @receiver
  body: (declaration_list (const_item name: (identifier) @name) @definition.constant))
(impl_item
  type: (_) @receiver
  body: (declaration_list (type_item name: (type_identifier) @name) @definition.type))

; members of traits
(trait_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item body: (declaration_list (function_signature_item name: (identifier) @name) @definition.method))
(trait_item body: (declaration_list (const_item name: (identifier) @name) @definition.constant))
(trait_item body: (declaration_list (associated_type name: (type_identifier) @name) @definition.type))

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant name: (identifier) @name) @definition.enum_member
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module
; macro_rules! defines a function-like macro: kind function
(macro_definition name: (identifier) @name) @definition.function
; a field's declared type (Def.Type) types the members read through it (self.set.len())
(field_declaration
  name: (field_identifier) @name
  type: [(type_identifier) (generic_type type: (type_identifier))] @local.type) @definition.field
(field_declaration name: (field_identifier) @name) @definition.field

; ---- references
(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression
  function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression function: (scoped_identifier !path name: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression
  function: (generic_function
    function: (field_expression value: (_) @receiver field: (field_identifier) @name))) @reference.call
(call_expression
  function: (generic_function
    function: (scoped_identifier path: (_) @receiver name: (identifier) @name))) @reference.call
; macro invocations are calls of the macro
(macro_invocation macro: (identifier) @name) @reference.call
(macro_invocation macro: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call

(field_expression value: (_) @receiver field: (field_identifier) @name) @reference.member
(scoped_identifier path: (_) @receiver name: (identifier) @name) @reference.member
(scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.member
(field_initializer field: (field_identifier) @name) @reference.member
(field_pattern name: (field_identifier) @name) @reference.member

(assignment_expression left: (identifier) @name) @reference.write
(assignment_expression
  left: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.write
(compound_assignment_expr left: (identifier) @name) @reference.write
(compound_assignment_expr
  left: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.write

; labels, lifetimes and attribute names name nothing that a symbol defines
(label (identifier) @ignore)
(lifetime (identifier) @ignore)
(attribute . (identifier) @ignore)

; ---- imports (expanded by Language.Imports; their identifiers are dropped by Refine)
(use_declaration) @import
(extern_crate_declaration) @import
(mod_item !body) @import

; ---- scopes and local bindings
[
  (function_item)
  (function_signature_item)
  (closure_expression)
  (block)
  (match_arm)
  (for_expression)
  (if_expression)
  (while_expression)
  (impl_item)
  (trait_item)
  (struct_item)
  (enum_item)
  (union_item)
  (type_item)
] @local.scope

; a binding's declared type (behind & or &mut too), or the struct it is
; initialised with, types the members read through it (c.n for c: &Counter)
(parameter
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  type: [(type_identifier) (generic_type type: (type_identifier))] @local.type)
(parameter
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  type: (reference_type type: [(type_identifier) (generic_type type: (type_identifier))] @local.type))
(parameter
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  type: (abstract_type trait: [(type_identifier) (generic_type type: (type_identifier))] @local.type))
(parameter
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  type: (reference_type type: (dynamic_type trait: [(type_identifier) (generic_type type: (type_identifier))] @local.type)))
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  type: [(type_identifier) (generic_type type: (type_identifier))] @local.type)
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  type: (reference_type type: [(type_identifier) (generic_type type: (type_identifier))] @local.type))
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  !type
  value: (struct_expression name: (type_identifier) @local.type))
(parameter pattern: (identifier) @local.definition)
(closure_parameters (identifier) @local.definition)
(let_declaration pattern: (identifier) @local.definition)
; a let binding is visible after its initialiser: let x = x + 1 reads the x before
(let_declaration
  pattern: [(identifier) @local.definition (mut_pattern (identifier) @local.definition)]
  value: (_) @local.init)
(let_condition pattern: (identifier) @local.definition)
(for_expression pattern: (identifier) @local.definition)
(match_pattern . (identifier) @local.definition)
; bindings inside patterns (these node kinds occur only in patterns); names
; that start with an upper-case letter are constants or variants (Refine)
(tuple_pattern (identifier) @local.definition)
(tuple_struct_pattern type: (_) (identifier) @local.definition)
(slice_pattern (identifier) @local.definition)
(or_pattern (identifier) @local.definition)
(ref_pattern (identifier) @local.definition)
(mut_pattern (identifier) @local.definition)
(reference_pattern (identifier) @local.definition)
(captured_pattern . (identifier) @local.definition)
(field_pattern pattern: (identifier) @local.definition)
(field_pattern name: (shorthand_field_identifier) @local.definition)
(type_parameter name: (type_identifier) @local.definition)

; ---- type relations (impl Trait for Type is added by Refine)
(trait_item
  bounds: (trait_bounds
    [(type_identifier) (scoped_type_identifier) (generic_type)] @relation.extends))
