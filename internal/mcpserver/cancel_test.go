package mcpserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// blockIn are the arguments of the test-only tool test_block.
type blockIn struct{}

var (
	blockStarted = make(chan struct{}, 1)
	blockEnded   = make(chan error, 1)
)

func init() {
	// A tool that waits for its context: it shows whether a client's
	// cancellation reaches the handler through the adapter.
	tools.Register(tools.Tool{Name: "test_block", Group: "test", Summary: "Test only: blocks until cancelled."},
		func(ctx context.Context, _ *tools.Call, _ blockIn) (map[string]any, error) {
			blockStarted <- struct{}{}
			select {
			case <-ctx.Done():
				blockEnded <- ctx.Err()
				return nil, ctx.Err()
			case <-time.After(time.Minute):
				blockEnded <- nil
				return map[string]any{}, nil
			}
		})
}

func TestCancellation(t *testing.T) {
	cs, svc := session(t, config.Default(), nil)
	testenv.WaitReady(t, svc)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_block", Arguments: map[string]any{}})
		done <- err
	}()
	select {
	case <-blockStarted:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool did not start")
	}
	cancel() // the client sends notifications/cancelled
	select {
	case err := <-blockEnded:
		if err == nil {
			t.Error("the tool finished instead of being cancelled")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the request did not cancel the tool's context")
	}
	if err := <-done; err == nil {
		t.Error("the cancelled call returned no error to the client")
	}
}
