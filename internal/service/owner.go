package service

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// The owner socket: the process holding the writer lock listens on a Unix
// socket in the state directory; others send one JSON request per line and
// read one JSON reply.

type ownerRequest struct {
	Op       string             `json:"op"` // sync, paths, semantic, repair, caches, ping
	Rehash   bool               `json:"rehash,omitempty"`
	Paths    []string           `json:"paths,omitempty"` // paths: the paths a write changed
	Semantic []semantic.Request `json:"semantic,omitempty"`
	// DB and Reason: repair, the damage a reader ran into.
	DB     string `json:"db,omitempty"`
	Reason string `json:"reason,omitempty"`
}

type ownerReply struct {
	Epoch int64   `json:"epoch"`
	State string  `json:"state"`
	PID   int     `json:"pid"`
	Error string  `json:"error,omitempty"`
	Jobs  []int64 `json:"jobs,omitempty"` // semantic: the jobs that serve the request
	// Caches: a server's caches and their counts.
	Caches []obs.CacheStat `json:"caches,omitempty"`
}

var errNoOwner = errors.New("no process owns the index")

// socketPath is the owner socket of a state dir. Unix socket paths are short
// (about 104 bytes), so a long state dir gets a socket in the temp dir named
// by a hash of it.
func socketPath(stateDir string) string {
	p := filepath.Join(stateDir, "owner.sock")
	if len(p) < 100 {
		return p
	}
	sum := sha256.Sum256([]byte(stateDir))
	return filepath.Join(os.TempDir(), "cairn-"+hex.EncodeToString(sum[:8])+".sock")
}

type ownerServer struct {
	ln   net.Listener
	path string
	wg   sync.WaitGroup
}

// listenOwner starts answering other processes. The caller holds the writer
// lock, so a socket file left by a dead owner can be replaced.
func listenOwner(stateDir string, s *Service) (*ownerServer, error) {
	path := socketPath(stateDir)
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	o := &ownerServer{ln: ln, path: path}
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			o.wg.Add(1)
			go func() {
				defer o.wg.Done()
				o.serve(conn, s)
			}()
		}
	}()
	return o, nil
}

func (o *ownerServer) serve(conn net.Conn, s *Service) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Minute))
	var req ownerRequest
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&req); err != nil {
		return
	}
	var reply ownerReply
	switch req.Op {
	case "sync":
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		reply = s.handleSync(ctx, req)
		cancel()
	case "paths":
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		reply = s.handlePaths(ctx, req)
		cancel()
	case "repair":
		// The owner does not take the reader's word for it: the damage is
		// treated as suspect, so a blob store is verified before it is
		// given up (the worktree index is rebuilt either way).
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		d := &store.Damage{DB: req.DB, Reason: req.Reason, Suspect: true}
		if d.DB != "blobs" {
			d.DB = "main"
		}
		_, err := s.repair(ctx, d)
		st, _ := s.State()
		reply = ownerReply{State: st, PID: os.Getpid(), Epoch: s.epoch(ctx)}
		if err != nil {
			reply.Error = err.Error()
		}
		cancel()
	case "semantic":
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		st, _ := s.State()
		reply = ownerReply{State: st, PID: os.Getpid(), Epoch: s.epoch(ctx)}
		rows, err := s.enqueue(ctx, req.Semantic)
		if err != nil {
			reply.Error = err.Error()
		}
		for _, r := range rows {
			reply.Jobs = append(reply.Jobs, r.ID)
		}
		if !s.opts.Serve {
			// A one-shot owner has no background runner: run them now, the
			// asking process polls the job table.
			go func() { defer cancel(); s.runner().RunQueued(s.bg) }()
		} else {
			cancel()
		}
	case "caches":
		st, _ := s.State()
		reply = ownerReply{State: st, PID: os.Getpid(), Caches: s.cacheStats()}
	default:
		st, _ := s.State()
		reply = ownerReply{State: st, PID: os.Getpid(), Epoch: s.epoch(context.Background())}
	}
	json.NewEncoder(conn).Encode(reply)
}

func (o *ownerServer) close() {
	o.ln.Close()
	os.Remove(o.path)
	done := make(chan struct{})
	go func() { o.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

// askOwner sends one request to the owner and waits up to bound for the reply.
// errNoOwner means nobody listens (the owner died or never listened).
func askOwner(ctx context.Context, stateDir string, req ownerRequest, bound time.Duration) (ownerReply, error) {
	var reply ownerReply
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socketPath(stateDir))
	if err != nil {
		if ctx.Err() != nil {
			return reply, ctx.Err()
		}
		return reply, errNoOwner
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return reply, errNoOwner
	}
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&reply); err != nil {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			return reply, context.DeadlineExceeded
		}
		return reply, errNoOwner
	}
	return reply, nil
}
