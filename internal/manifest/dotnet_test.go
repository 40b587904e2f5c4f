package manifest

import "testing"

func TestParseDotnet(t *testing.T) {
	runParse(t, []parseCase{
		{
			// An Update item changes a reference made elsewhere: it adds no
			// dependency (and has no Include to name one).
			name: "csproj: versions as attribute or element, private assets, Update items",
			file: "src/Api/Api.csproj",
			text: `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
    <PackageReference Include="Serilog">
      <Version>3.1.1</Version>
    </PackageReference>
    <PackageReference Include="StyleCop.Analyzers" Version="1.1" PrivateAssets="all" />
    <PackageReference Update="Pinned" Version="2" />
    <ProjectReference Include="..\Core\Core.csproj" />
  </ItemGroup>
</Project>`,
			want: &Manifest{Format: MSBuild, Ecosystem: EcoDotnet, Name: "Api", Dependencies: []Dependency{
				{Name: "Newtonsoft.Json", Version: "13.0.3", Scope: ScopeRuntime},
				{Name: "Serilog", Version: "3.1.1", Scope: ScopeRuntime},
				{Name: "StyleCop.Analyzers", Version: "1.1", Scope: ScopeDev},
			}},
		},
		{
			name: "old-style project with the MSBuild namespace",
			file: "Legacy.vbproj",
			text: `<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003"><ItemGroup><PackageReference Include="Dapper" Version="2" /></ItemGroup></Project>`,
			want: &Manifest{Format: MSBuild, Ecosystem: EcoDotnet, Name: "Legacy", Dependencies: []Dependency{{Name: "Dapper", Version: "2", Scope: ScopeRuntime}}},
		},
		{name: "csproj not XML", file: "X.csproj", text: "<Project>", want: &Manifest{Format: MSBuild, Ecosystem: EcoDotnet, Name: "X"}, wantErr: true},
		{
			name: "sln projects, solution folders left out",
			file: "Acme.sln",
			text: "Microsoft Visual Studio Solution File, Format Version 12.00\r\n" +
				"Project(\"{2150E333-8FDC-42A3-9474-1A3956D46DE8}\") = \"src\", \"src\", \"{A}\"\r\nEndProject\r\n" +
				"Project(\"{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}\") = \"Api\", \"src\\Api\\Api.csproj\", \"{B}\"\r\nEndProject\r\n" +
				"Project(\"{F2A71F9B-5D33-465A-A702-920D77279786}\") = \"Lib\", \"Lib.fsproj\", \"{C}\"\r\nEndProject\r\n",
			want: &Manifest{Format: Solution, Ecosystem: EcoDotnet, Workspace: &Workspace{Members: []string{"src/Api", "."}}},
		},
	})
}
