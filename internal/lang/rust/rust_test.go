package rust_test

import (
	"testing"

	"github.com/cairnhq/cairn/internal/lang/langtest"
	_ "github.com/cairnhq/cairn/internal/lang/rust"
)

func TestFixtures(t *testing.T) { langtest.Run(t, "testdata") }
