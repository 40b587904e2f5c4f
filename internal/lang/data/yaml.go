package data

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/cairnhq/cairn/internal/lang"
)

// extractYAML outlines the mapping keys of every document of a YAML stream
// from yaml.v3's node tree (which has each node's line and column).
func extractYAML(src []byte) (*lang.Facts, error) {
	o := newOutline(src)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			o.fail(o.offset(errorLine(err), 1))
			break
		}
		docs = append(docs, &n)
	}
	y := &yamlOutline{o: o}
	for i, d := range docs {
		end := len(src)
		if i+1 < len(docs) {
			end = o.offset(docs[i+1].Line, 1)
		}
		if len(d.Content) == 1 && d.Content[0].Kind == yaml.MappingNode {
			y.mapping(d.Content[0], 1, -1, o.trimBack(end, "#", "---", "..."))
		}
	}
	return o.facts(), nil
}

var yamlErrLine = regexp.MustCompile(`line (\d+)`)

// errorLine reads the line number out of a yaml.v3 error (1 when it has none).
func errorLine(err error) int {
	if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
		if n, e := strconv.Atoi(m[1]); e == nil {
			return n
		}
	}
	return 1
}

type yamlOutline struct{ o *outline }

// at is the byte offset of a node (yaml.v3 columns count characters).
func (y *yamlOutline) at(n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(y.o.lines) {
		return len(y.o.src)
	}
	ls := y.o.lines[n.Line-1]
	off := ls
	for c := 1; c < n.Column && off < len(y.o.src) && y.o.src[off] != '\n'; c++ {
		_, w := utf8.DecodeRune(y.o.src[off:])
		off += w
	}
	return off
}

// keyEnd is the end of a key's token as written (quoted or plain).
func (y *yamlOutline) keyEnd(start int, key *yaml.Node) int {
	src := y.o.src
	if start < len(src) && (src[start] == '"' || src[start] == '\'') {
		q := src[start]
		for i := start + 1; i < len(src) && src[i] != '\n'; i++ {
			if q == '"' && src[i] == '\\' {
				i++
				continue
			}
			if src[i] == q {
				if q == '\'' && i+1 < len(src) && src[i+1] == '\'' { // '' escapes a quote
					i++
					continue
				}
				return i + 1
			}
		}
		return y.o.lineEnd(start)
	}
	end := start + len(key.Value)
	if le := y.o.lineEnd(start); end > le {
		end = le
	}
	return end
}

// mapping outlines the pairs of a mapping whose keys are at the given depth;
// end bounds the last pair.
func (y *yamlOutline) mapping(m *yaml.Node, depth int, parent int32, end int) {
	pairs := m.Content
	for i := 0; i+1 < len(pairs); i += 2 {
		if y.o.full {
			return
		}
		k, v := pairs[i], pairs[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" || k.Value == "<<" || k.Value == "" {
			continue
		}
		start := y.at(k)
		stop := end
		if i+2 < len(pairs) {
			stop = y.o.trimBack(y.at(pairs[i+2]), "#")
		}
		if stop < start {
			stop = y.o.lineEnd(start)
		}
		kind := lang.KindField
		if v.Kind == yaml.MappingNode {
			kind = lang.KindNamespace
		}
		ke := y.keyEnd(start, k)
		doc := ""
		if k.HeadComment != "" {
			doc = commentDoc(strings.Split(k.HeadComment, "\n"), "#")
		}
		ns, ne := start, ke
		if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && ne-ns >= 2 {
			ns, ne = ns+1, ne-1
		}
		idx := y.o.add(def{kind: kind, name: k.Value, parent: parent, start: start, end: stop,
			nameStart: ns, nameEnd: ne, sig: string(y.o.src[start:y.o.lineEnd(start)]), doc: doc})
		if idx < 0 {
			return
		}
		if kind == lang.KindNamespace && depth < MaxDepth {
			y.mapping(v, depth+1, idx, stop)
		}
	}
}
