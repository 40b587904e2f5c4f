package ruby

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// stdlib reports whether a require names a library of Ruby's standard
// library.
func stdlib(im lang.Import) bool { return rubyStdlib[im.Source] }

var rubyStdlib = link.Set(`abbrev base64 benchmark bigdecimal cgi csv date delegate digest drb English erb etc fcntl fiddle fileutils find forwardable getoptlong io/console io/wait ipaddr irb json logger matrix monitor mutex_m net/http net/https net/smtp net/ftp objspace observer open-uri open3 openssl optparse ostruct pathname pp prettyprint prime pstore psych racc rdoc readline reline resolv ripper securerandom set shellwords singleton socket stringio strscan syslog tempfile time timeout tmpdir tsort uri weakref yaml zlib`)
