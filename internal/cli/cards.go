package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/cards"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

// cardsFamily is `cairn cards ...`: one command per tool of the cards
// group, with link, relation, keyword and tag as families of their own.
func cardsFamily() family {
	return family{name: "cards", short: "Spec cards: requirements under .cairn/cards, linked to code with @see",
		long: `Spec cards are markdown files under .cairn/cards (YAML frontmatter: key,
summary, status, tags, keywords, constraints, relations; then the body).
Code links to a card with "@see <key>" in a comment, in any supported
language. These commands read, traverse and edit them; every edit is one
atomic batch of file changes. "cairn cards verify" exits 1 when a hard rule
is broken, for CI.`,
		cmds: func() []*toolCmd {
			return []*toolCmd{cardsSearchCmd(), cardsGetCmd(), cardsListCmd(), cardsRelationsCmd(),
				cardsCoverageCmd(), cardsUnlinkedCmd(), cardsGraphCmd("subgraph", "card_subgraph"),
				cardsGraphCmd("impact", "card_impact"), cardsTraceCmd(),
				cardsCreateCmd(), cardsUpdateCmd(), cardsKeyCmd("card_delete", "delete"), cardsRenameCmd(),
				cardsStatusCmd(), cardsVerifyCmd()}
		},
		subs: []family{
			{name: "link", short: "Add or remove @see links from code to a card", cmds: func() []*toolCmd {
				return []*toolCmd{cardsLinkCmd("add", "card_link_add"), cardsLinkCmd("remove", "card_link_remove")}
			}},
			{name: "relation", short: "Add or remove typed relations between cards", cmds: func() []*toolCmd {
				return []*toolCmd{cardsRelationCmd("add", "card_relation_add"), cardsRelationCmd("remove", "card_relation_remove")}
			}},
			{name: "keyword", short: "Register or unregister keywords", cmds: func() []*toolCmd {
				return []*toolCmd{cardsRegistryCmd("create", "keyword_create"), cardsRegistryCmd("delete", "keyword_delete")}
			}},
			{name: "tag", short: "Register or unregister tags", cmds: func() []*toolCmd {
				return []*toolCmd{cardsRegistryCmd("create", "tag_create"), cardsRegistryCmd("delete", "tag_delete")}
			}},
		},
	}
}

// filterFlags defines the card filters.
func filterFlags(f *argFlags, in *tools.CardFilterIn) {
	f.StringSlice(&in.Status, "status", "status")
	f.StringSlice(&in.Tags, "tag", "tags")
	f.StringSlice(&in.Keywords, "keyword", "keywords")
	f.String(&in.Prefix, "prefix", "prefix", "")
}

func cardsSearchCmd() *toolCmd {
	var in tools.CardSearchIn
	return &toolCmd{
		tool: "card_search", use: "search QUERY...", args: cobra.MinimumNArgs(1), in: &in,
		pos: []posArg{{"QUERY", "query", nil}},
		flags: func(f *argFlags) {
			f.String(&in.Scope, "scope", "scope", "")
			filterFlags(f, &in.CardFilterIn)
			f.limit(&in.Limit, "limit", "results per list", 20, 100)
		},
		request: func(_ *cobra.Command, args []string) (any, error) {
			in.Query = strings.Join(args, " ")
			return in, nil
		},
		render: withAnswer(func(w io.Writer, r *tools.CardSearchOut) {
			for _, h := range append(r.Cards, r.Code...) {
				renderHit(w, h)
			}
		}),
	}
}

func renderHit(w io.Writer, h cards.SearchHit) {
	if h.Type == "card" {
		fmt.Fprintf(w, "card %s [%s] %s\n", h.ID, h.Status, h.Summary)
		return
	}
	line := fmt.Sprintf("code %s (%s) %s:%d", h.ID, h.Kind, h.Location.Path, h.Location.Line)
	if len(h.Cards) > 0 {
		line += "  @see " + strings.Join(h.Cards, ", ")
	}
	fmt.Fprintln(w, line)
}

