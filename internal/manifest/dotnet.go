package manifest

import (
	"encoding/xml"
	"path"
	"regexp"
	"strings"
)

// parseMSBuild reads a .csproj (.fsproj, .vbproj): the project is named
// after its file, its dependencies are the PackageReference items (version
// from the attribute or the child element; PrivateAssets="all" marks a
// development-only package such as an analyzer). Items with Update instead
// of Include change a reference made elsewhere and add none.
func parseMSBuild(m *Manifest, base string, data []byte) error {
	m.Name = strings.TrimSuffix(base, path.Ext(base))
	var proj struct {
		Refs []struct {
			Include           string `xml:"Include,attr"`
			Version           string `xml:"Version,attr"`
			VersionElem       string `xml:"Version"`
			PrivateAssets     string `xml:"PrivateAssets,attr"`
			PrivateAssetsElem string `xml:"PrivateAssets"`
		} `xml:"ItemGroup>PackageReference"`
	}
	if err := xml.Unmarshal(data, &proj); err != nil {
		return err
	}
	for _, r := range proj.Refs {
		name := strings.TrimSpace(r.Include)
		version := r.Version
		if version == "" {
			version = strings.TrimSpace(r.VersionElem)
		}
		scope := ScopeRuntime
		if strings.EqualFold(r.PrivateAssets, "all") || strings.EqualFold(strings.TrimSpace(r.PrivateAssetsElem), "all") {
			scope = ScopeDev
		}
		if name != "" {
			m.add(name, version, scope)
		}
	}
	return nil
}

var slnProject = regexp.MustCompile(`Project\([^)]*\)\s*=\s*"[^"]*",\s*"([^"]+\.\w+proj)"`)

// parseSolution reads the project directories a .sln lists (solution
// folders, which name no project file, are left out).
func parseSolution(m *Manifest, data []byte) {
	m.Workspace = &Workspace{Members: []string{}}
	for _, s := range slnProject.FindAllSubmatch(data, -1) {
		m.Workspace.Members = append(m.Workspace.Members, path.Dir(strings.ReplaceAll(string(s[1]), `\`, "/")))
	}
}
