// Package all registers every language Cairn supports; import it for effect.
package all

import (
	_ "github.com/cairnhq/cairn/internal/lang/csharp"
	_ "github.com/cairnhq/cairn/internal/lang/golang"
	_ "github.com/cairnhq/cairn/internal/lang/java"
	_ "github.com/cairnhq/cairn/internal/lang/javascript"
	_ "github.com/cairnhq/cairn/internal/lang/kotlin"
	_ "github.com/cairnhq/cairn/internal/lang/python"
	_ "github.com/cairnhq/cairn/internal/lang/typescript"
)
