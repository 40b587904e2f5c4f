// Package config loads Cairn's layered configuration (defaults < user file <
// repo file < CAIRN__SECTION__KEY environment < flags) and locates a repository
// and its state. Unknown keys are errors that list the valid ones.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cairnhq/cairn/internal/errs"
)

// Config is the whole configuration.
type Config struct {
	Index    IndexConfig    `yaml:"index"`
	Query    QueryConfig    `yaml:"query"`
	Read     ReadConfig     `yaml:"read"`
	Tools    ToolsConfig    `yaml:"tools"`
	Semantic SemanticConfig `yaml:"semantic"`
	Tests    TestsConfig    `yaml:"tests"`
	Cards    CardsConfig    `yaml:"cards"`
	Edits    string         `yaml:"edits"`   // on | off
	Privacy  string         `yaml:"privacy"` // normal | anonymized
	Task     TaskConfig     `yaml:"task"`
	Ledger   LedgerConfig   `yaml:"ledger"`
	Logging  LoggingConfig  `yaml:"logging"`
}

// IndexConfig controls what is indexed and how.
type IndexConfig struct {
	MaxFileBytes int64    `yaml:"max_file_bytes"` // files above this are listed, not parsed
	MemoryMB     int      `yaml:"memory_mb"`      // memory budget of indexing (index/budget.go)
	Workers      int      `yaml:"workers"`        // parse workers; 0 = number of CPUs
	Exclude      []string `yaml:"exclude"`        // extra ignore patterns (gitignore syntax)
	GCGraceHours int      `yaml:"gc_grace_hours"` // unreferenced blobs live this long
}

// TestsConfig controls test discovery and runs (test_discover, test_run).
type TestsConfig struct {
	// Runners choose a runner per language over the marker files and the
	// language default, as "language=runner" (python=unittest,
	// typescript=vitest).
	Runners []string `yaml:"runners"`
	// Exclude are globs of test files discovery leaves out.
	Exclude        []string `yaml:"exclude"`
	TargetTimeoutS int      `yaml:"target_timeout_s"` // one target's deadline
	TimeoutS       int      `yaml:"timeout_s"`        // a whole run's deadline
	Workers        int      `yaml:"workers"`          // parallel targets; 0 = min(CPUs, 8)
}

// QueryConfig controls query deadlines and freshness.
type QueryConfig struct {
	TimeoutMS       int `yaml:"timeout_ms"`        // default deadline of a call
	FreshnessWaitMS int `yaml:"freshness_wait_ms"` // how long a query waits for pending changes
	// CacheMB bounds the answers a server keeps for read calls repeated on
	// an unchanged repository (0 keeps none).
	CacheMB int `yaml:"cache_mb"`
}

// ReadConfig controls the read tools.
type ReadConfig struct {
	AllowSecrets   bool  `yaml:"allow_secrets"`     // let read tools return secret-looking files
	FullFileCapKiB int64 `yaml:"full_file_cap_kib"` // read_file_full cap
	// SessionBudgetKiB is how much whole-file content (read_file_full) one
	// process hands out before reset_budget is needed.
	SessionBudgetKiB int64 `yaml:"session_budget_kib"`
}

// SemanticConfig controls the semantic layer (SCIP indexes).
type SemanticConfig struct {
	// SCIPPaths are .scip files (repo-relative or absolute) that
	// `cairn index --semantic` imports, for indexers Cairn does not run or
	// indexes built elsewhere (CI).
	SCIPPaths []string `yaml:"scip_paths"`
	// Indexers limits which detected indexers run (empty: every installed one).
	Indexers []string `yaml:"indexers"`
	// TimeoutS bounds one indexer run, in seconds.
	TimeoutS int `yaml:"timeout_s"`
	// AutoRefresh makes a server re-run an imported index's indexer when
	// files it covers change (or HEAD moves). Off by default: indexers are
	// whole-program and may take minutes.
	AutoRefresh bool `yaml:"auto_refresh"`
}

// CardsConfig controls spec cards (.cairn/cards).
type CardsConfig struct {
	// Relations are the relation types cards may declare.
	Relations []string `yaml:"relations"`
}

// ToolsConfig selects the tools MCP clients see.
type ToolsConfig struct {
	Profile string   `yaml:"profile"` // minimal | standard | all
	Enable  []string `yaml:"enable"`
	Disable []string `yaml:"disable"`
}

// Default is the built-in configuration.
func Default() Config {
	return Config{
		Index:    IndexConfig{MaxFileBytes: 1 << 20, MemoryMB: 1024, GCGraceHours: 24 * 7},
		Query:    QueryConfig{TimeoutMS: 30000, FreshnessWaitMS: 2000, CacheMB: 64},
		Read:     ReadConfig{FullFileCapKiB: 400, SessionBudgetKiB: 2048},
		Tools:    ToolsConfig{Profile: "standard"},
		Semantic: SemanticConfig{TimeoutS: 1800},
		Tests:    TestsConfig{TargetTimeoutS: 300, TimeoutS: 1800},
		Cards:    CardsConfig{Relations: []string{"depends-on", "references", "related", "extends", "conflicts"}},
		Edits:    "on",
		Privacy:  "normal",
		Task:     defaultTask(),
		Ledger:   defaultLedger(),
		Logging:  LoggingConfig{Level: "info"},
	}
}

// Load builds the configuration for a repository root from every layer but flags.
func Load(root string) (Config, error) {
	c := Default()
	if dir, err := os.UserConfigDir(); err == nil {
		if err := mergeFile(&c, filepath.Join(dir, "cairn", "config.yaml")); err != nil {
			return c, err
		}
	}
	if root != "" {
		if err := mergeFile(&c, filepath.Join(root, ".cairn", "config.yaml")); err != nil {
			return c, err
		}
	}
	if err := mergeEnv(&c, os.Environ()); err != nil {
		return c, err
	}
	return c, c.validate()
}

