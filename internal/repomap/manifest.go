package repomap

import "github.com/cairnhq/cairn/internal/manifest"

// Manifests for map_repo: internal/manifest parses them from the text the
// lexical tier holds (what was indexed); map_repo lists the dependencies and
// declared entry points of the formats below.

// Dependency is one declared dependency of a manifest.
type Dependency = manifest.Dependency

// mapFormats are the manifest formats map_repo reads.
var mapFormats = map[manifest.Format]bool{
	manifest.GoMod: true, manifest.PackageJSON: true, manifest.Pyproject: true, manifest.Requirements: true,
}
