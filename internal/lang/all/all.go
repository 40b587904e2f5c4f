// Package all registers every language Cairn supports; import it for effect.
package all

import (
	_ "github.com/cairnhq/cairn/internal/lang/c"
	_ "github.com/cairnhq/cairn/internal/lang/cpp"
	_ "github.com/cairnhq/cairn/internal/lang/csharp"
	_ "github.com/cairnhq/cairn/internal/lang/data"
	_ "github.com/cairnhq/cairn/internal/lang/golang"
	_ "github.com/cairnhq/cairn/internal/lang/java"
	_ "github.com/cairnhq/cairn/internal/lang/javascript"
	_ "github.com/cairnhq/cairn/internal/lang/kotlin"
	_ "github.com/cairnhq/cairn/internal/lang/php"
	_ "github.com/cairnhq/cairn/internal/lang/python"
	_ "github.com/cairnhq/cairn/internal/lang/ruby"
	_ "github.com/cairnhq/cairn/internal/lang/rust"
	_ "github.com/cairnhq/cairn/internal/lang/typescript"
)
