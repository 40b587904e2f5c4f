package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/tools"
)

func describeCmd() *toolCmd {
	var in tools.DescribeIn
	return &toolCmd{
		tool: "describe", use: "describe [--tool NAME]", args: cobra.NoArgs, in: &in,
		note: "In the tool list, * marks the tools MCP clients see under the profile.",
		flags: func(f *argFlags) {
			f.String(&in.Tool, "tool", "tool", "")
		},
		render: payload(renderDescribe),
	}
}

func renderDescribe(w io.Writer, out *tools.DescribeOut) {
	if out.Tool != nil {
		renderToolDoc(w, out.Tool)
		return
	}
	r := out.Repo
	fmt.Fprintf(w, "repo:      %s\n", r.Root)
	if r.Git {
		dirty := ""
		if r.Dirty {
			dirty = " (dirty)"
		}
		fmt.Fprintf(w, "git:       %s %s%s\n", orDash(r.Branch), orDash(short(r.Head)), dirty)
	}
	fmt.Fprintf(w, "index:     %s, epoch %d, %d files\n", r.IndexState, r.Epoch, r.Files)
	var langs []string
	for _, l := range r.Languages {
		langs = append(langs, fmt.Sprintf("%s %d", l.Language, l.Files))
	}
	fmt.Fprintf(w, "languages: %s\n", orDash(strings.Join(langs, ", ")))
	fmt.Fprintf(w, "modules:\n")
	for _, m := range r.Modules {
		fmt.Fprintf(w, "  %-30s %-6s %s (%d files)\n", m.Name, m.Kind, orDot(m.Root), m.Files)
	}
	fmt.Fprintf(w, "profile:   %s (%d of %d tools on for MCP clients)\n", r.Profile, r.ToolsOn, len(r.Tools))
	fmt.Fprintf(w, "tools:\n")
	for _, t := range r.Tools {
		on := " "
		if t.On {
			on = "*"
		}
		fmt.Fprintf(w, " %s %-6s %-16s %s\n", on, t.Group, t.Name, t.Summary)
	}
}

func renderToolDoc(w io.Writer, d *tools.ToolDoc) {
	on := "off"
	if d.On {
		on = "on"
	}
	fmt.Fprintf(w, "%s (group %s, %s for MCP clients)\n\n%s\n", d.Name, d.Group, on, d.Summary)
	if d.Doc != "" {
		fmt.Fprintf(w, "\n%s\n", d.Doc)
	}
	if len(d.Arguments) > 0 {
		fmt.Fprintf(w, "\nArguments:\n")
		renderArgs(w, d.Arguments, "  ")
	}
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		eachLine(w, "  - %s\n", items)
	}
	list("When to use", d.When)
	list("When not to use", d.WhenNot)
	if len(d.Examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n")
		for _, ex := range d.Examples {
			b, _ := json.Marshal(ex)
			fmt.Fprintf(w, "  %s\n", b)
		}
	}
}

func renderArgs(w io.Writer, args []tools.ArgDoc, indent string) {
	for _, a := range args {
		req := ""
		if a.Required {
			req = ", required"
		}
		fmt.Fprintf(w, "%s%-16s %s%s", indent, a.Name, a.Type, req)
		if a.Description != "" {
			fmt.Fprintf(w, ": %s", a.Description)
		}
		fmt.Fprintln(w)
		renderArgs(w, a.Fields, indent+"  ")
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
