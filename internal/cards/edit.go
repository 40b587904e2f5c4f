package cards

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/store"
)

// Writes are planned here as one batch of file edits and applied by the
// mutation engine, all or nothing. Each edit of an existing file carries
// the sha256 of the content it was planned from, so a file changed in
// between fails the batch with CONFLICT instead of being overwritten.

// Plan is a batch of edits and what it does.
type Plan struct {
	Edits []mutate.FileEdit
	// Files lists the paths the batch changes, sorted.
	Files []string
}

func (p *Plan) add(fe mutate.FileEdit) {
	p.Edits = append(p.Edits, fe)
	p.Files = append(p.Files, fe.Path)
	sort.Strings(p.Files)
}

// read reads a repo file from disk (nil when it does not exist).
func (v *View) read(p string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(v.snap.Index().Paths().Root, filepath.FromSlash(p)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot read %s", p)
	}
	return b, nil
}

func update(p string, old, content []byte) mutate.FileEdit {
	s := string(content)
	return mutate.FileEdit{Path: p, Action: mutate.Update, Content: &s, ExpectedSHA256: mutate.SHA(old)}
}

func create(p string, content []byte) mutate.FileEdit {
	s := string(content)
	return mutate.FileEdit{Path: p, Action: mutate.Create, Content: &s}
}

func changedOnDisk(p string) error {
	return &errs.Error{Kind: errs.Conflict, Path: p, Msg: p + " changed since it was indexed",
		Fixes: []string{"repeat the call: it indexes the file again first"}}
}

// loadCard reads a card's file from disk for editing.
func (v *View) loadCard(key string) (*CardInfo, *Card, []byte, error) {
	info := v.m.card(key)
	if info == nil {
		return nil, nil, nil, v.noCard(key)
	}
	if len(v.m.byKey[key]) > 1 {
		return nil, nil, nil, &errs.Error{Kind: errs.Precondition, Msg: fmt.Sprintf("card %s is defined by %d files; remove the duplicates first", key, len(v.m.byKey[key])),
			Fixes: []string{"cairn cards verify"}}
	}
	data, err := v.read(info.Path)
	if err != nil {
		return nil, nil, nil, err
	}
	if data == nil {
		return nil, nil, nil, changedOnDisk(info.Path)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, nil, nil, &errs.Error{Kind: errs.Precondition, Path: info.Path, Msg: info.Path + " is not a valid card: " + err.Error(),
			Fixes: []string{"fix the file by hand (write_source), then repeat"}}
	}
	if c.Key != key {
		return nil, nil, nil, changedOnDisk(info.Path)
	}
	return info, c, data, nil
}

// editCard plans a change to one card.
func (v *View) editCard(p *Plan, key string, fn func(c *Card) error) error {
	info, c, data, err := v.loadCard(key)
	if err != nil {
		return err
	}
	next := c.Clone()
	if err := fn(next); err != nil {
		return err
	}
	if out := Format(next); !bytes.Equal(out, data) {
		p.add(update(info.Path, data, out))
	}
	return nil
}

// Fields are the editable fields of a card; nil leaves one as it is.
type Fields struct {
	Summary     *string
	Status      *string
	Body        *string
	Tags        *[]string
	Keywords    *[]string
	Constraints *[]string
}

// check validates field values against the registries and statuses.
func (v *View) check(f Fields) error {
	if f.Summary != nil && strings.TrimSpace(*f.Summary) == "" {
		return errs.E(errs.InvalidArgument, "summary must not be empty")
	}
	if f.Status != nil && !slices.Contains(Statuses, *f.Status) {
		return errs.E(errs.InvalidArgument, "status %q is not one of %s", *f.Status, strings.Join(Statuses, ", "))
	}
	for _, r := range []struct {
		names *[]string
		k     registryKind
	}{{f.Keywords, Keywords}, {f.Tags, Tags}} {
		if r.names == nil {
			continue
		}
		for _, n := range *r.names {
			if _, ok := v.m.registry[r.k.Kind][n]; !ok {
				return &errs.Error{Kind: errs.InvalidArgument, Msg: fmt.Sprintf("%s %q is not registered", r.k.Noun, n),
					Fixes: []string{fmt.Sprintf("cairn cards %s create %q registers it", r.k.Noun, n)}}
			}
		}
	}
	return nil
}

