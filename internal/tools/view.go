package tools

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/query"
)

// View are the arguments of the read tools that answer through a
// workspace's overlay or the request's own files (consistency modes).
type View struct {
	Consistency  string        `json:"consistency,omitempty" jsonschema:"committed (default): the indexed tree; workspace: the tree as workspace_id's overlay changes it; ephemeral: that plus virtual_files"`
	WorkspaceID  string        `json:"workspace_id,omitempty" jsonschema:"the workspace to read through (consistency workspace, or ephemeral on top of it)"`
	VirtualFiles []VirtualFile `json:"virtual_files,omitempty" jsonschema:"consistency ephemeral: files as this request alone sees them (not stored)"`
}

// VirtualFile is a file's content sent with a request.
type VirtualFile struct {
	Path    string `json:"path" jsonschema:"repo-relative path"`
	Content string `json:"content" jsonschema:"the file's whole content"`
}

// Consistency modes.
const (
	Committed = "committed"
	InWS      = "workspace"
	Ephemeral = "ephemeral"
)

// Bounds of the virtual files of one request.
const (
	maxVirtualFiles = 64
	maxVirtualBytes = 1 << 20 // per file
)

// view is a call's consistency: the mode, and the overlay it reads through.
type view struct {
	mode      string
	workspace string
	revision  int
	// files are the overlay's files: the workspace's, then the virtual ones
	files []viewFile
	ov    *query.Overlay
}

type viewFile struct {
	path    string
	content []byte
	deleted bool
	virtual bool
}

// noViewReasons say, per group, why its tools answer without overlays.
var noViewReasons = map[string]string{
	"core":      "it answers about Cairn and the index themselves, not about a view of the code",
	"task":      "it answers about Cairn and the index themselves, not about a view of the code",
	"git":       "git answers from the repository's commits, index and working tree, which no overlay changes",
	"test":      "tests and linters run as processes over the files on disk, which cannot see an overlay",
	"cards":     "cards are read from the card files on disk with their links into the indexed tree",
	"edit":      "it writes; with workspace_id it writes into that workspace's overlay",
	"workspace": "it manages workspaces themselves, named by workspace_id",
}

// Consistency says how a tool answers as to consistency modes: through
// overlays, or why not (describe documents it).
func (t *Tool) Consistency() string {
	if t.viewed {
		return "committed (default), workspace (consistency workspace with workspace_id: the tree as that workspace's overlay changes it) or ephemeral (virtual_files: files as this request alone sees them)"
	}
	return "committed only: " + t.noView()
}

func (t *Tool) noView() string {
	if t.NoView != "" {
		return t.NoView
	}
	if r, ok := noViewReasons[t.Group]; ok {
		return r
	}
	return "it answers from the indexed tree only"
}

// viewedTools lists the tools that take View, for the message to a call
// that sends its arguments elsewhere.
func viewedTools() []string {
	var out []string
	for _, t := range All() {
		if t.viewed {
			out = append(out, t.Name)
		}
	}
	sort.Strings(out)
	return out
}

// bindView reads the call's consistency arguments, checks them and sets up
// the overlay the call's engine reads through.
func (c *Call) bindView(ctx context.Context, t *Tool, v View) error {
	if !t.viewed {
		if v.Consistency != "" || len(v.VirtualFiles) > 0 {
			return &errs.Error{Kind: errs.InvalidArgument, Msg: fmt.Sprintf("%s takes no consistency or virtual_files: %s; the read tools that answer through a workspace or virtual files are %s",
				t.Name, t.noView(), strings.Join(viewedTools(), ", "))}
		}
		return nil
	}
	mode := v.Consistency
	switch {
	case mode != "":
	case len(v.VirtualFiles) > 0:
		mode = Ephemeral
	case v.WorkspaceID != "":
		mode = InWS
	default:
		return nil
	}
	bad := func(format string, args ...any) error {
		return &errs.Error{Kind: errs.InvalidArgument, Msg: fmt.Sprintf(format, args...)}
	}
	switch mode {
	case Committed:
		if v.WorkspaceID != "" || len(v.VirtualFiles) > 0 {
			return bad("consistency committed reads the indexed tree alone: leave out workspace_id and virtual_files, or ask for consistency workspace or ephemeral")
		}
		return nil
	case InWS:
		if v.WorkspaceID == "" {
			return &errs.Error{Kind: errs.InvalidArgument, Msg: "consistency workspace needs workspace_id", Fixes: []string{"cairn workspace list shows the workspaces", "cairn workspace create makes one"}}
		}
		if len(v.VirtualFiles) > 0 {
			return bad("virtual_files need consistency ephemeral")
		}
	case Ephemeral:
		if len(v.VirtualFiles) == 0 {
			return bad("consistency ephemeral needs virtual_files (the files as this request sees them)")
		}
	default:
		return bad("consistency must be committed, workspace or ephemeral, not %q", mode)
	}
	vw := &view{mode: mode, workspace: v.WorkspaceID}
	if v.WorkspaceID != "" {
		ws, err := c.loadWorkspace(v.WorkspaceID)
		if err != nil {
			return err
		}
		vw.revision = ws.WS.Revision
		for _, p := range ws.WS.Paths() {
			content, deleted, _ := ws.File(p)
			vw.files = append(vw.files, viewFile{path: p, content: content, deleted: deleted})
		}
	}
	if len(v.VirtualFiles) > maxVirtualFiles {
		return &errs.Error{Kind: errs.TooLarge, Msg: fmt.Sprintf("%d virtual files, over the limit of %d", len(v.VirtualFiles), maxVirtualFiles)}
	}
	seen := map[string]bool{}
	for i, f := range v.VirtualFiles {
		if len(f.Content) > maxVirtualBytes {
			return &errs.Error{Kind: errs.TooLarge, Path: f.Path, Msg: fmt.Sprintf("virtual_files[%d] (%s) holds %d bytes, over the limit of %d", i, f.Path, len(f.Content), maxVirtualBytes)}
		}
		rp, err := c.Engine().CheckReadable(ctx, f.Path, "read")
		if err != nil {
			return err
		}
		if rp == "" {
			return &errs.Error{Kind: errs.InvalidArgument, Path: f.Path, Msg: fmt.Sprintf("virtual_files[%d]: %q is the repository root, not a file", i, f.Path)}
		}
		if seen[string(rp)] {
			return bad("virtual_files name %s twice", rp)
		}
		seen[string(rp)] = true
		vw.files = append(vw.files, viewFile{path: string(rp), content: []byte(f.Content), virtual: true})
	}
	c.view = vw
	c.applyView()
	return nil
}

// applyView binds the call's engine to a fresh overlay of its view (after
// every snapshot: an overlay's derived facts belong to one snapshot).
func (c *Call) applyView() {
	if c.view == nil || c.engine == nil {
		return
	}
	ov := query.NewOverlay(c.view.mode, c.view.workspace, c.view.revision)
	for _, f := range c.view.files {
		ov.Put(f.path, f.content, f.deleted, f.virtual)
	}
	c.view.ov = ov
	c.engine = c.engine.WithOverlay(ov)
}