func cardsGetCmd() *toolCmd {
	var in tools.CardGetIn
	return &toolCmd{
		tool: "card_get", use: "get KEY", args: cobra.ExactArgs(1), in: &in,
		pos:    []posArg{{"KEY", "key", &in.Key}},
		render: withAnswer(renderCardGet),
	}
}

func renderCardGet(w io.Writer, r *tools.CardGetOut) {
	if e := r.Entity; e != nil {
		for _, c := range e.Cards {
			fmt.Fprintf(w, "  %s [%s] %s  (via %s, %s:%d)\n", c.Key, c.Status, c.Summary, c.Via, c.At.Path, c.At.Line)
		}
		return
	}
	c := r.Card
	fmt.Fprintf(w, "path:     %s\n", c.Path)
	if len(c.Tags) > 0 {
		fmt.Fprintf(w, "tags:     %s\n", strings.Join(c.Tags, ", "))
	}
	if len(c.Keywords) > 0 {
		fmt.Fprintf(w, "keywords: %s\n", strings.Join(c.Keywords, ", "))
	}
	for _, x := range c.Constraints {
		fmt.Fprintf(w, "constraint: %s\n", x)
	}
	for _, rel := range c.Relations {
		arrow := "->"
		if rel.Direction == "incoming" {
			arrow = "<-"
		}
		fmt.Fprintf(w, "%s %s %s [%s]\n", arrow, rel.Type, rel.Card, rel.Status)
	}
	for _, l := range c.Links {
		fmt.Fprintf(w, "@see from %s (%s) %s:%d\n", l.Entity.Key, l.Entity.Kind, l.At.Path, l.At.Line)
	}
	if c.Body != "" {
		fmt.Fprintf(w, "\n%s", c.Body)
		if !strings.HasSuffix(c.Body, "\n") {
			fmt.Fprintln(w)
		}
	}
}

func renderSummaries(w io.Writer, list []cards.Summary) {
	for _, s := range list {
		fmt.Fprintf(w, "%-30s %-12s %2d links  %s\n", s.Key, s.Status, s.Links, s.Summary)
	}
}

func cardsListCmd() *toolCmd {
	var in tools.CardListIn
	return &toolCmd{
		tool: "card_list", use: "list", args: cobra.NoArgs, in: &in,
		flags: func(f *argFlags) {
			filterFlags(f, &in.CardFilterIn)
			f.page(&in.Limit, &in.Cursor, "cards per page", 100, 1000)
		},
		render: withAnswer(func(w io.Writer, r *tools.CardListOut) { renderSummaries(w, r.Cards) }),
	}
}

func cardsRelationsCmd() *toolCmd {
	var in tools.CardRelationsIn
	return &toolCmd{
		tool: "card_relations", use: "relations KEY", args: cobra.ExactArgs(1), in: &in,
		pos: []posArg{{"KEY", "key", &in.Key}},
		flags: func(f *argFlags) {
			f.String(&in.Direction, "direction", "direction", "")
			f.StringSlice(&in.Types, "type", "types")
		},
		render: withAnswer(func(w io.Writer, r *tools.CardRelationsOut) {
			for _, rel := range r.Relations {
				fmt.Fprintf(w, "%-8s %-12s %s [%s]\n", rel.Direction, rel.Type, rel.Card, rel.Status)
			}
		}),
	}
}

