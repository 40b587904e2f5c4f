package tools

import (
	"context"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/query"
)

// ReadIn are the arguments of read_source.
type ReadIn struct {
	Path      string `json:"path,omitempty" jsonschema:"repo-relative path (a name no file has reads that symbol's definition, with a warning)"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line (1-based, default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line, inclusive"`
	Symbol    string `json:"symbol,omitempty" jsonschema:"a symbol's definition instead of a path"`
	Common
	View
}

func init() {
	Register(Tool{
		Name: "read_source", Group: "read", Fresh: true,
		Summary:  "Numbered lines of a file span or a symbol's definition, with the file's sha256.",
		When:     []string{"reading a span you located with search or symbol_get", "reading a symbol's definition (symbol)", "getting file_sha256 before an edit"},
		WhenNot:  []string{"a whole file you truly need entire: read_file_full", "finding where something is: search"},
		Examples: []string{`{"path": "main.go", "start_line": 10, "end_line": 40}`, `{"symbol": "rest.Config"}`},
	}, readSource)
}

func readSource(ctx context.Context, c *Call, in ReadIn) (*query.ReadResult, error) {
	p := query.ReadParams{Path: in.Path, StartLine: in.StartLine, EndLine: in.EndLine}
	if in.Symbol != "" {
		if in.Path != "" {
			return nil, errs.E(errs.InvalidArgument, "give either path or symbol, not both")
		}
		if err := definitionSpan(ctx, c, in.Symbol, &p); err != nil {
			return nil, err
		}
	}
	if p.Path == "" {
		return nil, errs.E(errs.InvalidArgument, "name a file (path) or a symbol")
	}
	p.MaxLines = c.Clamp("limit", in.Limit, LinesBudget)
	p.MaxChars = c.payloadBudget(ctx, c.Clamp("max_chars", in.MaxChars, CharsBudget))
	res, err := c.Engine().Read(ctx, p)
	if errs.Is(err, errs.FileNotFound) && in.Symbol == "" && in.StartLine == 0 && in.EndLine == 0 {
		res, err = readSpelled(ctx, c, in.Path, p, err)
	}
	if err != nil {
		return nil, err
	}
	c.Answer("%s lines %d-%d of %d", res.Path, res.StartLine, res.EndLine, res.TotalLines)
	if res.Truncated {
		c.Truncated("lines", len(res.Lines), res.Requested-res.StartLine+1, res.TruncatedBy, "")
		c.Next("read_source", map[string]any{"path": res.Path, "start_line": res.EndLine + 1, "end_line": res.Requested}, "read the rest of the span")
	}
	return res, nil
}

// readSpelled reads what a path no file has means: a place with its lines
// (PATH:LINE:COL, PATH#LA-LB, as search and other tools print places) or
// the name of a symbol; else it answers notFound.
func readSpelled(ctx context.Context, c *Call, path string, p query.ReadParams, notFound error) (*query.ReadResult, error) {
	if file, a, b, err := SplitSpan(path); err == nil && a > 0 {
		p.Path, p.StartLine, p.EndLine = file, a, b
		return c.Engine().Read(ctx, p)
	}
	// No such file, but a name of symbols: what the caller meant.
	switch err := definitionSpan(ctx, c, path, &p); {
	case err == nil:
		c.Warn("no file %s: read the definition of the symbol of that name", path)
		return c.Engine().Read(ctx, p)
	case errs.Is(err, errs.Ambiguous):
		return nil, err
	}
	return nil, notFound
}

// definitionSpan points p at the definition of the symbol name denotes.
func definitionSpan(ctx context.Context, c *Call, name string, p *query.ReadParams) error {
	r, err := resolveArg(ctx, c, name, nil)
	if err != nil {
		return err
	}
	card, err := c.Engine().Card(ctx, r, query.CardLimits{})
	if err != nil {
		return err
	}
	p.Path, p.StartLine, p.EndLine = string(card.Span.Path), card.Span.Line, card.Span.EndLine
	return nil
}

// SplitSpan splits PATH[:A[-B]] into the path and its lines (0 for none).
// It also takes the places other tools print: PATH:LINE:COL (search's and
// compilers' output; the column is dropped), PATH:A- (from line A) and
// GitHub's PATH#LA-LB.
func SplitSpan(s string) (string, int, int, error) {
	if at := strings.LastIndex(s, "#L"); at >= 0 {
		spec := strings.Replace(s[at+2:], "-L", "-", 1)
		if strings.Trim(spec, "0123456789-") == "" && spec != "" {
			s = s[:at] + ":" + spec
		}
	}
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, 0, nil
	}
	spec := s[i+1:]
	a, b, hasDash := strings.Cut(spec, "-")
	start, err := strconv.Atoi(a)
	if err != nil {
		return s, 0, 0, nil // a colon in the file name
	}
	if !hasDash {
		if j := strings.LastIndexByte(s[:i], ':'); j >= 0 {
			if line, err := strconv.Atoi(s[j+1 : i]); err == nil && line >= 1 {
				return s[:j], line, 0, nil // PATH:LINE:COL
			}
		}
	}
	end := 0
	if hasDash && b != "" {
		if end, err = strconv.Atoi(b); err != nil {
			return "", 0, 0, errs.E(errs.InvalidArgument, "bad line range %q (want A-B)", spec)
		}
	}
	if start < 1 || (end != 0 && end < start) {
		return "", 0, 0, errs.E(errs.InvalidArgument, "bad line range %q", spec)
	}
	return s[:i], start, end, nil
}