func (f Fields) apply(c *Card) {
	if f.Summary != nil {
		c.Summary = strings.TrimSpace(*f.Summary)
	}
	if f.Status != nil {
		c.Status = *f.Status
	}
	if f.Body != nil {
		c.Body = *f.Body
	}
	if f.Tags != nil {
		c.Tags = uniq(*f.Tags)
	}
	if f.Keywords != nil {
		c.Keywords = uniq(*f.Keywords)
	}
	if f.Constraints != nil {
		c.Constraints = slices.Clone(*f.Constraints)
	}
}

func uniq(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// checkRelation validates a relation a card would declare.
func (v *View) checkRelation(r Relation) error {
	if !slices.Contains(v.cfg.Relations, r.Type) {
		return errs.E(errs.InvalidArgument, "relation type %q is not one of cards.relations: %s", r.Type, strings.Join(v.cfg.Relations, ", "))
	}
	if v.m.card(r.Target) == nil {
		return v.noCard(r.Target)
	}
	return nil
}

// Create plans a new card file at the conventional path of its key.
func (v *View) Create(key string, f Fields, rels []Relation) (*Plan, error) {
	if !ValidKey(key) {
		return nil, errs.E(errs.InvalidArgument, "key %q is not a valid card key: slash-separated segments of letters, digits, '.', '_' and '-'", key)
	}
	if c := v.m.card(key); c != nil {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "card " + key + " exists (" + c.Path + ")", Fixes: []string{"card_update changes it"}}
	}
	if f.Summary == nil {
		return nil, errs.E(errs.InvalidArgument, "a card needs a summary")
	}
	if f.Status == nil {
		s := StatusDraft
		f.Status = &s
	}
	if *f.Status == StatusImplemented {
		return nil, errs.E(errs.Precondition, "a new card cannot be implemented: no code links to it yet; create it, link code with card_link_add, then set the status")
	}
	if err := v.check(f); err != nil {
		return nil, err
	}
	for _, r := range rels {
		if err := v.checkRelation(r); err != nil {
			return nil, err
		}
	}
	c := &Card{Key: key, Relations: slices.Clone(rels)}
	f.apply(c)
	p := PathFor(key)
	if data, err := v.read(p); err != nil {
		return nil, err
	} else if data != nil {
		return nil, &errs.Error{Kind: errs.Precondition, Path: p, Msg: p + " exists but is not indexed as a card", Fixes: []string{"cairn cards verify"}}
	}
	plan := &Plan{}
	plan.add(create(p, Format(c)))
	return plan, nil
}

// Update plans a change of some fields of a card.
func (v *View) Update(key string, f Fields) (*Plan, error) {
	if err := v.check(f); err != nil {
		return nil, err
	}
	if f.Status != nil {
		if err := v.checkStatus(key, *f.Status); err != nil {
			return nil, err
		}
	}
	plan := &Plan{}
	return plan, v.editCard(plan, key, func(c *Card) error { f.apply(c); return nil })
}

// checkStatus refuses a status the card's links contradict.
func (v *View) checkStatus(key, status string) error {
	if status == StatusImplemented && len(v.m.byLink[key]) == 0 {
		return &errs.Error{Kind: errs.Precondition, Msg: "card " + key + " cannot be implemented: no code links to it with @see",
			Fixes: []string{fmt.Sprintf("card_link_add {\"card\": %q, \"path\": \"<file>\", \"symbol\": \"<name>\"} links the code that implements it", key)}}
	}
	return nil
}

// SetStatus plans a status change.
func (v *View) SetStatus(key, status string) (*Plan, error) {
	return v.Update(key, Fields{Status: &status})
}

