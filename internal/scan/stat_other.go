//go:build !linux && !darwin

package scan

import "io/fs"

// inodeAndCtime is unknown on this platform: size and mtime decide alone.
func inodeAndCtime(fs.FileInfo) (ino, ctimeNS int64) { return 0, 0 }
