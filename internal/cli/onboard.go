package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// snippet is one client configuration, as README.md's "Wiring Cairn into
// your agent" shows it (a test keeps the two the same).
type snippet struct {
	name, title, lang, body string
}

// clientSnippets are the configurations of Claude Code, Cursor and VS Code
// for the repository at root, over stdio and HTTP. PORT and TOKEN stand for
// what `cairn up` prints.
func clientSnippets(root string) []snippet {
	jroot, _ := json.Marshal(root)
	return []snippet{
		{"claude-stdio", "Claude Code, over stdio", "sh", "claude mcp add cairn -- cairn mcp --repo " + shellQuote(root) + "\n"},
		{"claude-http", "Claude Code, over HTTP", "sh", `claude mcp add --transport http cairn http://127.0.0.1:PORT/mcp --header "Authorization: Bearer TOKEN"` + "\n"},
		{"cursor-stdio", "Cursor (.cursor/mcp.json), over stdio", "json", `{
  "mcpServers": {
    "cairn": {
      "command": "cairn",
      "args": ["mcp", "--repo", ` + string(jroot) + `]
    }
  }
}
`},
		{"cursor-http", "Cursor (.cursor/mcp.json), over HTTP", "json", `{
  "mcpServers": {
    "cairn": {
      "url": "http://127.0.0.1:PORT/mcp",
      "headers": { "Authorization": "Bearer TOKEN" }
    }
  }
}
`},
		{"vscode-stdio", "VS Code (.vscode/mcp.json), over stdio", "json", `{
  "servers": {
    "cairn": {
      "type": "stdio",
      "command": "cairn",
      "args": ["mcp", "--repo", ` + string(jroot) + `]
    }
  }
}
`},
		{"vscode-http", "VS Code (.vscode/mcp.json), over HTTP", "json", `{
  "servers": {
    "cairn": {
      "type": "http",
      "url": "http://127.0.0.1:PORT/mcp",
      "headers": { "Authorization": "Bearer TOKEN" }
    }
  }
}
`},
	}
}

// shellQuote quotes a path for sh when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printOnboarding tells a person how to connect their agent.
func printOnboarding(w io.Writer, root string) {
	fmt.Fprintf(w, "\nConnect your agent. Over stdio the agent starts cairn itself; over HTTP run\n"+
		"`cairn up --repo %s` and use the PORT and TOKEN it prints.\n", shellQuote(root))
	for _, s := range clientSnippets(root) {
		fmt.Fprintf(w, "\n%s:\n", s.title)
		for _, line := range strings.Split(strings.TrimRight(s.body, "\n"), "\n") {
			fmt.Fprintln(w, "  "+line)
		}
	}
}

// snippetData is the onboarding for --json: snippet name -> text.
func snippetData(root string) map[string]string {
	out := map[string]string{}
	for _, s := range clientSnippets(root) {
		out[s.name] = s.body
	}
	return out
}