func cardsCoverageCmd() *toolCmd {
	var in tools.CardCoverageIn
	return &toolCmd{
		tool: "card_coverage", use: "coverage [KEY]", args: cobra.MaximumNArgs(1), in: &in,
		pos: []posArg{{"KEY", "key", &in.Key}},
		render: withAnswer(func(w io.Writer, r *tools.CardCoverageOut) {
			if r.Card != nil {
				for _, l := range r.Card.Links {
					fmt.Fprintf(w, "  %s (%s) %s:%d\n", l.Entity.Key, l.Entity.Kind, l.At.Path, l.At.Line)
				}
				return
			}
			for _, s := range r.Overview.ByStatus {
				fmt.Fprintf(w, "%-12s %3d cards, %3d linked, %3d unlinked\n", s.Status, s.Cards, s.Linked, s.Unlinked)
			}
			for _, p := range r.Overview.Problems {
				fmt.Fprintf(w, "%s: %s %s\n", p.Verdict, p.Key, p.Message)
			}
		}),
	}
}

func cardsUnlinkedCmd() *toolCmd {
	var in tools.CardUnlinkedIn
	return &toolCmd{
		tool: "card_unlinked", use: "unlinked", args: cobra.NoArgs, in: &in,
		flags: func(f *argFlags) {
			f.Bool(&in.Code, "code", "code")
			filterFlags(f, &in.CardFilterIn)
			f.page(&in.Limit, &in.Cursor, "entries per page", 100, 1000)
		},
		render: withAnswer(func(w io.Writer, r *tools.CardUnlinkedOut) {
			renderSummaries(w, r.Cards)
			for _, p := range r.Files {
				fmt.Fprintln(w, p)
			}
		}),
	}
}

func renderGraphNodes(w io.Writer, nodes []cards.Node, edges []cards.Edge) {
	for _, n := range nodes {
		if n.Type == "card" {
			fmt.Fprintf(w, "%s%s [%s] %s\n", strings.Repeat("  ", n.Depth), n.ID, n.Status, n.Summary)
		} else {
			fmt.Fprintf(w, "%s%s (%s) %s:%d\n", strings.Repeat("  ", n.Depth), n.ID, n.Kind, n.Location.Path, n.Location.Line)
		}
	}
	for _, e := range edges {
		fmt.Fprintf(w, "edge %s -%s-> %s\n", e.From, e.Type, e.To)
	}
}

func cardsGraphCmd(use, tool string) *toolCmd {
	var in tools.CardGraphIn
	return &toolCmd{
		tool: tool, use: use + " KEY", args: cobra.ExactArgs(1), in: &in,
		pos: []posArg{{"KEY", "key", &in.Key}},
		flags: func(f *argFlags) {
			f.Int(&in.Depth, "depth", "depth", 0)
			f.StringSlice(&in.Types, "type", "types")
			f.Bool(&in.NoCode, "no-code", "no_code")
			f.Int(&in.Nodes, "max-nodes", "max_nodes", 0)
		},
		render: func(w io.Writer, env *protocol.Envelope) {
			fmt.Fprintln(w, env.Answer)
			switch r := env.Data.(type) {
			case *cards.Graph:
				renderGraphNodes(w, r.Nodes, r.Edges)
			case *cards.Impact:
				renderGraphNodes(w, r.Nodes, r.Edges)
			}
		},
	}
}

func cardsTraceCmd() *toolCmd {
	var in tools.CardTraceIn
	return &toolCmd{
		tool: "card_trace", use: "trace FROM TO", args: cobra.ExactArgs(2), in: &in,
		pos: []posArg{{"FROM", "from", &in.From}, {"TO", "to", &in.To}},
		flags: func(f *argFlags) {
			f.Int(&in.Depth, "depth", "depth", 0)
			f.StringSlice(&in.Types, "type", "types")
			f.Bool(&in.NoCode, "no-code", "no_code")
		},
		render: withAnswer(func(w io.Writer, p *cards.Path) {
			for i, n := range p.Nodes {
				if i > 0 {
					e := p.Edges[i-1]
					fmt.Fprintf(w, "  %s -%s-> %s\n", e.From, e.Type, e.To)
				}
				fmt.Fprintln(w, n.ID)
			}
		}),
	}
}

