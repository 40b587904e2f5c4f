package renamebench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Cairn is one `cairn mcp` server over a work copy, driven by the official
// MCP client as an agent would drive it.
type Cairn struct {
	Bin, Repo, State string
	Env              []string
	cs               *mcp.ClientSession
}

// CLI runs a cairn command line on the work copy (indexing).
func (c *Cairn) CLI(ctx context.Context, args ...string) error {
	_, err := c.cli(ctx, args...)
	return err
}

// CLIEnvelope runs a cairn command line with --json and decodes its
// response envelope.
func (c *Cairn) CLIEnvelope(ctx context.Context, args ...string) (*Envelope, error) {
	out, err := c.cli(ctx, append([]string{"--json"}, args...)...)
	if err != nil {
		return nil, err
	}
	var env Envelope
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, fmt.Errorf("cairn %v: %w", args, err)
	}
	return &env, nil
}

func (c *Cairn) cli(ctx context.Context, args ...string) ([]byte, error) {
	// An hour: indexing a large corpus on a loaded machine outlasts the
	// default deadline of a query.
	cmd := exec.CommandContext(ctx, c.Bin, append([]string{"--repo", c.Repo, "--state-dir", c.State, "--timeout", "3600000"}, args...)...)
	cmd.Env = c.Env
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cairn %v: %w\n%s", args, err, out)
	}
	return out, nil
}

// Start starts the MCP server.
func (c *Cairn) Start(ctx context.Context) error {
	cmd := exec.Command(c.Bin, "mcp", "--repo", c.Repo, "--state-dir", c.State)
	cmd.Env = c.Env
	client := mcp.NewClient(&mcp.Implementation{Name: "renamebench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("cairn mcp: %w", err)
	}
	c.cs = cs
	return nil
}

// Close stops the server (Start starts another).
func (c *Cairn) Close() {
	if c.cs != nil {
		c.cs.Close()
		c.cs = nil
	}
}

// Envelope is the part of Cairn's response envelope the bench reads.
type Envelope struct {
	Answer string          `json:"answer"`
	Data   json.RawMessage `json:"data"`
	Error  *struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
	Meta struct {
		TimingMS map[string]int64 `json:"timing_ms"`
	} `json:"meta"`
	// Wall is the call's duration as the client saw it.
	Wall time.Duration `json:"-"`
}

// Reason is the error's reason detail, else its code.
func (e *Envelope) Reason() string {
	if e.Error == nil {
		return ""
	}
	if r, ok := e.Error.Details["reason"].(string); ok {
		return r
	}
	if s, ok := e.Error.Details["status"].(string); ok {
		return s
	}
	return e.Error.Code
}

// Call invokes a tool and decodes its envelope; a failed tool is an
// envelope with Error set, a protocol failure an error.
func (c *Cairn) Call(ctx context.Context, tool string, args map[string]any) (*Envelope, error) {
	t := time.Now()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	var env Envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	env.Wall = time.Since(t)
	return &env, nil
}

// Plan is the part of a refactor plan the bench reads.
type Plan struct {
	ID     string `json:"refactor_id"`
	Status string `json:"status"`
	Reason string `json:"reason"`
	Counts struct {
		Files      int `json:"files"`
		Edits      int `json:"edits"`
		Groups     int `json:"groups"`
		GroupEdits int `json:"group_edits"`
	} `json:"counts"`
	Edits []struct {
		Layer string `json:"layer"`
	} `json:"edits"`
	Witness struct {
		Semantic string `json:"semantic"`
		Files    []struct {
			Path      string `json:"path"`
			Freshness string `json:"freshness"`
			Layer     string `json:"layer"`
		} `json:"files"`
		Failed []string `json:"invariants_failed"`
	} `json:"witness"`
	Symbol struct {
		QName    string `json:"qualified_name"`
		Location struct {
			Path string `json:"path"`
			Line int    `json:"line"`
			Col  int    `json:"col"`
		} `json:"location"`
	} `json:"symbol"`
}

// DecodePlan reads a planning tool's data.
func DecodePlan(env *Envelope) (*Plan, error) {
	var p Plan
	if err := json.Unmarshal(env.Data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}
