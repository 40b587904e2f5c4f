package ruby

import "github.com/cairnhq/cairn/internal/lang/link"

// builtins are the names every Ruby file sees without requiring anything:
// the methods of Kernel and of Module that code calls bare (require, raise,
// attr_reader, include, private), and the core classes, modules and
// constants (String, StandardError, Comparable, ENV).
var builtins = link.Set(`__callee__ __dir__ __method__ abort alias_method at_exit attr attr_accessor attr_reader attr_writer
	autoload binding block_given? caller caller_locations catch class_eval class_exec const_get const_set define_method
	define_singleton_method exit exit! extend fail format freeze gets include instance_variable_get
	instance_variable_set instance_variables is_a? kind_of? lambda load local_variables loop method_missing
	module_eval module_exec module_function p pp prepend print printf private private_class_method private_constant
	proc protected public public_class_method public_send putc puts raise rand readline readlines refine remove_method
	require require_relative respond_to? respond_to_missing? select send sleep spawn sprintf srand syscall system tap
	then throw trap undef_method using warn
	ARGF ARGV ArgumentError Array BasicObject Binding Class ClosedQueueError Comparable Complex ConditionVariable Data
	Dir ENV EOFError Encoding EncodingError Enumerable Enumerator Errno Exception FalseClass Fiber FiberError File
	FileTest Float FloatDomainError FrozenError GC Hash IO IOError IndexError Integer Interrupt KeyError Kernel
	LoadError LocalJumpError Marshal MatchData Math Method Module Mutex NameError NilClass NoMatchingPatternError
	NoMemoryError NoMethodError NotImplementedError Numeric Object ObjectSpace Proc Process Queue RUBY_ENGINE
	RUBY_PLATFORM RUBY_VERSION Random Range RangeError Rational Regexp RegexpError RuntimeError STDERR STDIN STDOUT
	ScriptError SecurityError Signal SignalException SizedQueue StandardError StopIteration String Struct Symbol
	SyntaxError SystemCallError SystemExit SystemStackError Thread ThreadError ThreadGroup Time TracePoint TrueClass
	TypeError UnboundMethod UncaughtThrowError ZeroDivisionError`)
