package main

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	_ "modernc.org/sqlite"
)

var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// jsonsame A B: the two envelopes are identical once the fields allowed to
	// vary (meta.timing_ms, meta.request_id, meta.tokens) are removed.
	"jsonsame": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: jsonsame A B")
		}
		a, b := stripVarying(ts, ts.ReadFile(args[0])), stripVarying(ts, ts.ReadFile(args[1]))
		if (a == b) == neg {
			ts.Fatalf("envelopes differ=%v:\n%s\n---\n%s", a != b, a, b)
		}
	},
	// flipbyte FILE FRACTION: invert one byte of a file at FRACTION of its
	// length (0.5: the middle), as a bad disk or a broken download does.
	"flipbyte": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: flipbyte FILE FRACTION")
		}
		frac, err := strconv.ParseFloat(args[1], 64)
		if err != nil || frac < 0 || frac >= 1 {
			ts.Fatalf("flipbyte: bad fraction %s", args[1])
		}
		data := []byte(ts.ReadFile(args[0]))
		data[int(float64(len(data))*frac)] ^= 0xff
		if err := os.WriteFile(ts.MkAbs(args[0]), data, 0o600); err != nil {
			ts.Fatalf("flipbyte: %v", err)
		}
	},
	// artifactset FILE KEY VALUE: set a field of an index artifact's
	// manifest (VALUE as JSON) and checksum it again, as a build of Cairn
	// with other versions would have written it.
	"artifactset": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 {
			ts.Fatalf("usage: artifactset FILE KEY VALUE")
		}
		data := []byte(ts.ReadFile(args[0]))
		header, rest, _ := bytes.Cut(data, []byte("\n"))
		manifest, payload, _ := bytes.Cut(rest, []byte("\n"))
		var m map[string]any
		if err := json.Unmarshal(manifest, &m); err != nil {
			ts.Fatalf("artifactset: manifest: %v", err)
		}
		var v any
		if err := json.Unmarshal([]byte(args[2]), &v); err != nil {
			ts.Fatalf("artifactset: value: %v", err)
		}
		m[args[1]] = v
		manifest, _ = json.Marshal(m)
		body := append(append(manifest, '\n'), payload...)
		sum := sha256.Sum256(body)
		fields := strings.Fields(string(header))
		out := fmt.Sprintf("%s %s sha256:%s\n", fields[0], fields[1], hex.EncodeToString(sum[:]))
		if err := os.WriteFile(ts.MkAbs(args[0]), append([]byte(out), body...), 0o600); err != nil {
			ts.Fatalf("artifactset: %v", err)
		}
	},
	// jsonpath FILE PATH WANT: a dotted path into a JSON file equals WANT (as JSON text).
	"jsonpath": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 {
			ts.Fatalf("usage: jsonpath FILE PATH WANT")
		}
		if got := lookup(ts, args[0], args[1]); (got == args[2]) == neg {
			ts.Fatalf("%s = %s, want %s", args[1], got, args[2])
		}
	},
	// jsonsame2 A B PATH: the value at a dotted path is the same in two JSON files.
	"jsonsame2": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 {
			ts.Fatalf("usage: jsonsame2 A B PATH")
		}
		a, b := lookup(ts, args[0], args[2]), lookup(ts, args[1], args[2])
		if (a == b) == neg {
			ts.Fatalf("%s: %s vs %s", args[2], a, b)
		}
	},
	// setjson FILE PATH VAR: set an environment variable to the string at a dotted path.
	"setjson": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 {
			ts.Fatalf("usage: setjson FILE PATH VAR")
		}
		var v string
		if err := json.Unmarshal([]byte(lookup(ts, args[0], args[1])), &v); err != nil {
			ts.Fatalf("%s is not a string", args[1])
		}
		ts.Setenv(args[2], v)
	},
	// inplace FILE OLD NEW: replace OLD by NEW (same length) in a file and
	// restore its modification time, as an editor or a tool that keeps mtime
	// does: only the inode change time moves.
	"inplace": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 || len(args[1]) != len(args[2]) {
			ts.Fatalf("usage: inplace FILE OLD NEW (OLD and NEW of one length)")
		}
		path := ts.MkAbs(args[0])
		st, err := os.Stat(path)
		if err != nil {
			ts.Fatalf("inplace: %v", err)
		}
		data := []byte(strings.Replace(ts.ReadFile(args[0]), args[1], args[2], 1))
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			ts.Fatalf("inplace: %v", err)
		}
		f.WriteAt(data, 0)
		f.Close()
		if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
			ts.Fatalf("inplace: %v", err)
		}
	},
	// perm FILE MODE: a file's permission bits are MODE (octal, e.g. 0600).
	"perm": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: perm FILE MODE")
		}
		st, err := os.Stat(ts.MkAbs(args[0]))
		if err != nil {
			ts.Fatalf("perm: %v", err)
		}
		got := fmt.Sprintf("%04o", st.Mode().Perm())
		if (got == args[1]) == neg {
			ts.Fatalf("%s has mode %s, want %s", args[0], got, args[1])
		}
	},
	// content FILE TEXT: a file's bytes are exactly TEXT, read with the
	// escapes of a Go string literal (\r, \n, \ufeff): for line endings,
	// byte order marks and final newlines.
	"content": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: content FILE TEXT")
		}
		want, err := strconv.Unquote(`"` + args[1] + `"`)
		if err != nil {
			ts.Fatalf("content: %s has a bad escape", args[1])
		}
		if got := ts.ReadFile(args[0]); (got == want) == neg {
			ts.Fatalf("%s holds %q, want %q", args[0], got, want)
		}
	},
	// pidalive FILE: the process whose id FILE holds is still running.
	"pidalive": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: pidalive FILE")
		}
		pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
		if err != nil {
			ts.Fatalf("pidalive: %s holds no process id", args[0])
		}
		// A killed process may linger as a zombie until its parent reaps
		// it; give that a moment.
		alive := true
		for i := 0; i < 50 && alive; i++ {
			alive = processAlive(pid)
			if alive {
				time.Sleep(100 * time.Millisecond)
			}
		}
		if alive == neg {
			ts.Fatalf("process %d alive: %v", pid, alive)
		}
	},
	// truncate FILE N: cut a file to N bytes (simulates a damaged database).
	"truncate": func(ts *testscript.TestScript, neg bool, args []string) {
		var n int64
		for _, c := range args[1] {
			n = n*10 + int64(c-'0')
		}
		if err := os.Truncate(ts.MkAbs(args[0]), n); err != nil {
			ts.Fatalf("truncate: %v", err)
		}
	},
	// sqlexec DB SQL: run one statement on an SQLite file (an index as
	// another version of Cairn left it).
	"sqlexec": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: sqlexec DB SQL")
		}
		db, err := sql.Open("sqlite", "file:"+ts.MkAbs(args[0]))
		if err != nil {
			ts.Fatalf("sqlexec: %v", err)
		}
		defer db.Close()
		if _, err := db.Exec(args[1]); err != nil {
			ts.Fatalf("sqlexec: %v", err)
		}
	},
}

func stripVarying(ts *testscript.TestScript, s string) string {
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		ts.Fatalf("not JSON: %v", err)
	}
	if m, ok := v["meta"].(map[string]any); ok {
		delete(m, "timing_ms")
		delete(m, "request_id")
		delete(m, "tokens")
		delete(m, "tokens_saved")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.Encode(v)
	return buf.String()
}

// lookup returns the JSON text at a dotted path of a JSON file.
func lookup(ts *testscript.TestScript, file, path string) string {
	var v any
	if err := json.Unmarshal([]byte(ts.ReadFile(file)), &v); err != nil {
		ts.Fatalf("%s: %v", file, err)
	}
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				ts.Fatalf("%s: index %d out of range", path, i)
			}
			v = x[i]
		default:
			ts.Fatalf("%s: cannot descend into %T", path, v)
		}
	}
	got, _ := json.Marshal(v)
	return string(got)
}

// processAlive reports whether a process runs (a zombie counts as gone).
func processAlive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil && !isLinux()
	}
	// the state follows the command name in parentheses
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

func isLinux() bool { _, err := os.Stat("/proc/self/stat"); return err == nil }
