package mcpserver

import (
	"context"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/service"
)

// clients names the MCP sessions: each connection is one client, whose
// calls share a task and whose savings are summed apart.
type clients struct {
	svc       *service.Service
	transport string

	mu   sync.Mutex // guards byss and next
	byss map[*mcp.ServerSession]obs.Client
	next int
}

func newClients(svc *service.Service, transport string) *clients {
	c := &clients{svc: svc, transport: transport, byss: map[*mcp.ServerSession]obs.Client{}}
	return c
}

// of is the client of a session, named on first sight.
func (c *clients) of(ss *mcp.ServerSession) obs.Client {
	if ss == nil {
		return obs.Client{ID: "mcp", Transport: c.transport}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.byss[ss]; ok {
		return cl
	}
	c.next++
	cl := obs.Client{ID: "mcp-" + strconv.Itoa(c.next), Transport: c.transport, Session: true}
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		cl.Name = p.ClientInfo.Name
	}
	c.byss[ss] = cl
	return cl
}

// initialized watches a new session: when it ends, its open task is closed
// as interrupted.
func (c *clients) initialized(_ context.Context, req *mcp.InitializedRequest) {
	ss := req.Session
	if ss == nil {
		return
	}
	cl := c.of(ss)
	go func() {
		ss.Wait()
		if m := c.svc.Monitor(); m != nil {
			m.SessionEnded(context.Background(), cl.ID)
		}
		c.mu.Lock()
		delete(c.byss, ss)
		c.mu.Unlock()
	}()
}
