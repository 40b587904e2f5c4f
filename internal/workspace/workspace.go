// Package workspace owns workspaces: named overlays of changed files that
// stand in front of a repository's indexed working tree, so that several
// agents can edit the same repository without seeing each other's changes
// until one of them applies its overlay. A workspace is an id, the base it
// was created on (the commit and index epoch), and its files: each path's
// overlay content (or its deletion) with the sha256 the working-tree file had
// when the overlay first took it, which is what applying checks, and that
// content itself, the base a refresh merges the tree's changes from. Workspaces
// live under the repository's state directory and survive restarts; their
// contents are kept once per sha256 in a content-addressed directory the
// workspaces share. It never writes the working tree (the mutation engine
// does, on apply) and never reads the index.
package workspace

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/atomicfile"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lockfile"
)

// ID names a workspace: lower-case letters, digits, '.', '_' and '-', at most
// 64, starting with a letter or digit.
type ID string

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// CheckID refuses a malformed workspace id.
func CheckID(id string) error {
	if !idPattern.MatchString(id) {
		return &errs.Error{Kind: errs.InvalidArgument, Msg: fmt.Sprintf("bad workspace id %q: use 1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit", id)}
	}
	return nil
}

// Base is what a workspace was created (or last refreshed) on.
type Base struct {
	Commit string `json:"commit,omitempty"` // HEAD then ("" outside git or before the first commit)
	Epoch  int64  `json:"epoch"`            // the index epoch then
}

