package mcpserver_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/mcpserver"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// cardsRepo is a repository with two cards and code linking to one.
var cardsRepo = map[string]string{
	"go.mod": "module example.com/c\n\ngo 1.22\n",
	"login.go": `package c

// Login signs in.
// @see auth/login
func Login() {}
`,
	".cairn/cards/auth/login.card.md":   "---\nkey: auth/login\nsummary: OAuth login\nstatus: implemented\nrelations:\n  - type: depends-on\n    target: auth/session\n---\nUsers sign in.\n",
	".cairn/cards/auth/session.card.md": "---\nkey: auth/session\nsummary: Sessions\nstatus: draft\n---\n",
}

func cardsSession(t *testing.T, files map[string]string, cfg config.Config) *mcp.ClientSession {
	t.Helper()
	testenv.Isolate(t)
	root := testenv.Repo(t, files)
	svc := testenv.OpenConfig(t, root, cfg, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(svc, mcpserver.Options{Version: "test"}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cairn-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// The cards group shows where .cairn/cards exists, or where it is enabled
// by name; the card resource reads a card with its links.
func TestCardsOverMCP(t *testing.T) {
	cs := cardsSession(t, cardsRepo, config.Default())
	got := listTools(t, cs)
	for _, n := range []string{"card_get", "card_search", "card_rename", "card_verify", "keyword_create", "tag_delete"} {
		if got[n] == nil {
			t.Errorf("a repository with cards lacks tool %s", n)
		}
	}
	env, res := call(t, cs, "card_get", map[string]any{"key": "auth/login"})
	if res.IsError {
		t.Fatalf("card_get: %s", mustJSON(t, env))
	}
	data := env["data"].(map[string]any)["card"].(map[string]any)
	links := data["links"].([]any)
	if len(links) != 1 || links[0].(map[string]any)["entity"].(map[string]any)["key"] != "symbol:login.go#Login" {
		t.Errorf("links = %s", mustJSON(t, links))
	}
	r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "cairn://card/auth/login"})
	if err != nil {
		t.Fatal(err)
	}
	var renv map[string]any
	json.Unmarshal([]byte(r.Contents[0].Text), &renv)
	if renv["data"].(map[string]any)["card"].(map[string]any)["summary"] != "OAuth login" {
		t.Errorf("resource: %s", r.Contents[0].Text)
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "cairn://card/auth/nope"}); err == nil {
		t.Errorf("reading a missing card succeeded")
	}

	// Without .cairn/cards the group is off, unless enabled.
	plain := map[string]string{"go.mod": cardsRepo["go.mod"], "login.go": cardsRepo["login.go"]}
	if got := listTools(t, cardsSession(t, plain, config.Default())); got["card_get"] != nil {
		t.Errorf("a repository without cards shows card_get")
	}
	cfg := config.Default()
	cfg.Tools.Enable = []string{"cards"}
	if got := listTools(t, cardsSession(t, plain, cfg)); got["card_get"] == nil {
		t.Errorf("tools.enable: cards does not show card_get")
	}
}
