package python

import "github.com/cairnhq/cairn/internal/lang/link"

// builtins are the names of Python's builtins module (3.12): its functions,
// types and exceptions, which every module sees without importing them.
var builtins = link.Set(`__import__ abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod
	compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash
	help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow
	print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
	ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError BrokenPipeError
	BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError
	ConnectionResetError DeprecationWarning EOFError EncodingWarning EnvironmentError Exception ExceptionGroup
	FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning
	IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
	ModuleNotFoundError NameError NotADirectoryError NotImplemented NotImplementedError OSError OverflowError
	PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning
	RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit
	TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError
	UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError`)
