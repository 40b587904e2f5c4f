package classlang

import (
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// JVM completes a Java or Kotlin Language with what the two share: modules
// from JVM manifests, one package space in which a file sees its package
// without importing it and imports others whole with import a.b.*,
// overloads, visibility by modifiers, this for the enclosing class, names
// bound from their declaration on, linking by package, the JDK as standard
// library, JUnit's test files, and each other's accessors (accessors.go).
func JVM(l *lang.Language) *lang.Language {
	l.Ecosystem = "jvm"
	l.SelfNames, l.BlockScoped = []string{"this"}, true
	l.NameSeparators = append(l.NameSeparators, "#") // Javadoc's and KDoc's Type#member
	l.Packages, l.PackageSpace = lang.PackageDeclared, "java"
	l.NamespaceImports = true
	l.Overloads = true
	l.VisibilityRule = lang.RuleModifiers
	l.Linker, l.Stdlib, l.TestFile = Linker, JVMStdlib, JVMTestFile
	l.AccessorNames, l.RenameAccessor = AccessorNames(l.Name), RenameAccessor(l.Name)
	return l
}

// JVMTestFile is the convention by which a Java or Kotlin file holds tests:
// a JUnit class named *Test, *Tests or *IT (the label names the first), or
// any file of Maven's and Gradle's src/test/.
func JVMTestFile(p string) string {
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch {
	case strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "IT"):
		return "JUnit (*Test" + ext + ")"
	case strings.Contains(p, "src/test/"):
		return "src/test/"
	}
	return ""
}
