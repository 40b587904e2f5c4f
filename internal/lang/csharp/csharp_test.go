package csharp_test

import (
	"testing"

	_ "github.com/cairnhq/cairn/internal/lang/csharp"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.Run(t, "testdata") }
