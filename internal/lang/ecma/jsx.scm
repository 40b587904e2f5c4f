; JSX (JavaScript and TSX), after a language's own patterns. A component's tag
; name is a reference (a call of the component); intrinsic lower-case tags are
; dropped by the Refine hook.
(jsx_opening_element name: (identifier) @name) @reference.call
(jsx_self_closing_element name: (identifier) @name) @reference.call
(jsx_opening_element
  name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
(jsx_closing_element name: (_) @ignore)
(jsx_closing_element name: (member_expression (_) @ignore))
(jsx_namespace_name (identifier) @ignore)
(jsx_attribute (property_identifier) @name) @reference.member
