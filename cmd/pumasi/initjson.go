package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// jsonObject is a JSON object that keeps its keys in order, so merging into
// a user's settings file changes only what is added: their keys, order and
// values (numbers as written) stay.
type jsonObject struct {
	keys []string
	m    map[string]any
}

func newJSONObject() *jsonObject { return &jsonObject{m: map[string]any{}} }

func (o *jsonObject) get(k string) (any, bool) {
	v, ok := o.m[k]
	return v, ok
}

func (o *jsonObject) set(k string, v any) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

// utf8BOM is the byte order mark some editors put before JSON; it is read
// past and written back.
var utf8BOM = []byte("\xef\xbb\xbf")

// parseOrderedJSON decodes b into *jsonObject, []any, string, json.Number,
// bool or nil. Empty input is an empty object (a file to create).
func parseOrderedJSON(b []byte) (any, error) {
	b = bytes.TrimPrefix(b, utf8BOM)
	if len(bytes.TrimSpace(b)) == 0 {
		return newJSONObject(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newJSONObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			_, err := dec.Token() // }
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token() // ]
			return a, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// jsonLayout is how a JSON file is written: what init keeps of the user's
// file when it rewrites it.
type jsonLayout struct {
	indent       string // one level: "  ", "    " or "\t"
	eol          string // "\n" or "\r\n"
	finalNewline bool
	bom          bool
}

// defaultJSONLayout is a new file's: two spaces, LF, a final newline.
var defaultJSONLayout = jsonLayout{indent: "  ", eol: "\n", finalNewline: true}

// layoutOf reads the layout of an existing file: the first indented line's
// indentation (two spaces when it has none, as one-line JSON), CRLF when
// its lines end so, its final newline or the lack of one, its BOM.
func layoutOf(b []byte) jsonLayout {
	if len(bytes.TrimSpace(bytes.TrimPrefix(b, utf8BOM))) == 0 {
		return defaultJSONLayout
	}
	l := jsonLayout{indent: "  ", eol: "\n", bom: bytes.HasPrefix(b, utf8BOM)}
	if bytes.Contains(b, []byte("\r\n")) {
		l.eol = "\r\n"
	}
	l.finalNewline = bytes.HasSuffix(b, []byte("\n"))
	for _, line := range bytes.Split(b, []byte("\n")) {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(ws) < len(bytes.TrimRight(line, "\r")) {
			if ws[0] == '\t' {
				l.indent = "\t"
			} else if bytes.Count(ws, []byte(" ")) == len(ws) {
				l.indent = string(ws)
			}
			break
		}
	}
	return l
}

// encodeOrderedJSON writes v indented by two spaces, with a final newline,
// HTML characters unescaped (commands hold & and <).
func encodeOrderedJSON(v any) []byte { return encodeJSONLayout(v, defaultJSONLayout) }

// encodeJSONLayout writes v in layout l.
func encodeJSONLayout(v any, l jsonLayout) []byte {
	var b bytes.Buffer
	if l.bom {
		b.Write(utf8BOM)
	}
	writeOrdered(&b, v, "", l.indent)
	if l.finalNewline {
		b.WriteByte('\n')
	}
	if l.eol == "\n" {
		return b.Bytes()
	}
	// JSON strings hold no raw newline, so every "\n" is a line end.
	return bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte(l.eol))
}

func writeOrdered(b *bytes.Buffer, v any, indent, unit string) {
	in := indent + unit
	switch t := v.(type) {
	case *jsonObject:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range t.keys {
			b.WriteString(in)
			writeJSONString(b, k)
			b.WriteString(": ")
			writeOrdered(b, t.m[k], in, unit)
			if i < len(t.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			b.WriteString(in)
			writeOrdered(b, e, in, unit)
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case []string:
		a := make([]any, len(t))
		for i, s := range t {
			a[i] = s
		}
		writeOrdered(b, a, indent, unit)
	case string:
		writeJSONString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case int:
		fmt.Fprint(b, t)
	case bool:
		fmt.Fprint(b, t)
	case nil:
		b.WriteString("null")
	default:
		raw, _ := json.Marshal(t)
		b.Write(raw)
	}
}

func writeJSONString(b *bytes.Buffer, s string) {
	var sb bytes.Buffer
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.WriteString(strings.TrimSuffix(sb.String(), "\n"))
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(a, b any) bool { return bytes.Equal(encodeOrderedJSON(a), encodeOrderedJSON(b)) }
