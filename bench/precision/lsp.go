package precision

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LSP is a minimal language-server client: enough to load a workspace and
// ask textDocument/references (gopls, typescript-language-server,
// pyright-langserver). It answers the server's own requests (configuration,
// progress tokens, capability registration) so the servers proceed.
type LSP struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	root string

	mu      sync.Mutex // guards the fields below and writes to in
	nextID  int
	pending map[int]chan rpcReply
	// progress tracks $/progress tokens: begun and ended.
	begun, ended int
	logs         []string
	closed       bool
	errTail      *tail
}

type rpcReply struct {
	Result json.RawMessage
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
}

type tail struct {
	mu  sync.Mutex // guards b
	b   []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// StartLSP starts a server (argv) in root and initializes it.
func StartLSP(ctx context.Context, argv []string, root string, env []string, initOptions any) (*LSP, error) {
	bin, err := exec.LookPath(argv[0]) // before Dir changes what a relative path means
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	cmd := exec.Command(bin, argv[1:]...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	l := &LSP{cmd: cmd, in: in, root: root, pending: map[int]chan rpcReply{}, errTail: &tail{max: 8 << 10}}
	cmd.Stderr = l.errTail
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	go l.read(bufio.NewReaderSize(out, 1<<20))
	uri := FileURI(root)
	params := map[string]any{
		"processId": os.Getpid(),
		"rootUri":   uri,
		"rootPath":  root,
		"workspaceFolders": []map[string]any{
			{"uri": uri, "name": filepath.Base(root)},
		},
		"capabilities": map[string]any{
			"window":    map[string]any{"workDoneProgress": true},
			"workspace": map[string]any{"configuration": true, "workspaceFolders": true},
			"textDocument": map[string]any{
				"references":      map[string]any{"dynamicRegistration": false},
				"synchronization": map[string]any{"didSave": false},
			},
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
		},
	}
	if initOptions != nil {
		params["initializationOptions"] = initOptions
	}
	if _, err := l.Call(ctx, "initialize", params); err != nil {
		l.Close()
		return nil, fmt.Errorf("initialize: %w (stderr: %s)", err, l.errTail.String())
	}
	if err := l.Notify("initialized", map[string]any{}); err != nil {
		return nil, err
	}
	return l, nil
}

// FileURI turns an absolute path into a file:// URI.
func FileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// URIPath turns a file:// URI into a path.
func URIPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	return filepath.FromSlash(u.Path)
}

func (l *LSP) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("lsp: closed")
	}
	if _, err := fmt.Fprintf(l.in, "Content-Length: %d\r\n\r\n", len(b)); err != nil {
		return err
	}
	_, err = l.in.Write(b)
	return err
}

// Notify sends a notification.
func (l *LSP) Notify(method string, params any) error {
	return l.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Call sends a request and waits for its reply.
func (l *LSP) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	l.mu.Lock()
	l.nextID++
	id := l.nextID
	ch := make(chan rpcReply, 1)
	l.pending[id] = ch
	l.mu.Unlock()
	if err := l.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return nil, fmt.Errorf("%s: %d %s", method, r.Error.Code, r.Error.Message)
		}
		return r.Result, nil
	case <-ctx.Done():
		l.mu.Lock()
		delete(l.pending, id)
		l.mu.Unlock()
		l.Notify("$/cancelRequest", map[string]any{"id": id})
		return nil, ctx.Err()
	}
}

func (l *LSP) read(r *bufio.Reader) {
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				l.fail()
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			continue
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(r, buf); err != nil {
			l.fail()
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(buf, &msg) != nil {
			continue
		}
		switch {
		case msg.Method != "" && len(msg.ID) > 0:
			l.answer(msg.ID, msg.Method, msg.Params)
		case msg.Method != "":
			l.notification(msg.Method, msg.Params)
		default:
			id, _ := strconv.Atoi(string(msg.ID))
			l.mu.Lock()
			ch := l.pending[id]
			delete(l.pending, id)
			l.mu.Unlock()
			if ch != nil {
				ch <- rpcReply{Result: msg.Result, Error: msg.Error}
			}
		}
	}
}

func (l *LSP) fail() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, ch := range l.pending {
		ch <- rpcReply{Error: &struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}{-1, "server exited: " + l.errTail.String()}}
		delete(l.pending, id)
	}
}