func mergeFile(c *Config, path string) error {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return errs.Wrap(errs.InvalidArgument, err, "config: read %s", path)
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return errs.Wrap(errs.InvalidArgument, err, "config: %s is not valid YAML", path)
	}
	if err := checkKeys(raw, reflect.TypeOf(*c), ""); err != nil {
		return errs.Wrap(errs.InvalidArgument, err, "config: %s", path)
	}
	if err := yaml.Unmarshal(data, c); err != nil {
		return errs.Wrap(errs.InvalidArgument, err, "config: %s", path)
	}
	return nil
}

// checkKeys rejects keys the Config type does not have, naming the valid ones.
func checkKeys(raw map[string]any, t reflect.Type, prefix string) error {
	fields := yamlFields(t)
	for k, v := range raw {
		f, ok := fields[k]
		if !ok {
			return fmt.Errorf("unknown key %q; valid keys: %s", prefix+k, strings.Join(sortedKeys(fields, prefix), ", "))
		}
		if f.Type.Kind() == reflect.Struct {
			sub, ok := v.(map[string]any)
			if !ok && v != nil {
				return fmt.Errorf("key %q must be a mapping", prefix+k)
			}
			if err := checkKeys(sub, f.Type, prefix+k+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

func yamlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			out[name] = f
		}
	}
	return out
}

func sortedKeys(fields map[string]reflect.StructField, prefix string) []string {
	var ks []string
	for k := range fields {
		ks = append(ks, prefix+k)
	}
	sort.Strings(ks)
	return ks
}

// ValidKeys lists every settable key as section.key.
func ValidKeys() []string {
	var out []string
	t := reflect.TypeOf(Config{})
	for name, f := range yamlFields(t) {
		if f.Type.Kind() == reflect.Struct {
			for sub := range yamlFields(f.Type) {
				out = append(out, name+"."+sub)
			}
			continue
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// envNotConfig are CAIRN__ variables that are not configuration keys.
var envNotConfig = map[string]bool{"STATE_DIR": true}

func mergeEnv(c *Config, env []string) error {
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		rest, ok := strings.CutPrefix(k, "CAIRN__")
		if !ok || envNotConfig[rest] {
			continue
		}
		key := strings.ToLower(strings.ReplaceAll(rest, "__", "."))
		if err := Set(c, key, v); err != nil {
			return errs.Wrap(errs.InvalidArgument, err, "config: environment %s", k)
		}
	}
	return nil
}

// Set assigns one key (section.key) from its string form.
func Set(c *Config, key, value string) error {
	v := reflect.ValueOf(c).Elem()
	parts := strings.Split(key, ".")
	for i, p := range parts {
		fields := yamlFields(v.Type())
		f, ok := fields[p]
		if !ok {
			return fmt.Errorf("unknown key %q; valid keys: %s", key, strings.Join(ValidKeys(), ", "))
		}
		v = v.FieldByIndex(f.Index)
		if v.Kind() == reflect.Struct {
			if i == len(parts)-1 {
				return fmt.Errorf("key %q is a section; set one of its keys", key)
			}
			continue
		}
		if i != len(parts)-1 {
			return fmt.Errorf("unknown key %q; valid keys: %s", key, strings.Join(ValidKeys(), ", "))
		}
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(value)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("key %q wants an integer, got %q", key, value)
		}
		v.SetInt(n)
	case reflect.Bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("key %q wants true or false, got %q", key, value)
		}
		v.SetBool(b)
	case reflect.Slice:
		var items []string
		for _, s := range strings.Split(value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				items = append(items, s)
			}
		}
		v.Set(reflect.ValueOf(items))
	}
	return nil
}

func (c Config) validate() error {
	switch {
	case c.Edits != "on" && c.Edits != "off":
		return errs.E(errs.InvalidArgument, "config: edits must be on or off, got %q", c.Edits)
	case c.Privacy != "normal" && c.Privacy != "anonymized":
		return errs.E(errs.InvalidArgument, "config: privacy must be normal or anonymized, got %q", c.Privacy)
	case c.Tools.Profile != "minimal" && c.Tools.Profile != "standard" && c.Tools.Profile != "all":
		return errs.E(errs.InvalidArgument, "config: tools.profile must be minimal, standard or all, got %q", c.Tools.Profile)
	case c.Index.MaxFileBytes <= 0:
		return errs.E(errs.InvalidArgument, "config: index.max_file_bytes must be positive")
	case c.Tests.TargetTimeoutS <= 0 || c.Tests.TimeoutS <= 0:
		return errs.E(errs.InvalidArgument, "config: tests.target_timeout_s and tests.timeout_s must be positive")
	case c.Query.TimeoutMS <= 0:
		return errs.E(errs.InvalidArgument, "config: query.timeout_ms must be positive")
	case c.Query.CacheMB < 0:
		return errs.E(errs.InvalidArgument, "config: query.cache_mb must be 0 (no cache) or more")
	case c.Read.FullFileCapKiB <= 0:
		return errs.E(errs.InvalidArgument, "config: read.full_file_cap_kib must be positive")
	case c.Read.SessionBudgetKiB <= 0:
		return errs.E(errs.InvalidArgument, "config: read.session_budget_kib must be positive")
	case c.Semantic.TimeoutS <= 0:
		return errs.E(errs.InvalidArgument, "config: semantic.timeout_s must be positive")
	case len(c.Cards.Relations) == 0:
		return errs.E(errs.InvalidArgument, "config: cards.relations must name at least one relation type")
	}
	return c.validateOps()
}
