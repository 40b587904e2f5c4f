package manifest

import "testing"

func TestParseJVM(t *testing.T) {
	runParse(t, []parseCase{
		{
			name: "pom: parent group, scopes, dependencyManagement left out, modules",
			file: "pom.xml",
			text: `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <parent><groupId>com.acme</groupId><artifactId>parent</artifactId></parent>
  <artifactId>lib</artifactId>
  <dependencyManagement><dependencies>
    <dependency><groupId>com.pinned</groupId><artifactId>bom</artifactId><version>1</version><scope>import</scope></dependency>
  </dependencies></dependencyManagement>
  <dependencies>
    <dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>33.0</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13</version><scope>test</scope></dependency>
    <dependency><groupId>javax.servlet</groupId><artifactId>servlet-api</artifactId><scope>provided</scope></dependency>
    <dependency>
      <groupId> org.opt </groupId>
      <artifactId>opt</artifactId>
      <optional>true</optional>
    </dependency>
  </dependencies>
  <modules><module>core</module><module>web</module></modules>
</project>`,
			want: &Manifest{Format: Pom, Ecosystem: EcoJVM, Name: "com.acme:lib",
				Dependencies: []Dependency{
					{Name: "com.google.guava:guava", Version: "33.0", Scope: ScopeRuntime},
					{Name: "junit:junit", Version: "4.13", Scope: ScopeTest},
					{Name: "javax.servlet:servlet-api", Scope: ScopePeer},
					{Name: "org.opt:opt", Scope: ScopeOptional},
				},
				Workspace: &Workspace{Members: []string{"core", "web"}}},
		},
		{name: "pom not XML", file: "pom.xml", text: "<project><artifactId>x", want: &Manifest{Format: Pom, Ecosystem: EcoJVM}, wantErr: true},
		{
			// A commented-out dependency does not count; test and annotation
			// processor configurations and the map notation do.
			name: "build.gradle: notations, configurations, comments",
			file: "app/build.gradle",
			text: `plugins { id 'java' }
dependencies {
    // implementation 'old:gone:1'
    /* api 'old:block:1' */
    implementation 'com.google.guava:guava:33.0-jre'
    api "org.slf4j:slf4j-api:2.0.9"
    implementation group: 'com.x', name: 'mapped', version: '1.2'
    implementation platform('org.springframework.boot:spring-boot-dependencies:3.2.0')
    implementation project(':lib')
    implementation libs.jackson
    testImplementation 'junit:junit:4.13'
    testRuntimeOnly 'org.junit.platform:junit-platform-launcher'
    annotationProcessor 'org.projectlombok:lombok:1.18.30'
    someapi 'not:a:configuration'
}`,
			want: &Manifest{Format: Gradle, Ecosystem: EcoJVM, Dependencies: []Dependency{
				{Name: "com.google.guava:guava", Version: "33.0-jre", Scope: ScopeRuntime},
				{Name: "org.slf4j:slf4j-api", Version: "2.0.9", Scope: ScopeRuntime},
				{Name: "com.x:mapped", Version: "1.2", Scope: ScopeRuntime},
				{Name: "org.springframework.boot:spring-boot-dependencies", Version: "3.2.0", Scope: ScopeRuntime},
				{Name: "junit:junit", Version: "4.13", Scope: ScopeTest},
				{Name: "org.junit.platform:junit-platform-launcher", Scope: ScopeTest},
				{Name: "org.projectlombok:lombok", Version: "1.18.30", Scope: ScopeBuild},
			}},
		},
		{
			name: "build.gradle.kts",
			file: "build.gradle.kts",
			text: "dependencies {\n    implementation(\"io.ktor:ktor-server-core:2.3.0\")\n    testImplementation(kotlin(\"test\"))\n}\n",
			want: &Manifest{Format: Gradle, Ecosystem: EcoJVM, Dependencies: []Dependency{
				{Name: "io.ktor:ktor-server-core", Version: "2.3.0", Scope: ScopeRuntime},
			}},
		},
		{
			name: "settings.gradle: includes on one line",
			file: "settings.gradle",
			text: "rootProject.name = 'acme'\ninclude ':app', ':lib'\ninclude ':services:api'\n",
			want: &Manifest{Format: GradleSettings, Ecosystem: EcoJVM, Workspace: &Workspace{Members: []string{"app", "lib", "services/api"}}},
		},
		{
			// An include may span lines (read as one line it lists nobody,
			// which detaches every project), and includeBuild is no include.
			name: "settings.gradle.kts: a multi-line include, includeBuild, a project directory",
			file: "settings.gradle.kts",
			text: `rootProject.name = "acme"
includeBuild("build-logic")
include(
    ":app",
    ":lib", // the library
)
include ':legacy',
        ':tools'
project(":lib").projectDir = file("libs/lib")
`,
			want: &Manifest{Format: GradleSettings, Ecosystem: EcoJVM, Workspace: &Workspace{Members: []string{"app", "libs/lib", "legacy", "tools"}}},
		},
		{
			name: "settings.gradle: an include of a variable leaves the workspace open",
			file: "settings.gradle",
			text: "def mods = ['a', 'b']\ninclude ':app'\nmods.each { include it }\n",
			want: &Manifest{Format: GradleSettings, Ecosystem: EcoJVM, Workspace: &Workspace{Members: []string{"app"}, Open: true}},
		},
	})
}