// fieldFlags defines the card field flags; set copies the given ones into
// the tool's arguments (a field not given stays unset).
func fieldFlags(f *argFlags, in *tools.CardFieldsIn) func(cmd *cobra.Command) {
	var summary, status, body string
	var tags, keywords, constraints []string
	f.String(&summary, "summary", "summary", "")
	f.String(&status, "status", "status", "")
	f.String(&body, "body", "body", "")
	f.StringSlice(&tags, "tag", "tags")
	f.StringSlice(&keywords, "keyword", "keywords")
	f.StringArray(&constraints, "constraint", "constraints")
	return func(cmd *cobra.Command) {
		fs := cmd.Flags()
		setIfGiven(fs, "summary", &in.Summary, &summary)
		setIfGiven(fs, "status", &in.Status, &status)
		setIfGiven(fs, "body", &in.Body, &body)
		setIfGiven(fs, "tag", &in.Tags, &tags)
		setIfGiven(fs, "keyword", &in.Keywords, &keywords)
		setIfGiven(fs, "constraint", &in.Constraints, &constraints)
	}
}

func renderCardWrite(w io.Writer, r *tools.CardWriteOut) {
	if r.Write != nil {
		renderWrite(w, r.Write)
	}
}

func cardsCreateCmd() *toolCmd {
	var in tools.CardCreateIn
	var set func(*cobra.Command)
	var rels []string
	return &toolCmd{
		tool: "card_create", use: "create KEY", args: cobra.ExactArgs(1),
		pos:  []posArg{{"KEY", "key", &in.Key}},
		note: `--relation TYPE:TARGET declares an outgoing relation (repeatable).`,
		words: func(ex map[string]any) []string {
			rs, _ := ex["relations"].([]any)
			delete(ex, "relations")
			var out []string
			for _, r := range rs {
				m, _ := r.(map[string]any)
				out = append(out, "--relation", fmt.Sprintf("%v:%v", m["type"], m["target"]))
			}
			return out
		},
		flags: func(f *argFlags) {
			set = fieldFlags(f, &in.CardFieldsIn)
			f.fs.StringArrayVar(&rels, "relation", nil, "an outgoing relation as TYPE:TARGET (repeatable)")
			f.Bool(&in.DryRun, "dry-run", "dry_run")
		},
		request: func(cmd *cobra.Command, _ []string) (any, error) {
			set(cmd)
			for _, r := range rels {
				typ, target, ok := strings.Cut(r, ":")
				if !ok || typ == "" || target == "" {
					return nil, errs.E(errs.Usage, "--relation wants TYPE:TARGET, not %q", r)
				}
				in.Relations = append(in.Relations, cards.Relation{Type: typ, Target: target})
			}
			return in, nil
		},
		render: withAnswer(renderCardWrite),
	}
}

func cardsUpdateCmd() *toolCmd {
	var in tools.CardUpdateIn
	var set func(*cobra.Command)
	return &toolCmd{
		tool: "card_update", use: "update KEY", args: cobra.ExactArgs(1),
		pos: []posArg{{"KEY", "key", &in.Key}},
		flags: func(f *argFlags) {
			set = fieldFlags(f, &in.CardFieldsIn)
			f.Bool(&in.DryRun, "dry-run", "dry_run")
		},
		request: func(cmd *cobra.Command, _ []string) (any, error) { set(cmd); return in, nil },
		render:  withAnswer(renderCardWrite),
	}
}

// cardWriteCmd is a card command whose arguments are all positional (the
// card, then what changes) and whose only flag is --dry-run; it prints the
// write.
func cardWriteCmd(tool, verb string, in any, dryRun *bool, pos ...posArg) *toolCmd {
	return &toolCmd{
		tool: tool, use: useOf(verb, pos), args: cobra.ExactArgs(len(pos)), in: in, pos: pos,
		flags:  func(f *argFlags) { f.Bool(dryRun, "dry-run", "dry_run") },
		render: withAnswer(renderCardWrite),
	}
}

