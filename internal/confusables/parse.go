package confusables

import (
	"fmt"
	"strconv"
	"strings"
)

// parse reads confusables.txt: lines of "source ; target ; type # comment",
// each source one code point and each target one or more, in hex.
func parse(text string) (*table, error) {
	t := &table{proto: make(map[rune]string, 6400)}
	for n := 1; text != ""; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimPrefix(line, "\ufeff")
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, ";")
		if len(f) < 3 {
			return nil, fmt.Errorf("line %d: want source ; target ; type", n)
		}
		src, err := codePoints(f[0])
		if err != nil || len(src) != 1 {
			return nil, fmt.Errorf("line %d: bad source %q", n, f[0])
		}
		dst, err := codePoints(f[1])
		if err != nil || len(dst) == 0 {
			return nil, fmt.Errorf("line %d: bad target %q", n, f[1])
		}
		if _, dup := t.proto[src[0]]; dup {
			return nil, fmt.Errorf("line %d: U+%04X mapped twice", n, src[0])
		}
		p := string(dst)
		t.proto[src[0]] = p
		if src[0] < 128 {
			t.ascii[src[0]] = p
		}
	}
	return t, nil
}

// codePoints parses space-separated hex code points.
func codePoints(s string) ([]rune, error) {
	var out []rune
	for _, h := range strings.Fields(s) {
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return nil, err
		}
		out = append(out, rune(v))
	}
	return out, nil
}
