package manifest

import (
	"encoding/json"
	"strings"
)

// parseComposer reads a composer.json: the package name and require and
// require-dev, without the platform requirements (php, ext-*, lib-*,
// composer-*), which name no package.
func parseComposer(m *Manifest, data []byte) error {
	var c struct {
		Name       string            `json:"name"`
		Require    map[string]string `json:"require"`
		RequireDev map[string]string `json:"require-dev"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return err
	}
	m.Name = c.Name
	for _, table := range []map[string]string{c.Require, c.RequireDev} {
		for name := range table {
			if !strings.Contains(name, "/") {
				delete(table, name) // platform packages have no vendor: php, ext-json, lib-curl, composer-plugin-api
			}
		}
	}
	addSorted(m, c.Require, ScopeRuntime, asIs)
	addSorted(m, c.RequireDev, ScopeDev, asIs)
	return nil
}
