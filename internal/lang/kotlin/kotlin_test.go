package kotlin_test

import (
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/lang"

	_ "github.com/cairnhq/cairn/internal/lang/kotlin"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.Run(t, "testdata") }

// The grammar's scanner loops forever when the input ends with an annotation
// where a property accessor may follow; the engine adds a final newline.
func TestEndOfInputInAnnotation(t *testing.T) {
	for _, src := range []string{
		"val x = 1\n@Suppress(\"X\")",
		"class A {\n  val x: Int?\n  @Suppress(\"X\"",
		"val x: Int\n@Suppress",
	} {
		done := make(chan error, 1)
		go func() {
			x := lang.NewExtractor()
			defer x.Close()
			_, err := x.Extract(lang.ByName("kotlin"), []byte(src))
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%q: %v", src, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%q: extraction did not finish", src)
		}
	}
}
