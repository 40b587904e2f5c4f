package manifest

import (
	"golang.org/x/mod/modfile"
)

// asWritten keeps versions as the file writes them: the go command's
// canonical form is not Cairn's business, and a version it would reject
// must not cost the rest of the file.
func asWritten(_, version string) (string, error) { return version, nil }

// parseGoMod reads the module path, require (indirect marks kept), tool and
// replace directives. A file the strict parser rejects (a directive from a
// newer Go, a malformed line) is read again leniently, and failing that only
// its module path is kept.
func parseGoMod(m *Manifest, data []byte) error {
	f, err := modfile.Parse("go.mod", data, asWritten)
	if err != nil {
		lax, laxErr := modfile.ParseLax("go.mod", data, asWritten)
		if laxErr != nil {
			m.Name = modfile.ModulePath(data)
			return err
		}
		f = lax
	}
	if f.Module != nil {
		m.Name = f.Module.Mod.Path
	}
	for _, r := range f.Require {
		scope := ScopeRuntime
		if r.Indirect {
			scope = ScopeIndirect
		}
		m.add(r.Mod.Path, r.Mod.Version, scope)
	}
	for _, t := range f.Tool {
		m.add(t.Path, "", ScopeTool)
	}
	for _, r := range f.Replace {
		m.Replaces = append(m.Replaces, Replace{Old: r.Old.Path, OldVersion: r.Old.Version, New: r.New.Path, NewVersion: r.New.Version})
	}
	return err
}

// parseGoWork reads the use and replace directives of a go.work. A go.work
// that does not parse fences its directory without saying who is in it.
func parseGoWork(m *Manifest, data []byte) error {
	f, err := modfile.ParseWork("go.work", data, asWritten)
	if err != nil {
		m.Workspace = &Workspace{Members: []string{}, Open: true}
		return err
	}
	m.Workspace = &Workspace{Members: []string{}}
	for _, u := range f.Use {
		m.Workspace.Members = append(m.Workspace.Members, u.Path)
	}
	for _, r := range f.Replace {
		m.Replaces = append(m.Replaces, Replace{Old: r.Old.Path, OldVersion: r.Old.Version, New: r.New.Path, NewVersion: r.New.Version})
	}
	return nil
}