// File is one path of an overlay.
type File struct {
	// SHA256 is the overlay content's hash ("" when the overlay deletes it).
	SHA256  string `json:"sha256,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
	// BaseSHA256 is the sha256 the working-tree file had when the overlay
	// took it ("" when it did not exist): applying refuses when it changed.
	// That content is kept in the store under this sum (Store.BaseContent):
	// a refresh merges the tree's changes since into the overlay from it.
	BaseSHA256 string `json:"base_sha256,omitempty"`
}

// Workspace is one overlay with its base.
type Workspace struct {
	ID        ID               `json:"id"`
	Base      Base             `json:"base"`
	CreatedAt string           `json:"created_at"` // RFC 3339
	Revision  int              `json:"revision"`   // counts the changes to its files
	Files     map[string]*File `json:"files"`      // by repo path
}

// Paths lists the overlay's paths, sorted.
func (w *Workspace) Paths() []string {
	return slices.Sorted(maps.Keys(w.Files))
}

// Store keeps the workspaces of one repository.
type Store struct {
	dir string
}

// Open returns the workspace store under a repository's state directory.
func Open(stateDir string) *Store { return &Store{dir: filepath.Join(stateDir, "workspaces")} }

func (s *Store) file(id ID) string { return filepath.Join(s.dir, string(id)+".json") }
func (s *Store) blob(sum string) string {
	return filepath.Join(s.dir, "blobs", sum[:2], sum)
}

// dirLocks serialises the changes of one process to one store; the lock
// file serialises processes.
var dirLocks sync.Map // store dir -> *sync.Mutex

// Lock holds the store for a read-modify-write of its workspaces (waiting up
// to 5 s for another process); unlock ends it.
func (s *Store) Lock() (unlock func(), err error) {
	mu, _ := dirLocks.LoadOrStore(s.dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		mu.(*sync.Mutex).Unlock()
		return nil, errs.Wrap(errs.Internal, err, "cannot create %s", s.dir)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		l, _, err := lockfile.TryLock(filepath.Join(s.dir, "lock"))
		if err == nil {
			return func() { l.Unlock(); mu.(*sync.Mutex).Unlock() }, nil
		}
		if !errors.Is(err, lockfile.ErrLocked) || time.Now().After(deadline) {
			mu.(*sync.Mutex).Unlock()
			return nil, &errs.Error{Kind: errs.Conflict, Err: err, Msg: "the workspaces are busy: another process is changing them"}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// NewID makes a fresh workspace id.
func NewID() ID {
	var b [4]byte
	rand.Read(b[:])
	return ID("ws-" + hex.EncodeToString(b[:]))
}

// Get reads a workspace; NOT_FOUND names the ones there are.
func (s *Store) Get(id ID) (*Workspace, error) {
	if err := CheckID(string(id)); err != nil {
		return nil, err
	}
	w, err := s.read(id)
	if errors.Is(err, fs.ErrNotExist) {
		e := &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no workspace %q", id),
			Fixes: []string{"cairn workspace list shows the workspaces", "cairn workspace create makes one"}}
		if all, lerr := s.List(); lerr == nil && len(all) > 0 {
			var ids []any
			for _, w := range all {
				ids = append(ids, string(w.ID))
			}
			e.Candidates = ids
		}
		return nil, e
	}
	return w, err
}

// read reads a workspace's file (an fs.ErrNotExist error when there is
// none).
func (s *Store) read(id ID) (*Workspace, error) {
	data, err := os.ReadFile(s.file(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot read workspace %s", id)
	}
	var w Workspace
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "workspace %s is damaged (%s)", id, s.file(id))
	}
	if w.Files == nil {
		w.Files = map[string]*File{}
	}
	return &w, nil
}

// List reads every workspace, sorted by id.
func (s *Store) List() ([]*Workspace, error) {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot list workspaces")
	}
	var out []*Workspace
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || filepath.Ext(name) != ".json" {
			continue
		}
		id := ID(name[:len(name)-len(".json")])
		if CheckID(string(id)) != nil {
			continue // a stray file: not a workspace
		}
		w, err := s.read(id)
		if err != nil {
			continue // deleted meanwhile, or damaged: Get says which
		}
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Save writes a workspace atomically. Callers hold Lock.
func (s *Store) Save(w *Workspace) error {
	data, err := json.MarshalIndent(w, "", " ")
	if err != nil {
		return err
	}
	return writeAtomic(s.file(w.ID), data)
}

// Create makes a workspace on base, or returns the one that has the id
// already (created false).
func (s *Store) Create(id ID, base Base) (w *Workspace, created bool, err error) {
	if err := CheckID(string(id)); err != nil {
		return nil, false, err
	}
	unlock, err := s.Lock()
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	if w, err := s.Get(id); err == nil {
		return w, false, nil
	}
	w = &Workspace{ID: id, Base: base, CreatedAt: time.Now().UTC().Format(time.RFC3339), Files: map[string]*File{}}
	return w, true, s.Save(w)
}

// Delete removes a workspace (false when there was none) and the contents
// no workspace holds any more.
func (s *Store) Delete(id ID) (bool, error) {
	if err := CheckID(string(id)); err != nil {
		return false, err
	}
	unlock, err := s.Lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	err = os.Remove(s.file(id))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, errs.Wrap(errs.Internal, err, "cannot delete workspace %s", id)
	}
	return true, s.collect()
}

// Put stores content by its sha256 (once) and returns the sum.
func (s *Store) Put(content []byte) (string, error) {
	sum := SHA(content)
	p := s.blob(sum)
	if _, err := os.Stat(p); err == nil {
		return sum, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", errs.Wrap(errs.Internal, err, "cannot store workspace content")
	}
	return sum, writeAtomic(p, content)
}

// Content reads stored content by its sha256, checking it.
func (s *Store) Content(sum string) ([]byte, error) {
	if len(sum) != 64 {
		return nil, errs.E(errs.Internal, "bad content hash %q", sum)
	}
	data, err := os.ReadFile(s.blob(sum))
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "workspace content %s is missing", sum[:12])
	}
	if SHA(data) != sum {
		return nil, errs.E(errs.Internal, "workspace content %s is damaged", sum[:12])
	}
	return data, nil
}

// BaseContent is the content an overlay file was based on: empty for a
// file the overlay created; ok is false when it was not recorded (a
// workspace written before bases were kept, or its content is gone).
func (s *Store) BaseContent(f *File) (content []byte, ok bool) {
	if f.BaseSHA256 == "" {
		return []byte{}, true
	}
	data, err := s.Content(f.BaseSHA256)
	return data, err == nil
}

// Collect removes the contents no workspace holds. Callers hold Lock.
func (s *Store) collect() error {
	all, err := s.List()
	if err != nil {
		return err
	}
	held := map[string]bool{}
	for _, w := range all {
		for _, f := range w.Files {
			held[f.SHA256] = true
			held[f.BaseSHA256] = true
		}
	}
	return filepath.WalkDir(filepath.Join(s.dir, "blobs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if !held[d.Name()] {
			os.Remove(p)
		}
		return nil
	})
}

// Reset drops a workspace's overlay (its base stays); it returns the
// revision it had.
func (s *Store) Reset(id ID) (int, error) {
	unlock, err := s.Lock()
	if err != nil {
		return 0, err
	}
	defer unlock()
	w, err := s.Get(id)
	if err != nil {
		return 0, err
	}
	prev := w.Revision
	w.Files, w.Revision = map[string]*File{}, 0
	if err := s.Save(w); err != nil {
		return 0, err
	}
	return prev, s.collect()
}

// Update runs f on a workspace under the lock and saves what it leaves;
// f returning an error saves nothing.
func (s *Store) Update(id ID, f func(w *Workspace) error) (*Workspace, error) {
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	w, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	if err := f(w); err != nil {
		return nil, err
	}
	if err := s.Save(w); err != nil {
		return nil, err
	}
	return w, s.collect()
}

// SHA is the hex sha256 of content.
func SHA(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

func writeAtomic(p string, data []byte) error {
	if err := atomicfile.Write(p, data, 0o644); err != nil {
		return errs.Wrap(errs.Internal, err, "cannot write %s", p)
	}
	return nil
}
