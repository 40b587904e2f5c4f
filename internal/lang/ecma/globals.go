package ecma

import "github.com/cairnhq/cairn/internal/lang/link"

// Globals are the names ECMAScript and its usual hosts (browsers, Node.js)
// define for every module: the standard built-in objects and functions,
// console, timers, fetch, process, require. A call of one, or of a member of
// one (JSON.parse, Object.keys), that binds to nothing in the repository
// calls the runtime.
var Globals = link.Set(`AggregateError Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean DataView Date
	Error EvalError FinalizationRegistry Float32Array Float64Array Function Int8Array Int16Array Int32Array Intl JSON Map
	Math Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set SharedArrayBuffer String Symbol
	SyntaxError TypeError URIError Uint8Array Uint8ClampedArray Uint16Array Uint32Array WeakMap WeakRef WeakSet
	decodeURI decodeURIComponent encodeURI encodeURIComponent escape globalThis isFinite isNaN parseFloat parseInt unescape
	AbortController Blob Buffer FormData Headers Request Response TextDecoder TextEncoder URL URLSearchParams atob btoa
	clearImmediate clearInterval clearTimeout console fetch process queueMicrotask require setImmediate setInterval
	setTimeout structuredClone`)
