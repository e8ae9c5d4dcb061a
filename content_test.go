package pumasi

import (
	"bytes"
	"testing"
)

func TestCheckContent(t *testing.T) {
	cases := []struct {
		name  string
		body  []byte
		code  string
		ctype string
	}{
		{"spec.md", []byte("# hi\n"), "", "text/markdown; charset=utf-8"},
		{"data.json", []byte(`{"a":1}`), "", "application/json"},
		{"noext", []byte(`[1,2]`), "", "application/json"},
		{"notes.txt", []byte("\xef\xbb\xbfwith BOM"), "", "text/plain; charset=utf-8"},
		{"empty.txt", nil, "", "text/plain; charset=utf-8"},
		{"max.txt", bytes.Repeat([]byte("a"), MaxFileSize), "", "text/plain; charset=utf-8"},
		{"big.txt", bytes.Repeat([]byte("a"), MaxFileSize+1), ETooLarge, ""},
		{"pic.PNG", []byte("text"), EUnsupportedType, ""},
		{"lib.so", []byte("text"), EUnsupportedType, ""},
		{"nul.txt", []byte("a\x00b"), EUnsupportedType, ""},
		{"latin1.txt", []byte("caf\xe9"), EUnsupportedType, ""},
	}
	for _, c := range cases {
		ctype, err := CheckContent(c.name, c.body)
		if ErrorCode(err) != c.code || ctype != c.ctype {
			t.Errorf("CheckContent(%s) = %q, %v; want %q, code %q", c.name, ctype, err, c.ctype, c.code)
		}
	}
}
