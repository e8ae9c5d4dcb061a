package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Codex's config.toml is edited in place, guided by a real TOML parser
// (go-toml): the file is parsed into its top-level expressions, each with
// its full key path and where it is, and only the bytes of what changes
// are replaced, so comments, order, quoting, CRLF and the lack of a final
// newline stay. Whatever the layout (a [table], dotted keys, an inline
// table, arrays of tables), the result is parsed again and must decode to
// the original document with only the intended change; otherwise nothing
// is written and init says what to add by hand.

// tomlExpr is one top-level expression of a TOML document.
type tomlExpr struct {
	kind unstable.Kind // unstable.KeyValue, unstable.Table or unstable.ArrayTable
	// path is the full key path: the table's for a header, the table's
	// and the key's for a key-value.
	path []string
	// lineStart, lineEnd are the bytes of its lines, from the start of the
	// first to past the newline of the last (or the end of the file).
	lineStart, lineEnd int
	// keyStart is where a key-value's key starts; valStart, valEnd are its
	// value.
	keyStart, valStart, valEnd int
	// children are the key-values of an inline-table value.
	children []tomlExpr
}

// parseTOMLExprs lists the top-level expressions of b.
func parseTOMLExprs(b []byte) ([]tomlExpr, error) {
	p := &unstable.Parser{}
	p.Reset(b)
	var out []tomlExpr
	var table []string
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.KeyValue:
			e := kvExpr(b, n, table)
			e.lineStart, e.lineEnd = lineStart(b, e.keyStart), lineEnd(b, e.valEnd)
			out = append(out, e)
		case unstable.Table, unstable.ArrayTable:
			keys, first, last := keyParts(n.Key())
			table = keys
			out = append(out, tomlExpr{kind: n.Kind, path: keys, lineStart: lineStart(b, first), lineEnd: lineEnd(b, last)})
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	return out, nil
}

// kvExpr describes a key-value node under table, with the key-values of an
// inline-table value as children (their paths relative to the value).
func kvExpr(b []byte, n *unstable.Node, table []string) tomlExpr {
	keys, first, last := keyParts(n.Key())
	e := tomlExpr{kind: unstable.KeyValue, path: append(slices.Clone(table), keys...), keyStart: first}
	// The value is the rest of the key-value after "=".
	i := last
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '=') {
		i++
	}
	e.valStart, e.valEnd = i, int(n.Raw.Offset+n.Raw.Length)
	if v := n.Value(); v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				e.children = append(e.children, kvExpr(b, c, nil))
			}
		}
	}
	return e
}

// keyParts decodes a (dotted) key and returns where its raw bytes start
// and end.
func keyParts(it unstable.Iterator) (keys []string, start, end int) {
	start = -1
	for it.Next() {
		k := it.Node()
		keys = append(keys, string(k.Data))
		if start < 0 {
			start = int(k.Raw.Offset)
		}
		end = int(k.Raw.Offset + k.Raw.Length)
	}
	return keys, start, end
}

func lineStart(b []byte, i int) int {
	return bytes.LastIndexByte(b[:i], '\n') + 1
}

