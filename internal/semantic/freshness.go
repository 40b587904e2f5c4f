package semantic

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/store"
)

// IndexFreshness says how an imported index relates to the repository now
// (CKB §6.6): the commit it was built at against HEAD, and which of its
// files changed since.
type IndexFreshness struct {
	Key            string   `json:"key"`
	Tool           string   `json:"tool"`
	ToolVersion    string   `json:"tool_version"`
	Root           string   `json:"root"`
	Source         string   `json:"source"`
	IndexedCommit  string   `json:"indexed_commit,omitempty"`
	CommitKnown    bool     `json:"indexed_commit_known"`
	Head           string   `json:"head,omitempty"`
	StaleAgainstHd bool     `json:"stale_against_head"`
	CommitsBehind  int      `json:"commits_behind"` // -1 when unknown
	ImportedAt     string   `json:"imported_at"`
	Languages      []string `json:"languages"`
	Documents      int      `json:"documents"`
	Usable         int      `json:"usable_files"`  // documents whose file is what the indexer saw
	Changed        int      `json:"changed_files"` // changed since the index (or while it was built)
	Missing        int      `json:"missing_files"`
	NotInIndex     int      `json:"files_not_in_index"` // files of its languages under its root it does not cover
	Stale          bool     `json:"stale"`              // any of the above
	Warning        string   `json:"warning,omitempty"`
}

// FileStatus is the semantic state of one document against the current file.
type FileStatus struct {
	Index  int64
	Ord    int64
	Usable bool   // its facts describe the file as it is now
	Reason string // why not, when not usable
}

// DocStatus compares a stored document with the current file row (nil when
// the file is gone).
func DocStatus(d store.SemDocRow, f *store.FileRow) FileStatus {
	st := FileStatus{Index: d.Index, Ord: d.Ord}
	switch {
	case DocState(d.State) != DocUsable:
		st.Reason = DocState(d.State).String()
	case f == nil:
		st.Reason = "deleted since the semantic index"
	case len(d.Hash) != len(f.Hash) || string(d.Hash) != string(f.Hash[:]):
		st.Reason = "changed since the semantic index"
	default:
		st.Usable = true
	}
	return st
}

// Freshness reports every imported index against HEAD and the file table.
// git runs only to count the commits between the indexed commit and HEAD.
func Freshness(ctx context.Context, db *store.Reader, root, head string, files []store.FileRow) ([]IndexFreshness, error) {
	idxs, err := db.SemIndexes(ctx)
	if err != nil || len(idxs) == 0 {
		return nil, err
	}
	docs, err := db.SemDocs(ctx)
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]*store.FileRow, len(files))
	for i := range files {
		byPath[files[i].Path] = &files[i]
	}
	perIndex := map[int64][]store.SemDocRow{}
	for _, d := range docs {
		perIndex[d.Index] = append(perIndex[d.Index], d)
	}
	var out []IndexFreshness
	for _, x := range idxs {
		fr := IndexFreshness{Key: x.Key, Tool: x.Tool, ToolVersion: x.ToolVersion, Root: x.Root, Source: x.Source,
			IndexedCommit: x.Head, CommitKnown: x.HeadKnown, Head: head, CommitsBehind: 0,
			ImportedAt: time.Unix(x.ImportedAt, 0).UTC().Format(time.RFC3339), Languages: []string{}}
		langs := map[string]bool{}
		inIndex := map[string]bool{}
		for _, d := range perIndex[x.ID] {
			fr.Documents++
			inIndex[d.Path] = true
			f := byPath[d.Path]
			if f != nil && f.Lang != "" {
				langs[f.Lang] = true
			}
			st := DocStatus(d, f)
			switch {
			case st.Usable:
				fr.Usable++
			case f == nil || DocState(d.State) == DocMissing:
				fr.Missing++
			default:
				fr.Changed++
			}
		}
		for l := range langs {
			fr.Languages = append(fr.Languages, l)
		}
		sort.Strings(fr.Languages)
		for _, f := range files {
			if langs[f.Lang] && !inIndex[f.Path] && under(f.Path, x.Root) {
				fr.NotInIndex++
			}
		}
		if head != "" && x.Head != "" && x.Head != head {
			fr.StaleAgainstHd = true
			fr.CommitsBehind = commitsBetween(ctx, root, x.Head, head)
		}
		fr.Stale = fr.StaleAgainstHd || fr.Changed > 0 || fr.Missing > 0
		var why []string
		if fr.StaleAgainstHd {
			if fr.CommitsBehind >= 0 {
				why = append(why, fmt.Sprintf("%d commits behind HEAD", fr.CommitsBehind))
			} else {
				why = append(why, "built at another commit than HEAD")
			}
		}
		if fr.Changed > 0 {
			why = append(why, fmt.Sprintf("%d files changed since (they use syntactic facts)", fr.Changed))
		}
		if fr.Missing > 0 {
			why = append(why, fmt.Sprintf("%d files gone", fr.Missing))
		}
		if len(why) > 0 {
			fr.Warning = fmt.Sprintf("semantic index %s (%s): %s", x.Key, x.Tool, strings.Join(why, "; "))
		}
		out = append(out, fr)
	}
	return out, nil
}

func under(p, root string) bool {
	return root == "" || p == root || strings.HasPrefix(p, root+"/")
}

// commitsBetween counts the commits reachable from head but not from base
// (-1 when git cannot tell, e.g. base is not in this clone).
func commitsBetween(ctx context.Context, root, base, head string) int {
	out, err := gitx.Run(ctx, root, "rev-list", "--count", base+".."+head)
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return -1
	}
	return n
}
