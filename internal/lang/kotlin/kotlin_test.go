package kotlin_test

import (
	"testing"

	_ "github.com/cairnhq/cairn/internal/lang/kotlin"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.Run(t, "testdata") }
