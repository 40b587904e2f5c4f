// Command cairn indexes a repository and answers questions about it for coding
// agents and people. See cairn --help.
package main

import (
	"os"

	"github.com/cairnhq/cairn/internal/cli"
)

func main() { os.Exit(cli.Main()) }
