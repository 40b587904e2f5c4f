package index

// SetExtractorVersion plays an upgrade of the extractor until the test ends.
func SetExtractorVersion(v int) (restore func()) {
	old := extractorVersion
	extractorVersion = v
	return func() { extractorVersion = old }
}
