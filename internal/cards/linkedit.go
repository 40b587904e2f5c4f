package cards

import (
	"bytes"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
)

// Link edits write and remove @see lines in the comment syntax of the
// file's language: into the comment block that documents the definition
// (or a new line comment right above it, past its annotations), or at the
// top of the file for the file itself. An edit is kept only when scanning
// the edited file finds the link where it was meant to go.

// splitKeep splits a file into lines that keep their line ends.
func splitKeep(src []byte) []string {
	return slices.Collect(strings.Lines(string(src)))
}

// eolOf is the line end a file uses.
func eolOf(src []byte) string {
	if bytes.Contains(src, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// insertLines inserts lines before line at (1-based; len+1 appends).
func insertLines(src []byte, at int, add ...string) []byte {
	ls := splitKeep(src)
	eol := eolOf(src)
	if len(ls) > 0 && !strings.HasSuffix(ls[len(ls)-1], "\n") && at > len(ls) {
		ls[len(ls)-1] += eol
	}
	var ins []string
	for _, a := range add {
		ins = append(ins, a+eol)
	}
	at = min(max(at, 1), len(ls)+1)
	out := append(append(append([]string{}, ls[:at-1]...), ins...), ls[at-1:]...)
	return []byte(strings.Join(out, ""))
}

// shiftDefs moves the definitions at or below line by n lines.
func shiftDefs(defs []lang.Def, line, n int) []lang.Def {
	out := make([]lang.Def, len(defs))
	for i, d := range defs {
		for _, p := range []*lang.Pos{&d.Span.Start, &d.Span.End, &d.NameSpan.Start, &d.NameSpan.End} {
			if int(p.Line) >= line {
				p.Line += uint32(n)
			}
		}
		out[i] = d
	}
	return out
}

// linkedTo reports whether src links key from definition target.
func linkedTo(language string, src []byte, defs []lang.Def, key string, target int) bool {
	hits, cms := Scan(language, src)
	owners := Attach(src, hits, cms, defs)
	for i, h := range hits {
		if h.Key == key && owners[i] == target {
			return true
		}
	}
	return false
}

// AddLink returns src with a @see key that belongs to definition target
// (-1: the file). changed is false when the link is already there.
func AddLink(language string, src []byte, defs []lang.Def, target int, key string) (out []byte, changed bool, err error) {
	sx, ok := syntaxes[language]
	if !ok {
		return nil, false, errs.E(errs.InvalidArgument, "links cannot be written in %s files: Cairn reads @see only from the comments of code", language)
	}
	if linkedTo(language, src, defs, key, target) {
		return src, false, nil
	}
	tag := seeTag + " " + key
	type attempt struct {
		out   []byte
		defs  []lang.Def
		added int
	}
	var tries []attempt
	ls := lines(src)
	if target < 0 {
		at := 1
		for at <= len(ls) && (strings.HasPrefix(ls[at-1], "#!") || strings.HasPrefix(strings.TrimSpace(ls[at-1]), "<?php")) {
			at++
		}
		line := sx.comment + " " + tag
		tries = append(tries, attempt{insertLines(src, at, line), shiftDefs(defs, at, 1), 1},
			attempt{insertLines(src, at, line, ""), shiftDefs(defs, at, 2), 2})
	} else {
		d := defs[target]
		cms := comments(sx, src)
		ends := blockEnds(cms)
		doc := -1
		for i, cm := range cms {
			if !cm.full || cm.doc || i > 0 && ends[i-1] == ends[i] && cms[i-1].line && cm.line {
				continue // not the first comment of its block
			}
			container := innermost(defs, lang.Pos{Line: uint32(cm.startLine), Col: 1})
			if documented(defs, container, ls, cm, ends[i]) == target {
				doc = i
			}
		}
		switch {
		case doc >= 0 && cms[doc].line:
			end := ends[doc]
			last := lineText(ls, end)
			ind := indentOf(last)
			marker := strings.TrimLeft(last, " \t")
			if k := strings.IndexAny(marker, " \t"); k >= 0 {
				marker = marker[:k]
			}
			tries = append(tries, attempt{insertLines(src, end+1, ind+marker+" "+tag), shiftDefs(defs, end+1, 1), 1})
		case doc >= 0:
			cm := cms[doc]
			last := lineText(ls, cm.endLine)
			if strings.TrimSpace(last) == "*/" {
				ind := last[:strings.Index(last, "*/")]
				tries = append(tries, attempt{insertLines(src, cm.endLine, ind+"* "+tag), shiftDefs(defs, cm.endLine, 1), 1})
			} else if k := strings.LastIndex(last, "*/"); k >= 0 {
				before := strings.TrimRight(last[:k], " \t")
				edited := before + " " + tag + " " + last[k:]
				all := splitKeep(src)
				end := all[cm.endLine-1][len(last):]
				all[cm.endLine-1] = edited + end
				tries = append(tries, attempt{[]byte(strings.Join(all, "")), defs, 0})
			}
		}
		at := int(d.Span.Start.Line)
		for at > 1 && decoratorLine(lineText(ls, at-1)) && !strings.HasPrefix(strings.TrimSpace(lineText(ls, at-1)), sx.comment) {
			at--
		}
		ind := indentOf(lineText(ls, int(d.Span.Start.Line)))
		tries = append(tries, attempt{insertLines(src, at, ind+sx.comment+" "+tag), shiftDefs(defs, at, 1), 1})
	}
	for _, t := range tries {
		if linkedTo(language, t.out, t.defs, key, target) {
			return t.out, true, nil
		}
	}
	return nil, false, errs.E(errs.Precondition, "cannot place @see %s so that it belongs to the definition asked for; add it by hand (write_source)", key)
}

// RemoveLink returns src without the @see key links that belong to
// definition target (any definition when target is nil). removed counts
// them.
func RemoveLink(language string, src []byte, defs []lang.Def, target *int, key string) ([]byte, int) {
	hits, cms := Scan(language, src)
	owners := Attach(src, hits, cms, defs)
	out := src
	removed := 0
	for i := len(hits) - 1; i >= 0; i-- {
		h := hits[i]
		if h.Key != key || target != nil && owners[i] != *target {
			continue
		}
		out = cutLink(out, h.At, h.Off+len(h.Key))
		removed++
	}
	return out, removed
}

// cutLink removes src[from:to] (an "@see key") from its line, and the
// whole line when nothing but comment markers would remain of it.
func cutLink(src []byte, from, to int) []byte {
	start := bytes.LastIndexByte(src[:from], '\n') + 1
	end := len(src)
	if k := bytes.IndexByte(src[to:], '\n'); k >= 0 {
		end = to + k + 1
	}
	line := string(src[start:end])
	a, b := from-start, to-start
	if a > 0 && (line[a-1] == ' ' || line[a-1] == '\t') {
		a--
	}
	rest := line[:a] + line[b:]
	body := strings.TrimSpace(rest)
	for _, m := range []string{"/**", "/*", "*/", "///", "//!", "//", "#", "*", "--"} {
		body = strings.TrimSpace(strings.ReplaceAll(body, m, ""))
	}
	opens, closes := strings.Contains(rest, "/*"), strings.Contains(rest, "*/")
	if body == "" && opens == closes {
		return append(append([]byte{}, src[:start]...), src[end:]...)
	}
	return append(append(append([]byte{}, src[:start]...), rest...), src[end:]...)
}