func lineEnd(b []byte, i int) int {
	if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(b)
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// tomlEdit replaces b[start:end] with text.
type tomlEdit struct {
	start, end int
	text       string
}

func applyTOMLEdits(b []byte, edits []tomlEdit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := slices.Clone(b)
	for _, e := range edits {
		out = append(out[:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out
}

// tomlKey quotes a key part when it is not bare.
func tomlKey(k string) string {
	if k != "" && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
		return k
	}
	return tomlString(k)
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlValue writes v (as go-toml decodes it) on one line: inline tables
// with command and args first, then the other keys sorted.
func tomlValue(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return tomlString(t), nil
	case bool:
		return strconv.FormatBool(t), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	case []string:
		a := make([]any, len(t))
		for i, s := range t {
			a[i] = s
		}
		return tomlValue(a)
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			s, err := tomlValue(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		var parts []string
		for _, k := range orderedKeys(t) {
			s, err := tomlValue(t[k])
			if err != nil {
				return "", err
			}
			parts = append(parts, tomlKey(k)+" = "+s)
		}
		if len(parts) == 0 {
			return "{}", nil
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	}
	// Floats, dates and times: go-toml writes them.
	b, err := toml.Marshal(map[string]any{"v": v})
	if err != nil {
		return "", err
	}
	s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "v = ")
	if !ok || strings.Contains(s, "\n") {
		return "", fmt.Errorf("cannot write %T on one line", v)
	}
	return s, nil
}

// tomlChange is what init wants of config.toml: the table at path to be
// full, by setting the keys of set (and dropping its other keys and
// sub-tables when drop), and booleans set true.
type tomlChange struct {
	path      []string
	set, full map[string]any
	drop      bool
	setTrue   [][]string
}

// editTOML applies c to b in place and checks the result with the parser.
// want is the whole document as it must decode afterwards.
func editTOML(b []byte, c tomlChange, want map[string]any) ([]byte, error) {
	exprs, err := parseTOMLExprs(b)
	if err != nil {
		return nil, err
	}
	eol := "\n"
	if bytes.Contains(b, []byte("\r\n")) {
		eol = "\r\n"
	}
	var edits []tomlEdit
	if c.full != nil {
		e, err := tableEdits(b, exprs, c, eol)
		if err != nil {
			return nil, err
		}
		edits = append(edits, e...)
	}
	for _, path := range c.setTrue {
		e, ok := findKV(exprs, path)
		if !ok {
			return nil, fmt.Errorf("no %s to turn on", strings.Join(path, "."))
		}
		edits = append(edits, tomlEdit{e.valStart, e.valEnd, "true"})
	}
	out := applyTOMLEdits(b, edits)
	var got map[string]any
	if err := toml.Unmarshal(out, &got); err != nil {
		return nil, fmt.Errorf("the edit would not parse (%v)", err)
	}
	if !reflect.DeepEqual(got, want) {
		return nil, errors.New("the edit would change more than pumasi's entries")
	}
	return out, nil
}

// findKV finds the key-value at path, at the top level or inside the
// inline table of one.
func findKV(exprs []tomlExpr, path []string) (tomlExpr, bool) {
	for _, e := range exprs {
		if e.kind != unstable.KeyValue || !hasPrefix(path, e.path) {
			continue
		}
		if len(e.path) == len(path) {
			return e, true
		}
		if c, ok := findKV(e.children, path[len(e.path):]); ok {
			return c, true
		}
	}
	return tomlExpr{}, false
}

// tableEdits make the table at c.path hold c.full:
//
//   - defined by a [path] header: each key of c.set has its value replaced
//     in place or its line added after the table's last key; the table's
//     other keys and sub-tables stay, or go when c.drop;
//   - inside an inline table (parent = { ... }): the inline entry is
//     replaced, or added before the closing brace;
//   - otherwise (dotted keys, path = { ... } under its parent's header,
//     or no such table): those lines are removed and a [path] table is
//     added at the end of the file.
func tableEdits(b []byte, exprs []tomlExpr, c tomlChange, eol string) ([]tomlEdit, error) {
	path, keys := c.path, c.full
	var edits []tomlEdit
	// An inline table holding path: rewrite path's entry inside it.
	for _, e := range exprs {
		if e.kind == unstable.KeyValue && len(e.path) < len(path) && hasPrefix(path, e.path) {
			val, err := tomlValue(keys)
			if err != nil {
				return nil, err
			}
			rest := path[len(e.path):]
			if len(rest) != 1 {
				return nil, fmt.Errorf("%s is nested in an inline table", strings.Join(path, "."))
			}
			for _, ch := range e.children {
				if len(ch.path) >= 1 && ch.path[0] == rest[0] {
					if len(ch.path) != 1 {
						return nil, fmt.Errorf("%s is set by dotted keys inside an inline table", strings.Join(path, "."))
					}
					return []tomlEdit{{ch.keyStart, ch.valEnd, tomlKey(rest[0]) + " = " + val}}, nil
				}
			}
			// After the last entry's value (before any comma or comment
			// that follows it), or just inside an empty table's "{".
			entry := tomlKey(rest[0]) + " = " + val
			if len(e.children) == 0 {
				return []tomlEdit{{e.valStart + 1, e.valStart + 1, " " + entry + " "}}, nil
			}
			at := e.children[len(e.children)-1].valEnd
			return []tomlEdit{{at, at, ", " + entry}}, nil
		}
	}
	header := -1
	for i, e := range exprs {
		if e.kind == unstable.Table && slices.Equal(e.path, path) {
			header = i
		}
	}
	if header >= 0 {
		done := map[string]bool{}
		last := exprs[header].lineEnd
		for i, e := range exprs {
			if !hasPrefix(e.path, path) || i == header {
				continue
			}
			own := e.kind == unstable.KeyValue && len(e.path) == len(path)+1 && sectionOf(exprs, i) == header
			if own {
				last = e.lineEnd
				if v, ok := c.set[e.path[len(path)]]; ok && !done[e.path[len(path)]] {
					s, err := tomlValue(v)
					if err != nil {
						return nil, err
					}
					edits = append(edits, tomlEdit{e.valStart, e.valEnd, s})
					done[e.path[len(path)]] = true
					continue
				}
			}
			if c.drop {
				edits = append(edits, tomlEdit{e.lineStart, e.lineEnd, ""})
			}
		}
		var add strings.Builder
		for _, k := range orderedKeys(c.set) {
			if done[k] {
				continue
			}
			s, err := tomlValue(c.set[k])
			if err != nil {
				return nil, err
			}
			add.WriteString(tomlKey(k) + " = " + s + eol)
		}
		if add.Len() > 0 {
			prefix := ""
			if last == len(b) && !bytes.HasSuffix(b, []byte("\n")) {
				prefix = eol
			}
			edits = append(edits, tomlEdit{last, last, prefix + add.String()})
		}
		return edits, nil
	}
	for _, e := range exprs {
		if hasPrefix(e.path, path) {
			edits = append(edits, tomlEdit{e.lineStart, e.lineEnd, ""})
		}
	}
	var block strings.Builder
	if len(bytes.TrimSpace(b)) > 0 {
		if !bytes.HasSuffix(b, []byte("\n")) {
			block.WriteString(eol)
		}
		block.WriteString(eol)
	}
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = tomlKey(p)
	}
	block.WriteString("[" + strings.Join(parts, ".") + "]" + eol)
	for _, k := range orderedKeys(keys) {
		s, err := tomlValue(keys[k])
		if err != nil {
			return nil, err
		}
		block.WriteString(tomlKey(k) + " = " + s + eol)
	}
	return append(edits, tomlEdit{len(b), len(b), block.String()}), nil
}

// sectionOf is the index of the header expression i sits under, -1 for
// the root table.
func sectionOf(exprs []tomlExpr, i int) int {
	for j := i - 1; j >= 0; j-- {
		if exprs[j].kind != unstable.KeyValue {
			return j
		}
	}
	return -1
}

// orderedKeys lists command and args first, then the rest sorted.
func orderedKeys(m map[string]any) []string {
	var out []string
	for _, k := range []string{"command", "args"} {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != "command" && k != "args" {
			out = append(out, k)
		}
	}
	return out
}
