package data

import (
	"regexp"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Prisma is a Prisma schema (schema.prisma): its models, views, enums and
// composite types are outlined, and its surfaces listed: the table of each
// model and view (@@map("name"), else the model's name, which is what Prisma
// uses) and the environment variables of env("X").
var Prisma = &lang.Language{Name: "prisma", Extensions: []string{".prisma"}, Extract: extractPrisma}

func init() { lang.Register(Prisma) }

var (
	prismaBlock = regexp.MustCompile(`^(model|view|enum|type|datasource|generator)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{`)
	prismaField = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(\s+\S+)?`)
	prismaMap   = regexp.MustCompile(`@@map\(\s*(?:name\s*:\s*)?"([^"]*)"`)
	prismaEnv   = regexp.MustCompile(`env\(\s*"([^"]+)"\s*\)`)
)

func extractPrisma(src []byte) (*lang.Facts, error) {
	o := newOutline(src)
	var block int32 = -1
	blockKind, blockName := "", ""
	var doc []string
	mapped := false
	for ln := 0; ln < len(o.lines); ln++ {
		start := o.lines[ln]
		end := o.lineEnd(start)
		raw := string(o.src[start:end])
		line := strings.TrimSpace(raw)
		indent := start + strings.Index(raw, line)
		if line == "" {
			doc = nil
			continue
		}
		for _, m := range prismaEnv.FindAllStringSubmatchIndex(raw, -1) {
			o.f.Surfaces = append(o.f.Surfaces, lang.Surface{Kind: lang.SurfConfigKey, Value: raw[m[2]:m[3]],
				Method: "env", Framework: "prisma", Pos: o.pos(start + m[2]), Def: -1, Confidence: lang.ConfHigh})
		}
		if strings.HasPrefix(line, "//") {
			if strings.HasPrefix(line, "///") {
				doc = append(doc, strings.TrimPrefix(line, "///"))
			}
			continue
		}
		if block < 0 {
			m := prismaBlock.FindStringSubmatchIndex(line)
			if m == nil {
				o.fail(indent)
				doc = nil
				continue
			}
			blockKind, blockName = line[m[2]:m[3]], line[m[4]:m[5]]
			kind := lang.KindClass
			switch blockKind {
			case "enum":
				kind = lang.KindEnum
			case "type":
				kind = lang.KindStruct
			case "datasource", "generator":
				kind = lang.KindNamespace
			}
			block = o.add(def{kind: kind, name: blockName, parent: -1, start: indent, end: end,
				nameStart: indent + m[4], nameEnd: indent + m[5], sig: blockKind + " " + blockName, doc: commentDoc(doc, "")})
			doc, mapped = nil, false
			if strings.HasSuffix(line, "}") { // model X {}
				o.closePrisma(block, blockKind, blockName, end, mapped)
				block = -1
			}
			continue
		}
		if line == "}" {
			o.closePrisma(block, blockKind, blockName, end, mapped)
			block, doc = -1, nil
			continue
		}
		if m := prismaMap.FindStringSubmatchIndex(line); m != nil && (blockKind == "model" || blockKind == "view") {
			p := o.pos(indent + m[2])
			o.f.Surfaces = append(o.f.Surfaces, lang.Surface{Kind: lang.SurfDBTable, Value: line[m[2]:m[3]],
				Method: "model", Framework: "prisma", Detail: blockName, Pos: p, Def: block, Confidence: lang.ConfHigh})
			mapped = true
			continue
		}
		if strings.HasPrefix(line, "@@") || blockKind == "datasource" || blockKind == "generator" {
			continue
		}
		if m := prismaField.FindStringSubmatchIndex(line); m != nil {
			name := line[m[2]:m[3]]
			kind := lang.KindField
			if blockKind == "enum" {
				kind = lang.KindEnumMember
			}
			o.add(def{kind: kind, name: name, parent: block, start: indent, end: end,
				nameStart: indent + m[2], nameEnd: indent + m[3], sig: line, doc: commentDoc(doc, "")})
		}
		doc = nil
	}
	if block >= 0 {
		o.fail(len(o.src))
	}
	for i := range o.f.Surfaces {
		if o.f.Surfaces[i].Kind == lang.SurfConfigKey {
			o.f.Surfaces[i].Def = o.f.DefAt(o.f.Surfaces[i].Pos) // spans are final now
		}
	}
	return o.facts(), nil
}

// closePrisma ends a block: its span reaches the closing brace, and a model
// or view without @@map gets its own name as its table.
func (o *outline) closePrisma(block int32, kind, name string, end int, mapped bool) {
	o.setEnd(block, end)
	if block < 0 || mapped || (kind != "model" && kind != "view") {
		return
	}
	d := o.f.Defs[block]
	o.f.Surfaces = append(o.f.Surfaces, lang.Surface{Kind: lang.SurfDBTable, Value: name, Method: "model",
		Framework: "prisma", Detail: name, Pos: d.NameSpan.Start, Def: block, Confidence: lang.ConfHigh})
}