// references describes what still points at a card.
func (v *View) references(key string) []string {
	var out []string
	for _, r := range v.m.rels[key] {
		if r.Reverse && r.Dst != key {
			out = append(out, fmt.Sprintf("card %s (%s)", r.Dst, r.Type))
		}
	}
	for _, l := range v.m.linksOf(key) {
		out = append(out, fmt.Sprintf("@see in %s:%d", l.Path, l.Line))
	}
	return out
}

// Delete plans the removal of a card file; it is refused while other cards
// or code refer to the card.
func (v *View) Delete(key string) (*Plan, error) {
	info, _, data, err := v.loadCard(key)
	if err != nil {
		return nil, err
	}
	if refs := v.references(key); len(refs) > 0 {
		shown := refs
		if len(shown) > 10 {
			shown = shown[:10]
		}
		return nil, &errs.Error{Kind: errs.Precondition, Msg: fmt.Sprintf("card %s is still referenced %d times: %s", key, len(refs), strings.Join(shown, "; ")),
			Details: map[string]any{"references": refs},
			Fixes:   []string{"card_relation_remove and card_link_remove each reference first", "or card_rename to keep the references"}}
	}
	plan := &Plan{}
	plan.add(mutate.FileEdit{Path: info.Path, Action: mutate.Delete, ExpectedSHA256: mutate.SHA(data)})
	return plan, nil
}

