package java_test

import (
	"testing"

	_ "github.com/cairnhq/cairn/internal/lang/java"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.Run(t, "testdata") }
