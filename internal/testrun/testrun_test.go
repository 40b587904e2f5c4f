package testrun

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanBalancesByCost(t *testing.T) {
	ts := []Target{{ID: "a", Cost: 5}, {ID: "b", Cost: 4}, {ID: "c", Cost: 3}, {ID: "d", Cost: 3}, {ID: "e", Cost: 1}}
	var got [][]string
	for _, b := range plan(units(ts, true), 2) {
		var ids []string
		for _, u := range b {
			ids = append(ids, u.targets[0].ID)
		}
		got = append(got, ids)
	}
	// a(5) | b(4); c(3) goes to the lighter b (7); d(3) to a (8); e to b (8)
	want := [][]string{{"a", "d"}, {"b", "c", "e"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("batches (-want +got):\n%s", d)
	}
}

// The runners the end-to-end scripts do not drive here (no Maven project,
// .NET or Ruby on this machine) are read from samples of their reports.
func TestReports(t *testing.T) {
	l := locator{root: "/repo", dir: "svc"}
	for _, tc := range []struct {
		name string
		got  outcome
		want outcome
	}{
		{"surefire", parseJUnit([][]byte{[]byte(`<?xml version="1.0"?>
<testsuite name="com.example.CalcTest" tests="3">
  <testcase name="adds" classname="com.example.CalcTest" time="0.01"/>
  <testcase name="divides" classname="com.example.CalcTest" time="0.01">
    <failure message="expected: &lt;2&gt; but was: &lt;3&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;2&gt; but was: &lt;3&gt;
	at com.example.CalcTest.divides(src/test/java/com/example/CalcTest.java:21)
</failure>
  </testcase>
  <testcase name="later" classname="com.example.CalcTest"><skipped/></testcase>
</testsuite>`)}, l),
			outcome{passed: 1, failed: 1, skipped: 1, ran: true, failures: []Failure{{Test: "com.example.CalcTest.divides",
				Message: "expected: <2> but was: <3>", Path: "svc/src/test/java/com/example/CalcTest.java", Line: 21}}}},
		{"trx", parseTRX([]byte(`<?xml version="1.0" encoding="utf-8"?>
<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>
<UnitTestResult testName="Calc.Adds" outcome="Passed"/>
<UnitTestResult testName="Calc.Divides" outcome="Failed"><Output><ErrorInfo><Message>Assert.Equal() Failure</Message>
<StackTrace>   at Calc.Divides() in /repo/svc/CalcTests.cs:line 14</StackTrace></ErrorInfo></Output></UnitTestResult>
</Results></TestRun>`), l),
			outcome{passed: 1, failed: 1, ran: true, failures: []Failure{{Test: "Calc.Divides", Message: "Assert.Equal() Failure", Path: "svc/CalcTests.cs", Line: 14}}}},
		{"rspec", parseRSpecJSON([]byte(`{"examples":[
{"full_description":"Calc adds","status":"passed","file_path":"./spec/calc_spec.rb","line_number":3},
{"full_description":"Calc divides","status":"failed","file_path":"./spec/calc_spec.rb","line_number":7,
 "exception":{"message":"expected: 2\n     got: 3","backtrace":["/repo/svc/spec/calc_spec.rb:8:in 'block (2 levels)'"]}},
{"full_description":"Calc later","status":"pending","file_path":"./spec/calc_spec.rb","line_number":11}]}`), l),
			outcome{passed: 1, failed: 1, skipped: 1, ran: true, failures: []Failure{{Test: "Calc divides", Message: "expected: 2\n     got: 3", Path: "svc/spec/calc_spec.rb", Line: 8}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, tc.got, cmp.AllowUnexported(outcome{})); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestGoTargetsOfAModuleShareOneUnit(t *testing.T) {
	us := units([]Target{{ID: "go:a", Runner: "go", Dir: ".", Cost: 1}, {ID: "jest:x.test.js", Runner: "jest", Cost: 2},
		{ID: "go:b", Runner: "go", Dir: ".", Cost: 3}, {ID: "go:m/c", Runner: "go", Dir: "m", Cost: 1}}, true)
	var got [][]string
	for _, u := range us {
		var ids []string
		for _, t := range u.targets {
			ids = append(ids, t.ID)
		}
		got = append(got, ids)
	}
	if d := cmp.Diff([][]string{{"go:a", "go:b"}, {"jest:x.test.js"}, {"go:m/c"}}, got); d != "" {
		t.Errorf("units (-want +got):\n%s", d)
	}
	if us[0].cost != 4 {
		t.Errorf("cost of the module's unit: %v, want 4", us[0].cost)
	}
}

func TestFingerprintIgnoresNumbers(t *testing.T) {
	a := fingerprint("go", Failure{Test: "TestX", Path: "x_test.go", Line: 7, Message: "x_test.go:7: got 41 at 0xc000123, want 3"})
	b := fingerprint("go", Failure{Test: "TestX", Path: "x_test.go", Line: 9, Message: "x_test.go:9: got 42 at 0xc000999, want 3"})
	c := fingerprint("go", Failure{Test: "TestY", Path: "x_test.go", Line: 9, Message: "x_test.go:9: got 42 at 0xc000999, want 3"})
	if a != b || a == c {
		t.Errorf("fingerprints %s %s %s: want the first two equal, the third different", a, b, c)
	}
}
