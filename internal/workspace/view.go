package workspace

// View is a workspace's overlay with its contents loaded: what a request
// reads through and what a write into the workspace plans against.
type View struct {
	WS *Workspace
	// contents by path; nil for a deleted path
	contents map[string][]byte
}

// Open reads a workspace and the contents of its overlay. It takes no lock:
// a write to the same workspace meanwhile may collect a content the
// workspace read first held, and then the workspace is read again (its new
// revision holds contents that are there).
func (s *Store) Open(id ID) (*View, error) {
	for attempt := 0; ; attempt++ {
		w, err := s.Get(id)
		if err != nil {
			return nil, err
		}
		v, err := s.Load(w)
		if err == nil || attempt == 4 {
			return v, err
		}
		if again, rerr := s.read(id); rerr == nil && again.Revision == w.Revision {
			return nil, err // not a change underneath: the content is lost
		}
	}
}

// Load reads the contents of a workspace's overlay.
func (s *Store) Load(w *Workspace) (*View, error) {
	v := &View{WS: w, contents: map[string][]byte{}}
	for p, f := range w.Files {
		if f.Deleted {
			v.contents[p] = nil
			continue
		}
		data, err := s.Content(f.SHA256)
		if err != nil {
			return nil, err
		}
		v.contents[p] = data
	}
	return v, nil
}

// File returns the overlay's version of a path (mutate.Overlay).
func (v *View) File(path string) (content []byte, deleted, held bool) {
	c, held := v.contents[path]
	return c, held && c == nil, held
}

// Change is a file a write stages into an overlay.
type Change struct {
	Path    string
	Content []byte // nil when deleted
	// FromDisk: the overlay did not hold the path; DiskSHA256 is the sha256
	// of the working-tree file it was planned against ("" when none).
	FromDisk   bool
	DiskSHA256 string
	// DiskContent is that file's content (nil when it did not exist): kept
	// by its sha256 as the base a refresh merges from.
	DiskContent []byte
}

// Stage records changes in a workspace's overlay (one revision), keeping
// each path's base from the first time the overlay took it.
func (s *Store) Stage(id ID, changes []Change) (*Workspace, error) {
	return s.Update(id, func(w *Workspace) error {
		// The contents are stored under the lock: the collection that ends
		// another workspace's update would remove a content stored before
		// this workspace holds it.
		sums := make([]string, len(changes))
		for i, c := range changes {
			if c.FromDisk && c.DiskContent != nil {
				if _, err := s.Put(c.DiskContent); err != nil {
					return err
				}
			}
			if c.Content == nil {
				continue
			}
			sum, err := s.Put(c.Content)
			if err != nil {
				return err
			}
			sums[i] = sum
		}
		for i, c := range changes {
			f := w.Files[c.Path]
			if f == nil {
				f = &File{BaseSHA256: c.DiskSHA256}
				w.Files[c.Path] = f
			}
			f.SHA256, f.Deleted = sums[i], c.Content == nil
			if !f.Deleted && f.SHA256 == f.BaseSHA256 {
				delete(w.Files, c.Path) // back to the working tree's content
			} else if f.Deleted && f.BaseSHA256 == "" {
				delete(w.Files, c.Path) // a file the overlay created, deleted again
			}
		}
		w.Revision++
		return nil
	})
}
