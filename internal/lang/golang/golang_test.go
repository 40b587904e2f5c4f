package golang_test

import (
	"testing"

	_ "github.com/cairnhq/cairn/internal/lang/golang"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.Run(t, "testdata") }
