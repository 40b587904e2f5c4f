package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// TestGraphGoldens runs the call graph, type hierarchy, trace and surface
// fixtures (testdata/graph and testdata/surfaces): each
// txtar archive is a repository, a "calls" section (one tool call per line:
// NAME {json arguments}) and a "want" section with the answers (answer,
// data, truncations, layers), rewritten with -update.
func TestGraphGoldens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatal("no fixtures in testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			testenv.Isolate(t)
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var calls []string
			want, wantIdx := "", -1
			for i, f := range ar.Files {
				switch f.Name {
				case "calls":
					for _, l := range strings.Split(string(f.Data), "\n") {
						if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
							calls = append(calls, l)
						}
					}
				case "want":
					want, wantIdx = string(f.Data), i
				}
			}
			svc := openFixture(t, ar, "calls", "want")
			var got bytes.Buffer
			for _, c := range calls {
				name, args, _ := strings.Cut(c, " ")
				env := tools.Invoke(context.Background(), svc.Env(), name, json.RawMessage(args))
				out := map[string]any{"answer": env.Answer, "data": env.Data}
				if env.Error != nil {
					out = map[string]any{"error": env.Error}
				} else {
					p := env.Provenance
					out["layers"] = p.Layers
					if len(p.Truncations) > 0 {
						out["truncations"] = p.Truncations
					}
					if p.Completeness.Score < 1 {
						out["completeness"] = p.Completeness
					}
				}
				b, err := json.MarshalIndent(out, "", " ")
				if err != nil {
					t.Fatal(err)
				}
				got.WriteString("## " + c + "\n")
				got.Write(b)
				got.WriteString("\n")
			}
			matchGolden(t, "answers", want, got.Bytes(), func(b []byte) error {
				if wantIdx < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantIdx = len(ar.Files) - 1
				}
				ar.Files[wantIdx].Data = b
				return os.WriteFile(file, txtar.Format(ar), 0o644)
			})
		})
	}
}