func cardsKeyCmd(tool, verb string) *toolCmd {
	var in tools.CardKeyIn
	return cardWriteCmd(tool, verb, &in, &in.DryRun, posArg{"KEY", "key", &in.Key})
}

func cardsRenameCmd() *toolCmd {
	var in tools.CardRenameIn
	return cardWriteCmd("card_rename", "rename", &in, &in.DryRun,
		posArg{"KEY", "key", &in.Key}, posArg{"NEW_KEY", "new_key", &in.NewKey})
}

func cardsStatusCmd() *toolCmd {
	var in tools.CardStatusIn
	return cardWriteCmd("card_set_status", "status", &in, &in.DryRun,
		posArg{"KEY", "key", &in.Key}, posArg{"STATUS", "status", &in.Status})
}

func cardsVerifyCmd() *toolCmd {
	var in tools.VerifyIn
	return &toolCmd{
		tool: "card_verify", use: "verify", args: cobra.NoArgs, in: &in,
		note: `Exit status: 0 when no hard rule is broken (warnings do not count), 1 when
one is: run it in CI.`,
		render: withAnswer(func(w io.Writer, r *cards.Report) {
			for _, f := range r.Findings {
				where := ""
				if f.Location != nil {
					where = fmt.Sprintf("%s:%d: ", f.Location.Path, f.Location.Line)
				}
				fmt.Fprintf(w, "%s%s [%s] %s\n", where, f.Severity, f.Rule, f.Message)
			}
		}),
		check: func(env *protocol.Envelope) error {
			if r, ok := env.Data.(*cards.Report); ok && !r.OK {
				return exitError(1)
			}
			return nil
		},
	}
}

func cardsLinkCmd(use, tool string) *toolCmd {
	var in tools.CardLinkIn
	return &toolCmd{
		tool: tool, use: use + " CARD PATH", args: cobra.ExactArgs(2), in: &in,
		pos: []posArg{{"CARD", "card", &in.Card}, {"PATH", "path", &in.Path}},
		flags: func(f *argFlags) {
			f.String(&in.Symbol, "symbol", "symbol", "")
			f.Bool(&in.DryRun, "dry-run", "dry_run")
		},
		render: withAnswer(renderCardWrite),
	}
}

func cardsRelationCmd(use, tool string) *toolCmd {
	var in tools.CardRelationIn
	return &toolCmd{
		tool: tool, use: use + " CARD TYPE TARGET", args: cobra.RangeArgs(2, 3), in: &in,
		note: `remove takes CARD TARGET, or CARD TYPE TARGET for one type only.`,
		words: func(ex map[string]any) []string {
			var out []string
			for _, k := range []string{"card", "type", "target"} {
				if v, ok := ex[k].(string); ok {
					delete(ex, k)
					out = append(out, v)
				}
			}
			return out
		},
		request: func(_ *cobra.Command, args []string) (any, error) {
			in.Card = args[0]
			if len(args) == 3 {
				in.Type, in.Target = args[1], args[2]
			} else {
				in.Target = args[1]
			}
			return in, nil
		},
		flags:  func(f *argFlags) { f.Bool(&in.DryRun, "dry-run", "dry_run") },
		render: withAnswer(renderCardWrite),
	}
}

func cardsRegistryCmd(use, tool string) *toolCmd {
	var in tools.RegistryIn
	return &toolCmd{
		tool: tool, use: use + " NAME", args: cobra.ExactArgs(1), in: &in,
		pos: []posArg{{"NAME", "name", &in.Name}},
		flags: func(f *argFlags) {
			if strings.HasSuffix(tool, "_create") {
				f.String(&in.Description, "description", "description", "")
			}
			f.Bool(&in.DryRun, "dry-run", "dry_run")
		},
		render: withAnswer(renderCardWrite),
	}
}
