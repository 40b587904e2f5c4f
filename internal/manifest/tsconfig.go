package manifest

import (
	"encoding/json"
	"fmt"
)

// TSConfig is what module resolution reads from a tsconfig.json or
// jsconfig.json.
type TSConfig struct {
	// Extends are the configs this one extends, in order (a string or, since
	// TypeScript 5.0, a list), as written.
	Extends []string
	BaseURL string              // compilerOptions.baseUrl, relative to the config's directory
	Paths   map[string][]string // compilerOptions.paths: pattern -> targets
}

// ParseTSConfig reads a tsconfig.json, which is JSON with comments and
// trailing commas.
func ParseTSConfig(data []byte) (*TSConfig, error) {
	var raw struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if err := json.Unmarshal(jsonc(data), &raw); err != nil {
		return nil, fmt.Errorf("manifest: parse tsconfig: %w", err)
	}
	cfg := &TSConfig{BaseURL: raw.CompilerOptions.BaseURL, Paths: raw.CompilerOptions.Paths}
	if len(raw.Extends) > 0 {
		var one string
		if json.Unmarshal(raw.Extends, &one) == nil {
			if one != "" {
				cfg.Extends = []string{one}
			}
		} else if err := json.Unmarshal(raw.Extends, &cfg.Extends); err != nil {
			return nil, fmt.Errorf("manifest: parse tsconfig extends: %w", err)
		}
	}
	return cfg, nil
}

// jsonc turns JSON with comments and trailing commas into JSON: comments
// become blanks (so offsets in errors still point at the source), and a comma
// followed only by blanks before a closing bracket is dropped.
func jsonc(data []byte) []byte {
	out := stripComments(data)
	inString := false
	lastComma := -1 // the comma that may turn out to be trailing
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString, lastComma = true, -1
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			lastComma = -1
		}
	}
	return out
}