// Rename plans a key change across the repository in one batch: the card
// (moved to the new key's path when it sits at the old key's), every
// relation that targets it, and every @see in code.
func (v *View) Rename(old, new string) (*Plan, error) {
	if !ValidKey(new) {
		return nil, errs.E(errs.InvalidArgument, "key %q is not a valid card key", new)
	}
	if old == new {
		return nil, errs.E(errs.InvalidArgument, "the new key is the old one")
	}
	if c := v.m.card(new); c != nil {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "card " + new + " exists (" + c.Path + ")"}
	}
	info, c, data, err := v.loadCard(old)
	if err != nil {
		return nil, err
	}
	plan := &Plan{}
	next := c.Clone()
	next.Key = new
	for i, r := range next.Relations {
		if r.Target == old {
			next.Relations[i].Target = new
		}
	}
	if info.Path == PathFor(old) && PathFor(new) != info.Path {
		if existing, err := v.read(PathFor(new)); err != nil {
			return nil, err
		} else if existing != nil {
			return nil, &errs.Error{Kind: errs.Precondition, Path: PathFor(new), Msg: PathFor(new) + " exists"}
		}
		plan.add(mutate.FileEdit{Path: info.Path, Action: mutate.Delete, ExpectedSHA256: mutate.SHA(data)})
		plan.add(create(PathFor(new), Format(next)))
	} else {
		plan.add(update(info.Path, data, Format(next)))
	}
	// Cards whose relations target the old key.
	var sources []string
	for _, r := range v.m.rels[old] {
		if r.Reverse && r.Dst != old && !slices.Contains(sources, r.Dst) {
			sources = append(sources, r.Dst)
		}
	}
	sort.Strings(sources)
	for _, src := range sources {
		err := v.editCard(plan, src, func(c *Card) error {
			for i, r := range c.Relations {
				if r.Target == old {
					c.Relations[i].Target = new
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// @see links in code, rewritten in place.
	byPath := map[string][]store.CardLink{}
	for _, l := range v.m.linksOf(old) {
		byPath[l.Path] = append(byPath[l.Path], l)
	}
	for _, p := range sortedKeys(byPath) {
		data, err := v.read(p)
		if err != nil {
			return nil, err
		}
		if data == nil {
			return nil, changedOnDisk(p)
		}
		out, err := replaceKeys(data, byPath[p], old, new)
		if err != nil {
			return nil, err
		}
		plan.add(update(p, data, out))
	}
	return plan, nil
}

// replaceKeys rewrites the keys written at the links' positions.
func replaceKeys(data []byte, links []store.CardLink, old, new string) ([]byte, error) {
	offs := lang.LineStarts(data)
	var at []int
	for _, l := range links {
		if l.Line < 1 || l.Line > len(offs) {
			return nil, changedOnDisk(l.Path)
		}
		o := offs[l.Line-1] + l.Col - 1
		if o+len(old) > len(data) || string(data[o:o+len(old)]) != old {
			return nil, changedOnDisk(l.Path)
		}
		at = append(at, o)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(at)))
	out := append([]byte{}, data...)
	for _, o := range at {
		out = append(out[:o], append([]byte(new), out[o+len(old):]...)...)
	}
	return out, nil
}

// RelationAdd plans a relation from one card to another.
func (v *View) RelationAdd(src, dst, typ string) (*Plan, error) {
	r := Relation{Type: typ, Target: dst}
	if err := v.checkRelation(r); err != nil {
		return nil, err
	}
	plan := &Plan{}
	err := v.editCard(plan, src, func(c *Card) error {
		if slices.Contains(c.Relations, r) {
			return nil
		}
		c.Relations = append(c.Relations, r)
		return nil
	})
	return plan, err
}

// RelationRemove plans the removal of a card's relations to dst (of one
// type, or every type when typ is empty).
func (v *View) RelationRemove(src, dst, typ string) (*Plan, int, error) {
	plan := &Plan{}
	removed := 0
	err := v.editCard(plan, src, func(c *Card) error {
		c.Relations = slices.DeleteFunc(c.Relations, func(r Relation) bool {
			if r.Target == dst && (typ == "" || r.Type == typ) {
				removed++
				return true
			}
			return false
		})
		return nil
	})
	return plan, removed, err
}

// codeFile reads a code file for a link edit, checking that the index
// holds its current content, and returns its definitions.
func (v *View) codeFileForEdit(ctx context.Context, p string) (*store.FileRow, []byte, []lang.Def, error) {
	f, err := v.file(ctx, p)
	if err != nil {
		return nil, nil, nil, err
	}
	if f == nil {
		return nil, nil, nil, &errs.Error{Kind: errs.FileNotFound, Path: p, Msg: "no indexed file " + p}
	}
	data, err := v.read(p)
	if err != nil {
		return nil, nil, nil, err
	}
	if data == nil || store.Hash(xxh3.Hash128(data).Bytes()) != f.Hash {
		return nil, nil, nil, changedOnDisk(p)
	}
	facts, err := v.snap.Facts(ctx, f.BlobID)
	if err != nil {
		return nil, nil, nil, err
	}
	var defs []lang.Def
	if facts != nil {
		defs = facts.Defs
	}
	return f, data, defs, nil
}

// target resolves the definition a link edit is about: "" for the file,
// else a symbol of the file by entity key, symbol id or lexical path.
func (v *View) target(ctx context.Context, f *store.FileRow, defs []lang.Def, symbol string) (int, error) {
	if symbol == "" {
		return -1, nil
	}
	if IsEntityKey(symbol) {
		e, err := v.Entity(ctx, symbol)
		if err != nil {
			return 0, err
		}
		if string(e.Location.Path) != f.Path {
			return 0, errs.E(errs.InvalidArgument, "%s is not in %s", symbol, f.Path)
		}
		return e.def, nil
	}
	var found []int
	for i, d := range defs {
		if d.Path == symbol || d.Name == symbol && !strings.Contains(symbol, ".") {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return 0, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no definition %s in %s", symbol, f.Path)}
	case 1:
		return found[0], nil
	}
	var cands []any
	for _, i := range found {
		cands = append(cands, symbolKey(f.Path, defs[i]))
	}
	return 0, &errs.Error{Kind: errs.Ambiguous, Msg: fmt.Sprintf("%d definitions named %s in %s", len(found), symbol, f.Path), Candidates: cands}
}

// LinkAdd plans a @see key on a definition of a file (or on the file).
// changed is false when the link is there already.
func (v *View) LinkAdd(ctx context.Context, p, key, symbol string) (*Plan, bool, error) {
	if v.m.card(key) == nil {
		return nil, false, v.noCard(key)
	}
	f, data, defs, err := v.codeFileForEdit(ctx, p)
	if err != nil {
		return nil, false, err
	}
	t, err := v.target(ctx, f, defs, symbol)
	if err != nil {
		return nil, false, err
	}
	out, changed, err := AddLink(f.Lang, data, defs, t, key)
	if err != nil || !changed {
		return &Plan{}, false, err
	}
	plan := &Plan{}
	plan.add(update(p, data, out))
	return plan, true, nil
}

// LinkRemove plans the removal of the @see key links of a file (those of
// one definition when symbol is given).
func (v *View) LinkRemove(ctx context.Context, p, key, symbol string) (*Plan, int, error) {
	f, data, defs, err := v.codeFileForEdit(ctx, p)
	if err != nil {
		return nil, 0, err
	}
	var target *int
	if symbol != "" {
		t, err := v.target(ctx, f, defs, symbol)
		if err != nil {
			return nil, 0, err
		}
		target = &t
	}
	out, n := RemoveLink(f.Lang, data, defs, target, key)
	plan := &Plan{}
	if n > 0 {
		plan.add(update(p, data, out))
	}
	return plan, n, nil
}

// registry reads a registry file from disk for editing.
func (v *View) registryFile(k registryKind) ([]Entry, []byte, error) {
	data, err := v.read(k.Path)
	if err != nil || data == nil {
		return nil, nil, err
	}
	entries, err := ParseRegistry(k, data)
	if err != nil {
		return nil, nil, &errs.Error{Kind: errs.Precondition, Path: k.Path, Msg: err.Error(), Fixes: []string{"fix the file by hand (write_source), then repeat"}}
	}
	return entries, data, nil
}

// kindFor is the registry of a kind.
func kindFor(kind uint8) registryKind {
	if kind == store.LabelTag {
		return Tags
	}
	return Keywords
}

// RegistryCreate plans a new keyword or tag.
func (v *View) RegistryCreate(kind uint8, name, description string) (*Plan, error) {
	k := kindFor(kind)
	if !ValidName(name) {
		return nil, errs.E(errs.InvalidArgument, "%q is not a valid %s name: letters, digits, spaces and . _ / + -, starting with a letter or digit", name, k.Noun)
	}
	entries, data, err := v.registryFile(k)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Name == name {
			return nil, errs.E(errs.Precondition, "%s %q is registered already", k.Noun, name)
		}
	}
	entries = append(entries, Entry{Name: name, Description: strings.TrimSpace(description)})
	plan := &Plan{}
	if data == nil {
		plan.add(create(k.Path, FormatRegistry(k, entries)))
	} else {
		plan.add(update(k.Path, data, FormatRegistry(k, entries)))
	}
	return plan, nil
}

// RegistryDelete plans the removal of a keyword or tag: from the registry
// and from every card that names it, in one batch.
func (v *View) RegistryDelete(kind uint8, name string) (*Plan, []string, error) {
	k := kindFor(kind)
	entries, data, err := v.registryFile(k)
	if err != nil {
		return nil, nil, err
	}
	kept := slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool { return e.Name == name })
	if len(kept) == len(entries) {
		return nil, nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%s %q is not registered", k.Noun, name)}
	}
	plan := &Plan{}
	plan.add(update(k.Path, data, FormatRegistry(k, kept)))
	var unlinked []string
	for _, s := range v.List(ListFilter{}) {
		names := s.Keywords
		if kind == store.LabelTag {
			names = s.Tags
		}
		if !slices.Contains(names, name) {
			continue
		}
		unlinked = append(unlinked, s.Key)
		err := v.editCard(plan, s.Key, func(c *Card) error {
			if kind == store.LabelTag {
				c.Tags = slices.DeleteFunc(c.Tags, func(t string) bool { return t == name })
			} else {
				c.Keywords = slices.DeleteFunc(c.Keywords, func(t string) bool { return t == name })
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return plan, unlinked, nil
}
