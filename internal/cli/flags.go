package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cairnhq/cairn/internal/tools"
)

// argFlags defines a command's flags on its tools' arguments. Each flag is
// bound to one argument and its usage is that argument's documentation in
// the registry (what describe --tool prints), so the two cannot drift; a
// flag whose argument the registry does not document is a bug of the build.
// Flags of the command line alone are defined on fs directly.
type argFlags struct {
	fs    *pflag.FlagSet
	docs  map[string]string // argument -> description, from the registry
	bound []boundFlag       // in the order defined
}

// boundFlag is a flag bound to a tool argument.
type boundFlag struct {
	arg  string // the tool's argument (JSON name)
	flag *pflag.Flag
}

// newArgFlags documents flags from the arguments of tools; the first tool
// that documents an argument wins.
func newArgFlags(fs *pflag.FlagSet, tools ...string) *argFlags {
	f := &argFlags{fs: fs, docs: map[string]string{}}
	for _, name := range tools {
		for _, a := range lookup(name).Arguments() {
			if _, ok := f.docs[a.Name]; !ok {
				f.docs[a.Name] = a.Description
			}
		}
	}
	return f
}

// usage is the registry's description of arg.
func (f *argFlags) usage(arg string) string {
	d := f.docs[arg]
	if d == "" {
		panic(fmt.Sprintf("cli: flag on argument %q, which the registry does not document", arg))
	}
	return d
}

// bind records that the flag just defined carries arg. pflag prints a
// non-zero default after the usage, so a "(default X)" the description
// already holds is left to pflag.
func (f *argFlags) bind(arg, name string) *pflag.Flag {
	fl := f.fs.Lookup(name)
	fl.Usage = strings.Replace(fl.Usage, " (default "+fl.DefValue+")", "", 1)
	f.bound = append(f.bound, boundFlag{arg: arg, flag: fl})
	return fl
}

// lookup finds the flag bound to arg.
func (f *argFlags) lookup(arg string) *pflag.Flag {
	for _, b := range f.bound {
		if b.arg == arg {
			return b.flag
		}
	}
	return nil
}

func (f *argFlags) Bool(p *bool, name, arg string) *pflag.Flag {
	return f.BoolP(p, name, "", arg)
}

func (f *argFlags) BoolP(p *bool, name, short, arg string) *pflag.Flag {
	f.fs.BoolVarP(p, name, short, false, f.usage(arg))
	return f.bind(arg, name)
}

func (f *argFlags) String(p *string, name, arg, value string) *pflag.Flag {
	return f.StringP(p, name, "", arg, value)
}

func (f *argFlags) StringP(p *string, name, short, arg, value string) *pflag.Flag {
	f.fs.StringVarP(p, name, short, value, f.usage(arg))
	return f.bind(arg, name)
}

func (f *argFlags) Int(p *int, name, arg string, value int) *pflag.Flag {
	f.fs.IntVar(p, name, value, f.usage(arg))
	return f.bind(arg, name)
}

// StringArray is a list argument given by repeating the flag.
func (f *argFlags) StringArray(p *[]string, name, arg string) *pflag.Flag {
	f.fs.StringArrayVar(p, name, nil, f.usage(arg)+" (repeatable)")
	return f.bind(arg, name)
}

// StringSlice is a list argument given by repeating the flag or by commas.
func (f *argFlags) StringSlice(p *[]string, name, arg string) *pflag.Flag {
	f.fs.StringSliceVar(p, name, nil, f.usage(arg)+" (repeatable or comma-separated)")
	return f.bind(arg, name)
}

// The budget arguments every read tool shares (tools.Common) are documented
// once for all tools; their defaults and caps differ per tool, so the
// command states them.

// limit defines --limit on arg (limit, or the tool's own name for it):
// what it counts, its default and its cap.
func (f *argFlags) limit(p *int, arg, what string, def, max int) {
	f.fs.IntVar(p, "limit", 0, fmt.Sprintf("%s (default %d, at most %d)", what, def, max))
	f.bind(arg, "limit")
}

// page defines --limit and --cursor for a paged list.
func (f *argFlags) page(limit *int, cursor *string, what string, def, max int) {
	f.limit(limit, "limit", what, def, max)
	f.String(cursor, "cursor", "cursor", "")
}

// maxChars defines --max-chars.
func (f *argFlags) maxChars(p *int) {
	f.fs.IntVar(p, "max-chars", 0, "response budget in characters (default 12000, at most 40000)")
	f.bind("max_chars", "max-chars")
}

// view defines --workspace, --consistency and --virtual-file for a read
// through a workspace's overlay or the command's own files.
func (f *argFlags) view(v *tools.View) {
	f.String(&v.WorkspaceID, "workspace", "workspace_id", "")
	f.String(&v.Consistency, "consistency", "consistency", "")
	f.fs.Var(&virtualFiles{v: v}, "virtual-file", f.usage("virtual_files")+
		": REPO_PATH=LOCAL_FILE gives REPO_PATH the content of LOCAL_FILE (- for standard input); repeatable")
	f.bind("virtual_files", "virtual-file")
}

// virtualFiles collects --virtual-file REPO_PATH=LOCAL_FILE flags, reading
// each local file when the flag is parsed.
type virtualFiles struct{ v *tools.View }

func (x *virtualFiles) Type() string { return "path=file" }

func (x *virtualFiles) String() string { return "" }

func (x *virtualFiles) Set(s string) error {
	repoPath, local, ok := strings.Cut(s, "=")
	if !ok || repoPath == "" || local == "" {
		return fmt.Errorf("want REPO_PATH=LOCAL_FILE (LOCAL_FILE - for standard input), got %q", s)
	}
	var content []byte
	var err error
	if local == "-" {
		content, err = io.ReadAll(os.Stdin)
	} else {
		content, err = os.ReadFile(local)
	}
	if err != nil {
		return fmt.Errorf("reading the content of %s: %v", repoPath, err)
	}
	x.v.VirtualFiles = append(x.v.VirtualFiles, tools.VirtualFile{Path: repoPath, Content: string(content)})
	return nil
}

// target defines --at for a command on one symbol.
func (f *argFlags) target(t *target) {
	f.String(&t.pos, "at", "at", "").Usage += ": PATH:LINE:COL"
}

// setIfGiven points *field at the flag's value when the flag was given.
func setIfGiven[T any](fs *pflag.FlagSet, flag string, field **T, value *T) {
	if fs.Changed(flag) {
		*field = value
	}
}
