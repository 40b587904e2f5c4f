package manifest

import "testing"

func TestDependencyOf(t *testing.T) {
	cases := []struct {
		eco    Ecosystem
		source string
		deps   []string
		want   string
	}{
		{EcoGo, "github.com/a/b/sub", []string{"github.com/a", "github.com/a/b"}, "github.com/a/b"},
		{EcoGo, "github.com/a/b", []string{"github.com/a/b"}, "github.com/a/b"},
		{EcoGo, "github.com/a/bc", []string{"github.com/a/b"}, ""},
		{EcoJavaScript, "@scope/pkg/deep/file", []string{"@scope/pkg"}, "@scope/pkg"},
		{EcoJavaScript, "lodash/fp", []string{"lodash"}, "lodash"},
		{EcoJavaScript, "lodashx", []string{"lodash"}, ""},
		{EcoPython, "ruamel.yaml", []string{"ruamel-yaml"}, ""}, // only the top-level name counts
		{EcoPython, "django.db", []string{"Django"}, "Django"},
		{EcoPython, "typing_extensions.foo", []string{"typing-extensions"}, "typing-extensions"},
		{EcoPython, "yaml", []string{"pyyaml"}, ""},
		{EcoRust, "::serde_json::Value", []string{"serde-json"}, "serde-json"},
		{EcoRust, "tokio::sync", []string{"tokio"}, "tokio"},
		{EcoRust, "tokio_util", []string{"tokio"}, ""},
		{EcoJVM, "com.google.common.collect", []string{"com.google.guava:guava", "com.google.common:x"}, "com.google.common:x"},
		{EcoJVM, "org.junit", []string{"org.junit:junit"}, "org.junit:junit"},
		{EcoJVM, "org.junitx", []string{"org.junit:junit"}, ""},
		{EcoRuby, "rails", []string{"rails"}, "rails"},
		{EcoRuby, "rails/all", []string{"rails"}, ""},
		{EcoGo, "x", nil, ""},
	}
	for _, c := range cases {
		if got := DependencyOf(c.eco, c.source, c.deps); got != c.want {
			t.Errorf("DependencyOf(%s, %q, %q) = %q, want %q", c.eco, c.source, c.deps, got, c.want)
		}
	}
}
