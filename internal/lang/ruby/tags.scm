; Ruby: definitions, references, imports, scopes and type relations.
; Capture names are documented in package lang. Rules that need a method's name
; (attr_accessor, require, include, private) cannot be written as text
; predicates, which the engine rejects: the query captures the general shape
; and the Refine and Imports hooks keep what they mean.

; ---- definitions
(class name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.class
(module name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.module

; methods: refine makes those inside a class or module methods
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
(alias name: (_) @name) @definition.method

(assignment left: (constant) @name) @definition.constant
(operator_assignment left: (constant) @name) @definition.constant

; attr_accessor :a, :b (refine drops the calls that are not attr_*)
(call !receiver method: (identifier) arguments: (argument_list (simple_symbol) @name)) @definition.property

; ---- references
(call receiver: (_) @receiver method: [(identifier) (constant)] @name) @reference.call
(call !receiver method: [(identifier) (constant)] @name) @reference.call

(scope_resolution scope: (_) @receiver name: (constant) @name) @reference.member

(assignment left: (call receiver: (_) @receiver method: (identifier) @name)) @reference.write
(operator_assignment left: (call receiver: (_) @receiver method: (identifier) @name)) @reference.write
(operator_assignment left: (identifier) @name) @reference.write

; def name=(v): the setter's identifier is part of the name
(setter (identifier) @ignore)

; ---- imports: require "x", require_relative "x", load "x", autoload :X, "x"
(call !receiver method: (identifier) arguments: (argument_list . (string) .)) @import
(call !receiver method: (identifier) arguments: (argument_list . (simple_symbol) . (string) .)) @import

; ---- scopes and local bindings
[
  (method)
  (singleton_method)
  (class)
  (module)
  (singleton_class)
  (block)
  (do_block)
  (lambda)
] @local.scope

(method_parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(block_parameters (identifier) @local.definition)
(destructured_parameter (identifier) @local.definition)
(optional_parameter name: (identifier) @local.definition)
(keyword_parameter name: (identifier) @local.definition)
(splat_parameter name: (identifier) @local.definition)
(hash_splat_parameter name: (identifier) @local.definition)
(block_parameter name: (identifier) @local.definition)

(assignment left: (identifier) @local.definition)
(left_assignment_list (identifier) @local.definition)
(rest_assignment (identifier) @local.definition)
(destructured_left_assignment (identifier) @local.definition)
(for pattern: (identifier) @local.definition)
(for pattern: (left_assignment_list (identifier) @local.definition))
(exception_variable (identifier) @local.definition)

; ---- type relations (include/extend/prepend are added by refine: embeds)
(class superclass: (superclass (_) @relation.extends))
