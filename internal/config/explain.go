package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Setting is one key of the effective configuration and the layer that set
// it: "default", a file's path, "env CAIRN__…" or "flag --…".
type Setting struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Source string `json:"source"`
}

// Explain lists every key of cfg (the configuration Load built for root,
// with flags applied) and where its value comes from. flags maps keys that
// command-line flags set to the flag's name.
func Explain(root string, cfg Config, flags map[string]string) []Setting {
	source := map[string]string{}
	var files []string
	if dir, err := os.UserConfigDir(); err == nil {
		files = append(files, filepath.Join(dir, "cairn", "config.yaml"))
	}
	if root != "" {
		files = append(files, filepath.Join(root, ".cairn", "config.yaml"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var raw map[string]any
		if yaml.Unmarshal(data, &raw) != nil {
			continue
		}
		for _, k := range flatKeys(raw, "") {
			source[k] = f
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if rest, ok := strings.CutPrefix(k, "CAIRN__"); ok && !envNotConfig[rest] {
			source[strings.ToLower(strings.ReplaceAll(rest, "__", "."))] = "env " + k
		}
	}
	for k, f := range flags {
		source[k] = "flag " + f
	}
	var out []Setting
	for _, k := range ValidKeys() {
		src := source[k]
		if src == "" {
			src = "default"
		}
		out = append(out, Setting{Key: k, Value: valueOf(cfg, k), Source: src})
	}
	return out
}

// flatKeys lists the section.key paths a YAML mapping sets.
func flatKeys(raw map[string]any, prefix string) []string {
	var out []string
	for k, v := range raw {
		if sub, ok := v.(map[string]any); ok {
			out = append(out, flatKeys(sub, prefix+k+".")...)
			continue
		}
		out = append(out, prefix+k)
	}
	return out
}

// valueOf reads section.key from cfg as plain JSON data.
func valueOf(cfg Config, key string) any {
	v := reflect.ValueOf(cfg)
	for _, p := range strings.Split(key, ".") {
		f, ok := yamlFields(v.Type())[p]
		if !ok {
			return nil
		}
		v = v.FieldByIndex(f.Index)
	}
	b, _ := json.Marshal(v.Interface())
	var out any
	json.Unmarshal(b, &out)
	if out == nil && v.Kind() == reflect.Slice {
		return []any{}
	}
	return out
}