// answer replies to a request from the server.
func (l *LSP) answer(id json.RawMessage, method string, params json.RawMessage) {
	var result any
	switch method {
	case "workspace/configuration":
		var p struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		json.Unmarshal(params, &p)
		items := make([]any, len(p.Items))
		for i, it := range p.Items {
			switch it.Section {
			case "python.analysis":
				items[i] = map[string]any{"diagnosticMode": "openFilesOnly", "autoSearchPaths": true}
			case "python":
				items[i] = map[string]any{"analysis": map[string]any{"diagnosticMode": "openFilesOnly"}}
			default:
				items[i] = map[string]any{}
			}
		}
		result = items
	case "workspace/workspaceFolders":
		result = []map[string]any{{"uri": FileURI(l.root), "name": filepath.Base(l.root)}}
	}
	l.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (l *LSP) notification(method string, params json.RawMessage) {
	switch method {
	case "$/progress":
		var p struct {
			Value struct {
				Kind string `json:"kind"`
			} `json:"value"`
		}
		json.Unmarshal(params, &p)
		l.mu.Lock()
		switch p.Value.Kind {
		case "begin":
			l.begun++
		case "end":
			l.ended++
		}
		l.mu.Unlock()
	case "window/logMessage", "window/showMessage":
		var p struct {
			Message string `json:"message"`
		}
		json.Unmarshal(params, &p)
		l.mu.Lock()
		if len(l.logs) < 10000 {
			l.logs = append(l.logs, p.Message)
		}
		l.mu.Unlock()
	}
}

// WaitProgress waits until at least one $/progress began and every begun
// one ended (typescript-language-server answers fully only then), or until
// the timeout.
func (l *LSP) WaitProgress(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		ok := l.begun > 0 && l.ended >= l.begun
		l.mu.Unlock()
		if ok {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// WaitLog waits until a log message contains s (pyright's "Found N source files").
func (l *LSP) WaitLog(s string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		for _, m := range l.logs {
			if strings.Contains(m, s) {
				l.mu.Unlock()
				return true
			}
		}
		l.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// Open tells the server about a file (some servers answer only for open files).
func (l *LSP) Open(path, languageID string, text []byte) error {
	return l.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": FileURI(path), "languageId": languageID, "version": 1, "text": string(text)}})
}

// CloseFile tells the server a file is closed.
func (l *LSP) CloseFile(path string) error {
	return l.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": FileURI(path)}})
}

// LSPLocation is a location an LSP server returned (0-based, UTF-16).
type LSPLocation struct {
	Path      string
	Line      int
	Character int
}

// References asks for the references of the symbol at a position (0-based
// line, UTF-16 character), the declaration included.
func (l *LSP) References(ctx context.Context, path string, line, char int) ([]LSPLocation, error) {
	res, err := l.Call(ctx, "textDocument/references", map[string]any{
		"textDocument": map[string]any{"uri": FileURI(path)},
		"position":     map[string]any{"line": line, "character": char},
		"context":      map[string]any{"includeDeclaration": true},
	})
	if err != nil {
		return nil, err
	}
	var locs []struct {
		URI   string `json:"uri"`
		Range struct {
			Start struct {
				Line      int `json:"line"`
				Character int `json:"character"`
			} `json:"start"`
		} `json:"range"`
	}
	if err := json.Unmarshal(res, &locs); err != nil {
		return nil, fmt.Errorf("references: %w: %s", err, res)
	}
	out := make([]LSPLocation, len(locs))
	for i, loc := range locs {
		out[i] = LSPLocation{Path: URIPath(loc.URI), Line: loc.Range.Start.Line, Character: loc.Range.Start.Character}
	}
	return out, nil
}

// Close shuts the server down.
func (l *LSP) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l.Call(ctx, "shutdown", nil)
	l.Notify("exit", nil)
	l.mu.Lock()
	l.closed = true
	l.in.Close()
	l.mu.Unlock()
	done := make(chan struct{})
	go func() { l.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		l.cmd.Process.Kill()
		<-done
	}
}

// Stderr is the tail of the server's error output.
func (l *LSP) Stderr() string { return l.errTail.String() }

// TextEdit is one edit of a workspace edit an LSP server returned (0-based
// lines, UTF-16 characters, end exclusive).
type TextEdit struct {
	Path                 string
	StartLine, StartChar int
	EndLine, EndChar     int
	NewText              string
}

// Rename asks for the workspace edit that renames the symbol at a position
// (0-based line, UTF-16 character). Both shapes of a workspace edit are
// read: changes (by URI) and documentChanges (text document edits).
func (l *LSP) Rename(ctx context.Context, path string, line, char int, newName string) ([]TextEdit, error) {
	res, err := l.Call(ctx, "textDocument/rename", map[string]any{
		"textDocument": map[string]any{"uri": FileURI(path)},
		"position":     map[string]any{"line": line, "character": char},
		"newName":      newName,
	})
	if err != nil {
		return nil, err
	}
	type lspPos struct {
		Line      int `json:"line"`
		Character int `json:"character"`
	}
	type lspEdit struct {
		Range struct {
			Start lspPos `json:"start"`
			End   lspPos `json:"end"`
		} `json:"range"`
		NewText string `json:"newText"`
	}
	var we struct {
		Changes         map[string][]lspEdit `json:"changes"`
		DocumentChanges []struct {
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Edits []lspEdit `json:"edits"`
			Kind  string    `json:"kind"`
		} `json:"documentChanges"`
	}
	if string(res) == "null" {
		return nil, nil
	}
	if err := json.Unmarshal(res, &we); err != nil {
		return nil, fmt.Errorf("rename: %w: %s", err, res)
	}
	var out []TextEdit
	add := func(uri string, es []lspEdit) {
		for _, e := range es {
			out = append(out, TextEdit{Path: URIPath(uri), StartLine: e.Range.Start.Line, StartChar: e.Range.Start.Character,
				EndLine: e.Range.End.Line, EndChar: e.Range.End.Character, NewText: e.NewText})
		}
	}
	for uri, es := range we.Changes {
		add(uri, es)
	}
	for _, dc := range we.DocumentChanges {
		if dc.Kind != "" {
			return nil, fmt.Errorf("rename: the server asks for a file operation (%s)", dc.Kind)
		}
		add(dc.TextDocument.URI, dc.Edits)
	}
	return out, nil
}
