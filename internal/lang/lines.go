package lang

// LineStarts returns the byte offset at which each line of src starts: line n
// (1-based) starts at LineStarts(src)[n-1].
func LineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}
