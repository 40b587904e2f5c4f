package data

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/cairnhq/cairn/internal/lang"
)

// extractJSON outlines the keys of a JSON document from encoding/json's token
// stream; positions come from the decoder's input offset.
func extractJSON(src []byte) (*lang.Facts, error) {
	o := newOutline(src)
	j := &jsonOutline{o: o, dec: json.NewDecoder(bytes.NewReader(o.src))}
	j.dec.UseNumber()
	if len(bytes.TrimSpace(o.src)) == 0 {
		return o.facts(), nil
	}
	if err := j.value(0, 0, -1); err != nil {
		o.fail(j.errorOffset())
		return o.facts(), nil
	}
	if _, err := j.dec.Token(); err != io.EOF {
		o.fail(j.errorOffset()) // trailing data after the document
	}
	return o.facts(), nil
}

type jsonOutline struct {
	o   *outline
	dec *json.Decoder
}

// tokenStart is the offset where the next token starts: after the whitespace,
// commas and colons that follow the decoder's position.
func (j *jsonOutline) tokenStart() int {
	off := int(j.dec.InputOffset())
	src := j.o.src
	for off < len(src) {
		switch src[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// errorOffset is where decoding stopped.
func (j *jsonOutline) errorOffset() int { return j.tokenStart() }

var errJSON = errors.New("json: unexpected token")

// value consumes one value. depth is the nesting level of the keys of an
// object value (1 for the top-level object's keys); nest counts the objects
// and arrays around the value; parent is the definition of the key holding
// the value, or -1.
func (j *jsonOutline) value(depth, nest int, parent int32) error {
	tok, err := j.dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar
	}
	if nest >= lang.MaxNesting {
		// Nothing this deep is outlined (MaxDepth is far less): consume the
		// rest of the value without recursing.
		j.o.f.Limits |= lang.LimitNesting
		return j.skip()
	}
	switch delim {
	case '[':
		for j.dec.More() {
			if err := j.value(MaxDepth+1, nest+1, -1); err != nil { // arrays are not outlined
				return err
			}
		}
	case '{':
		for j.dec.More() {
			keyStart := j.tokenStart()
			tok, err := j.dec.Token()
			if err != nil {
				return err
			}
			key, ok := tok.(string)
			if !ok {
				return errJSON
			}
			keyEnd := int(j.dec.InputOffset())
			valStart := j.tokenStart()
			idx := int32(-1)
			record := depth+1 <= MaxDepth && !j.o.full && (parent >= 0 || depth == 0)
			if record {
				kind := lang.KindField
				if valStart < len(j.o.src) && j.o.src[valStart] == '{' {
					kind = lang.KindNamespace
				}
				sig := ""
				if kind == lang.KindNamespace {
					sig = string(j.o.src[keyStart:keyEnd]) + ": {…}"
				}
				idx = j.o.add(def{kind: kind, name: key, parent: parent, start: keyStart, end: keyEnd,
					nameStart: keyStart + 1, nameEnd: keyEnd - 1, sig: sig})
			}
			if err := j.value(depth+1, nest+1, idx); err != nil {
				j.o.setEnd(idx, j.tokenStart())
				return err
			}
			end := int(j.dec.InputOffset())
			if idx >= 0 {
				j.o.setEnd(idx, end)
				if j.o.f.Defs[idx].Kind == lang.KindField {
					j.o.f.Defs[idx].Signature = truncSig(string(j.o.src[keyStart:end]))
				}
			}
		}
	default:
		return errJSON
	}
	_, err = j.dec.Token() // the closing delimiter
	return err
}

// skip consumes the rest of an object or array whose opening delimiter was
// just read.
func (j *jsonOutline) skip() error {
	for open := 1; open > 0; {
		tok, err := j.dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			open++
		case json.Delim('}'), json.Delim(']'):
			open--
		}
	}
	return nil
}
