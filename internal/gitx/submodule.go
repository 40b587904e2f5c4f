package gitx

import (
	"context"
	"strings"
)

// Submodule is a submodule with its state: uninitialized, in_sync,
// modified (its checked-out commit differs from the recorded one) or
// conflict.
type Submodule struct {
	Path     string `json:"path"`
	Commit   string `json:"commit"`
	State    string `json:"state"`
	Describe string `json:"describe,omitempty"`
	URL      string `json:"url,omitempty"`
}

// Submodules lists submodules (recursively with recursive).
func Submodules(ctx context.Context, dir string, recursive bool) ([]Submodule, error) {
	args := []string{"-c", "core.quotepath=off", "submodule", "status"}
	if recursive {
		args = append(args, "--recursive")
	}
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, err
	}
	urls := map[string]string{}
	if cfg, err := git(ctx, dir, "config", "-z", "--file", ".gitmodules", "--get-regexp", `^submodule\..*\.url$`); err == nil {
		for _, kv := range splitZ(cfg) {
			k, v, _ := strings.Cut(kv, "\n")
			urls[strings.TrimSuffix(strings.TrimPrefix(k, "submodule."), ".url")] = v
		}
	}
	names := map[string]string{} // path -> name
	if cfg, err := git(ctx, dir, "config", "-z", "--file", ".gitmodules", "--get-regexp", `^submodule\..*\.path$`); err == nil {
		for _, kv := range splitZ(cfg) {
			k, v, _ := strings.Cut(kv, "\n")
			names[v] = strings.TrimSuffix(strings.TrimPrefix(k, "submodule."), ".path")
		}
	}
	subs := []Submodule{}
	for _, line := range strings.Split(string(out), "\n") {
		if len(line) < 42 {
			continue
		}
		s := Submodule{State: "in_sync"}
		switch line[0] {
		case '-':
			s.State = "uninitialized"
		case '+':
			s.State = "modified"
		case 'U':
			s.State = "conflict"
		}
		f := strings.Fields(line[1:])
		if len(f) < 2 {
			continue
		}
		s.Commit, s.Path = f[0], f[1]
		if len(f) > 2 {
			s.Describe = strings.Trim(strings.Join(f[2:], " "), "()")
		}
		s.URL = urls[names[s.Path]]
		subs = append(subs, s)
	}
	return subs, nil
}

// SubmoduleAdd adds a submodule from url at path.
func SubmoduleAdd(ctx context.Context, dir, url, path, branch string) error {
	if err := CheckURL(url); err != nil {
		return err
	}
	if err := CheckPaths([]string{path}); err != nil {
		return err
	}
	args := []string{"submodule", "add", "-q"}
	if branch != "" {
		if err := CheckRev("branch", branch); err != nil {
			return err
		}
		args = append(args, "-b", branch)
	}
	_, err := git(ctx, dir, append(args, "--", url, path)...)
	return err
}

// SubmoduleRun runs one of the submodule subcommands that take paths:
// init, update (with init, recursive), sync, deinit (force).
func SubmoduleRun(ctx context.Context, dir, verb string, paths []string, recursive, force bool) error {
	if err := CheckPaths(paths); err != nil {
		return err
	}
	args := []string{"submodule", verb, "-q"}
	switch verb {
	case "update":
		args = append(args, "--init")
		if recursive {
			args = append(args, "--recursive")
		}
	case "sync":
		if recursive {
			args = append(args, "--recursive")
		}
	case "deinit":
		if force {
			args = append(args, "--force")
		}
		if len(paths) == 0 {
			args = append(args, "--all")
		}
	}
	_, err := git(ctx, dir, append(append(args, "--"), paths...)...)
	return err
}
