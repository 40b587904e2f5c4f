package ecma

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Stdlib reports whether an import names a module built into Node
// (module.builtinModules, 20), with or without the node: scheme.
func Stdlib(im lang.Import) bool {
	s := im.Source
	return strings.HasPrefix(s, "node:") || nodeBuiltins[s] || nodeBuiltins[strings.SplitN(s, "/", 2)[0]]
}

var nodeBuiltins = link.Set(`_http_agent _http_client _http_common _http_incoming _http_outgoing _http_server _stream_duplex _stream_passthrough _stream_readable _stream_transform _stream_wrap _stream_writable _tls_common _tls_wrap assert assert/strict async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns dns/promises domain events fs fs/promises http http2 https inspector inspector/promises module net os path path/posix path/win32 perf_hooks process punycode querystring readline readline/promises repl stream stream/consumers stream/promises stream/web string_decoder sys timers timers/promises tls trace_events tty url util util/types v8 vm wasi worker_threads zlib`)
