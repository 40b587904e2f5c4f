package all_test

import (
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

// extractBound is the time one file of fuzzed source may take to extract;
// the mutated sources are small, so anything near it is a runaway.
const extractBound = 10 * time.Second

// FuzzExtract runs every language's extractor on mutated sources, seeded
// with the languages' own fixtures: no panic, no runaway, and facts whose
// spans stay inside the source.
func FuzzExtract(f *testing.F) {
	for _, file := range langtest.Files(f, "../*/testdata/*.txtar") {
		if l := lang.ForPath(file.Name); l != nil {
			f.Add(file.Name, file.Data)
		}
	}
	x := lang.NewExtractor()
	f.Cleanup(x.Close)
	// The first extraction of a language compiles its queries, which takes
	// seconds for the larger grammars on a loaded machine: done here, so
	// the bound measures extraction alone.
	for _, l := range lang.All() {
		x.Extract(l, []byte("\n"))
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		l := lang.ForFile(name, src)
		if l == nil {
			return
		}
		done := make(chan struct{})
		var facts *lang.Facts
		start := time.Now()
		go func() {
			defer close(done)
			facts, _ = x.Extract(l, src)
		}()
		select {
		case <-done:
		case <-time.After(extractBound):
			t.Fatalf("%s (%s, %d bytes): extraction ran past %s", name, l.Name, len(src), extractBound)
		}
		if facts == nil {
			return
		}
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		for _, d := range facts.Defs {
			if int(d.Span.Start.Line) > lines+1 || int(d.Span.End.Line) > lines+1 {
				t.Fatalf("%s: definition %s at lines %d-%d of a %d-line source (%s)", name, d.Name, d.Span.Start.Line, d.Span.End.Line, lines, time.Since(start))
			}
		}
	})
}
